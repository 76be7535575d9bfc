package chart

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine/event"
)

// sampleTree plays the first games of a sample bracket and returns its
// tree after played outcomes.
func sampleTree(t testing.TB, n, seats, games, played int) event.BracketTree {
	t.Helper()
	cfg, done := sampleEvent(t, event.Bracket, n, seats, games)
	if played < len(done) {
		done = done[:played]
	}
	tree, err := event.Tree(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// newBracketWindow shows a new bracket tree in a scroll of a test window
// of the given size, closed when the test ends.
func newBracketWindow(t *testing.T, width, height float32) (*BracketTree, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	b := NewBracketTree()
	return b, chartWindow(t, container.NewScroll(b), width, height)
}

func TestBracketTreeShots(t *testing.T) {
	b, w := newBracketWindow(t, 1000, 600)
	// An entry that went through has the theme's primary colour beside it.
	primary := func() []color.NRGBA { return []color.NRGBA{paint.NRGBA(theme.Color(theme.ColorNamePrimary))} }
	b.SetTree(sampleTree(t, 7, 2, 3, 1000), sampleNames)
	shotThemes(t, w, "bracket", primary)
	b.SetTree(sampleTree(t, 8, 2, 3, 10), sampleNames)
	shotThemes(t, w, "bracket_live", primary)
	b.SetTree(sampleTree(t, 6, 4, 2, 1000), sampleNames)
	shotThemes(t, w, "bracket_heats", primary)
	names := make([]string, 24)
	for i := range names {
		names[i] = sampleName(i)
	}
	b.SetTree(sampleTree(t, 22, 4, 1, 60), names)
	shotThemes(t, w, "bracket_heats_big", primary)
	b.SetTree(sampleTree(t, 13, 2, 1, 1000), names)
	shotThemes(t, w, "bracket_big", primary)
}

func TestBracketTreeGolden(t *testing.T) {
	test.NewTempApp(t)
	b := NewBracketTree()
	// 6 entries, best of 1, part played: byes, decided and open matches.
	b.SetTree(sampleTree(t, 6, 2, 1, 6), sampleNames)
	w := chartWindow(t, container.NewScroll(b), 1000, 480)
	test.AssertImageMatches(t, "bracket.png", w.Canvas().Capture())
}

// texts returns the visible texts of the bracket's rows, box by box.
func bracketTexts(r *bracketRenderer) [][]string {
	var out [][]string
	for _, box := range r.boxes[:r.nBoxes] {
		var rows []string
		for _, row := range box.rows[:box.used] {
			rows = append(rows, row.name.Text+" "+row.pts.Text)
		}
		out = append(out, rows)
	}
	return out
}

func TestBracketTreeFillsIn(t *testing.T) {
	b, _ := newBracketWindow(t, 800, 600)
	r := b.r
	if !r.empty.Visible() {
		t.Error("an empty bracket does not say so")
	}
	cfg, done := sampleEvent(t, event.Bracket, 8, 2, 1)
	start, err := event.Tree(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.SetTree(start, sampleNames)
	if r.empty.Visible() {
		t.Error("a bracket with a tree says it is empty")
	}
	// 4 + 2 + 1 matches and the champion.
	if r.nBoxes != 8 {
		t.Fatalf("%d boxes for an 8-entry bracket, want 8", r.nBoxes)
	}
	dashes := 0
	for _, rows := range bracketTexts(r) {
		for _, s := range rows {
			if strings.HasPrefix(s, "—") {
				dashes++
			}
		}
	}
	if dashes != 2+4+1 { // semi-final and final slots, the champion
		t.Errorf("%d undecided slots before any game, want 7", dashes)
	}
	first := r.boxes[0].bg
	size := b.MinSize()

	end, err := event.Tree(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	b.SetTree(end, sampleNames)
	if r.boxes[0].bg != first {
		t.Error("a later tree of the same shape made new boxes")
	}
	if b.MinSize() != size {
		t.Errorf("size changed from %v to %v as games finished", size, b.MinSize())
	}
	champ := r.boxes[r.nBoxes-1].rows[0]
	if want := sampleNames[end.Champion]; champ.name.Text != want || !champ.name.TextStyle.Bold {
		t.Errorf("champion box shows %q (bold %v), want %q in bold", champ.name.Text, champ.name.TextStyle.Bold, want)
	}
	// Every decided match highlights exactly its winner.
	k := 0
	for _, round := range end.Rounds {
		for _, m := range round.Matches {
			box := r.boxes[k]
			k++
			bold := 0
			for i, row := range box.rows[:box.used] {
				if row.name.TextStyle.Bold {
					bold++
					if m.Entries[i] != m.Advance[0] {
						t.Errorf("%s is bold but %s won", row.name.Text, sampleNames[m.Advance[0]])
					}
				}
			}
			if bold != 1 {
				t.Errorf("match %v: %d rows bold, want the winner's", m.Entries, bold)
			}
		}
	}
	// Boxes never overlap, and all lie within MinSize.
	for i, a := range r.boxes[:r.nBoxes] {
		if a.pos.X+a.size.Width > size.Width || a.pos.Y+a.size.Height > size.Height {
			t.Errorf("box %d reaches %v, beyond the min size %v", i, a.pos.Add(a.size), size)
		}
		for _, c := range r.boxes[i+1 : r.nBoxes] {
			if a.pos.X < c.pos.X+c.size.Width && c.pos.X < a.pos.X+a.size.Width &&
				a.pos.Y < c.pos.Y+c.size.Height && c.pos.Y < a.pos.Y+a.size.Height {
				t.Errorf("boxes at %v and %v overlap", a.pos, c.pos)
			}
		}
	}
	// A bigger bracket needs more room: the scroll container scrolls.
	names := make([]string, 32)
	for i := range names {
		names[i] = sampleName(i)
	}
	big, err := event.Tree(event.Config{Format: event.Bracket, Entries: entriesNamed(names), Seats: 2, Games: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.SetTree(big, names)
	if got := b.MinSize(); got.Height <= size.Height*2 || got.Width <= size.Width {
		t.Errorf("32-entry bracket min size %v, not much bigger than 8-entry %v", got, size)
	}
}

// entriesNamed makes event entries with the names.
func entriesNamed(names []string) []event.Entry {
	es := make([]event.Entry, len(names))
	for i, n := range names {
		es[i].Name = n
	}
	return es
}

func TestPointsText(t *testing.T) {
	cases := []struct {
		p    float64
		two  bool
		want string
	}{
		{0, true, "0"}, {0.5, true, "½"}, {1, true, "1"}, {2.5, true, "2½"}, {1.9999999999, true, "2"},
		{10.5, true, "10½"}, {2.3333333, false, "2.3"}, {2, false, "2.0"}, {-0.01, false, "0.0"},
	}
	for _, c := range cases {
		if got := pointsText(c.p, c.two); got != c.want {
			t.Errorf("pointsText(%v, %v) = %q, want %q", c.p, c.two, got, c.want)
		}
	}
}

func TestMatchFooter(t *testing.T) {
	cases := []struct {
		m     event.Match
		final bool
		want  string
	}{
		{event.Match{Entries: []int{0, -1}, Bye: true, Decided: true, Rule: "bye"}, false, "no game"},
		{event.Match{Entries: []int{-1, -1}}, false, "waiting"},
		{event.Match{Entries: []int{0, 1}, Games: []int{0, 1, 2, 3}, Played: 1}, false, "1 of 4 games"},
		{event.Match{Entries: []int{0, 1}, Games: []int{0, 1}, Played: 2}, false, "level after 2 games: tie-break"},
		{event.Match{Entries: []int{0, 1}, Games: []int{0, 1, 2, 3}, Played: 4, Decided: true, Rule: "tiebreak", Tiebreaks: 1}, false, "4 games, 1 tie-break"},
		{event.Match{Entries: []int{0, 1}, Games: []int{0, 1}, Played: 2, Decided: true, Rule: "seed"}, false, "level: higher seed"},
		{event.Match{Entries: []int{0, 1, 2, 3}, Games: []int{0, 1, 2, 3}, Played: 4, Decided: true, Rule: "heat"}, true, "4 games, podium"},
	}
	for _, c := range cases {
		if got := matchFooter(&c.m, c.final); got != c.want {
			t.Errorf("matchFooter(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}

// TestBracketTreeLabelsSeeds: the numbers beside names are seeds, and say
// so; the champion's box names its seed and shows no rank like "1=".
func TestBracketTreeLabelsSeeds(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		name                string
		n, seats, games, of int
	}{
		{"two seats", 7, 2, 3, 1000},
		{"heats", 6, 4, 2, 1000},
	} {
		b := NewBracketTree()
		chartWindow(t, container.NewScroll(b), 1000, 600)
		tree := sampleTree(t, tc.n, tc.seats, tc.games, tc.of)
		if tree.Champion < 0 {
			t.Fatalf("%s: the sample bracket has no champion", tc.name)
		}
		b.SetTree(tree, sampleNames)
		r := b.r
		seeds := 0
		for _, box := range r.boxes[:r.nBoxes] {
			for _, row := range box.rows[:box.used] {
				s := row.seed.Text
				if row.seed.Visible() && s != "" {
					seeds++
					if !strings.HasPrefix(s, "seed ") {
						t.Errorf("%s: %q beside %q: a bare number reads as a place", tc.name, s, row.name.Text)
					}
				}
				for _, txt := range []string{row.seed.Text, row.name.Text, row.pts.Text} {
					if strings.HasSuffix(txt, "=") {
						t.Errorf("%s: %q in the bracket", tc.name, txt)
					}
				}
			}
		}
		if seeds == 0 {
			t.Errorf("%s: no seeds shown", tc.name)
		}
		champ := r.boxes[r.nBoxes-1]
		want := fmt.Sprintf("seed %d", tree.Champion+1)
		if got := champ.rows[0].name.Text; got != sampleNames[tree.Champion] {
			t.Errorf("%s: champion box shows %q, want %q", tc.name, got, sampleNames[tree.Champion])
		}
		if !strings.Contains(champ.footer.Text, want) {
			t.Errorf("%s: champion footer %q, want it to name %q", tc.name, champ.footer.Text, want)
		}
	}
}

// TestBracketChampionFooterFits: with short names the champion's box is
// still wide enough for "wins the event · seed N".
func TestBracketChampionFooterFits(t *testing.T) {
	b, _ := newBracketWindow(t, 1000, 600)
	b.SetTree(sampleTree(t, 4, 2, 1, 1000), []string{"a r1", "b r1", "c r1", "d r1"})
	r := test.WidgetRenderer(b).(*bracketRenderer)
	found := false
	for _, box := range r.boxes[:r.nBoxes] {
		if !strings.HasPrefix(box.footer.Text, "wins the event") {
			continue
		}
		found = true
		need := fyne.MeasureText(box.footer.Text, box.footer.TextSize, box.footer.TextStyle).Width
		if box.size.Width < need {
			t.Errorf("champion box %v wide, its footer %q needs %v", box.size.Width, box.footer.Text, need)
		}
	}
	if !found {
		t.Fatal("no champion box")
	}
}

// TestBracketTreeShrinksToFit: with MinScale the whole tree, champion
// included, fits a pane narrower than it (the projector's at 1024
// pixels), type and all smaller, down to MinScale and no further; given
// room it is drawn at full size; without MinScale it keeps its size and
// scrolls.
func TestBracketTreeShrinksToFit(t *testing.T) {
	test.NewTempApp(t)
	tree := sampleTree(t, 4, 2, 1, 1000)
	full := NewBracketTree()
	chartWindow(t, container.NewScroll(full), 1400, 900)
	full.SetTree(tree, sampleNames[:4])
	natural := test.WidgetRenderer(full).MinSize()

	for _, tc := range []struct {
		name          string
		minScale      float32
		width, height float32
		wantK         func(k float32) bool
	}{
		{"narrow pane", 0.5, 420, 300, func(k float32) bool { return k < 1 && k >= 0.5 }},
		{"room to spare", 0.5, 1400, 900, func(k float32) bool { return k == 1 }},
		{"too narrow even at MinScale", 0.5, 150, 300, func(k float32) bool { return k == 0.5 }},
		{"no MinScale", 0, 420, 300, func(k float32) bool { return k == 1 }},
	} {
		b := NewBracketTree()
		b.MinScale = tc.minScale
		scroll := container.NewScroll(b)
		chartWindow(t, scroll, tc.width, tc.height)
		b.SetTree(tree, sampleNames[:4])
		r := test.WidgetRenderer(b).(*bracketRenderer)
		if !tc.wantK(r.k) {
			t.Errorf("%s: drawn at scale %v", tc.name, r.k)
		}
		if r.k < 1 {
			view := scroll.Size()
			if r.min.Width > view.Width || r.min.Height > view.Height {
				if r.k > tc.minScale {
					t.Errorf("%s: tree %v at scale %v does not fit the pane %v", tc.name, r.min, r.k, view)
				}
			}
			champ := r.boxes[r.nBoxes-1]
			if right := champ.pos.X + champ.size.Width; r.k > tc.minScale && right > view.Width {
				t.Errorf("%s: champion's box ends at %v, past the pane's %v", tc.name, right, view.Width)
			}
			if got, want := champ.rows[0].name.TextSize, theme.TextSize()*r.k; got != want {
				t.Errorf("%s: names %v high at scale %v, want %v", tc.name, got, r.k, want)
			}
		}
		if tc.minScale == 0 && r.min != natural {
			t.Errorf("%s: tree %v, want its full size %v", tc.name, r.min, natural)
		}
		if got := r.MinSize(); tc.minScale > 0 && r.k == tc.minScale && got != r.min {
			t.Errorf("%s: MinSize %v, want the tree at MinScale, %v", tc.name, got, r.min)
		}
	}
}
