package runner

import (
	"context"
	"encoding/json"
	"testing"

	"ringside/engine"
)

// TestBranchPing branches a ping game: the steps before the branch are
// the original's, the new bot's earlier answers are kept as warm-up, it
// plays live from the branch, and a probe stops at its first live answer.
func TestBranchPing(t *testing.T) {
	good := Bot{Name: "good", Command: fakebot}
	orig, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 4,
		Options: engine.Options{"turns": "8"}, Bots: []Bot{good, good}})
	if err != nil {
		t.Fatal(err)
	}
	log := orig.Log
	step, err := BranchStep(pingGame{}, log, 4, 0)
	if err != nil || step != 5 { // step 0 is READY; turn t is step t+1
		t.Fatalf("branch step %d, %v; want 5", step, err)
	}
	steps := func(l *engine.Log, n int) string {
		data, _ := json.Marshal(l.Steps[:n])
		return string(data)
	}
	tests := []struct {
		name    string
		bot     Bot
		probe   bool
		steps   int                    // steps in the branch's log
		aborted string                 // the branch's log
		verdict map[engine.Verdict]int // seat 0's
	}{
		// Seat 0 answers turns 0, 2, 4, 6; the garbage bot answers its
		// input k (from 0) wrongly. Turn 2 is a warm-up answer, which
		// the game never sees; turn 4 is live.
		{"garbage before the branch", Bot{Name: "garbage", Command: fakebot + " -mode garbage -k 1"}, false, 9, "",
			map[engine.Verdict]int{engine.OK: 5}},
		{"garbage after the branch", Bot{Name: "garbage", Command: fakebot + " -mode garbage -k 2"}, false, 9, "",
			map[engine.Verdict]int{engine.OK: 4, engine.Invalid: 1}},
		{"probe", Bot{Name: "good", Command: fakebot}, true, 6, ProbeAborted, map[engine.Verdict]int{engine.OK: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Play(context.Background(), Match{Game: pingGame{}, TimeScale: 4, Bots: []Bot{tc.bot, good},
				Branch: &Branch{Log: log, Turn: 4, Step: step, Seat: 0, Probe: tc.probe}})
			if err != nil {
				t.Fatal(err)
			}
			b := out.Log.Branch
			if b == nil || b.Step != step || b.Bot != tc.bot.Name || len(b.Warmup) != 3 || b.Live[0] != step || b.Live[1] != -1 {
				t.Fatalf("branch record %+v", b)
			}
			if len(out.Log.Steps) != tc.steps || out.Log.Aborted != tc.aborted {
				t.Fatalf("%d steps, aborted %q; want %d, %q", len(out.Log.Steps), out.Log.Aborted, tc.steps, tc.aborted)
			}
			if steps(out.Log, step) != steps(log, step) {
				t.Errorf("the steps before the branch differ")
			}
			// The original's seat 0 was always right: any invalid reply
			// is the new bot's, and only a live one counts.
			if got := counts(out, 0); got[engine.Invalid] != tc.verdict[engine.Invalid] || got[engine.OK] != tc.verdict[engine.OK] {
				t.Errorf("seat 0 verdicts %v, want %v", counts(out, 0), tc.verdict)
			}
			if tc.probe && out.Log.Branch.Warmup[0].Reply == nil {
				t.Errorf("warm-up answer not kept: %+v", out.Log.Branch.Warmup[0])
			}
		})
	}
	if _, err := BranchStep(pingGame{}, log, 40, 0); err == nil {
		t.Errorf("a turn after the end was accepted")
	}
}
