package build

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// outsideTmp is a fresh folder outside /tmp for a stand-in home folder,
// another student's folder and the database (see runnertest.OutsideTmp).
func outsideTmp(t *testing.T) string {
	t.Helper()
	dir, err := runnertest.OutsideTmp(t, ".contained-")
	if err != nil {
		t.Skipf("no folder outside /tmp to write to: %v", err)
	}
	return dir
}

// TestHostileMakefile builds a student's folder whose Makefile tries every
// door of issue 31: it reads the teacher's ssh key and environment and
// another student's sources, appends to ~/.bashrc, tampers with another
// student's sources and revision, writes and empties files outside its
// folder, and leaves a setsid daemon. All are refused: no secret reaches
// the log or the revision, nothing outside changes, nothing is left
// running. Also where the kernel refuses namespaces (pretended): then
// Landlock and the launcher's sweep of orphans do it alone.
func TestHostileMakefile(t *testing.T) {
	runnertest.NeedTool(t, "make")
	runnertest.NeedTool(t, "setsid")
	for _, refused := range []bool{false, true} {
		t.Run(map[bool]string{false: "namespaces", true: "no namespaces"}[refused], func(t *testing.T) {
			sandbox.PretendNamespacesRefused(refused)
			defer sandbox.PretendNamespacesRefused(false)
			testHostileMakefile(t)
		})
	}
}

func testHostileMakefile(t *testing.T) {
	base := outsideTmp(t)
	home, other, outDir := filepath.Join(base, "home"), filepath.Join(base, "other"), filepath.Join(base, "ais", "mallory")
	secret := fmt.Sprintf("SECRET-%d-KEY", os.Getpid())
	envSecret := fmt.Sprintf("ENV-SECRET-%d", os.Getpid())
	otherSecret := fmt.Sprintf("OTHER-STUDENT-%d", os.Getpid())
	originals := map[string]string{
		filepath.Join(home, ".ssh", "id_ed25519"):        "-----BEGIN OPENSSH PRIVATE KEY-----\n" + secret + "\n",
		filepath.Join(home, ".bashrc"):                   "# the teacher's shell\n",
		filepath.Join(other, "src", "bot.py"):            "print('READY')  # " + otherSecret + "\n",
		filepath.Join(other, "revisions", "1", "bot.py"): "print('READY')  # " + otherSecret + "\n",
		filepath.Join(base, "class.db"):                  "SQLite format 3\x00 the class's results",
	}
	for p, data := range originals {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("RINGSIDE_TEST_SECRET", envSecret)
	tag := fmt.Sprintf("%d.%d", 4000+os.Getpid()%1000, time.Now().Nanosecond()%1000)
	tmpl, err := os.ReadFile(filepath.Join("testdata", "hostile-make", "Makefile.in"))
	if err != nil {
		t.Fatal(err)
	}
	mk := strings.NewReplacer("@HOME@", home, "@OTHER@", other, "@OUTSIDE@", base, "@TAG@", tag).Replace(string(tmpl))
	src := filepath.Join(base, "mallory")
	runnertest.WriteFiles(t, src, map[string]string{"Makefile": mk})

	res, err := Build(context.Background(), BuildSpec{SourceDir: src, BuildCmd: "make", RunCmd: "./bot", OutDir: outDir, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("log:\n%s", res.Log)
	if !res.OK {
		t.Fatalf("the build itself should succeed (its attacks fail quietly):\n%s", res.Log)
	}
	// The build's launcher has been reaped; its namespace's processes
	// die with it, which may take the kernel a moment.
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		left := runnertest.Processes("sleep", tag)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the build's daemons run on: pids %v", left)
			break
		}
	}
	for _, s := range []string{secret, envSecret, otherSecret} {
		if strings.Contains(res.Log, s) {
			t.Errorf("the build's log has %q", s)
		}
		filepath.WalkDir(res.Dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), s) {
					t.Errorf("the revision's %s has %q", p, s)
				}
			}
			return nil
		})
	}
	for p, data := range originals {
		if got, err := os.ReadFile(p); err != nil || string(got) != data {
			t.Errorf("%s changed: %q, %v", p, got, err)
		}
	}
	for _, p := range []string{filepath.Join(base, "planted"), filepath.Join(base, "daemon")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the build wrote %s", p)
		}
	}
}

// TestOptionNamesAreFiles: a student's file whose name is a compiler's
// option ("@opts.c" is a file of options to gcc, "-toolexec=sh t.sh x.go"
// a program go build runs for every compile) reaches the compiler as a
// file, "./name", when a guessed command's glob expands to it; the
// program the option would run never runs (its sentinel is not made).
func TestOptionNamesAreFiles(t *testing.T) {
	tests := []struct {
		name, tool, build string
		files             map[string]string
	}{
		{"gcc @file", "gcc", "gcc -O2 -o bot *.c -lm", map[string]string{
			"main.c":  "int main(void) { return 0; }\n",
			"@opts.c": "-wrapper /bin/sh,-c,touch\\ PWNED\n",
		}},
		{"go -toolexec", "go", "go build -o bot *.go", map[string]string{
			"main.go":                "package main\n\nfunc main() {}\n",
			"-toolexec=sh t.sh x.go": "not Go: a build that takes this for a file fails at once\n",
			"t.sh":                   "touch PWNED\nexec \"$@\"\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runnertest.NeedTool(t, tt.tool)
			dir := filepath.Join(t.TempDir(), "build")
			runnertest.WriteFiles(t, dir, tt.files)
			log, _ := runBuild(context.Background(), dir, tt.build, time.Minute)
			if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
				t.Errorf("a file name ran as an option:\n%s", log)
			}
			argv, err := expandGlobs(dir, strings.Fields(tt.build))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range argv[1:] {
				if name, ok := strings.CutPrefix(a, "./"); ok && tt.files[name] != "" {
					continue
				}
				if tt.files[a] != "" && strings.ContainsAny(a[:1], "-@+") {
					t.Errorf("expanded %q as it is: %q", a, argv)
				}
			}
		})
	}
}

// TestGuessedNamesAreFiles: a guessed run command names a script whose
// name starts like an option as ./name, so "python3 -c.py" never runs
// Python's -c.
func TestGuessedNamesAreFiles(t *testing.T) {
	tests := []struct {
		files map[string]string
		run   string
	}{
		{map[string]string{"-c.py": "print('READY')\n"}, "python3 ./-c.py"},
		{map[string]string{"@x.js": "console.log('READY')\n"}, "node ./@x.js"},
		{map[string]string{"bot.py": "print('READY')\n"}, "python3 bot.py"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		runnertest.WriteFiles(t, dir, tt.files)
		g, err := GuessCommands(dir)
		if err != nil {
			t.Errorf("%v: %v", tt.files, err)
			continue
		}
		if g.Run != tt.run {
			t.Errorf("%v: run %q, want %q", tt.files, g.Run, tt.run)
		}
	}
}

// TestPyCompileNotImported: the Python syntax check runs with the
// student's folder off the module path, so a student's py_compile.py (or
// a module it would import) is checked, never run.
func TestPyCompileNotImported(t *testing.T) {
	runnertest.NeedTool(t, "python3")
	base := outsideTmp(t)
	sentinel := filepath.Join(base, "RAN")
	src, out := filepath.Join(base, "src"), filepath.Join(base, "revisions")
	evil := fmt.Sprintf("print('STUDENT-CODE-RAN', flush=True)\nopen(%q, 'w').write('ran')\nopen('RAN-HERE', 'w').write('ran')\n", sentinel)
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": "print('READY')\n", "py_compile.py": evil,
		"importlib.py": evil, "sys.py": evil, "os.py": evil})
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, RunCmd: "python3 bot.py", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Log, "STUDENT-CODE-RAN") {
		t.Errorf("the student's py_compile.py ran:\n%s", res.Log)
	}
	if !res.OK {
		t.Fatalf("check failed:\n%s", res.Log)
	}
	if !strings.Contains(res.Log, "python3 -I -S -m py_compile") {
		t.Errorf("log does not show the isolated check:\n%s", res.Log)
	}
	for _, p := range []string{sentinel, filepath.Join(res.Dir, "RAN-HERE"), filepath.Join(src, "RAN-HERE")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the student's py_compile.py ran (%s exists):\n%s", p, res.Log)
		}
	}
}

// TestBuildCacheIsTheAIs: a Go build keeps its caches in the AI's own
// cache folder (0700, beside its revisions), not in the teacher's.
func TestBuildCacheIsTheAIs(t *testing.T) {
	runnertest.NeedTool(t, "go")
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"go.mod": "module bot\n\ngo 1.21\n", "main.go": "package main\n\nfunc main() {}\n"})
	var took []time.Duration
	for i, body := range []string{"import \"fmt\"\n\nfunc main() { fmt.Println(\"READY\") }\n", "import \"fmt\"\n\nfunc main() { fmt.Println(\"READY\", 1) }\n"} {
		runnertest.WriteFiles(t, src, map[string]string{"main.go": "package main\n\n" + body})
		res, err := Build(context.Background(), BuildSpec{SourceDir: src, BuildCmd: "go build -o bot .", RunCmd: "./bot", OutDir: out})
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Fatalf("build %d failed:\n%s", i+1, res.Log)
		}
		took = append(took, res.Took)
	}
	t.Logf("Go build with the AI's empty cache: %v; the next one: %v", took[0], took[1])
	if _, err := os.Stat(filepath.Join(out, cacheDir, "go-build")); err != nil {
		t.Fatalf("the AI's Go cache was not used: %v", err)
	}
	if st, err := os.Stat(filepath.Join(out, cacheDir)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("cache folder: %v, %v; want mode 0700", st, err)
	}
}

// TestBuildUnprivileged runs the containment tests of builds again as
// user nobody, as a teacher without root runs Ringside: no cgroup is
// writable there, and the user namespace and Landlock have to do.
func TestBuildUnprivileged(t *testing.T) {
	// Side by side with the other tests that may: its run is a process of
	// its own, as user nobody, in folders of its own.
	t.Parallel()
	out := runnertest.AsNobody(t, runnertest.Nobody{Tests: []string{"TestHostileMakefile", "TestOptionNamesAreFiles",
		"TestPyCompileNotImported", "TestBuildCacheIsTheAIs", "TestBuildFolderCapped", "TestScriptsAreChecked"}})
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "--- PASS") || strings.Contains(line, "empty cache") {
			t.Logf("as nobody: %s", strings.TrimSpace(line))
		}
	}
}

// TestBuildFolderCapped: a build that leaves more than BuildFolderMax in
// its folder fails with a message saying so, even when its files are
// sparse (they would cost the disk their length once copied elsewhere),
// and no revision is kept.
func TestBuildFolderCapped(t *testing.T) {
	runnertest.NeedTool(t, "truncate")
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"a.txt": "x"})
	// Each file under the 512 MiB file size cap, together over 1 GiB.
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, OutDir: out, RunCmd: "./bot",
		BuildCmd: "sh -c 'truncate -s 400M a b c && printf \"#!/bin/sh\\n\" > bot && chmod +x bot'"})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Log, "more than the 1 GiB a revision may take") {
		t.Errorf("OK %v, log:\n%s", res.OK, res.Log)
	}
	assertOnlyRevisions(t, out, 0)
}

// TestBuildRust: a Cargo package builds contained, with rustup's proxies
// finding their toolchain though HOME is the build's scratch folder.
func TestBuildRust(t *testing.T) {
	runnertest.NeedTool(t, "cargo")
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"Cargo.toml": "[package]\nname = \"crab\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs": "fn main() { println!(\"READY\"); }\n"})
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, OutDir: out, BuildCmd: "cargo build --release", RunCmd: "target/release/crab"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("cargo build failed:\n%s", res.Log)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "target", "release", "crab")); err != nil {
		t.Errorf("no program: %v", err)
	}
}

// TestGoBuildsStartFromTheStandardLibrary: a new AI's first Go build is
// given the standard library's packages compiled (made once, by a build
// of them alone), so it compiles only the student's own package; each AI
// has a copy of its own, never a link another AI's build could change.
func TestGoBuildsStartFromTheStandardLibrary(t *testing.T) {
	runnertest.NeedTool(t, "go")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir()) // os.UserCacheDir on other systems
	src := t.TempDir()
	runnertest.WriteFiles(t, src, map[string]string{"go.mod": "module bot\n\ngo 1.21\n",
		"main.go": "package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n)\n\nfunc main() { b, _ := json.Marshal(1); fmt.Println(\"READY\", string(b)) }\n"})
	var caches []string
	for i := range 2 {
		out := revisionsDir(t)
		// -x lists every program the build runs: a compile per package.
		res, err := Build(context.Background(), BuildSpec{SourceDir: src, BuildCmd: "go build -x -o bot .", RunCmd: "./bot", OutDir: out})
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Fatalf("build %d failed:\n%s", i+1, res.Log)
		}
		compiles := 0
		for _, l := range strings.Split(res.Log, "\n") {
			if strings.Contains(l, "/compile ") || strings.Contains(l, "compile.exe ") {
				compiles++
			}
		}
		if compiles != 1 {
			t.Errorf("AI %d's first build compiled %d packages, want only its own (1):\n%s", i+1, compiles, res.Log)
		}
		caches = append(caches, filepath.Join(out, cacheDir, "go-build"))
	}
	// The two caches are copies: no file of one is a file of the other.
	var a, b []string
	for i, dir := range caches {
		list := &a
		if i == 1 {
			list = &b
		}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				rel, _ := filepath.Rel(dir, path)
				*list = append(*list, rel)
			}
			return nil
		})
	}
	if len(a) < 10 {
		t.Fatalf("the first AI's cache holds %d files, want the standard library's", len(a))
	}
	shared := 0
	for _, rel := range a {
		x, errx := os.Stat(filepath.Join(caches[0], rel))
		y, erry := os.Stat(filepath.Join(caches[1], rel))
		if errx == nil && erry == nil && os.SameFile(x, y) {
			shared++
		}
	}
	if shared != 0 {
		t.Errorf("%d files of one AI's Go cache are the other's", shared)
	}
}
