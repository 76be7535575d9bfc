package chart

import (
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"ringside/engine/event"
)

// sampleLengths are 400 game lengths in turns: most games run 150 to 250
// turns, a few end early.
func sampleLengths() []int {
	rng := rand.New(rand.NewPCG(3, 4))
	out := make([]int, 400)
	for i := range out {
		v := 200 + 35*rng.NormFloat64()
		if rng.IntN(10) == 0 {
			v = 20 + 60*rng.Float64()
		}
		out[i] = int(math.Max(1, v))
	}
	return out
}

func TestHistogramShots(t *testing.T) {
	test.NewTempApp(t)
	h := NewHistogram("Game length", "turns")
	h.SetData(event.BinInts(sampleLengths(), 24))
	w := chartWindow(t, h, 1000, 600)
	// The bars, in the first series colour.
	shotThemes(t, w, "hist", func() []color.NRGBA { return []color.NRGBA{seriesColour(0)} })
}

func TestHistogramGolden(t *testing.T) {
	test.NewTempApp(t)
	h := NewHistogram("Game length", "turns")
	h.SetData([]float64{0, 20, 40, 60, 80, 100}, []int{3, 12, 0, 7, 1})
	w := chartWindow(t, h, 640, 400)
	test.AssertImageMatches(t, "histogram.png", w.Canvas().Capture())
}

func TestHistogramData(t *testing.T) {
	test.NewTempApp(t)
	h := NewHistogram("Scores", "score")
	w := chartWindow(t, h, 600, 400)
	r := h.r
	h.SetData([]float64{0, 1}, []int{1, 2}) // one edge short
	if !r.frame.empty.Visible() {
		t.Error("mismatched edges and counts are not shown as no data")
	}
	edges, counts := event.BinInts(sampleLengths(), 40)
	h.SetData(edges, counts)
	if r.frame.empty.Visible() {
		t.Error("a histogram with data says it has none")
	}
	// Counts are whole, so y ticks are too.
	for _, v := range r.frame.y.values {
		if v != math.Trunc(v) {
			t.Errorf("y tick %v is not a whole count", v)
		}
	}
	// Bars stand on the axis, side by side, without overlapping, and the
	// tallest bar is the largest count.
	var tallest, tallestH float32
	var prevRight float32
	for i, b := range r.bars[:len(counts)] {
		if counts[i] == 0 {
			continue
		}
		if b.Position().X < prevRight {
			t.Errorf("bar %d starts at %v, before the previous one ends (%v)", i, b.Position().X, prevRight)
		}
		prevRight = b.Position().X + b.Size().Width
		if b.Size().Height > tallestH {
			tallest, tallestH = float32(counts[i]), b.Size().Height
		}
		if bottom := b.Position().Y + b.Size().Height; math.Abs(float64(bottom-(r.frame.plot.Y+r.frame.plotSize.Height))) > chartAxisW {
			t.Errorf("bar %d ends at %v, not on the axis at %v", i, bottom, r.frame.plot.Y+r.frame.plotSize.Height)
		}
	}
	if want := slices.Max(counts); tallest != float32(want) {
		t.Errorf("tallest bar is for count %v, want %d", tallest, want)
	}
	// Narrow bars: no count labels rather than overlapping ones.
	w.Resize(fyne.NewSize(300, 300))
	for i, l := range r.labels[:len(counts)] {
		if l.Visible() && l.MinSize().Width > r.bars[i].Size().Width+histBarGap {
			t.Errorf("count %q shown over a bar %v wide", l.Text, r.bars[i].Size().Width)
		}
	}
}

// TestHistogramShrinks: data with fewer bins than before hides the bars
// and counts the earlier data needed, and more bins show them again.
func TestHistogramShrinks(t *testing.T) {
	test.NewTempApp(t)
	h := NewHistogram("Scores", "score")
	chartWindow(t, h, 600, 400)
	r := h.r
	shown := func() (bars, labels int) {
		for i := range r.bars {
			if r.bars[i].Visible() {
				bars++
			}
			if r.labels[i].Visible() {
				labels++
			}
		}
		return bars, labels
	}
	for _, tc := range []struct {
		edges  []float64
		counts []int
	}{
		{[]float64{0, 1, 2, 3, 4, 5}, []int{3, 1, 4, 1, 5}},
		{[]float64{0, 10, 20}, []int{2, 7}},
		{[]float64{0, 1, 2, 3, 4}, []int{1, 2, 3, 4}},
	} {
		h.SetData(tc.edges, tc.counts)
		if bars, labels := shown(); bars != len(tc.counts) || labels != len(tc.counts) {
			t.Errorf("%d bins: %d bars and %d counts shown (of %d kept)", len(tc.counts), bars, labels, len(r.bars))
		}
	}
}
