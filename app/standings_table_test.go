package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
)

// TestStandingsMarkTrusted: an entry that ran without the sandbox is
// marked in the standings, and the note says what the mark means.
func TestStandingsMarkTrusted(t *testing.T) {
	tests := []struct {
		name      string
		ev        service.EventInfo
		wantMarks []bool
	}{
		// The service marks each entry of a trusted event trusted
		// (TestEventInfoTrusted).
		{"sandboxed", service.EventInfo{Entries: []service.EntryInfo{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2"}}}, []bool{false, false}},
		{"one AI trusted", service.EventInfo{Entries: []service.EntryInfo{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2", Trusted: true}}}, []bool{false, true}},
		{"trusted event", service.EventInfo{Trusted: true, Entries: []service.EntryInfo{{Index: 0, Name: "alice r1", Trusted: true}, {Index: 1, Name: "bob r2", Trusted: true}}}, []bool{true, true}},
	}
	table := event.Table{Seats: 2, Rows: []event.Standing{{Entry: 1, Name: "bob r2", Rank: 1, Games: 2}, {Entry: 0, Name: "alice r1", Rank: 2, Games: 2}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *standingsTable
			onUI(func() {
				s = newStandingsTable()
				s.set(tt.ev, table, nil)
			})
			any := false
			for row, r := range table.Rows {
				name := s.cell(row, colName)
				want := tt.wantMarks[r.Entry]
				any = any || want
				if strings.HasSuffix(name, " (trusted)") != want {
					t.Errorf("%s shows as %q, trusted %v", r.Name, name, want)
				}
			}
			if strings.Contains(s.note.Text, "(trusted) marks") != any {
				t.Errorf("note = %q", s.note.Text)
			}
		})
	}
}

// TestStandingsFitTheWindow: on a 1024-pixel screen, where the events list
// leaves the table about 690 pixels, the standings keep place, name, score,
// strength, surely ahead and problems in view and leave out the columns
// that repeat them; a wide window shows every column.
func TestStandingsFitTheWindow(t *testing.T) {
	tests := []struct {
		width float32
		want  []string
	}{
		{1200, []string{"Place", "Name", "Games", "Score", "Points", "1st · 2nd · 3rd · 4th", "Strength", "Surely ahead", "Problems"}},
		{690, []string{"Place", "Name", "Games", "Score", "Strength", "Surely ahead", "Problems"}},
	}
	table := event.Table{Seats: 4, Rows: []event.Standing{{Entry: 0, Name: "alice r1", Rank: 1, Games: 4, Places: []int{2, 1, 1, 0}}}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			var titles []string
			onUI(func() {
				s := newStandingsTable()
				s.set(service.EventInfo{}, table, nil)
				w := test.NewTempWindow(t, s.object())
				w.Resize(fyne.NewSize(tt.width, 400))
				for _, c := range s.cols {
					titles = append(titles, s.title(c))
				}
			})
			if !slices.Equal(titles, tt.want) {
				t.Errorf("at %v pixels the columns are %q, want %q", tt.width, titles, tt.want)
			}
		})
	}
}

// TestEventViewFitsAProjector: an event's screen, buttons and standings,
// is no wider than the window the app opens at on a 1024×768 projector.
func TestEventViewFitsAProjector(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	onUI(func() { w.Resize(fyne.NewSize(1000, 700)) })
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Name: "Class 3B", Game: "grip", Format: event.League, Games: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	onUI(func() { u.tabs.SelectIndex(1); u.events.selectEvent(ev.ID) })
	eventuallyUI(t, "the event is shown", func() bool {
		return u.events.detail.title.Text == "Class 3B"
	})
	onUI(func() {
		if min := w.Content().MinSize().Width; min > 1000 {
			t.Errorf("the events screen needs %v pixels, more than the 1000 of the window", min)
		}
	})
}

// TestStandingsSayWhatDoesNotFit: at a projector's width the columns the
// table leaves out (Points, the count of each place) are named under it
// and shown for the row selected, never dropped silently; a wide window
// shows them in the table and no such line.
func TestStandingsSayWhatDoesNotFit(t *testing.T) {
	table := event.Table{Seats: 4, Rows: []event.Standing{
		{Entry: 0, Name: "carol r1", Rank: 1, Games: 6, Points: 12, Places: []int{3, 2, 1, 0}},
		{Entry: 1, Name: "dave r1", Rank: 2, Games: 6, Points: 7, Places: []int{1, 1, 2, 2}}}}
	for _, tt := range []struct {
		width              float32
		shown              bool
		unselected, second string
	}{
		{1200, false, "", ""},
		{690, true, "Points and 1st · 2nd · 3rd · 4th do not fit this width: select a row to see them here.",
			"dave r1 · Points: 7 · 1st · 2nd · 3rd · 4th: 1 · 1 · 2 · 2"},
	} {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			onUI(func() {
				s := newStandingsTable()
				s.set(service.EventInfo{}, table, nil)
				w := test.NewTempWindow(t, s.object())
				w.Resize(fyne.NewSize(tt.width, 400))
				if s.detail.Visible() != tt.shown {
					t.Fatalf("at %v pixels the line of what does not fit is shown %v (%q)", tt.width, s.detail.Visible(), s.detail.Text)
				}
				if !tt.shown {
					return
				}
				if s.detail.Text != tt.unselected {
					t.Errorf("with no row selected: %q, want %q", s.detail.Text, tt.unselected)
				}
				s.table.Select(widget.TableCellID{Row: 1, Col: 1})
				if s.detail.Text != tt.second {
					t.Errorf("with dave selected: %q, want %q", s.detail.Text, tt.second)
				}
			})
		})
	}
}

// TestStandingsPlacesInSportsNotation: the place column shows 1, 2, 2, 4
// (shared only on equal scores), never "1=" on rows the games have not
// separated yet.
func TestStandingsPlacesInSportsNotation(t *testing.T) {
	table := event.Table{Format: event.League, Seats: 2, Rows: []event.Standing{
		{Entry: 0, Name: "alice r1", Rank: 1, Games: 3, Score: 0.8, Tied: true, LOS: 0.7},
		{Entry: 1, Name: "bob r1", Rank: 2, Games: 3, Score: 0.5, Tied: true, LOS: 0.5},
		{Entry: 2, Name: "carol r1", Rank: 2, Games: 3, Score: 0.5, Tied: true, LOS: 0.6},
		{Entry: 3, Name: "dave r1", Rank: 4, Games: 3, Score: 0.2},
	}}
	ev := service.EventInfo{Status: service.EventRunning}
	var s *standingsTable
	onUI(func() {
		s = newStandingsTable()
		s.set(ev, table, nil)
	})
	var got []string
	for row := range table.Rows {
		got = append(got, s.cell(row, colPlace))
	}
	if strings.Join(got, ",") != "1,2,2,4" {
		t.Errorf("places = %v, want 1,2,2,4", got)
	}
}

// TestRatingChartReadableOnAProjector: in the window the app opens at on
// a 1024×768 projector, the rating chart has a tab of its own and most of
// the window's height (it was about 45 pixels tall beside the histograms),
// with its axes named.
func TestRatingChartReadableOnAProjector(t *testing.T) {
	w, u := newTestUI(t)
	onUI(func() { w.Resize(fyne.NewSize(1000, 700)) })
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Name: "Class 3B", Game: "grip", Format: event.League, Games: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	onUI(func() { u.tabs.SelectIndex(1); u.events.selectEvent(ev.ID) })
	eventuallyUI(t, "the event is shown", func() bool {
		return u.events.detail.title.Text == "Class 3B"
	})
	onUI(func() {
		v := u.events.detail
		var tab *container.TabItem
		for _, it := range v.tabs.Items {
			if it.Text == "Ratings" {
				tab = it
			}
		}
		if tab == nil {
			t.Fatal("no Ratings tab")
		}
		v.tabs.Select(tab)
		rating := v.extra.rating
		if h := rating.Size().Height; h < 0.5*w.Canvas().Size().Height {
			t.Errorf("the rating chart is %v pixels tall in a %v window, want half its height or more", h, w.Canvas().Size())
		}
		var texts []string
		walk(t, rating, func(o fyne.CanvasObject) {
			if x, ok := o.(*canvas.Text); ok {
				texts = append(texts, x.Text)
			}
		})
		for _, want := range []string{"games played", "rating (Elo scale)"} {
			if !slices.Contains(texts, want) {
				t.Errorf("the rating chart does not name its axis %q: %q", want, texts)
			}
		}
	})
}
