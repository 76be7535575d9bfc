package build

import (
	"os/exec"
	"strings"

	"ringside/runner"
)

// GuessForOS is GuessFor with the commands written for goos ("windows",
// "darwin", "linux", …) rather than for the running system, so that the
// Windows rules are tested on Linux too.
func GuessForOS(dir, run, goos string) (Guess, error) {
	g, err := guessFolder(dir, run)
	if err != nil {
		return Guess{}, err
	}
	userRun := strings.TrimSpace(run)
	return adaptGuess(g, goos, userRun, pyLauncher), nil
}

// pyLauncher reports whether Windows' py launcher is on PATH: it finds the
// installed Python 3 even when python.exe is not on PATH (the installer's
// default), so it is the surer way to start a script there.
func pyLauncher() bool {
	_, err := exec.LookPath("py")
	return err == nil
}

// adaptGuess rewrites a guess made with the POSIX rules for goos. Only
// Windows differs: programs end in .exe, are started as .\bot.exe (cmd and
// CreateProcess do not know ./), and Python 3 is "py -3" or "python"
// (there is no python3 there). A run command the user gave stays theirs.
func adaptGuess(g Guess, goos, userRun string, hasPy func() bool) Guess {
	if goos != "windows" {
		return g
	}
	if g.Build != "" {
		g.Build = windowsBuild(g.Build)
	}
	if userRun == "" || g.Run != userRun {
		g.Run = windowsRun(g.Run, hasPy)
	}
	return g
}

// windowsBuild names the output of "go build -o X", "gcc -o X" and
// "g++ -o X" X.exe: Windows runs only files whose name says they are
// programs.
func windowsBuild(build string) string {
	words, err := runner.SplitFor(build, "linux")
	if err != nil {
		return build
	}
	for i := 1; i < len(words); i++ {
		if words[i-1] == "-o" && !strings.HasSuffix(strings.ToLower(words[i]), ".exe") {
			words[i] += ".exe"
		}
	}
	return runner.JoinCommandFor(words, "windows")
}

// windowsRun turns a POSIX run command into Windows' form: ./bot becomes
// .\bot.exe, target/release/x becomes target\release\x.exe, and python3
// becomes py -3 when the launcher is there, else python.
func windowsRun(run string, hasPy func() bool) string {
	words, err := runner.SplitFor(run, "linux")
	if err != nil || len(words) == 0 {
		return run
	}
	switch first := words[0]; {
	case first == "python3":
		if hasPy() {
			words = append([]string{"py", "-3"}, words[1:]...)
		} else {
			words[0] = "python"
		}
		for i := range words {
			words[i] = strings.TrimPrefix(words[i], "./")
		}
	case strings.HasPrefix(first, "./") || strings.HasPrefix(first, "target/"):
		prog := strings.ReplaceAll(strings.TrimPrefix(first, "./"), "/", `\`)
		if !strings.HasSuffix(strings.ToLower(prog), ".exe") {
			prog += ".exe"
		}
		words[0] = `.\` + prog
	}
	return runner.JoinCommandFor(words, "windows")
}
