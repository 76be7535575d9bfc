package chart

import (
	"math"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
)

func TestNiceTicks(t *testing.T) {
	cases := []struct {
		lo, hi  float64
		target  int
		minStep float64
		want    []float64
	}{
		{0, 1, 5, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-153, 231, 6, 0, []float64{-200, -100, 0, 100, 200, 300}},
		{17, 672, 8, 0, []float64{0, 100, 200, 300, 400, 500, 600, 700}},
		{0, 0.07, 5, 0, []float64{0, 0.02, 0.04, 0.06, 0.08}},
		{3, 3, 4, 0, []float64{2, 2.5, 3, 3.5, 4}},             // a flat line gets ±1
		{0, 3, 10, 1, []float64{0, 1, 2, 3}},                   // counts: never below 1
		{0, 0, 5, 1, []float64{-1, 0, 1}},                      // no games yet
		{5, 1, 4, 0, []float64{1, 2, 3, 4, 5}},                 // reversed range
		{0, 9.9, 1, 0, []float64{0, 5, 10}},                    // two intervals at least
		{1e6, 4.2e6, 4, 0, []float64{1e6, 2e6, 3e6, 4e6, 5e6}}, // large
		{math.NaN(), 1, 5, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
	}
	for _, c := range cases {
		got := niceTicks(c.lo, c.hi, c.target, c.minStep)
		if !slices.EqualFunc(got.values, c.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Errorf("niceTicks(%v, %v, %d, %v) = %v, want %v", c.lo, c.hi, c.target, c.minStep, got.values, c.want)
			continue
		}
		if got.lo != got.values[0] || got.hi != got.values[len(got.values)-1] {
			t.Errorf("niceTicks(%v, %v): range %v..%v does not end on ticks", c.lo, c.hi, got.lo, got.hi)
		}
	}
	// Whatever the range, the ticks cover it with at most target+1 of
	// them, and the step is 1, 2 or 5 times a power of ten.
	for _, r := range [][2]float64{{-0.3, 0.3}, {0.001, 0.0013}, {-4e5, 17}, {99, 101}, {1, 1e9}} {
		for target := 1; target <= 10; target++ {
			got := niceTicks(r[0], r[1], target, 0)
			if got.lo > r[0] || got.hi < r[1] || len(got.values) > max(target, 2)+1 {
				t.Errorf("niceTicks(%v, %v, %d) = %v", r[0], r[1], target, got.values)
			}
			m := got.step / math.Pow(10, math.Floor(math.Log10(got.step)+1e-9))
			if !slices.ContainsFunc([]float64{1, 2, 5}, func(x float64) bool { return math.Abs(x-m) < 1e-6 }) {
				t.Errorf("niceTicks(%v, %v, %d): step %v is not 1-2-5", r[0], r[1], target, got.step)
			}
		}
	}
}

func TestTickLabel(t *testing.T) {
	cases := []struct {
		v, step float64
		want    string
	}{
		{0.30000000000000004, 0.1, "0.3"},
		{-200, 100, "−200"},
		{2500, 500, "2500"},
		{12000, 2000, "12k"},
		{15000, 5000, "15k"},
		{1.5e6, 5e5, "1.5M"},
		{-1e-17, 0.2, "0.0"}, // no "−0.0"
		{-1e-17, 1, "0"},
		{-0.4, 1, "0"},      // rounds to zero: no "−0"
		{-0.04, 0.1, "0.0"}, // nor "−0.0"
		{-0.6, 1, "−1"},
		{0.05, 0.05, "0.05"},
		{0.4, 0.2, "0.4"},
		{100, 20, "100"},
		{2e-7, 1e-7, "0.0000002"},
	}
	for _, c := range cases {
		if got := tickLabel(c.v, c.step); got != c.want {
			t.Errorf("tickLabel(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

func TestStrideFor(t *testing.T) {
	cases := []struct {
		length float32
		n      int
		room   float32
		want   int
	}{
		{500, 6, 40, 1},  // 100 apart
		{500, 6, 150, 2}, // 100 apart, 150 needed
		{100, 11, 45, 5},
		{100, 1, 500, 1},
		{10, 3, 1000, 3}, // never more than n
	}
	for _, c := range cases {
		if got := strideFor(c.length, c.n, c.room); got != c.want {
			t.Errorf("strideFor(%v, %d, %v) = %d, want %d", c.length, c.n, c.room, got, c.want)
		}
	}
}

// TestSeriesPaletteContrast checks every series colour against its
// theme's background (3:1, the WCAG minimum for graphics) and that the
// colours stay apart from each other.
func TestSeriesPaletteContrast(t *testing.T) {
	test.NewTempApp(t)
	for _, th := range []struct {
		name    string
		theme   fyne.Theme
		palette any
	}{{"light", paint.Variant(theme.VariantLight), seriesLight}, {"dark", paint.Variant(theme.VariantDark), seriesDark}} {
		test.ApplyTheme(t, th.theme)
		bg := theme.Color(theme.ColorNameBackground)
		n := len(seriesLight)
		for i := range n {
			c := seriesColour(i)
			if cr := contrastRatio(c, bg); cr < 3 {
				t.Errorf("%s series %d %v: contrast %.2f with the background, want ≥ 3", th.name, i, c, cr)
			}
			for j := range i {
				o := seriesColour(j)
				dr, dg, db := float64(c.R)-float64(o.R), float64(c.G)-float64(o.G), float64(c.B)-float64(o.B)
				if d := math.Sqrt(dr*dr + dg*dg + db*db); d < 60 {
					t.Errorf("%s series %d %v and %d %v are too alike (distance %.0f)", th.name, i, c, j, o, d)
				}
			}
		}
		if seriesColour(n) != seriesColour(0) || seriesColour(-1) != seriesColour(n-1) {
			t.Errorf("%s: the palette does not wrap around", th.name)
		}
	}
}
