package app

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/games"
	"ringside/storage"
)

// uiMu serialises everything that touches widgets in these tests.
var uiMu sync.Mutex

func init() {
	uiDo = func(f func()) { uiMu.Lock(); defer uiMu.Unlock(); f() }
}

// onUI runs f as the UI thread would, excluding background updates.
func onUI(f func()) { uiMu.Lock(); defer uiMu.Unlock(); f() }

// newTestUI opens the main window on a fresh database, as a first run does.
func newTestUI(t testing.TB) (fyne.Window, *UI) {
	t.Helper()
	var u *UI
	onUI(func() {
		a := test.NewTempApp(t)
		u = NewUI(a, filepath.Join(t.TempDir(), "ringside.db"))
		u.Win.Resize(fyne.NewSize(1200, 780))
	})
	if _, ok := u.Win.Content().(*container.AppTabs); !ok {
		t.Fatalf("main window shows %T, not the screens (database error?)", u.Win.Content())
	}
	// Closing runs the window's close hook, which waits for the
	// background work: not under the UI lock that work may wait for.
	t.Cleanup(func() {
		if u.ctx.Err() == nil { // not closed by the test itself
			u.Win.Close()
		}
	})
	return u.Win, u
}

// walk calls visit for o and every object under it, through containers
// and widgets' renderers.
func walk(t *testing.T, o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(t, c, visit)
		}
	case fyne.Widget:
		if _, ok := x.(*widget.Label); ok {
			return
		}
		for _, c := range test.TempWidgetRenderer(t, x).Objects() {
			walk(t, c, visit)
		}
	}
}

// buttons finds the buttons under o with the given text.
func buttons(t *testing.T, o fyne.CanvasObject, text string) []*widget.Button {
	var out []*widget.Button
	walk(t, o, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}

// eventually polls cond for up to a minute: games are real processes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eventuallyUI is eventually for a condition on what the screens show: it
// is evaluated on the UI thread.
func eventuallyUI(t testing.TB, what string, cond func() bool) {
	t.Helper()
	eventually(t, what, func() bool {
		var ok bool
		onUI(func() { ok = cond() })
		return ok
	})
}

func TestFirstRunDemo(t *testing.T) {
	w, u := newTestUI(t)
	var runs []*widget.Button
	onUI(func() { runs = buttons(t, w.Content(), "Run demo") })
	if len(runs) != len(demos) {
		t.Fatalf("home shows %d demo buttons, want %d", len(runs), len(demos))
	}
	onUI(func() { test.Tap(runs[1]) }) // Battle 2048: the quickest
	var id int64
	eventually(t, "the demo event is created", func() bool {
		evs, err := u.DB.ListEvents()
		if err == nil && len(evs) == 1 {
			id = evs[0].ID
			return true
		}
		return false
	})
	eventually(t, "the demo finishes", func() bool {
		ev, err := u.DB.Event(id)
		return err == nil && ev.Status == storage.EventFinished
	})
	eventually(t, "the events screen shows it", func() bool {
		var ok bool
		onUI(func() {
			ok = u.tabs.SelectedIndex() == 1 && u.events.detail.loaded != nil &&
				u.events.detail.loaded.ev.ID == id && len(u.events.detail.standings.rows) == 3 &&
				u.events.detail.run.Text == "Finished"
		})
		return ok
	})
	onUI(func() {
		rows := u.events.detail.standings.rows
		if rows[0].Name != "builtin:battle2048/greedy" || rows[0].Rank != 1 {
			t.Errorf("standings top = %+v, want greedy first", rows[0])
		}
		if !u.events.detail.run.Disabled() {
			t.Errorf("run button is enabled after the event finished")
		}
		if n := len(u.events.detail.games.data.matches); n != 24 {
			t.Errorf("games list has %d games, want 24", n)
		}
	})
}

func TestRunPauseResumeButtons(t *testing.T) {
	_, u := newTestUI(t)
	// One cycle of the seat design: the 24 orders of one group of four.
	ev, n, err := u.Svc.CreateEvent(service.EventSpec{Game: "grip", Seed: 2, SeedSet: true, Games: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games", n)
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventuallyUI(t, "the event is shown", func() bool {
		return u.events.detail.loaded != nil && u.events.detail.loaded.ev.ID == ev.ID
	})
	onUI(func() {
		if u.events.detail.run.Text != "Run" || u.events.detail.run.Disabled() {
			t.Errorf("run button = %q disabled=%v before the first run", u.events.detail.run.Text, u.events.detail.run.Disabled())
		}
		test.Tap(u.events.detail.run)
	})
	eventually(t, "a game finishes", func() bool {
		o, _ := u.DB.Outcomes(ev.ID)
		return len(o) > 0
	})
	onUI(func() { test.Tap(u.events.detail.pause) })
	if !u.Jobs.Paused(ev.ID) && u.Jobs.Running(ev.ID) {
		t.Errorf("pause did not pause")
	}
	onUI(func() {
		if u.Jobs.Running(ev.ID) && u.events.detail.run.Text != "Resume" {
			t.Errorf("run button says %q while paused", u.events.detail.run.Text)
		}
		test.Tap(u.events.detail.run)
	})
	eventually(t, "the event finishes after resume", func() bool {
		e, _ := u.DB.Event(ev.ID)
		return e.Status == storage.EventFinished
	})
}

func TestCompareScreenAnswers(t *testing.T) {
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
	ev, err := u.DB.Event(id)
	if err != nil || ev.Status == storage.EventFinished {
		t.Errorf("stopped comparison: %+v, %v", ev.Status, err)
	}
}

func TestCompareScreenRefusesBadNumbers(t *testing.T) {
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
	if evs, _ := u.DB.ListEvents(); len(evs) != 0 {
		t.Errorf("an event was created from bad input")
	}
}

func TestGamesScreenListsEveryGame(t *testing.T) {
	// Under the UI lock: goroutines of earlier tests may still be
	// finishing their last uiDo.
	uiMu.Lock()
	defer uiMu.Unlock()
	test.NewTempApp(t)
	s := newGamesScreen()
	w := test.NewWindow(s)
	defer w.Close()
	w.Resize(fyne.NewSize(1000, 700))
	for _, g := range games.All() {
		found := false
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Card:
				found = found || x.Title == g.Info().Name
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			case fyne.Widget:
				for _, c := range test.TempWidgetRenderer(t, x).Objects() {
					walk(c)
				}
			}
		}
		walk(w.Content())
		if !found {
			t.Errorf("games screen has no card for %s", g.Info().Name)
		}
	}
}
