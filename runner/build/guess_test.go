package build

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"ringside/runner/runnertest"
)

func TestGuessCommands(t *testing.T) {
	tests := []struct {
		name             string
		files            map[string]string
		lang, build, run string
		wantErr, whyHas  string
	}{
		{name: "go module", files: map[string]string{"go.mod": "module x\n", "main.go": "package main"},
			lang: "go", build: "go build -o bot .", run: "./bot"},
		{name: "go files", files: map[string]string{"a.go": "package main", "b.go": "package main"},
			lang: "go", build: "go build -o bot *.go", run: "./bot", whyHas: "go mod init"},
		{name: "rust", files: map[string]string{"Cargo.toml": "[package]\nname = \"crab\"\nversion = \"0.1.0\"\n", "src/main.rs": ""},
			lang: "rust", build: "cargo build --release", run: "target/release/crab"},
		{name: "makefile variable", files: map[string]string{"Makefile": "CXX=g++\nTARGET = mybot\n$(TARGET): a.cpp\n\t$(CXX) -o $@ $^\n", "a.cpp": ""},
			lang: "cpp", build: "make", run: "./mybot"},
		{name: "makefile first rule", files: map[string]string{"Makefile": "# c bot\nall: player\nplayer: main.o\n\tcc -o player main.o\nclean:\n\trm -f player\n", "main.c": ""},
			lang: "c", build: "make", run: "./player"},
		{name: "makefile unclear", files: map[string]string{"makefile": "%.o: %.c\n\tcc -c $<\n", "x.c": ""},
			lang: "c", build: "make", run: "./bot", whyHas: "does not clearly name"},
		{name: "c++", files: map[string]string{"main.cpp": "", "util.cc": "", "util.h": ""},
			lang: "cpp", build: "g++ -O2 -o bot *.cpp *.cc", run: "./bot"},
		{name: "c", files: map[string]string{"main.c": ""},
			lang: "c", build: "gcc -O2 -o bot *.c -lm", run: "./bot"},
		{name: "java top", files: map[string]string{"Main.java": "public class Main { public static void main(String[] a) {} }", "Util.java": "class Util {}"},
			lang: "java", build: "javac -d out *.java", run: "java -cp out Main"},
		{name: "java packages", files: map[string]string{"src/game/Player.java": "package game;\npublic class Player {\n  public static void main(String[] args) {}\n}\n", "src/game/Board.java": "package game;\nclass Board {}"},
			lang: "java", build: "javac -d out **/*.java", run: "java -cp out game.Player"},
		{name: "java without main", files: map[string]string{"A.java": "class A {}"}, wantErr: "none of the Java files has a main method"},
		// Battle 2048's java samples declare main final.
		{name: "java final main", files: map[string]string{"RandomAI.java": "public class RandomAI {\n  public static final void main(String[] args) {}\n}\n"},
			lang: "java", build: "javac -d out *.java", run: "java -cp out RandomAI"},
		{name: "java modifier order", files: map[string]string{"A.java": "class A {}", "P.java": "class P {\n  final static public synchronized void main(String... a) {}\n}\n"},
			lang: "java", build: "javac -d out *.java", run: "java -cp out P"},
		{name: "java instance main is not an entry point", files: map[string]string{"A.java": "class A { public void main(String[] a) {} }"},
			wantErr: "none of the Java files has a main method"},
		// JavaChallenge2015's SampleAIs: Java with two C++ test programs.
		{name: "java beside c++ test programs", files: map[string]string{
			"SampleAI.java": "public class SampleAI {\n  public static void main(String[] args) {}\n}\n",
			"Board.java":    "class Board {}", "Move.java": "class Move {}", "Util.java": "class Util {}",
			"test_board.cc": "#include <cstdio>\nint main() { return 0; }\n",
			"test_move.cc":  "#include <cstdio>\nint main(int argc, char** argv) { return 0; }\n"},
			lang: "java", build: "javac -d out *.java", run: "java -cp out SampleAI", whyHas: "each have their own main"},
		{name: "c++ beside one java helper", files: map[string]string{"main.cpp": "int main() {}", "ai.cpp": "", "ai.h": "", "Gen.java": "class Gen {}"},
			lang: "cpp", build: "g++ -O2 -o bot *.cpp", run: "./bot", whyHas: "main.cpp has the entry point"},
		{name: "run.sh says java", files: map[string]string{
			"run.sh": "#!/bin/sh\njava SampleAIL\n", "compile.sh": "#!/bin/sh\njavac *.java\n",
			"SampleAI.java": "public class SampleAI { public static void main(String[] a) {} }", "SampleAIL.java": "public class SampleAIL { public static void main(String[] a) {} }",
			"x.c": "int main() {}"},
			lang: "java", build: "javac -d out *.java", run: "java -cp out SampleAIL", whyHas: "run.sh calls java"},
		{name: "c++ programs with a main each", files: map[string]string{"a.cc": "int main() {}", "b.cc": "int main() {}"},
			wantErr: "each have their own main"},
		{name: "python main", files: map[string]string{"main.py": "", "util.py": ""},
			lang: "python", run: "python3 main.py"},
		{name: "python bot", files: map[string]string{"bot.py": "", "helpers.py": ""},
			lang: "python", run: "python3 bot.py"},
		{name: "python single", files: map[string]string{"my player.py": ""},
			lang: "python", run: "python3 'my player.py'"},
		{name: "python ambiguous", files: map[string]string{"a.py": "", "b.py": ""}, wantErr: "say which one runs with --run"},
		{name: "node", files: map[string]string{"main.js": "", "package.json": "{}"},
			lang: "javascript", run: "node main.js"},
		{name: "ruby", files: map[string]string{"bot.rb": ""}, lang: "ruby", run: "ruby bot.rb"},
		{name: "shebang executable", files: map[string]string{"player": "#!/usr/bin/env perl\nprint 1;\n"},
			lang: "perl", run: "./player"},
		{name: "build outputs ignored", files: map[string]string{"bot.py": "", "out/Main.class": "", ".git/config": ""},
			lang: "python", run: "python3 bot.py"},
		{name: "nothing known", files: map[string]string{"README.md": "hello"}, wantErr: "no sources Ringside recognises"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			runnertest.WriteFiles(t, dir, tt.files)
			g, err := GuessCommands(dir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to say %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Language != tt.lang || g.Build != tt.build || g.Run != tt.run {
				t.Errorf("guess = %q / %q / %q, want %q / %q / %q", g.Language, g.Build, g.Run, tt.lang, tt.build, tt.run)
			}
			if g.Why == "" || (tt.whyHas != "" && !strings.Contains(g.Why, tt.whyHas)) {
				t.Errorf("why = %q, want it to mention %q", g.Why, tt.whyHas)
			}
		})
	}
}

func TestGuessCommandsFolderErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := GuessCommands(filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "no such folder") {
		t.Errorf("missing folder: err = %v", err)
	}
	file := filepath.Join(dir, "f.py")
	runnertest.WriteFiles(t, dir, map[string]string{"f.py": ""})
	if _, err := GuessCommands(file); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("file: err = %v", err)
	}
}

func TestCheckCommands(t *testing.T) {
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": "", "prebuilt": "#!/bin/sh\n"})
	tests := []struct {
		name, build, run, want string // want "" means no error
	}{
		{"script", "", "python3 bot.py", ""},
		{"built program", "go build -o bot .", "./bot", ""},
		{"program not built and absent", "", "./bot", "no build command makes it"},
		{"prebuilt file", "", "./prebuilt", ""},
		{"bare name of a file", "", "prebuilt", "write ./prebuilt"},
		{"missing compiler", "nosuch-compiler-4711 -o bot", "./bot", "nosuch-compiler-4711 is not installed"},
		{"missing interpreter", "", "nosuch-interp-4711 bot.py", "nosuch-interp-4711 is not installed"},
		{"wrong script name", "", "python3 main.py", "main.py is not in"},
		{"bad quoting", "", `python3 "bot.py`, "unclosed double quote"},
		{"no run command", "", " ", "no run command"},
		{"builtin", "", "builtin:grip/random", ""},
		// What the JavaChallenge2015 run.sh says, after the guessed build.
		{"java class not on the class path", "javac -d out *.java", "java SampleAI", `--run "java -cp out SampleAI"`},
		{"java other class path", "javac -d out *.java", "java -cp bin -Xmx1g SampleAI", `--run "java -cp out -Xmx1g SampleAI"`},
		{"java right class path", "javac -d out *.java", "java -Xss8m -cp out SampleAI", ""},
		{"java class path list", "javac -d classes *.java", "java -cp lib/x.jar:classes SampleAI", ""},
		{"java in place", "javac *.java", "java SampleAI", ""},
		{"java in place, run from out", "javac *.java", "java -cp out SampleAI", `--run "java -cp . SampleAI"`},
		{"java jar", "javac -d out *.java", "java -jar bot.jar", ""},
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh on this system")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.run, "java ") {
				if _, err := exec.LookPath("java"); err != nil {
					t.Skip("java is not installed")
				}
			}
			err := CheckCommands(dir, tt.build, tt.run)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
	if err := CheckCommands(filepath.Join(dir, "gone"), "", "python3 bot.py"); err == nil || !strings.Contains(err.Error(), "no such folder") {
		t.Errorf("missing folder: err = %v", err)
	}
}

func FuzzGlobMatch(f *testing.F) {
	f.Add("*.java", "Main.java")
	f.Add("**/*.java", "src/a/B.java")
	f.Add("src/**", "src/x/y")
	f.Add("[a-", "a")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got, err := globMatch(pattern, name)
		if strings.Contains(pattern, "**") || strings.Contains(pattern, `\`) {
			// No reference to compare with (and a backslash cannot escape a
			// slash, as patterns are cut at slashes first): it must simply
			// not hang or panic.
			return
		}
		want, wantErr := path.Match(pattern, name)
		if strings.Count(pattern, "/") != strings.Count(name, "/") {
			want = false // path.Match compares whole strings; ours segment by segment
			if wantErr == nil && got {
				t.Fatalf("globMatch(%q, %q) = true with a different number of folders", pattern, name)
			}
			return
		}
		if (err != nil) != (wantErr != nil) && got != want {
			t.Fatalf("globMatch(%q, %q) = %v, %v; path.Match = %v, %v", pattern, name, got, err, want, wantErr)
		}
		if err == nil && wantErr == nil && got != want {
			t.Fatalf("globMatch(%q, %q) = %v, path.Match says %v", pattern, name, got, want)
		}
	})
}

// TestGuessForKeepsTheUserRun: a run command the user gave is kept, and
// the guess then only chooses the build; it never refuses for want of an
// entry point it would have run itself.
func TestGuessForKeepsTheUserRun(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		run, build string
	}{
		{"java without a main it recognises", map[string]string{"A.java": "class A { /* main in a superclass */ }"}, "java -cp out A", "javac -d out *.java"},
		{"java with main", map[string]string{"Main.java": "class Main { public static void main(String[] a) {} }"}, "java -cp out -Xss64m Main", "javac -d out *.java"},
		{"python without main.py", map[string]string{"a.py": "", "b.py": ""}, "python3 b.py", ""},
		{"nothing known", map[string]string{"prebuilt": "data"}, "./prebuilt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			runnertest.WriteFiles(t, dir, tt.files)
			g, err := GuessFor(dir, tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if g.Run != tt.run || g.Build != tt.build {
				t.Errorf("guess = build %q run %q, want %q and the user's %q", g.Build, g.Run, tt.build, tt.run)
			}
		})
	}
}
