package chart

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine/event"
)

// sampleCross is the heat map data of a sample league: labels in
// standings order and the score fractions.
func sampleCross(t testing.TB, n, seats, games int) ([]string, [][]*float64) {
	cfg, done := sampleEvent(t, event.League, n, seats, games)
	tab, err := event.Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	var labels []string
	for _, row := range tab.Rows {
		order = append(order, row.Entry)
		labels = append(labels, row.Name)
	}
	return labels, CrossFractions(tab.Cross, order)
}

func TestHeatMapShots(t *testing.T) {
	test.NewTempApp(t)
	h := NewHeatMap("Head to head")
	for _, n := range []int{8, 4} {
		labels, cells := sampleCross(t, n, 2, 6)
		h.SetData(labels, cells)
		w := chartWindow(t, h, 1000, 600)
		// Every pairing's cell, in its score's colour.
		shotThemes(t, w, "heat"+map[int]string{8: "", 4: "4"}[n], func() []color.NRGBA {
			var cols []color.NRGBA
			for _, row := range cells {
				for _, v := range row {
					if v != nil {
						cols = append(cols, scoreColour(*v))
					}
				}
			}
			return cols
		})
	}
}

// cellOf is a pointer to v, for heat map cells.
func cellOf(v float64) *float64 { return &v }

func TestHeatMapGolden(t *testing.T) {
	test.NewTempApp(t)
	h := NewHeatMap("Head to head")
	h.SetData([]string{"deepgrip-v7", "alice", "bob", "a-rather-long-name-for-a-bot"}, [][]*float64{
		{nil, cellOf(0.75), cellOf(0.5), cellOf(1)},
		{cellOf(0.25), nil, nil, cellOf(0.625)},
		{cellOf(0.5), nil, nil, cellOf(0.4)},
		{cellOf(0), cellOf(0.375), cellOf(0.6), nil},
	})
	w := chartWindow(t, h, 640, 400)
	test.AssertImageMatches(t, "heatmap.png", w.Canvas().Capture())
}

func TestCrossFractions(t *testing.T) {
	c := func(p float64, g int) event.Cell { return event.Cell{Points: p, Games: g} }
	cross := event.Crosstable{Cells: [][]event.Cell{
		{c(0, 0), c(3, 4), c(0, 0)},
		{c(1, 4), c(0, 0), c(0.5, 2)},
		{c(0, 0), c(1.5, 2), c(0, 0)},
	}}
	got := CrossFractions(cross, []int{1, 0, 2})
	want := [][]float64{ // −1: nil
		{-1, 0.25, 0.25},
		{0.75, -1, -1},
		{0.75, -1, -1},
	}
	for i := range want {
		for j, w := range want[i] {
			g := got[i][j]
			switch {
			case w < 0 && g != nil:
				t.Errorf("cell %d,%d = %v, want none", i, j, *g)
			case w >= 0 && (g == nil || *g != w):
				t.Errorf("cell %d,%d = %v, want %v", i, j, g, w)
			}
		}
	}
}

// TestScoreColours checks the diverging scale in both themes: red below
// half, blue above, neutral at half, stronger further from it, and the
// printed percentage readable on every cell colour.
func TestScoreColours(t *testing.T) {
	test.NewTempApp(t)
	for _, th := range []struct {
		name  string
		theme fyne.Theme
	}{{"light", paint.Variant(theme.VariantLight)}, {"dark", paint.Variant(theme.VariantDark)}} {
		test.ApplyTheme(t, th.theme)
		mid := scoreColour(0.5)
		dist := func(c color.NRGBA) float64 {
			dr, dg, db := float64(c.R)-float64(mid.R), float64(c.G)-float64(mid.G), float64(c.B)-float64(mid.B)
			return math.Sqrt(dr*dr + dg*dg + db*db)
		}
		if d := max(mid.R, mid.G, mid.B) - min(mid.R, mid.G, mid.B); d > 8 {
			t.Errorf("%s: 50%% is %v, not a neutral grey", th.name, mid)
		}
		prev := 0.0
		for k := 1; k <= 10; k++ {
			lo, hi := scoreColour(0.5-float64(k)*0.05), scoreColour(0.5+float64(k)*0.05)
			if lo.R <= lo.B {
				t.Errorf("%s: %d%% is %v, not red", th.name, 50-5*k, lo)
			}
			if hi.B <= hi.R {
				t.Errorf("%s: %d%% is %v, not blue", th.name, 50+5*k, hi)
			}
			if d := min(dist(lo), dist(hi)); d <= prev {
				t.Errorf("%s: %d%% from even is no stronger than %d%%", th.name, 5*k, 5*(k-1))
			} else {
				prev = d
			}
		}
		for v := 0.0; v <= 1; v += 0.05 {
			fill := scoreColour(v)
			if cr := contrastRatio(cellText(fill), fill); cr < 4.5 {
				t.Errorf("%s: text on %.0f%% has contrast %.1f, want ≥ 4.5", th.name, v*100, cr)
			}
		}
		if got := scoreColour(-3); got != scoreColour(0) {
			t.Errorf("%s: −300%% is %v, want clamped to 0%%'s %v", th.name, got, scoreColour(0))
		}
	}
}

func TestHeatMapHidesWhatDoesNotFit(t *testing.T) {
	test.NewTempApp(t)
	h := NewHeatMap("Many")
	n := 40
	labels := make([]string, n)
	cells := make([][]*float64, n)
	for i := range n {
		labels[i] = sampleName(i)
		cells[i] = make([]*float64, n)
		for j := range n {
			if i != j {
				cells[i][j] = cellOf(float64((i*7+j*3)%11) / 10)
			}
		}
	}
	h.SetData(labels, cells)
	chartWindow(t, h, 700, 500)
	r := h.r
	if !r.numbered {
		t.Error("40 columns of names in 700 units are not numbered")
	}
	for i, txt := range r.texts {
		if txt.Visible() && txt.MinSize().Width > r.rects[i].Size().Width {
			t.Fatalf("cell %d shows %q wider than the cell", i, txt.Text)
		}
	}
	// Visible row labels never overlap.
	var last float32 = -1
	for _, l := range r.rowLabels {
		if !l.Visible() {
			continue
		}
		if l.Position().Y < last {
			t.Fatalf("row label %q at y %v overlaps the one above (ends %v)", l.Text, l.Position().Y, last)
		}
		last = l.Position().Y + l.MinSize().Height
	}
	// Same size, new values: the cells are reused.
	first := r.rects[1]
	cells[0][1] = cellOf(0.1)
	h.SetData(labels, cells)
	if r.rects[1] != first || paint.NRGBA(first.FillColor) != scoreColour(0.1) {
		t.Error("new values did not recolour the same cell")
	}
}
