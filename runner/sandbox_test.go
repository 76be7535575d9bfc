package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

func TestSandboxStatus(t *testing.T) {
	level, text := SandboxStatus(Sandbox{})
	t.Logf("%s", text)
	if level == sandbox.Off {
		t.Errorf("level off: %s", text)
	}
	level, text = SandboxStatus(Sandbox{PretendNoLandlock: true})
	t.Logf("%s", text)
	if level != sandbox.Partial {
		t.Errorf("pretending no Landlock: level %v, want partial: %s", level, text)
	}
}

// pingSources are ping bots in the languages of the templates.
var pingSources = map[string]struct {
	file, source string
	build        []string // run in the folder; nil: nothing to build
	run          string
}{
	"python": {"bot.py", "import sys\nprint('READY', flush=True)\nfor l in sys.stdin:\n    print(int(l) + 1, flush=True)\n",
		nil, "python3 bot.py"},
	"cpp": {"bot.cpp", "#include <iostream>\nint main(){std::cout<<\"READY\"<<std::endl;long n;while(std::cin>>n)std::cout<<n+1<<std::endl;}\n",
		[]string{"g++", "-O1", "-o", "bot", "bot.cpp"}, "./bot"},
	"java": {"Main.java", "import java.util.*;\npublic class Main{public static void main(String[] a){System.out.println(\"READY\");Scanner s=new Scanner(System.in);while(s.hasNextLong()){System.out.println(s.nextLong()+1);}}}\n",
		[]string{"javac", "Main.java"}, "java -cp . Main"},
	"node": {"bot.js", "const rl=require('readline').createInterface({input:process.stdin});console.log('READY');rl.on('line',l=>console.log(String(Number(l)+1)));\n",
		nil, "node bot.js"},
	"go": {"main.go", "package main\nimport \"fmt\"\nfunc main(){fmt.Println(\"READY\");var n int;for{if _,err:=fmt.Scan(&n);err!=nil{return};fmt.Println(n+1)}}\n",
		[]string{"go", "build", "-o", "bot", "main.go"}, "./bot"},
}

// TestSandboxLanguages starts a Python, C++, Java and Go bot inside the
// sandbox with the default caps (the JVM and Go reserve far more address
// space than the memory cap: RLIMIT_DATA must let them start).
func TestSandboxLanguages(t *testing.T) {
	for lang, src := range pingSources {
		t.Run(lang, func(t *testing.T) {
			tool := strings.Fields(src.run)[0]
			if src.build != nil {
				tool = src.build[0]
			}
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("%s is not installed", tool)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, src.file), []byte(src.source), 0o644); err != nil {
				t.Fatal(err)
			}
			if prebuilt := filepath.Join(os.Getenv("RINGSIDE_TEST_BINS"), "ping-"+lang); src.build != nil && os.Getenv("RINGSIDE_TEST_BINS") != "" && fileExists(prebuilt) {
				// Built by the run that started this one: as nobody, with
				// a cache of its own, it would compile Go's runtime and
				// fmt again (15 s of CPU) before the test begins.
				data, err := os.ReadFile(prebuilt)
				if err == nil {
					err = os.WriteFile(filepath.Join(dir, "bot"), data, 0o755)
				}
				if err != nil {
					t.Fatal(err)
				}
			} else if src.build != nil {
				buildPing(t, lang, dir)
			}
			out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
				Bots: []Bot{RevisionBot(lang, src.run, dir)}})
			if err != nil {
				t.Fatal(err)
			}
			if c := counts(out, 0); c[engine.OK] != 9 {
				t.Errorf("verdicts %v, notes %q, stderr %q", c, allNotes(out), out.Stderr[0])
			}
			if out.Sandbox[0] != "on" {
				t.Errorf("sandbox %q, want on", out.Sandbox[0])
			}
			if strings.TrimSpace(out.Stderr[0]) != "" {
				t.Logf("stderr: %s", out.Stderr[0])
			}
		})
	}
}

// buildPing builds the ping bot of lang in dir.
func buildPing(t *testing.T, lang, dir string) {
	t.Helper()
	src := pingSources[lang]
	if err := os.WriteFile(filepath.Join(dir, src.file), []byte(src.source), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(src.build[0], src.build[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestSandboxUnprivileged runs the hostile suite and the language test
// again as user nobody, as a teacher without root runs Ringside: there
// no cgroup is writable and the user namespace has to do.
func TestSandboxUnprivileged(t *testing.T) {
	// Side by side with the other tests that may: its run is a process of
	// its own, as user nobody, with bots of its own.
	t.Parallel()
	// The X servers' socket folder as a desktop has it, which only root
	// may make (TestDesktopSocketsHidden).
	if os.Getuid() == 0 {
		if err := os.MkdirAll("/tmp/.X11-unix", 0o1777); err == nil {
			_ = os.Chmod("/tmp/.X11-unix", 0o1777|os.ModeSticky)
		}
	}
	tcp, ping := "", ""
	if os.Getuid() == 0 && os.Getenv(runnertest.UnprivilegedEnv) == "" && !testing.Short() {
		tcp = buildTCPBot(t)
		if _, err := exec.LookPath("go"); err == nil {
			dir := t.TempDir()
			buildPing(t, "go", dir)
			ping = filepath.Join(dir, "bot")
		}
	}
	files := map[string]string{fakebot: "fakebot", hostile: "hostile"}
	for bin, name := range map[string]string{tcp: "tcpbot", ping: "ping-go"} {
		if bin != "" {
			files[bin] = name
		}
	}
	out := runnertest.AsNobody(t, runnertest.Nobody{
		Tests: []string{"TestHostileBots", "TestHostileBotsWithoutNamespaces", "TestSandboxLanguages", "TestSandboxStatus",
			"TestCapVerdicts", "TestCloudTakeoverRefused", "TestCloudBotOffTheNetwork", "TestDaemonsDieWithTheGame",
			"TestKilledRingside", "TestFloodBounded", "TestDesktopSocketsHidden", "TestSysVCollusion", "TestSeccompRefusals",
			"TestHiddenMemoryCap", "TestBotCannotReadNamedDatabase", "TestCPUHogBlamesNoVictim", "TestSlowBotStillLate"},
		// These may skip as nobody (a tool or a kernel feature missing);
		// the timing test skips under the race detector.
		MaySkip: []string{"TestHostileBotsWithoutNamespaces", "TestSandboxLanguages", "TestSandboxStatus",
			"TestDaemonsDieWithTheGame", "TestFloodBounded", map[bool]string{true: "TestCPUHogBlamesNoVictim"}[raceEnabled]},
		Files: files,
		Env:   func(dir, _ string) []string { return []string{"RINGSIDE_TEST_BINS=" + dir} },
	})
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "load_test.go") {
			t.Logf("as nobody: %s", strings.TrimSpace(l))
		}
	}
	t.Logf("as nobody:\n%s", lastLines(out, 12))
}

// TestBotWithoutFolder runs "python3 bot.py" with no bot folder, as the
// README's example: it runs in Ringside's working folder and may read
// the script its command line names, but not the rest of that folder.
func TestBotWithoutFolder(t *testing.T) {
	runnertest.NeedPython(t)
	dir := t.TempDir()
	script := "import sys\n" +
		"try:\n    open('other.txt').read(); print('READ other.txt', file=sys.stderr)\n" +
		"except OSError as e:\n    print('refused other.txt:', e, file=sys.stderr)\n" +
		"print('READY', flush=True)\nfor l in sys.stdin:\n    print(int(l) + 1, flush=True)\n"
	for name, data := range map[string]string{"bot.py": script, "other.txt": "not for the bot"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Bots: []Bot{{Name: "py", Command: "python3 bot.py"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := counts(out, 0); c[engine.OK] != 9 {
		t.Errorf("verdicts %v, notes %q, stderr %q", c, allNotes(out), out.Stderr[0])
	}
	if !strings.Contains(out.Stderr[0], "refused other.txt") {
		t.Errorf("the bot read a file its command line does not name: %q", out.Stderr[0])
	}
}

// TestToolRoots: a PATH folder gives itself, the known toolchains only the
// folders their programs run from, never credentials, caches, the home
// folder or a protected path.
func TestToolRoots(t *testing.T) {
	home := t.TempDir()
	// A Go installation in the home folder and one that only looks
	// like it (no sources): the first gives its parts, the second its bin.
	for _, f := range []string{"sdk/go1.22/bin/go", "sdk/go1.22/src/runtime/x.go", "fake/bin/go"} {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// sdkman's current is a link to the version folder.
	cand := filepath.Join(home, ".sdkman/candidates/java")
	if err := os.MkdirAll(filepath.Join(cand, "21.0.2-tem/bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("21.0.2-tem", filepath.Join(cand, "current")); err != nil {
		t.Fatal(err)
	}
	h := func(rel ...string) []string {
		var out []string
		for _, r := range rel {
			out = append(out, filepath.Join(home, r))
		}
		return out
	}
	pyenv := h(".pyenv/bin", ".pyenv/shims", ".pyenv/libexec", ".pyenv/plugins", ".pyenv/pyenv.d", ".pyenv/versions", ".pyenv/version")
	for _, c := range []struct {
		name string
		path []string
		env  map[string]string
		want []string
	}{
		{"rustup", h(".cargo/bin"), nil, h(".cargo/bin", ".rustup/toolchains", ".rustup/settings.toml")},
		{"rustup homes elsewhere", h("tools/cargo/bin"), map[string]string{"CARGO_HOME": home + "/tools/cargo", "RUSTUP_HOME": home + "/tools/rustup"},
			h("tools/cargo/bin", "tools/rustup/toolchains", "tools/rustup/settings.toml")},
		{"pyenv shims", h(".pyenv/shims"), nil, pyenv},
		{"pyenv bin and a plugin's shims", h(".pyenv/plugins/pyenv-virtualenv/shims", ".pyenv/bin"), nil, pyenv},
		{"pyenv at PYENV_ROOT", h("py/shims"), map[string]string{"PYENV_ROOT": home + "/py"},
			h("py/bin", "py/shims", "py/libexec", "py/plugins", "py/pyenv.d", "py/versions", "py/version")},
		{"GOPATH bin", h("go/bin"), nil, h("go/bin")},
		{"GOROOT", h("sdk/go1.22/bin"), nil,
			h("sdk/go1.22/bin", "sdk/go1.22/pkg", "sdk/go1.22/src", "sdk/go1.22/lib", "sdk/go1.22/go.env", "sdk/go1.22/VERSION")},
		{"not a GOROOT", h("fake/bin"), nil, h("fake/bin")},
		{"sdkman", h(".sdkman/candidates/java/current/bin"), nil,
			h(".sdkman/candidates/java/current", ".sdkman/candidates/java/21.0.2-tem")},
		{"nvm", h(".nvm/versions/node/v22.1.0/bin"), nil, h(".nvm/versions/node/v22.1.0")},
		{"bin gives itself", h("bin", ".local/bin", "opt/thing/bin"), nil, h("bin", ".local/bin", "opt/thing/bin")},
		{"other folders give themselves", h("scripts"), nil, h("scripts")},
		{"never the home folder or what holds it", []string{home, filepath.Dir(home), "/"}, nil, nil},
		{"never a data or settings folder", h(".local/share", ".config", "data"), map[string]string{"XDG_DATA_HOME": home + "/data"}, nil},
		{"inside a settings folder", h(".config/tool/bin"), nil, h(".config/tool/bin")},
		{"relative and repeated", []string{"relative/bin", home + "/bin", home + "/bin/"}, nil, h("bin")},
		{"system", []string{"/usr/bin", "/usr/local/sbin"}, nil, []string{"/usr/bin", "/usr/local/sbin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			for _, k := range []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME", "PYENV_ROOT", "CARGO_HOME", "RUSTUP_HOME"} {
				t.Setenv(k, c.env[k])
			}
			t.Setenv("PATH", strings.Join(c.path, ":"))
			got := toolRoots()
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("toolRoots =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			for _, r := range got {
				if r == home+"/.cargo" || strings.Contains(r, "credentials") || strings.Contains(r, "registry") {
					t.Errorf("granted %s", r)
				}
			}
		})
	}
}

// TestProtectedPaths: a protected path, what lies inside it and what holds
// it are never granted, as named or through a symbolic link; a protected
// folder on PATH gives nothing.
func TestProtectedPaths(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "class.db")
	data := filepath.Join(dir, "class-data")
	for _, p := range []string{db, data + "/revisions/alice-1/r1/bot.py", data + "/bin/x", dir + "/other.txt"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(db, filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	Protect(db, db+"-wal", db+"-shm", db+"-journal", data)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"the database", []string{db}, nil},
		{"relative", []string{"class.db"}, nil},
		{"through a link", []string{"link.db"}, nil},
		{"its journal before it exists", []string{db + "-wal"}, nil},
		{"what holds it", []string{dir}, nil},
		{"inside the data folder", []string{data + "/revisions/alice-1/r1/bot.py"}, nil},
		{"beside it", []string{"other.txt", "--flag", "missing"}, []string{dir + "/other.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := namedPaths(c.args, dir)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("namedPaths(%q) = %q, want %q", c.args, got, c.want)
			}
		})
	}
	t.Setenv("PATH", data+"/bin:"+dir+"/tools/bin")
	if got := toolRoots(); len(got) != 1 || got[0] != dir+"/tools/bin" {
		t.Errorf("toolRoots with the data folder on PATH = %q", got)
	}
}

// TestBotCannotReadNamedDatabase: "python3 bot.py /path/to/the.db" with
// the database protected (as the service does on opening it) runs, and
// the bot cannot open the file its command line names.
func TestBotCannotReadNamedDatabase(t *testing.T) {
	runnertest.NeedPython(t)
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	dir := t.TempDir()
	db := filepath.Join(t.TempDir(), "the.db")
	script := "import sys\n" +
		"try:\n    open(sys.argv[1]).read(); print('READ the database', file=sys.stderr)\n" +
		"except OSError as e:\n    print('refused:', e, file=sys.stderr)\n" +
		"print('READY', flush=True)\nfor l in sys.stdin:\n    print(int(l) + 1, flush=True)\n"
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, []byte("SQLite format 3\x00secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	Protect(db, db+"-wal", db+"-shm", db+"-journal")
	t.Chdir(dir)
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Bots: []Bot{{Name: "py", Command: "python3 bot.py " + db}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := counts(out, 0); c[engine.OK] != 9 {
		t.Errorf("verdicts %v, notes %q, stderr %q", c, allNotes(out), out.Stderr[0])
	}
	if strings.Contains(out.Stderr[0], "READ the database") || !strings.Contains(out.Stderr[0], "refused:") {
		t.Errorf("the bot read the database its command line names: %q", out.Stderr[0])
	}
}

// The scratch folders of a Ringside killed mid-game are removed by the
// next one; those of running ones, this one's and others' are not.
func TestSweepScratch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("scratch folders are swept on Linux only")
	}
	dir := t.TempDir()
	dead, live := runnertest.DeadAndLive(t)
	names := map[string]bool{ // name: removed
		fmt.Sprintf("ringside-seat-%d-123", dead):        true,
		fmt.Sprintf("ringside-seat-%d-456", live):        false,
		fmt.Sprintf("ringside-seat-%d-789", os.Getpid()): false,
		"ringside-seat-1234567":                          false, // no owner in the name
		fmt.Sprintf("other-%d-1", dead):                  false,
	}
	for name := range names {
		if err := os.MkdirAll(filepath.Join(dir, name, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepScratch(dir)
	for name, removed := range names {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}
