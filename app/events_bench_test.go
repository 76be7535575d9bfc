package app

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
)

// bigEvent stores a finished league of about 5 000 Battle2048 games
// between 11 entries, with results but without replays.
func bigEvent(b *testing.B) (*service.Service, int64) {
	svc, err := service.Open(filepath.Join(b.TempDir(), "big.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	db := svc.DB()
	var specs []string
	for i := range 11 {
		specs = append(specs, fmt.Sprintf("bot%d=builtin:battle2048/random", i))
	}
	ev, _, err := svc.CreateEvent(service.EventSpec{Game: "battle2048", Format: event.League, Games: 45, Seed: 1, SeedSet: true, Entries: specs})
	if err != nil {
		b.Fatal(err)
	}
	ms, err := db.Matches(ev.ID)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		// A stable, lopsided result: the lower entry index wins.
		ranks := []int{1, 2}
		if m.Game.Seats[0] > m.Game.Seats[1] {
			ranks = []int{2, 1}
		}
		res := engine.Result{Ranks: ranks, Reason: "higher_score", Turns: 40 + int(m.Game.Seed%300), Scores: []float64{1200, 800}}
		if err := db.FinishMatch(m.ID, res, nil, 30*time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
	return svc, ev.ID
}

// BenchmarkEventView5000 measures one refresh of the event view of a
// 4 950-game event: the work off the UI thread (database reads, standings,
// rating history, histograms) and the part on it (setting the widgets).
// While an event runs the view refreshes at most every 300 ms.
func BenchmarkEventView5000(b *testing.B) {
	svc, id := bigEvent(b)
	a := test.NewTempApp(b)
	v := newEventView(newUI(a, nil, svc))
	w := test.NewWindow(v.object())
	defer w.Close()
	w.Resize(fyne.NewSize(1200, 780))
	v.id = id
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := loadEventData(svc, v.extra, id); err != nil {
				b.Fatal(err)
			}
		}
	})
	d, err := loadEventData(svc, v.extra, id)
	if err != nil {
		b.Fatal(err)
	}
	if len(d.Outcomes) < 4900 {
		b.Fatalf("%d outcomes", len(d.Outcomes))
	}
	b.Run("apply", func(b *testing.B) {
		for b.Loop() {
			v.apply(d)
		}
	})
}
