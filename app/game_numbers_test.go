package app

import (
	"fmt"
	"strings"
	"testing"
)

// TestReplayTitleNumbersGamesInTheirEvent: a second event's first game
// opens as its "game 1", with the id commands take beside it, not as the
// database's game 2.
func TestReplayTitleNumbersGamesInTheirEvent(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	playedMatch(t, u)
	id, _ := playedMatch(t, u) // the second event's first game
	if id < 2 {
		t.Fatalf("the second event's first game has id %d", id)
	}
	onUI(func() { openReplayWindow(u, id) })
	var title string
	eventually(t, "the replay window opens", func() bool {
		onUI(func() {
			for _, w := range u.App.Driver().AllWindows() {
				if strings.HasPrefix(w.Title(), "Ringside · game") {
					title = w.Title()
				}
			}
		})
		return title != ""
	})
	if want := fmt.Sprintf("Ringside · game 1 (id %d) of ", id); !strings.HasPrefix(title, want) {
		t.Errorf("replay window %q, want it to start %q", title, want)
	}
	onUI(func() {
		for _, w := range u.App.Driver().AllWindows() {
			if w.Title() == title {
				w.Close()
			}
		}
	})
}
