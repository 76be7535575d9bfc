package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"ringside/app/service"
	"ringside/engine/event"
)

// TestProjectorFeaturesAGameInPlay: the projector shows the standings in
// words and follows a game in play, the one service.Featured picks; the
// teacher can pin another game in play, and go back to automatic.
func TestProjectorFeaturesAGameInPlay(t *testing.T) {
	_, u := newTestUI(t)
	ev, _, err := u.Jobs.CreateAndStart(service.EventSpec{Name: "Final of 3B", Game: "battle2048", Format: event.League, Games: 1,
		Seed: 9, SeedSet: true, Pace: 4, Concurrency: 2,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	defer u.Jobs.Stop(ev.ID)
	eventually(t, "two games in play", func() bool { return len(u.Svc.Live().Games(ev.ID)) == 2 })
	var p *projector
	onUI(func() { p = openProjector(u, ev.ID, false) })
	defer onUI(func() { p.w.Close() })

	eventuallyUI(t, "a game featured and followed live", func() bool {
		return p.featured != 0 && p.viewer != nil && p.viewer.Live()
	})
	onUI(func() {
		if p.title.Text != "Final of 3B" || !strings.Contains(p.status.Text, "being played") {
			t.Errorf("projector heading %q, status %q", p.title.Text, p.status.Text)
		}
		if !strings.Contains(p.standings.Text, "points from") && !strings.Contains(p.standings.Text, "no game played yet") {
			t.Errorf("standings not in words: %q", p.standings.Text)
		}
		if !strings.Contains(p.gameTitle.Text, "vs") {
			t.Errorf("featured game title %q", p.gameTitle.Text)
		}
		if len(p.pin.Options) != 3 {
			t.Errorf("pin choices %q, want automatic and the two games in play", p.pin.Options)
		}
	})
	// Pin the other game in play.
	var other int64
	onUI(func() {
		for text, id := range p.pinText {
			if id != p.featured && p.isRunning(id) {
				other = id
				p.pin.SetSelected(text)
				return
			}
		}
	})
	if other == 0 {
		t.Fatal("no other game in play to pin")
	}
	eventuallyUI(t, "the pinned game is featured", func() bool {
		return p.featured == other && p.viewer != nil
	})
	onUI(func() { p.pin.SetSelected(projectorAuto) })
	eventuallyUI(t, "automatic again", func() bool {
		return p.pinned == 0 && p.featured != 0
	})
}

// TestProjectorFollowsAnEventPlayedElsewhere: with the event played by
// another process, the projector features its game in play all the same,
// followed through the turns that process saves.
func TestProjectorFollowsAnEventPlayedElsewhere(t *testing.T) {
	_, u := newTestUI(t)
	ev := playElsewhere(t, u, 6)
	eventually(t, "the event runs elsewhere", func() bool { _, running, err := u.Svc.DB().EventHolder(ev.ID); return err == nil && running })

	var p *projector
	onUI(func() { p = openProjector(u, ev.ID, false) })
	defer onUI(func() { p.w.Close() })
	eventuallyUI(t, "a game featured and followed", func() bool {
		return p.featured != 0 && p.viewer != nil && p.viewer.Live()
	})
	if u.Jobs.Running(ev.ID) {
		t.Error("the projector started the event here too")
	}
}

// TestProjectorFitsTheBracket: at 1024×768 the projector shows a
// bracket's whole tree, champion included, not a scroll cut off at the
// pane's edge: a Grip heat of 4 in the usual 40% of the width, a knockout
// of 8 by taking room from the game, up to half of it.
func TestProjectorFitsTheBracket(t *testing.T) {
	_, u := newTestUI(t)
	for _, tc := range []struct {
		name, game string
		entries    int
		wider      bool
	}{
		{"Grip heat of 4", "grip", 4, false},
		{"knockout of 8", "battle2048", 8, true},
	} {
		var entries []string
		for i := range tc.entries {
			entries = append(entries, "builtin:"+tc.game+"/"+[]string{"greedy", "random"}[i%2])
		}
		ev, _, err := u.Jobs.CreateAndStart(service.EventSpec{Name: tc.name, Game: tc.game, Format: event.Bracket, Games: 1,
			Seed: 9, SeedSet: true, Pace: 4, Concurrency: 1, Entries: entries})
		if err != nil {
			t.Fatal(err)
		}
		var p *projector
		onUI(func() {
			p = openProjector(u, ev.ID, true)
			p.w.Resize(fyne.NewSize(1024, 768))
		})
		eventuallyUI(t, tc.name+": the whole tree in its pane", func() bool {
			view := p.treeBox.Size()
			need := p.bracket.MinSize()
			return p.data != nil && p.data.tree != nil && view.Width > 0 && need.Width <= view.Width && need.Height <= view.Height
		})
		onUI(func() {
			if wider := p.split.Offset > 0.4; wider != tc.wider {
				t.Errorf("%s: the standings and tree take %.0f%% of the width", tc.name, 100*p.split.Offset)
			}
			if p.split.Offset > projectorTreeRoom {
				t.Errorf("%s: the tree takes %.0f%% of the width from the game", tc.name, 100*p.split.Offset)
			}
			p.w.Close()
		})
		u.Jobs.Stop(ev.ID)
	}
}
