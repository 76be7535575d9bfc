package build

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/runnertest"
)

func TestIgnored(t *testing.T) {
	tests := []struct {
		rel           string
		dir, building bool
		want          bool
	}{
		{".git", true, false, true},
		{"sub/.git", true, false, true},
		{"__pycache__", true, false, true},
		{"out", true, true, true},
		{"out", true, false, false}, // a script bot's own folder called out
		{"target", true, true, true},
		{"src", true, true, false},
		{"bot", false, true, true},
		{"bot", false, false, false}, // a prebuilt program that is the bot
		{"sub/bot", false, true, false},
		{"Main.class", false, true, true},
		{"a/b.o", false, true, true},
		{"main.go~", false, false, true},
		{".main.go.swp", false, false, true},
		{"sub/.x.swx", false, false, true},
		{".#main.go", false, false, true},
		{"#main.go#", false, false, true},
		{"4913", false, false, true},
		{"save.tmp", false, false, true},
		{"mod.pyc", false, false, true},
		{"main.go", false, true, false},
		{".env", false, true, false},
		{"swp.go", false, true, false},
	}
	for _, tt := range tests {
		if got := Ignored(tt.rel, tt.dir, tt.building); got != tt.want {
			t.Errorf("Ignored(%q, dir=%v, building=%v) = %v, want %v", tt.rel, tt.dir, tt.building, got, tt.want)
		}
	}
}

func TestSourceHash(t *testing.T) {
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"main.go": "package main\n", "lib/a.go": "package lib\n"})
	const build, run = "go build -o bot .", "./bot"
	h0, err := SourceHash(dir, build, run)
	if err != nil {
		t.Fatal(err)
	}
	same := func(what string, want bool) {
		t.Helper()
		h, err := SourceHash(dir, build, run)
		if err != nil {
			t.Fatal(err)
		}
		if (h == h0) != want {
			t.Errorf("%s: hash changed = %v, want %v", what, h != h0, !want)
		}
	}
	runnertest.WriteFiles(t, dir, map[string]string{"bot": "binary", ".main.go.swp": "x", "out/A.class": "x", ".git/HEAD": "x", "x~": "x"})
	same("ignored files added", true)
	runnertest.WriteFiles(t, dir, map[string]string{"lib/a.go": "package lib // changed\n"})
	same("content changed", false)
	runnertest.WriteFiles(t, dir, map[string]string{"lib/a.go": "package lib\n"})
	same("content restored", true)
	if err := os.Rename(filepath.Join(dir, "lib/a.go"), filepath.Join(dir, "lib/b.go")); err != nil {
		t.Fatal(err)
	}
	same("file renamed", false)
	if err := os.Rename(filepath.Join(dir, "lib/b.go"), filepath.Join(dir, "lib/a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "main.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	same("made executable", false)
	if err := os.Chmod(filepath.Join(dir, "main.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("back to plain", true)
	if h, _ := SourceHash(dir, "go build -o bot2 .", run); h == h0 {
		t.Errorf("another build command gives the same hash")
	}
}

const goBot = `package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fmt.Println("%s")
	}
}
`

func TestBuildGo(t *testing.T) {
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"go.mod": "module bot\n\ngo 1.21\n", "main.go": strings.Replace(goBot, "%s", "v1", 1),
		".git/HEAD": "ref: x", "main.go~": "old"})
	spec := BuildSpec{SourceDir: src, BuildCmd: "go build -o bot .", RunCmd: "./bot", OutDir: out}
	res, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Unchanged {
		t.Fatalf("build failed: %+v\n%s", res, res.Log)
	}
	if want := filepath.Join(out, res.Hash[:12]); res.Dir != want {
		t.Errorf("revision folder %s, want %s", res.Dir, want)
	}
	for _, f := range []string{"bot", "main.go", "go.mod"} {
		if _, err := os.Stat(filepath.Join(res.Dir, f)); err != nil {
			t.Errorf("revision lacks %s: %v", f, err)
		}
	}
	for _, f := range []string{".git", "main.go~"} {
		if _, err := os.Stat(filepath.Join(res.Dir, f)); err == nil {
			t.Errorf("revision has %s, which is not a source", f)
		}
	}
	assertNoBuildOutputs(t, src)
	if h, _ := SourceHash(src, spec.BuildCmd, spec.RunCmd); h != res.Hash {
		t.Errorf("SourceHash = %s, Build hash = %s", h, res.Hash)
	}
	if !strings.Contains(res.Log, "$ go build -o bot .") || !strings.Contains(res.Log, "build ok") {
		t.Errorf("log = %q", res.Log)
	}
	outp, err := exec.Command(filepath.Join(res.Dir, "bot")).CombinedOutput()
	_ = outp
	if err != nil {
		t.Errorf("the built bot does not run: %v", err)
	}

	spec.Known = func(h string) bool { return h == res.Hash }
	again, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Unchanged || again.Hash != res.Hash {
		t.Errorf("unchanged sources: %+v", again)
	}
	assertOnlyRevisions(t, out, 1)
}

// assertNoBuildOutputs fails when a build left anything in a source folder.
func assertNoBuildOutputs(t *testing.T, src string) {
	t.Helper()
	for _, f := range []string{"bot", "out", "target", "Main.class", "main.o"} {
		if _, err := os.Stat(filepath.Join(src, f)); err == nil {
			t.Errorf("the source folder has %s: builds must not write there", f)
		}
	}
}

// assertOnlyRevisions checks the revisions folder holds n revisions and no
// temporary build folder (the AI's build cache aside).
func assertOnlyRevisions(t *testing.T, out string, n int) {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != cacheDir {
			names = append(names, e.Name())
		}
	}
	if len(names) != n {
		t.Errorf("revisions folder holds %q, want %d revisions", names, n)
	}
	for _, name := range names {
		if strings.HasPrefix(name, ".build-") {
			t.Errorf("temporary build folder %s left behind", name)
		}
	}
}

func TestBuildFailures(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		build, run string
		want       []string // in the log
		timeout    time.Duration
	}{
		{"compile error", map[string]string{"go.mod": "module bot\n", "main.go": "package main\n\nfunc main() { undefinedThing() }\n"},
			// The AI's Go cache starts empty: the standard library is
			// compiled first.
			"go build -o bot .", "./bot", []string{"undefined: undefinedThing", "build failed after", "exit status 1"}, 0},
		{"compiler missing", map[string]string{"a.zz": ""}, "nosuch-compiler-4711 a.zz", "./bot",
			[]string{"nosuch-compiler-4711 is not installed"}, 0},
		{"no program made", map[string]string{"a.txt": ""}, "true", "./bot",
			[]string{"the build finished, but the program cannot run", "./bot"}, 0},
		{"unreadable command", map[string]string{"a.txt": ""}, `make "all`, "./bot", []string{"unclosed double quote"}, 0},
		{"timeout", map[string]string{"a.txt": ""}, "sh -c 'sleep 30 & sleep 30'", "./bot", []string{"took longer than"}, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, out := t.TempDir(), revisionsDir(t)
			runnertest.WriteFiles(t, src, tt.files)
			if tt.timeout == 0 {
				// Starting a contained build takes a launcher, slow
				// in a test binary built with the race detector.
				tt.timeout = DefaultBuildTimeout
			}
			res, err := Build(context.Background(), BuildSpec{SourceDir: src, BuildCmd: tt.build, RunCmd: tt.run, OutDir: out,
				Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK || res.Dir != "" || res.Hash == "" {
				t.Fatalf("result = %+v, want a failed build with a hash", res)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Log, w) {
					t.Errorf("log lacks %q:\n%s", w, res.Log)
				}
			}
			assertOnlyRevisions(t, out, 0)
		})
	}
}

func TestBuildWithoutBuildCommand(t *testing.T) {
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": "print('READY')\n", "bot": "a file named bot is a source here"})
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, RunCmd: "python3 bot.py", OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !strings.Contains(res.Log, "nothing to build") {
		t.Fatalf("%+v", res)
	}
	for _, f := range []string{"bot.py", "bot"} {
		if _, err := os.Stat(filepath.Join(res.Dir, f)); err != nil {
			t.Errorf("revision lacks %s", f)
		}
	}
	if _, err := Build(context.Background(), BuildSpec{SourceDir: filepath.Join(src, "gone"), RunCmd: "x", OutDir: out}); err == nil ||
		!strings.Contains(err.Error(), "no such folder") {
		t.Errorf("missing folder: err = %v", err)
	}
}

func TestBuildLogCapped(t *testing.T) {
	src, out := t.TempDir(), revisionsDir(t)
	runnertest.WriteFiles(t, src, map[string]string{"a.txt": ""})
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, OutDir: out, RunCmd: "./bot",
		BuildCmd: `sh -c 'i=0; while [ $i -lt 40000 ]; do echo "line $i of compiler output"; i=$((i+1)); done; exit 1'`})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Log) > BuildLogMax+200 {
		t.Errorf("log is %d bytes, want at most about %d", len(res.Log), BuildLogMax)
	}
	if !strings.Contains(res.Log, "line 39999 of compiler output") || strings.Contains(res.Log, "line 10 of compiler") {
		t.Errorf("log should keep the end of the output")
	}
}

func TestExpandGlobs(t *testing.T) {
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"Main.java": "", "a/B.java": "", "a/b/C.java": "", "out/Old.java": "", "x.cpp": ""})
	tests := []struct {
		in, want string
	}{
		{"javac -d out *.java", "javac -d out Main.java"},
		{"javac -d out **/*.java", "javac -d out Main.java a/B.java a/b/C.java"},
		{"g++ -o bot *.cpp *.cc", "g++ -o bot x.cpp '*.cc'"},
		{"sh -c 'ls *.java'", "sh -c 'ls *.java'"},
	}
	for _, tt := range tests {
		argv, _ := runner.Split(tt.in)
		got, err := expandGlobs(dir, argv)
		if err != nil {
			t.Fatal(err)
		}
		if runner.JoinCommand(got) != tt.want {
			t.Errorf("%s → %s, want %s", tt.in, runner.JoinCommand(got), tt.want)
		}
	}
}

// TestRevisionsPlayEachOther builds two revisions of one AI and plays them
// against each other in a real game: every old revision stays runnable.
func TestRevisionsPlayEachOther(t *testing.T) {
	src, out := t.TempDir(), revisionsDir(t)
	tmpl, err := os.ReadFile("../../assets/templates/battle2048/go/main.go")
	if err != nil {
		t.Fatal(err)
	}
	runnertest.WriteFiles(t, src, map[string]string{"go.mod": "module bot\n\ngo 1.21\n", "main.go": string(tmpl)})
	spec := BuildSpec{SourceDir: src, BuildCmd: "go build -o bot .", RunCmd: "./bot", OutDir: out}
	r1, err := Build(context.Background(), spec)
	if err != nil || !r1.OK {
		t.Fatalf("revision 1: %v\n%s", err, r1.Log)
	}
	// Revision 2 opens in the corner instead of the centre.
	runnertest.WriteFiles(t, src, map[string]string{"main.go": strings.Replace(string(tmpl), `"3 3"`, `"1 1"`, 1)})
	r2, err := Build(context.Background(), spec)
	if err != nil || !r2.OK {
		t.Fatalf("revision 2: %v\n%s", err, r2.Log)
	}
	if r1.Dir == r2.Dir {
		t.Fatal("both revisions share a folder")
	}
	g, err := games.Get("battle2048")
	if err != nil {
		t.Fatal(err)
	}
	o, err := runner.Play(context.Background(), runner.Match{Game: g, Seed: 5, Options: engine.Options{"rounds": "40"},
		Bots: []runner.Bot{runner.RevisionBot("r1", spec.RunCmd, r1.Dir), runner.RevisionBot("r2", spec.RunCmd, r2.Dir)}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		c := o.Verdicts[seat]
		if c[engine.OK] == 0 || c[engine.Crashed]+c[engine.Invalid]+c[engine.Timeout] > 0 {
			t.Errorf("seat %d verdicts %v, notes %q, stderr %q", seat, c, o.Notes[seat], o.Stderr[seat])
		}
	}
	if o.Log.Result.Ranks == nil {
		t.Errorf("game did not end: %+v", o.Log)
	}
	assertNoBuildOutputs(t, src)
}

// TestScriptsAreChecked: an interpreted AI's build is a syntax check of
// every script, so a script its interpreter cannot read is a failed build;
// Python's byte code never lands in the sources or the revision.
func TestScriptsAreChecked(t *testing.T) {
	tests := []struct {
		name, tool, run string
		files           map[string]string
		ok              bool
		want            []string // in the log
	}{
		{"python ok", "python3", "python3 bot.py", map[string]string{"bot.py": "import util\nprint('READY')\n", "lib/util.py": "X = 1\n"}, true,
			[]string{"python3 -I -S -m py_compile bot.py lib/util.py"}},
		{"python error in a helper", "python3", "python3 bot.py", map[string]string{"bot.py": "print('READY')\n", "util.py": "def f(:\n"}, false,
			[]string{"SyntaxError", "util.py", "a script does not compile"}},
		{"python script run directly", "python3", "./bot.py", map[string]string{"bot.py": "#!/usr/bin/env python3\nif True\n"}, false,
			[]string{"SyntaxError"}},
		{"node ok", "node", "node main.js", map[string]string{"main.js": "console.log('READY');\n", "lib.mjs": "export const x = 1;\n"}, true,
			[]string{"node --check lib.mjs", "node --check main.js"}},
		{"node error", "node", "node main.js", map[string]string{"main.js": "console.log('READY'\n"}, false,
			[]string{"SyntaxError", "main.js does not parse"}},
		{"node_modules not checked", "node", "node main.js", map[string]string{"main.js": "1;\n", "node_modules/x/bad.js": "(\n"}, true, nil},
		{"venv not checked", "python3", "python3 bot.py", map[string]string{"bot.py": "pass\n", ".venv/lib/old.py": "print 'py2'\n"}, true, nil},
		{"a helper left out", "python3", "python3 bot.py", map[string]string{"bot.py": "pass\n", "tools/plot.py": "print 'py2'\n", ".ringsideignore": "tools/\n"}, true, nil},
		{"other languages unchecked", "sh", "sh bot.sh", map[string]string{"bot.sh": "echo READY\n", "x.py": "(\n"}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.tool); err != nil {
				t.Skipf("%s is not installed", tt.tool)
			}
			src, out := t.TempDir(), revisionsDir(t)
			runnertest.WriteFiles(t, src, tt.files)
			res, err := Build(context.Background(), BuildSpec{SourceDir: src, RunCmd: tt.run, OutDir: out})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK != tt.ok {
				t.Fatalf("OK = %v, want %v; log:\n%s", res.OK, tt.ok, res.Log)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Log, w) {
					t.Errorf("log lacks %q:\n%s", w, res.Log)
				}
			}
			for _, dir := range []string{src, res.Dir} {
				if dir == "" {
					continue
				}
				filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err == nil && (d.Name() == "__pycache__" || strings.HasSuffix(p, ".pyc")) {
						t.Errorf("byte code written to %s", p)
					}
					return nil
				})
			}
		})
	}
}
