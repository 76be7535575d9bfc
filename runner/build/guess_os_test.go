package build

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGuessForEachOS guesses the same folders with each OS's rules, the
// Windows ones included, on whatever system runs the test.
func TestGuessForEachOS(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		goos, run  string
		hasPy      bool
		build, cmd string
	}{
		{name: "go module linux", files: map[string]string{"go.mod": "module x\n", "main.go": "package main"},
			goos: "linux", build: "go build -o bot .", cmd: "./bot"},
		{name: "go module windows", files: map[string]string{"go.mod": "module x\n", "main.go": "package main"},
			goos: "windows", build: "go build -o bot.exe .", cmd: `.\bot.exe`},
		{name: "go files windows", files: map[string]string{"a.go": "package main", "b.go": "package main"},
			goos: "windows", build: "go build -o bot.exe *.go", cmd: `.\bot.exe`},
		{name: "c++ windows", files: map[string]string{"main.cpp": "", "util.cc": ""},
			goos: "windows", build: "g++ -O2 -o bot.exe *.cpp *.cc", cmd: `.\bot.exe`},
		{name: "c windows", files: map[string]string{"main.c": ""},
			goos: "windows", build: "gcc -O2 -o bot.exe *.c -lm", cmd: `.\bot.exe`},
		{name: "c++ darwin as linux", files: map[string]string{"main.cpp": ""},
			goos: "darwin", build: "g++ -O2 -o bot *.cpp", cmd: "./bot"},
		{name: "python windows with py", files: map[string]string{"bot.py": "print(1)"},
			goos: "windows", hasPy: true, cmd: "py -3 bot.py"},
		{name: "python windows without py", files: map[string]string{"bot.py": "print(1)"},
			goos: "windows", cmd: "python bot.py"},
		{name: "python linux", files: map[string]string{"bot.py": "print(1)"},
			goos: "linux", hasPy: true, cmd: "python3 bot.py"},
		{name: "rust windows", files: map[string]string{"Cargo.toml": "[package]\nname = \"crab\"\n", "src/main.rs": ""},
			goos: "windows", build: "cargo build --release", cmd: `.\target\release\crab.exe`},
		{name: "java windows as today", files: map[string]string{"Main.java": "public class Main { public static void main(String[] a) {} }"},
			goos: "windows", build: "javac -d out *.java", cmd: "java -cp out Main"},
		{name: "user run kept on windows", files: map[string]string{"main.cpp": ""},
			goos: "windows", run: `"C:\Users\Some Teacher\bots\alice\bot.exe"`, build: "g++ -O2 -o bot.exe *.cpp",
			cmd: `"C:\Users\Some Teacher\bots\alice\bot.exe"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := guessFolder(dir, tt.run)
			if err != nil {
				t.Fatalf("guess: %v", err)
			}
			g = adaptGuess(g, tt.goos, tt.run, func() bool { return tt.hasPy })
			if g.Build != tt.build || g.Run != tt.cmd {
				t.Errorf("%s: build %q run %q, want build %q run %q", tt.goos, g.Build, g.Run, tt.build, tt.cmd)
			}
		})
	}
}
