package app

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"ringside/storage"
)

func TestCompareScreenAnswers(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	c := u.compare
	eventuallyUI(t, "the entrants are loaded", func() bool {
		return len(c.a.Options) > 1
	})
	tests := []struct {
		game, a, b, test, margin, want string
	}{
		// Grip has four seats: the other two take the built-in fillers.
		{"grip", "greedy (built-in)", "random (built-in)", testClassroom, "0.75",
			"greedy (built-in) is stronger than random (built-in) (it finished ahead in "},
		{"battle2048", "greedy (built-in)", "random (built-in)", testElo, "20",
			"greedy (built-in) is stronger than random (built-in) (95 % confidence, after "},
	}
	for _, tc := range tests {
		onUI(func() {
			if !slices.Contains(c.game.Options, tc.game) {
				t.Fatalf("games offered %v lack %s", c.game.Options, tc.game)
			}
			c.game.SetSelected(tc.game)
			c.a.SetSelected(tc.a)
			c.b.SetSelected(tc.b)
			if (tc.game == "grip") == c.filler.Disabled() {
				t.Errorf("%s: filler choice disabled = %v", tc.game, c.filler.Disabled())
			}
			c.test.SetSelected(tc.test)
			c.margin.SetText(tc.margin)
			test.Tap(c.start)
		})
		eventuallyUI(t, "the comparison decides", func() bool {
			return strings.HasPrefix(c.verdict.Text, tc.a+" is stronger than")
		})
		onUI(func() {
			if !strings.HasPrefix(c.verdict.Text, tc.want) {
				t.Errorf("verdict = %q, want %q…", c.verdict.Text, tc.want)
			}
			if !strings.Contains(c.numbers.Text, "LLR") {
				t.Errorf("numbers = %q", c.numbers.Text)
			}
		})
	}
}

// TestCompareScreenStop stops a comparison that would run for long (the
// chess-engine test on a coin toss): the games stop and the screen says
// how to go on.
func TestCompareScreenStop(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	c := u.compare
	eventuallyUI(t, "the entrants are loaded", func() bool {
		return len(c.a.Options) > 1
	})
	onUI(func() {
		c.game.SetSelected("battle2048")
		c.a.SetSelected("random (built-in)")
		c.b.SetSelected("random (built-in)")
		c.test.SetSelected(testElo)
		test.Tap(c.start)
	})
	eventuallyUI(t, "the comparison runs", func() bool {
		return !c.stop.Disabled()
	})
	id := c.currentID()
	onUI(func() { test.Tap(c.stop) })
	eventuallyUI(t, "the comparison stops", func() bool {
		return strings.Contains(c.verdict.Text, "Stopped: resume it from the Events screen")
	})
	if u.Jobs.Running(id) {
		t.Errorf("event %d still runs after Stop", id)
	}
	ev, err := u.Svc.DB().Event(id)
	if err != nil || ev.Status == storage.EventFinished {
		t.Errorf("stopped comparison: %+v, %v", ev.Status, err)
	}
}

func TestCompareScreenRefusesBadNumbers(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	onUI(func() {
		u.compare.maxGames.SetText("seven")
		test.Tap(u.compare.start)
	})
	var shown bool
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			shown = shown || o.Visible()
		}
	})
	if !shown {
		t.Errorf("no error dialog for a game limit that is not a number")
	}
	if evs, _ := u.Svc.DB().ListEvents(); len(evs) != 0 {
		t.Errorf("an event was created from bad input")
	}
}
