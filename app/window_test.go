package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/games"
)

// TestCloseAsksWhileAnEventRuns: closing the window mid-event asks first;
// with nothing running it closes at once.
func TestCloseAsksWhileAnEventRuns(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	ev, _, err := u.Jobs.CreateAndStart(service.EventSpec{Game: "grip", Games: 50, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	onUI(u.confirmClose)
	if !strings.Contains(overlayText(t, w), "Quit while games are played?") {
		t.Fatalf("no question before quitting mid-event:\n%s", overlayText(t, w))
	}
	if u.ctx.Err() != nil {
		t.Fatal("the window closed without asking")
	}
	closeOverlays(w)
	u.Jobs.Stop(ev.ID)
	// Closing waits for the background work, which may wait for the UI
	// lock: not under it.
	u.confirmClose()
	if u.ctx.Err() == nil {
		t.Error("with nothing running the window did not close")
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
