package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"ringside/app/service"
	"ringside/engine"
)

// TestDeleteBigEventAndCompact: deleting an event from its view shows a
// progress dialog instead of freezing, the event goes, and the Database
// page's "Compact database" compacts the file and says the sizes.
func TestDeleteBigEventAndCompact(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	ev, n, err := u.Svc.CreateEvent(service.EventSpec{Name: "big one", Game: "grip", Seed: 7, SeedSet: true,
		Options: engine.Options{"max_turns": "5"}, TimeScale: 10, Concurrency: 1, Games: 20,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	onUI(func() { u.showEvents(ev.ID) })
	eventuallyUI(t, "the event is shown", func() bool {
		return u.events.detail.loaded != nil && u.events.detail.loaded.Event.ID == ev.ID
	})
	onUI(func() { u.events.detail.deleteEvent(ev.ID, n) })
	eventually(t, "the event is gone", func() bool {
		_, err := u.Svc.DB().Event(ev.ID)
		return err != nil
	})
	eventually(t, "the progress dialog is closed", func() bool {
		return !strings.Contains(overlayText(t, w), "Deleting")
	})
	var compact int
	onUI(func() {
		bs := buttons(t, u.home.object(), "Compact database")
		compact = len(bs)
		if len(bs) == 1 {
			test.Tap(bs[0])
		}
	})
	if compact != 1 {
		t.Fatalf("%d Compact database buttons on the home page, want 1", compact)
	}
	eventually(t, "the compaction says the sizes", func() bool {
		s := overlayText(t, w)
		return strings.Contains(s, "Database compacted") && strings.Contains(s, " → ")
	})
	if sp, err := u.Svc.Space(); err != nil || sp.FreePages != 0 {
		t.Errorf("after compacting: %+v, %v; want no free pages", sp, err)
	}
}
