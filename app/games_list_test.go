package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
)

// TestGameRowKeepsItsProblems: in the games list as wide as the event's
// pane at 1024 pixels, a 4-player game's row keeps "dave r1: 1 crash"
// whole on a line of its own, after the places, instead of cutting it
// off with "…" at the end of one long line.
func TestGameRowKeepsItsProblems(t *testing.T) {
	names := []string{"alexandra r3", "benjamin r2", "charlotte r4", "dave r1"}
	var entries []service.EntryInfo
	for i, n := range names {
		entries = append(entries, service.EntryInfo{Index: i, Name: n})
	}
	game := service.GameView{ID: 12, Status: service.GameDone, Game: event.Game{Seats: []int{0, 1, 2, 3}},
		Result:   &engine.Result{Ranks: []int{2, 1, 4, 3}, Reason: "turns", Turns: 200},
		Problems: []service.Problems{{}, {}, {}, {Crashed: 1}}}
	d := &eventData{EventView: &service.EventView{Event: service.EventInfo{Entries: entries}, Games: []service.GameView{game}}}
	onUI(func() {
		g := newGamesList(nil)
		w := test.NewTempWindow(t, g.object())
		w.Resize(fyne.NewSize(760, 400))
		g.set(d)
		var detail *widget.Label
		for _, o := range test.LaidOutObjects(g.list) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "dave r1: 1 crash") {
				detail = l
			}
		}
		if detail == nil {
			t.Fatal("no label of the row holds \"dave r1: 1 crash\"")
		}
		// The same label uncut: the width its text needs.
		whole := widget.NewLabel(detail.Text)
		whole.SizeName, whole.TextStyle = detail.SizeName, detail.TextStyle
		need := whole.MinSize().Width
		if need > detail.Size().Width {
			t.Errorf("%q needs %v pixels, its line has %v: cut", detail.Text, need, detail.Size().Width)
		}
	})
}
