package web

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/battle2048"
)

// startPublished starts the published event's game f.game and gives its
// whole log, played in process by the built-in bots its entries name;
// save(n) stores its first n steps as the process playing it does.
func startPublished(t *testing.T, f class) (full *engine.Log, save func(n int)) {
	t.Helper()
	m, err := f.svc.DB().Match(f.game)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]string, len(m.Game.Seats))
	bots := make([]string, len(m.Game.Seats))
	for s, e := range m.Game.Seats {
		players[s] = []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}[e]
		bots[s] = []string{"greedy", "random"}[e]
	}
	full = fixture.PlayLog(t, battle2048.New(), nil, m.Game.Seed, players, bots, nil)
	if len(full.Steps) < 40 {
		t.Fatalf("the game has %d steps; the test needs 40", len(full.Steps))
	}
	if err := f.svc.DB().StartMatch(f.game); err != nil {
		t.Fatal(err)
	}
	return full, func(n int) {
		part := *full
		part.Steps, part.Result = full.Steps[:n], engine.Result{}
		if err := f.svc.DB().SaveLive(f.game, &part); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGameInPlayPreparedOncePerStep: the class page shows the game in
// play's newest board, and however many times the page and the board are
// asked, the game is re-simulated once per step count it reaches, and
// once more when it ends; the board served is the desktop viewer's for
// that step, with the names the app shows.
func TestGameInPlayPreparedOncePerStep(t *testing.T) {
	f := newFixture(t)
	site := New(f.svc, Options{})
	pub := site.Public()
	full, save := startPublished(t, f)
	game := fmt.Sprint(f.game)
	for _, tc := range []struct {
		name     string
		saved    int // steps saved before the requests; 0: none more
		finish   bool
		wantStep int // the board the class page shows; -1: none
		wantSims int64
	}{
		{"first steps", 10, false, 9, 1},
		{"more steps", 30, false, 29, 2},
		{"no new step", 0, false, 29, 2},
		{"finished", 0, true, -1, 3},
		{"finished, asked again", 0, false, -1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.saved > 0 {
				save(tc.saved)
			}
			if tc.finish {
				if err := f.svc.DB().FinishMatch(f.game, full.Result, full, time.Second); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 {
				code, body := get(t, pub, "/", nil)
				if code != 200 {
					t.Fatalf("class page: %d\n%s", code, body)
				}
				src := fmt.Sprintf(`src="/game/%s/frame/%d.png"`, game, tc.wantStep)
				if tc.wantStep >= 0 && !strings.Contains(body, src) {
					t.Errorf("the class page lacks the board %s:\n%s", src, body)
				}
				if tc.wantStep < 0 && strings.Contains(body, "in play") {
					t.Errorf("the class page shows a game in play after it ended")
				}
				if strings.Contains(body, "builtin:") || !strings.Contains(body, "greedy (built-in)") {
					t.Errorf("the class page does not name the built-in bots as the app does")
				}
			}
			// Step 5 is asked in every case: a game in play's board says
			// how many steps are known, so it is drawn anew as they grow.
			for _, step := range []int{5, max(tc.wantStep, 20)} {
				log := full
				if tc.wantStep >= 0 {
					part := *full
					part.Steps, part.Result, part.InProgress = full.Steps[:tc.wantStep+1], engine.Result{}, true
					log = &part
				}
				want := desktopFrame(t, log, min(step, len(log.Steps)-1))
				for range 3 {
					code, body := get(t, pub, fmt.Sprintf("/game/%s/frame/%d.png", game, step), nil)
					if code != 200 {
						t.Fatalf("board: %d %s", code, body)
					}
					if !bytes.Equal([]byte(body), want) {
						t.Errorf("the board of step %d is not the desktop viewer's", step)
					}
				}
			}
			if got := site.simulated.Load(); got != tc.wantSims {
				t.Errorf("the game was simulated %d times in all, want %d", got, tc.wantSims)
			}
		})
	}
	unlisted, err := f.svc.DB().Matches(f.unlisted)
	if err != nil || len(unlisted) == 0 {
		t.Fatal(err)
	}
	if code, _ := get(t, pub, fmt.Sprintf("/game/%d/frame/0.png", unlisted[0].ID), nil); code != 404 {
		t.Errorf("a board of an unpublished event's game: %d, want 404", code)
	}
}

// desktopFrame is step of log as the desktop viewer draws it (its names
// as the app shows them), encoded as the pages encode it.
func desktopFrame(t *testing.T, log *engine.Log, step int) []byte {
	t.Helper()
	fr, err := replay.NewFramesOf(service.ShownLog(log))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, fr.Render(step, frameSize)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
