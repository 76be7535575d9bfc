package build

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ringside/assets"
	"ringside/runner"
)

// TestWindowsGuessesBuildWhatTheyRun: the Go, C++ and Python templates'
// folders guessed with the Windows rules give a build command that, run
// with the cross toolchains standing in for Windows' own (go with
// GOOS=windows; MinGW's g++), writes the very program the run command
// starts (.\bot.exe, a Windows executable), and a run command whose
// script is in the folder. The guesses once built bot and started
// .\bot.exe, or were gcc -o bot, which MinGW writes as bot.exe.
func TestWindowsGuessesBuildWhatTheyRun(t *testing.T) {
	tests := []struct {
		lang      string
		toolchain string // the cross compiler standing in for the build's first word
	}{
		{lang: "go", toolchain: "go"},
		{lang: "cpp", toolchain: "x86_64-w64-mingw32-g++"},
		{lang: "python"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if tt.toolchain != "" {
				if _, err := exec.LookPath(tt.toolchain); err != nil {
					t.Skipf("%s is not installed (Debian: gcc-mingw-w64-x86-64; .ci/wine-smoke.sh installs it)", tt.toolchain)
				}
			}
			dir := t.TempDir()
			copyTemplate(t, "templates/grip/"+tt.lang, dir)
			g, err := guessFolder(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			g = adaptGuess(g, "windows", "", func() bool { return true })
			run, err := runner.SplitFor(g.Run, "windows")
			if err != nil {
				t.Fatalf("run %q: %v", g.Run, err)
			}
			if tt.toolchain == "" {
				// A script: the launcher and the file it is given.
				if len(run) != 3 || run[0] != "py" || run[1] != "-3" {
					t.Fatalf("run %q, want py -3 SCRIPT", g.Run)
				}
				if _, err := os.Stat(filepath.Join(dir, run[2])); err != nil {
					t.Errorf("run %q names a script not in the folder: %v", g.Run, err)
				}
				return
			}
			crossBuild(t, dir, g.Build, tt.toolchain)
			if len(run) != 1 || !strings.HasPrefix(run[0], `.\`) {
				t.Fatalf(`run %q, want .\PROGRAM`, g.Run)
			}
			exe := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(strings.TrimPrefix(run[0], `.\`), `\`, "/")))
			data, err := os.ReadFile(exe)
			if err != nil {
				t.Fatalf("build %q did not write %s, which run %q starts: %v", g.Build, filepath.Base(exe), g.Run, err)
			}
			if !bytes.HasPrefix(data, []byte("MZ")) {
				t.Errorf("%s is not a Windows executable", exe)
			}
		})
	}
}

// copyTemplate writes the embedded template folder src into dir (a
// ".template" ending dropped, as the app does).
func copyTemplate(t *testing.T, src, dir string) {
	t.Helper()
	err := fs.WalkDir(assets.Templates, src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assets.Templates.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(strings.TrimPrefix(p, src+"/"), ".template")
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// crossBuild runs a Windows build command in dir, split with the Windows
// rules and its patterns expanded as Ringside expands them, with
// toolchain for its first word: go cross-compiling for Windows, or
// MinGW's g++ (linked statically, so the program needs no MinGW DLLs).
func crossBuild(t *testing.T, dir, build, toolchain string) {
	t.Helper()
	words, err := runner.SplitFor(build, "windows")
	if err != nil {
		t.Fatalf("build %q: %v", build, err)
	}
	var argv []string
	for _, w := range words[1:] {
		if strings.ContainsAny(w, "*?[") {
			matches, _ := filepath.Glob(filepath.Join(dir, w))
			if len(matches) == 0 {
				t.Fatalf("build %q: %s matches nothing", build, w)
			}
			for _, m := range matches {
				argv = append(argv, filepath.Base(m))
			}
			continue
		}
		argv = append(argv, w)
	}
	if toolchain != "go" {
		argv = append(argv, "-static")
	}
	cmd := exec.Command(toolchain, argv...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", toolchain, strings.Join(argv, " "), err, out)
	}
}
