package app

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/storage"
)

// TestProjectorFeaturesAGameInPlay: the projector shows the standings in
// words and follows a game in play, the one service.Featured picks; the
// teacher can pin another game in play, and go back to automatic.
func TestProjectorFeaturesAGameInPlay(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	// A turn every 2 s: greedy ends random's game in 24 to 62 turns,
	// which at 4 turns a second was over before a machine busy with a CPU
	// hog had opened the projector (it offered one game in play of two).
	ev, _, err := u.Jobs.CreateAndStart(service.EventSpec{Name: "Final of 3B", Game: "battle2048", Format: event.League, Games: 1,
		Seed: 9, SeedSet: true, Pace: 0.5, Concurrency: 2,
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
	t.Parallel()
	_, u := newTestUI(t)
	ev, _ := playElsewhere(t, u, 6)
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
	t.Parallel()
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

// TestProjectorShowsAWholeClass: a class of 30, with games played (each
// sentence wraps onto two lines), is on the projector over pages ("Page 1
// of 5") that turn by themselves, every name on one of them and each page
// whole in its pane at 1024×768, not cut after the 12th with "and 18
// more" nor at the pane's foot.
func TestProjectorShowsAWholeClass(t *testing.T) {
	old := projectorPageEvery
	projectorPageEvery = time.Millisecond
	t.Cleanup(func() { projectorPageEvery = old })
	_, u := newTestUI(t)
	var entries []string
	for i := range 30 {
		entries = append(entries, fmt.Sprintf("pupil%02d=builtin:battle2048/%s", i+1, []string{"greedy", "random"}[i%2]))
	}
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Name: "Class of 30", Game: "battle2048", Format: event.League, Games: 1,
		Seed: 9, SeedSet: true, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := u.Svc.DB().Matches(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:90] {
		if err := u.Svc.DB().FinishMatch(m.ID, engine.Result{Ranks: []int{1, 2}, Turns: 10}, nil, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	var p *projector
	onUI(func() {
		p = openProjector(u, ev.ID, false)
		p.w.Resize(fyne.NewSize(1024, 768))
	})
	defer onUI(func() { p.w.Close() })
	seen := map[string]bool{}
	pages := map[int]bool{}
	pageLine := regexp.MustCompile(`^Page (\d+) of (\d+) ·`)
	n := 0
	eventuallyUI(t, "every page shown by itself", func() bool {
		if p.data == nil || p.standingsBox.Size().Height == 0 {
			return false
		}
		got, room := p.standings.MinSize().Height, p.standingsBox.Size().Height
		if got > room {
			return false // fewer to a page on the next turn
		}
		m := pageLine.FindStringSubmatch(p.more.Text)
		if m == nil || m[1] != fmt.Sprint(p.page+1) {
			t.Fatalf("page line %q on page %d", p.more.Text, p.page+1)
		}
		if of := m[2]; of != fmt.Sprint(n) {
			n, seen, pages = p.pages(), map[string]bool{}, map[int]bool{} // the page size settled: count afresh
		}
		pages[p.page] = true
		for _, line := range strings.Split(p.standings.Text, "\n") {
			line = strings.TrimPrefix(line, "joint ")
			_, rest, _ := strings.Cut(line, " ") // "1st alice: …"
			name, _, _ := strings.Cut(rest, ":")
			seen[name] = true
		}
		return len(pages) == n
	})
	if n < 3 {
		t.Errorf("30 sentences of two lines on %d pages", n)
	}
	// A page stays its while: the next turn comes once, not at every
	// reading of the standings after the first turn.
	onUI(func() {
		projectorPageEvery = time.Hour
		p.showPage(0)
		p.pageAt = time.Now().Add(-2 * time.Hour)
		p.apply(p.data)
		p.apply(p.data)
		if p.page != 1 {
			t.Errorf("a page overdue, then read twice: page %d, want 2", p.page+1)
		}
	})
	for _, e := range entries {
		name, _, _ := strings.Cut(e, "=")
		if !seen[name] {
			t.Errorf("%s is on no page of the projector (seen %v)", name, seen)
		}
	}
}

// TestProjectorPacesARunningEvent: the teacher speeds a running event up
// from the projector, its game in play included: an event paced at a
// quarter of a turn a second (40 rounds: minutes a game) finishes once
// set to as fast as the bots answer, and keeps that pace.
func TestProjectorPacesARunningEvent(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	ev, _, err := u.Jobs.CreateAndStart(pacedGame(0.25, "40"))
	if err != nil {
		t.Fatal(err)
	}
	defer u.Jobs.Stop(ev.ID)
	eventually(t, "a game in play", func() bool { return len(u.Svc.Live().Games(ev.ID)) == 1 })
	var p *projector
	onUI(func() { p = openProjector(u, ev.ID, false) })
	defer onUI(func() { p.w.Close() })
	eventuallyUI(t, "the pace is shown", func() bool { return p.paceText.Text == "Pace: 0.25 turns a second" })
	onUI(func() {
		test.Tap(p.slower)
		if p.paceText.Text != "Pace: 0.25 turns a second" {
			t.Errorf("slower than the slowest: %q", p.paceText.Text)
		}
		want := []string{"0.5 turns a second", "1 turn a second", "2 turns a second", "4 turns a second", "8 turns a second", "16 turns a second",
			"32 turns a second", "as fast as the bots answer"}
		for _, w := range want {
			test.Tap(p.faster)
			if p.paceText.Text != "Pace: "+w {
				t.Errorf("faster: %q, want %q", p.paceText.Text, "Pace: "+w)
			}
		}
	})
	eventually(t, "the event finishes at full speed", func() bool {
		e, err := u.Svc.DB().Event(ev.ID)
		return err == nil && e.Status == storage.EventFinished
	})
	if e, err := u.Svc.DB().Event(ev.ID); err != nil || e.Pace != 0 {
		t.Errorf("the event's stored pace is %v (%v), want 0", e.Pace, err)
	}
}

// TestProjectorPagesGrowBack: the projector's page takes fewer standings
// in a smaller window, and as many as before when the window grows back
// (it kept the smallest page size it had known).
func TestProjectorPagesGrowBack(t *testing.T) {
	_, u := newTestUI(t)
	var entries []string
	for i := range 30 {
		entries = append(entries, fmt.Sprintf("pupil%02d=builtin:battle2048/%s", i+1, []string{"greedy", "random"}[i%2]))
	}
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Name: "Class of 30", Game: "battle2048", Format: event.League, Games: 1,
		Seed: 9, SeedSet: true, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	var p *projector
	onUI(func() {
		p = openProjector(u, ev.ID, false)
		p.w.Resize(fyne.NewSize(1024, 768))
	})
	defer onUI(func() { p.w.Close() })
	// settled shows the page again until it fits its pane, and returns
	// how many standings a page then takes.
	settled := func(what string, h float32) int {
		onUI(func() { p.w.Resize(fyne.NewSize(1024, h)) })
		fit := 0
		eventuallyUI(t, what, func() bool {
			if p.data == nil || p.standingsBox.Size().Height == 0 {
				return false
			}
			p.showPage(0)
			fit = p.perPage()
			return p.standings.MinSize().Height <= p.standingsBox.Size().Height
		})
		return fit
	}
	big := settled("a page that fits 1024×768", 768)
	small := settled("a page that fits 1024×480", 480)
	again := settled("a page that fits 1024×768 again", 768)
	if small >= big || again != big {
		t.Errorf("standings a page: %d at 768 pixels, %d at 480, %d at 768 again; want fewer at 480, as many again", big, small, again)
	}
}
