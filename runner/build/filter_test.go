package build

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ringside/runner"
	"ringside/runner/runnertest"
)

// TestSourceFiles: only what builds and runs the bot counts: .gitignore and
// .ringsideignore are honoured, data and output files are left out unless
// a command names them or a ! line keeps them.
func TestSourceFiles(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		build, run string
		kept       []string
		leftHas    map[string]string // left-out path → part of the reason
	}{
		{name: "data files by default",
			files: map[string]string{"bot.py": "", "results.csv": "", "games/g1.log": "", "notes.txt": "", "README.md": "",
				"requirements.txt": "", "weights.json": ""},
			run:     "python3 bot.py",
			kept:    []string{"bot.py", "requirements.txt", "weights.json"},
			leftHas: map[string]string{"results.csv": "*.csv", "games/g1.log": "*.log", "notes.txt": "!notes.txt", "README.md": "*.md"}},
		{name: "named by the run command",
			files: map[string]string{"bot.py": "", "book.txt": "", "other.txt": ""},
			run:   "python3 bot.py book.txt",
			kept:  []string{"book.txt", "bot.py"}, leftHas: map[string]string{"other.txt": "*.txt"}},
		{name: "gitignore",
			files: map[string]string{".gitignore": "# build\n/build/\n*.bin\nvenv/\nsecret.py\n!keep.bin\n", "main.cpp": "", "build/main.o": "",
				"data/model.bin": "", "keep.bin": "", "venv/lib/x.py": "", "src/secret.py": ""},
			build: "g++ -o bot main.cpp", run: "./bot",
			kept: []string{".gitignore", "keep.bin", "main.cpp"},
			leftHas: map[string]string{"build/": ".gitignore: /build/", "data/model.bin": ".gitignore: *.bin",
				"venv/": ".gitignore: venv/", "src/secret.py": "secret.py"}},
		{name: "ringsideignore keeps and leaves out",
			files: map[string]string{".ringsideignore": "!openings.txt\ntools/**\nscratch.py\n", "bot.py": "", "openings.txt": "",
				"tools/gen/make.py": "", "scratch.py": ""},
			run:     "python3 bot.py",
			kept:    []string{".ringsideignore", "bot.py", "openings.txt"},
			leftHas: map[string]string{"tools/": ".ringsideignore: tools/**", "scratch.py": ".ringsideignore: scratch.py"}},
		{name: "build file kept", files: map[string]string{"CMakeLists.txt": "", "a.cpp": ""}, build: "sh -c 'cmake . && make'", run: "./bot",
			kept: []string{"CMakeLists.txt", "a.cpp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			runnertest.WriteFiles(t, dir, tt.files)
			kept, left, err := SourceFiles(dir, tt.build, tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(kept, tt.kept) {
				t.Errorf("kept = %q, want %q", kept, tt.kept)
			}
			why := map[string]string{}
			for _, l := range left {
				why[l.Path] = l.Why
			}
			for p, want := range tt.leftHas {
				if !strings.Contains(why[p], want) {
					t.Errorf("left out %s: why = %q, want it to say %q (all: %v)", p, why[p], want, left)
				}
			}
		})
	}
}

// TestDataFileMakesNoRevision: saving a CSV beside the sources, or a file
// .ringsideignore leaves out, changes nothing; a source file does.
func TestDataFileMakesNoRevision(t *testing.T) {
	src := t.TempDir()
	runnertest.WriteFiles(t, src, map[string]string{"bot.sh": "echo READY\n", ".ringsideignore": "tmp/\n"})
	h1, err := SourceHash(src, "", "sh bot.sh")
	if err != nil {
		t.Fatal(err)
	}
	runnertest.WriteFiles(t, src, map[string]string{"results.csv": "1,2\n", "game.log": "x", "tmp/scratch.sh": "x"})
	if h2, _ := SourceHash(src, "", "sh bot.sh"); h2 != h1 {
		t.Errorf("a data file changed the hash")
	}
	out := revisionsDir(t)
	res, err := Build(context.Background(), BuildSpec{SourceDir: src, RunCmd: "sh bot.sh", OutDir: out})
	if err != nil || !res.OK || res.Hash != h1 {
		t.Fatalf("build: %+v %v", res, err)
	}
	for _, f := range []string{"results.csv", "game.log", "tmp"} {
		if fileExists(res.Dir + "/" + f) {
			t.Errorf("the revision has %s", f)
		}
	}
	runnertest.WriteFiles(t, src, map[string]string{"helper.sh": "x"})
	if h3, _ := SourceHash(src, "", "sh bot.sh"); h3 == h1 {
		t.Errorf("a new source file did not change the hash")
	}
}

func TestBadIgnoreLine(t *testing.T) {
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{".ringsideignore": "[oops\n", "bot.sh": ""})
	if _, _, err := SourceFiles(dir, "", "sh bot.sh"); err == nil || !strings.Contains(err.Error(), `the line "[oops"`) {
		t.Errorf("err = %v", err)
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// FuzzIgnoreFile: any .ringsideignore is read or refused with a reason,
// never a panic, and a "!name" line after the rules keeps that file.
func FuzzIgnoreFile(f *testing.F) {
	f.Add("*.bin\n/build/\n!keep.bin\n# note\n", "src/x.bin")
	f.Add("**/tmp/**\n\\#literal\n", "a/tmp/b")
	f.Add("[z-a]\n", "q")
	f.Add("!\n/\n//\n", "x")
	f.Fuzz(func(t *testing.T, content, rel string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, IgnoreFile), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		fl, err := NewFilter(dir, "", "sh bot.sh")
		if err != nil {
			if !strings.Contains(err.Error(), IgnoreFile) {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		rel = strings.Trim(path.Clean("/"+rel), "/")
		// Trailing blanks are cut from a line, as git does.
		if rel == "" || strings.ContainsAny(rel, "*?[\\\n\r") || strings.TrimRight(rel, " \t") != rel || Ignored(rel, false, false) {
			return
		}
		fl.Why(rel, false)
		fl.Why(rel, true)
		if err := os.WriteFile(filepath.Join(dir, IgnoreFile), []byte(content+"\n!"+rel+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fl, err = NewFilter(dir, "", "sh bot.sh"); err == nil && fl.Why(rel, false) != "" && !strings.HasPrefix(fl.Why(rel, false), "build output") {
			t.Fatalf("!%s as the last line does not keep it: %s", rel, fl.Why(rel, false))
		}
	})
}

// FuzzCheckJavaPair: a java run command refused beside a javac build
// comes with a fix that the same check accepts.
func FuzzCheckJavaPair(f *testing.F) {
	f.Add("javac -d out *.java", "java SampleAI")
	f.Add("javac -d classes src/*.java", "java -cp lib:bin -Xmx1g game.Main arg")
	f.Add("javac *.java", "java --class-path=out Main")
	f.Fuzz(func(t *testing.T, build, run string) {
		argv, err := runner.Split(run)
		if err != nil || len(argv) == 0 {
			return
		}
		err = checkJavaPair(build, argv)
		if err == nil {
			return
		}
		_, fix, ok := strings.Cut(err.Error(), "--run ")
		if !ok {
			t.Fatalf("no fix in %v", err)
		}
		fix, _, _ = strings.Cut(fix, " (or change")
		unq, uerr := strconv.Unquote(fix)
		if uerr != nil {
			t.Fatalf("fix %s is not quoted: %v", fix, uerr)
		}
		fixed, err := runner.Split(unq)
		if err != nil {
			t.Fatalf("fix %q cannot be split: %v", unq, err)
		}
		if err := checkJavaPair(build, fixed); err != nil {
			t.Fatalf("the fix %q is refused too: %v", unq, err)
		}
	})
}
