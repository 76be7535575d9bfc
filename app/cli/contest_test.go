package cli

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"ringside/app/internal/fixture"
	"ringside/assets"
	"ringside/runner/runnertest"
)

// derived lists sample files written at test time from another file, with
// replacements: the Battle 2048 samples play with the logic of Ringside's own
// templates, and a second Grip sample differs from the first only in its
// class and its move, so the copies are made here rather than kept twice.
var derived = map[string]struct {
	from    string // "assets/…" for a template, else a file of testdata/contests
	replace []string
}{
	// main declared "public static final void main".
	"battle2048/java_random/RandomAI.java": {"assets/templates/battle2048/java/Main.java",
		[]string{"public class Main", "public class RandomAI", "public static void main", "public static final void main"}},
	// "final public static void main".
	"battle2048/java_greedy/GreedyAI.java": {"assets/templates/battle2048/java/Main.java",
		[]string{"public class Main", "public class GreedyAI", "public static void main", "final public static void main"}},
	"battle2048/random/random.cpp": {"assets/templates/battle2048/cpp/bot.cpp", nil},
	// A second sample in the same folder, with its own main; it attacks
	// whenever it may.
	// The contest's Cpp folder: a .cc file, a compile.sh that leaves
	// a.out, and an icon.
	"grip/Cpp/SampleAI.cc": {"grip/SampleAICpp/SampleAI.cpp", nil},
	"grip/SampleAIs/SampleAIL.java": {"grip/SampleAI/SampleAI.java",
		[]string{"class SampleAI", "class SampleAIL", `println("N")`, `println("A")`}},
}

// copySample copies a folder of testdata/contests into a fresh folder, as a
// student copies a contest's sample AI, and writes the sample's derived files.
func copySample(t *testing.T, sample string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(sample))
	src := filepath.Join("testdata", "contests", filepath.FromSlash(sample))
	if _, err := os.Stat(src); err == nil {
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	for name, d := range derived {
		if path.Dir(name) != sample {
			continue
		}
		var text []byte
		var err error
		if rest, ok := strings.CutPrefix(d.from, "assets/"); ok {
			text, err = fs.ReadFile(assets.Templates, rest)
		} else {
			text, err = os.ReadFile(filepath.Join("testdata", "contests", filepath.FromSlash(d.from)))
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(d.replace); i += 2 {
			if !strings.Contains(string(text), d.replace[i]) {
				t.Fatalf("derive %s: %s no longer holds %q", name, d.from, d.replace[i])
			}
		}
		out := strings.NewReplacer(d.replace...).Replace(string(text))
		runnertest.WriteFiles(t, dst, map[string]string{path.Base(name): out})
	}
	return dst
}

// TestContestSamplesRegisterByGuessAlone registers folders shaped like the
// contests' own sample AIs (our own small programs, the samples' layout
// and declarations) with nothing but the guess, and checks each plays.
func TestContestSamplesRegisterByGuessAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sample, game, tool string
		build, run         string
		whyHas             []string
	}{
		// main declared "public static final void main".
		{"battle2048/java_random", "battle2048", "javac", "javac -d out *.java", "java -cp out RandomAI", []string{"class RandomAI has main"}},
		// "final public static void main".
		{"battle2048/java_greedy", "battle2048", "javac", "javac -d out *.java", "java -cp out GreedyAI", []string{"class GreedyAI has main"}},
		{"battle2048/random", "battle2048", "g++", "g++ -O2 -o bot *.cpp", "./bot", nil},
		// Four .java files and two C++ test programs with a main each.
		{"grip/SampleAIs", "grip", "javac", "javac -d out *.java", "java -cp out SampleAI",
			[]string{"4 Java files chosen over 2 C++ files", "test_board.cc and test_move.cc each have their own main"}},
		// The contest's compile.sh and run.sh beside the class.
		{"grip/SampleAI", "grip", "javac", "javac -d out *.java", "java -cp out SampleAI", []string{`run.sh calls java ("java SampleAI")`}},
		{"grip/SampleAICpp", "grip", "g++", "g++ -O2 -o bot *.cpp", "./bot", nil},
		{"grip/Cpp", "grip", "g++", "g++ -O2 -o bot *.cc", "./bot", []string{`compile.sh calls g++ ("g++ --std=c++11 *.cc")`}},
	}
	db := filepath.Join(t.TempDir(), "class.db")
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.sample, "/", "-"), func(t *testing.T) {
			runnertest.NeedTool(t, tt.tool)
			dir := copySample(t, tt.sample)
			name := strings.ReplaceAll(tt.sample, "/", "-")
			out := mustRingside(t, "ai", "add", "--name", name, "--game", tt.game, "--dir", dir, "--no-watch", "--db", db)
			for _, want := range append([]string{"build: " + tt.build + "\n", "run:   " + tt.run + "\n", "built revision 1"}, tt.whyHas...) {
				if !strings.Contains(out, want) {
					t.Errorf("ai add output lacks %q:\n%s", want, out)
				}
			}
			// A generous time scale: a JVM starts slowly on a busy machine.
			if out := mustRingside(t, "ai", "check", name, "--time-scale", checkScale, "--db", db); !strings.Contains(out, "ok: ready to play") {
				t.Errorf("ai check:\n%s", out)
			}
		})
	}
}

// TestUserRunIsKept: a run command the user gives is used, even where the
// guess alone could not choose one, and a run command that cannot find
// what the guessed build makes is refused at once with the command that
// would.
func TestUserRunIsKept(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "class.db")
	t.Run("python with two scripts", func(t *testing.T) {
		runnertest.NeedPython(t)
		dir := filepath.Join(root, "two")
		runnertest.WriteFiles(t, dir, map[string]string{"helper.py": "X = 1\n", "player.py": fixture.PyBot(1)})
		code, _, errs := ringside(t, "ai", "add", "--name", "two", "--game", "grip", "--dir", dir, "--no-watch", "--db", db)
		if code == 0 || !strings.Contains(errs, `--run "python3 helper.py"`) {
			t.Errorf("without --run: exit %d, stderr %q: want a refusal saying which to give", code, errs)
		}
		out := mustRingside(t, "ai", "add", "--name", "two", "--game", "grip", "--dir", dir, "--run", "python3 player.py", "--no-watch", "--db", db)
		if !strings.Contains(out, "run:   python3 player.py\n") || !strings.Contains(out, "revision 1") {
			t.Errorf("with --run:\n%s", out)
		}
	})
	t.Run("java run that misses the class folder", func(t *testing.T) {
		runnertest.NeedTool(t, "javac")
		dir := copySample(t, "grip/SampleAIs")
		code, out, errs := ringside(t, "ai", "add", "--name", "sample", "--game", "grip", "--dir", dir, "--run", "java SampleAI", "--no-watch", "--db", db)
		if code != 1 || !strings.Contains(errs, "puts the compiled classes in out/") || !strings.Contains(errs, `--run "java -cp out SampleAI"`) {
			t.Errorf("exit %d\n%s%s\nwant exit 1 and the fix --run \"java -cp out SampleAI\"", code, out, errs)
		}
		if out := mustRingside(t, "ai", "list", "--db", db); strings.Contains(out, "sample") {
			t.Errorf("a refused AI is registered:\n%s", out)
		}
		out = mustRingside(t, "ai", "add", "--name", "sample", "--game", "grip", "--dir", dir, "--run", "java -cp out SampleAIL", "--no-watch", "--db", db)
		if !strings.Contains(out, "build: javac -d out *.java\n") || !strings.Contains(out, "run:   java -cp out SampleAIL\n") {
			t.Errorf("with a run command that works:\n%s", out)
		}
		// ai edit checks the pair the same way.
		code, _, errs = ringside(t, "ai", "edit", "sample", "--run", "java SampleAIL", "--db", db)
		if code != 1 || !strings.Contains(errs, `--run "java -cp out SampleAIL"`) {
			t.Errorf("ai edit --run \"java SampleAIL\": exit %d, %s", code, errs)
		}
	})
}

// TestBrokenScriptNeverGoesLive: a Python or JavaScript AI whose script has
// a syntax error is a failed build, so the revision before it keeps
// playing, and "ai show" says how scripts are checked.
func TestBrokenScriptNeverGoesLive(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, tool, file, good, bad, check string
	}{
		{"python", "python3", "bot.py", fixture.PyBot(1), fixture.PyBot(2) + "\ndef broken(:\n", "python3 -m py_compile"},
		{"javascript", "node", "main.js",
			"const rl = require('readline').createInterface({input: process.stdin});\nconsole.log('READY');\nrl.on('line', l => { if (l.trim() === 'EOD') console.log('N'); });\n",
			"console.log('READY'\n", "node --check"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			runnertest.NeedTool(t, tt.tool)
			root := t.TempDir()
			db, src := filepath.Join(root, "class.db"), filepath.Join(root, "src")
			runnertest.WriteFiles(t, src, map[string]string{tt.file: tt.good})
			out := mustRingside(t, "ai", "add", "--name", "sam", "--game", "grip", "--dir", src, "--no-watch", "--db", db)
			if !strings.Contains(out, "syntax check: "+tt.check) || !strings.Contains(out, "revision 1") {
				t.Errorf("ai add:\n%s", out)
			}
			runnertest.WriteFiles(t, src, map[string]string{tt.file: tt.bad})
			code, out, errs := ringside(t, "ai", "build", "sam", "--db", db)
			if code != 1 || !strings.Contains(out, "build failed; the current revision stays current") || !strings.Contains(out, "SyntaxError") {
				t.Errorf("build of a broken script: exit %d\n%s%s", code, out, errs)
			}
			out = mustRingside(t, "ai", "show", "sam", "--db", db)
			if !strings.Contains(out, "current:   revision 1 ") || !strings.Contains(out, "builds:    2 (1 failed)") {
				t.Errorf("ai show after the broken save:\n%s", out)
			}

			// A broken script from the start: no revision at all.
			bad := filepath.Join(root, "bad")
			runnertest.WriteFiles(t, bad, map[string]string{tt.file: tt.bad})
			code, out, errs = ringside(t, "ai", "add", "--name", "bad", "--game", "grip", "--dir", bad, "--no-watch", "--db", db)
			if code != 1 || !strings.Contains(errs, "first build failed") || !strings.Contains(out, "build failed; it has no revision to play yet") ||
				!strings.Contains(errs, `fix the sources and run "ringside ai build bad", or change a wrong command with "ringside ai edit bad --build CMD --run CMD"`) {
				t.Errorf("add of a broken script: exit %d\n%s%s\nwant: no revision yet, and both ai build and ai edit offered", code, out, errs)
			}
			if out := mustRingside(t, "ai", "show", "bad", "--db", db); !strings.Contains(out, "current:   none") {
				t.Errorf("a broken script became a revision:\n%s", out)
			}
		})
	}
}

// TestOnlySourcesMakeRevisions: data and output files saved into an AI's
// folder, and what .gitignore or .ringsideignore leave out, make no new
// revision; "ai show" lists the files that do and those left out.
func TestOnlySourcesMakeRevisions(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "src")
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1), "lib/moves.py": "MOVES = 'URDL'\n",
		".gitignore": "venv/\n", ".ringsideignore": "experiments/\n!book.txt\n", "book.txt": "opening book\n"})
	mustRingside(t, "ai", "add", "--name", "sam", "--game", "grip", "--dir", src, "--no-watch", "--db", db)
	runnertest.WriteFiles(t, src, map[string]string{"results.csv": "game,rank\n1,2\n", "logs/game1.log": "turn 1\n", "notes.txt": "try A\n",
		"venv/lib/site.py": "x = 1\n", "experiments/try.py": "print(1)\n"})
	if out := mustRingside(t, "ai", "build", "sam", "--db", db); !strings.Contains(out, "unchanged, revision 1") {
		t.Errorf("build after saving data files:\n%s", out)
	}
	out := mustRingside(t, "ai", "show", "sam", "--db", db)
	for _, want := range []string{"files:     5 make a revision", "    .gitignore\n", "    book.txt\n", "    bot.py\n", "    lib/moves.py\n",
		"left out:  5", "results.csv  (data or output file (*.csv)", "logs/game1.log  (data or output file (*.log)",
		"notes.txt  (data or output file (*.txt)", "venv/  (.gitignore: venv/)", "experiments/  (.ringsideignore: experiments/)"} {
		if !strings.Contains(out, want) {
			t.Errorf("ai show lacks %q:\n%s", want, out)
		}
	}
	runnertest.WriteFiles(t, src, map[string]string{"book.txt": "a better book\n"})
	if out := mustRingside(t, "ai", "build", "sam", "--db", db); !strings.Contains(out, "revision 2") {
		t.Errorf("a kept file changed but no new revision:\n%s", out)
	}
}

// TestEditFixesAWrongCommand: a wrong build command cannot be fixed by
// fixing the sources; "ai edit" changes it and builds, and changes the
// folder, the watch and the game of a registered AI.
func TestEditFixesAWrongCommand(t *testing.T) {
	t.Parallel()
	runnertest.NeedTool(t, "g++")
	db := filepath.Join(t.TempDir(), "class.db")
	dir := copySample(t, "grip/SampleAICpp")
	code, out, errs := ringside(t, "ai", "add", "--name", "cpp", "--game", "grip", "--dir", dir, "--build", "g++ -O2 -o bot main.cpp",
		"--run", "./bot", "--no-watch", "--db", db)
	if code != 1 || !strings.Contains(out, "main.cpp") || !strings.Contains(errs, `"ringside ai edit cpp --build CMD --run CMD"`) {
		t.Fatalf("add with a build of a file that is not there: exit %d\n%s%s", code, out, errs)
	}
	out = mustRingside(t, "ai", "edit", "cpp", "--build", "g++ -O2 -o bot *.cpp", "--db", db)
	if !strings.Contains(out, "build:  g++ -O2 -o bot *.cpp\n") || !strings.Contains(out, "built revision 1") {
		t.Errorf("ai edit --build:\n%s", out)
	}
	moved := copySample(t, "grip/SampleAICpp")
	mustRingside(t, "ai", "edit", "cpp", "--dir", moved, "--watch", "--game", "battle2048", "--db", db)
	out = mustRingside(t, "ai", "show", "cpp", "--db", db)
	for _, want := range []string{"game:      battle2048\n", "folder:    " + moved + "\n", "watched:   true\n", "current:   revision 1 "} {
		if !strings.Contains(out, want) {
			t.Errorf("ai show after ai edit --dir --watch --game lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := ringside(t, "ai", "edit", "cpp", "--watch", "--no-watch", "--db", db); code != 2 || !strings.Contains(errs, "give --watch or --no-watch, not both") {
		t.Errorf("--watch --no-watch: exit %d, %q", code, errs)
	}
}
