package app

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"ringside/app/service"
	"ringside/runner"
)

// TestAIFormKeepsCommandsPerOS: commands typed into the AI dialog's
// fields reach the service as typed, and split with the rules of the OS
// chosen (goos, so the Windows rules are tested on any system) into the
// words meant: a Windows path keeps its drive letter, backslashes and
// spaces, .\bot.exe stays itself. Quoted back for that OS, they show in
// the edit dialog's fields as text that splits into the same words.
func TestAIFormKeepsCommandsPerOS(t *testing.T) {
	tests := []struct {
		name, goos, build, run string
		wantBuild, wantRun     []string
	}{
		{name: "windows path with a space", goos: "windows",
			build: `g++ -O2 -o bot.exe *.cpp`, run: `"C:\Users\Some Teacher\bots\alice\bot.exe"`,
			wantBuild: []string{"g++", "-O2", "-o", "bot.exe", "*.cpp"},
			wantRun:   []string{`C:\Users\Some Teacher\bots\alice\bot.exe`}},
		{name: "windows path with arguments", goos: "windows",
			run:     `"C:\Users\Some Teacher\bots\alice\bot.exe" --depth 3 D:\data\book.txt`,
			wantRun: []string{`C:\Users\Some Teacher\bots\alice\bot.exe`, "--depth", "3", `D:\data\book.txt`}},
		{name: "windows program in the revision folder", goos: "windows",
			build: `go build -o bot.exe .`, run: `.\bot.exe`,
			wantBuild: []string{"go", "build", "-o", "bot.exe", "."}, wantRun: []string{`.\bot.exe`}},
		{name: "windows python launcher", goos: "windows",
			run: `py -3 "my bot.py"`, wantRun: []string{"py", "-3", "my bot.py"}},
		{name: "linux", goos: "linux",
			build: "go build -o bot .", run: "./bot",
			wantBuild: []string{"go", "build", "-o", "bot", "."}, wantRun: []string{"./bot"}},
		{name: "linux path with a space", goos: "linux",
			run: `'/home/some teacher/bots/alice/bot'`, wantRun: []string{"/home/some teacher/bots/alice/bot"}},
	}
	_, _, s := newAIsTestUI(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var spec service.NewAI
			var err error
			onUI(func() {
				test.Tap(s.add)
				f := s.form
				defer f.dlg.Hide()
				f.game.SetSelected("Grip")
				test.Type(f.name, "alice")
				// A folder that does not exist here: nothing is guessed
				// over the commands typed.
				test.Type(f.folder, `C:\Users\Some Teacher\bots\alice`)
				test.Type(f.build, tt.build)
				test.Type(f.run, tt.run)
				spec, err = f.aiSpec()
			})
			if err != nil {
				t.Fatalf("form: %v", err)
			}
			if spec.Run != tt.run || spec.Build != tt.build {
				t.Fatalf("the form gives build %q run %q, typed %q and %q", spec.Build, spec.Run, tt.build, tt.run)
			}
			run := splitAs(t, spec.Run, tt.goos, tt.wantRun)
			build := splitAs(t, spec.Build, tt.goos, tt.wantBuild)

			// What is stored is shown again in the edit dialog, quoted for
			// the OS, and splits into the same words.
			ai := service.AIInfo{Name: "alice", Game: "grip", SourceDir: spec.Dir,
				RunCmd: runner.JoinCommandFor(run, tt.goos), BuildCmd: runner.JoinCommandFor(build, tt.goos)}
			var shownRun, shownBuild string
			onUI(func() {
				f := newAIForm(s, &ai)
				shownRun, shownBuild = f.run.Text, f.build.Text
			})
			splitAs(t, shownRun, tt.goos, tt.wantRun)
			splitAs(t, shownBuild, tt.goos, tt.wantBuild)
			if tt.goos == "windows" && slices.Contains(tt.wantRun, `.\bot.exe`) && shownRun != `.\bot.exe` {
				t.Errorf(`edit dialog shows run %q, want .\bot.exe as it was`, shownRun)
			}
		})
	}
}

// splitAs splits a command field's text with goos's rules and checks the
// words; an empty field is no command (want nil).
func splitAs(t *testing.T, text, goos string, want []string) []string {
	t.Helper()
	if text == "" && want == nil {
		return nil // no build command: nothing to split
	}
	words, err := runner.SplitFor(text, goos)
	if err != nil {
		t.Fatalf("split %q for %s: %v", text, goos, err)
	}
	if !slices.Equal(words, want) {
		t.Errorf("%q split for %s = %q, want %q", text, goos, words, want)
	}
	return words
}
