package service

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ringside/engine/event"
	"ringside/runner/runnertest"
)

// TestTracebacksNameTheSourceFolder: a Python bot that fails writes a
// traceback naming its file; what the teacher is shown (the build's log,
// Check's stderr, a game's replay) names the student's own folder, never
// the revision's copy that actually ran or was built.
func TestTracebacksNameTheSourceFolder(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	s := openTemp(t)
	failing := "import sys\nprint('READY', flush=True)\n\ndef think(line):\n    raise ValueError('no move for ' + line)\n\nfor line in sys.stdin:\n    think(line)\n"
	for _, tc := range []struct {
		name, bot string
		shown     func(t *testing.T, id int64) string // the text the teacher sees
	}{
		{"build log", "print('READY'\n", func(t *testing.T, id int64) string {
			out, err := s.Build(context.Background(), id, BuildOptions{})
			if err != nil || !out.Failed() {
				t.Fatalf("build of a syntax error: %v, failed %v", err, out.Failed())
			}
			return out.Rev.BuildLog
		}},
		{"check", failing, func(t *testing.T, id int64) string {
			// Generous time: a Python started late on a busy machine
			// missed its first answer and was stopped before its traceback.
			res, err := s.Check(context.Background(), id, CheckOptions{TimeScale: 10})
			if err != nil || res.Report == nil {
				t.Fatalf("check: %v", err)
			}
			return res.Report.Stderr
		}},
		{"game", failing, func(t *testing.T, id int64) string {
			if _, err := s.Build(context.Background(), id, BuildOptions{}); err != nil {
				t.Fatal(err)
			}
			ai, err := s.DB().AI(id)
			if err != nil {
				t.Fatal(err)
			}
			ev, _, err := s.CreateEvent(EventSpec{Game: "grip", Format: event.League, Games: 1, Seed: 2, SeedSet: true,
				Entries: []string{ai.Name, "builtin:grip/random"}, Fillers: []string{"builtin:grip/random"}, Concurrency: 1, TimeScale: 10})
			if err != nil {
				t.Fatal(err)
			}
			job, err := s.EventJob(ev.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := job.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			ms, err := s.DB().Matches(ev.ID)
			if err != nil || len(ms) == 0 {
				t.Fatalf("matches: %v %v", ms, err)
			}
			log, err := s.Replay(ms[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			text, err := json.Marshal(log)
			if err != nil {
				t.Fatal(err)
			}
			return string(text)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "student")
			runnertest.WriteFiles(t, dir, map[string]string{"bot.py": tc.bot})
			reg, err := s.Register(NewAI{Name: strings.ReplaceAll(tc.name, " ", "-"), Game: "grip", Dir: dir, Trusted: true})
			if err != nil {
				t.Fatal(err)
			}
			shown := tc.shown(t, reg.AI.ID)
			revs := s.DB().RevisionsDir(reg.AI)
			if !strings.Contains(shown, filepath.Join(dir, "bot.py")) || strings.Contains(shown, revs) {
				t.Errorf("shown:\n%s\nwant %s named, not the copy in %s", shown, filepath.Join(dir, "bot.py"), revs)
			}
		})
	}
}
