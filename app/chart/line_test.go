package chart

import (
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"ringside/app/internal/paint"
	"ringside/engine/event"
)

// sampleNames are the entries of the sample events, strongest first,
// with one long name to test clipping.
var sampleNames = []string{"deepgrip-v7", "alice", "bob_the_builder", "random",
	"greedy", "minimax-depth-4-with-alpha-beta-pruning", "cautious", "mcts"}

// sampleStrength is each sample entry's Elo, for the simulated referee.
var sampleStrength = []float64{260, 150, 90, 0, 40, 180, -120, 120}

// sampleName is entry i's name: the sample names, then bot-9, bot-10….
func sampleName(i int) string {
	if i < len(sampleNames) {
		return sampleNames[i]
	}
	return "bot-" + strconv.Itoa(i+1)
}

// sampleElo is entry i's strength; the extra bots spread around 0.
func sampleElo(i int) float64 {
	if i < len(sampleStrength) {
		return sampleStrength[i]
	}
	return float64((i*37)%300 - 150)
}

// sampleEvent plays a whole event of the sample entries (the first n)
// with a referee that ranks seats by Elo-sized random draws, so the
// charts show realistic noise. Deterministic.
func sampleEvent(t testing.TB, format event.Format, n, seats, games int) (event.Config, []event.Outcome) {
	t.Helper()
	cfg := event.Config{Format: format, Seats: seats, Games: games, Seed: 11}
	for i := range n {
		cfg.Entries = append(cfg.Entries, event.Entry{Name: sampleName(i)})
	}
	var done []event.Outcome
	for step := 0; ; step++ {
		next, finished, err := event.Next(cfg, done)
		if err != nil {
			t.Fatal(err)
		}
		if finished || step > 10000 {
			return cfg, done
		}
		for _, g := range next {
			rng := rand.New(rand.NewPCG(uint64(g.Index), 5))
			key := make([]float64, len(g.Seats))
			for s, e := range g.Seats {
				// Gumbel noise on the strength: the Plackett–Luce model.
				key[s] = sampleElo(e)/400*math.Ln10 - math.Log(-math.Log(rng.Float64()))
			}
			ranks := make([]int, len(key))
			for s := range key {
				ranks[s] = 1
				for o := range key {
					if key[o] > key[s] {
						ranks[s]++
					}
				}
			}
			done = append(done, event.Outcome{Game: g, Ranks: ranks})
		}
	}
}

// sampleHistory is the rating history of a sample 8-entry league.
func sampleHistory(t testing.TB) []Series {
	cfg, done := sampleEvent(t, event.League, 8, 2, 12)
	hist, err := event.RatingHistory(cfg, done, 40)
	if err != nil {
		t.Fatal(err)
	}
	return HistorySeries(hist, sampleNames)
}

// chartWindow shows o in a test window of the given size, closed when
// the test ends.
func chartWindow(t testing.TB, o fyne.CanvasObject, width, height float32) fyne.Window {
	t.Helper()
	w := test.NewTempWindow(t, o)
	w.Resize(fyne.NewSize(width, height))
	return w
}

func TestLineChartShots(t *testing.T) {
	test.NewTempApp(t)
	c := NewLineChart("Ratings", "games played", "rating (Elo)")
	c.SetSeries(sampleHistory(t))
	c.SetReference(0, "average")
	w := chartWindow(t, c, 1000, 600)
	// Every entry's line and markers, in its palette colour.
	shotThemes(t, w, "line", func() []color.NRGBA {
		var cols []color.NRGBA
		for i := range sampleNames {
			cols = append(cols, seriesColour(i))
		}
		return cols
	})
}

// goldenSeries is small fixed data for the golden image: two banded
// series and one plain, with negative values.
func goldenSeries() []Series {
	return []Series{
		{Name: "alpha", Band: true, Points: []Point{{10, 120, 20, 220}, {20, 90, 30, 150}, {30, 100, 60, 140}, {40, 110, 80, 140}}},
		{Name: "beta", Band: true, Points: []Point{{10, -60, -160, 40}, {20, -20, -80, 40}, {30, -40, -80, 0}, {40, -50, -80, -20}}},
		{Name: "gamma", Points: []Point{{X: 10, Y: -60}, {X: 20, Y: -70}, {X: 30, Y: -60}, {X: 40, Y: -60}}},
	}
}

func TestLineChartGolden(t *testing.T) {
	test.NewTempApp(t)
	c := NewLineChart("Ratings", "games played", "rating (Elo)")
	c.SetSeries(goldenSeries())
	c.SetReference(0, "average")
	w := chartWindow(t, c, 640, 400)
	test.AssertImageMatches(t, "line.png", w.Canvas().Capture())
}

func TestLineChartUpdates(t *testing.T) {
	test.NewTempApp(t)
	c := NewLineChart("Ratings", "games", "rating")
	chartWindow(t, c, 800, 500)
	r := c.r
	if !r.frame.empty.Visible() {
		t.Error("an empty chart does not say so")
	}
	c.SetSeries(goldenSeries())
	c.SetReference(0, "average")
	if r.frame.empty.Visible() {
		t.Error("a chart with data still says it has none")
	}
	first := r.lines[0][0]
	// Same shape, new values: the same objects move.
	moved := goldenSeries()
	moved[0].Points[0].Y = -100
	c.SetSeries(moved)
	if r.lines[0][0] != first {
		t.Error("new data of the same shape made new line objects")
	}
	if p := first.Position1.Y; p < r.frame.plot.Y+r.frame.plotSize.Height/2 {
		t.Errorf("a point at −100 is drawn at y %v, in the top half of the plot", p)
	}
	// Every point within the plot; the y range covers data and reference.
	if r.frame.y.lo > -100 || r.frame.y.hi < 120 {
		t.Errorf("y axis %v..%v does not cover the data", r.frame.y.lo, r.frame.y.hi)
	}
	for i, ls := range r.lines {
		for _, l := range ls {
			if !l.Visible() {
				continue
			}
			for _, p := range []fyne.Position{l.Position1, l.Position2} {
				if p.X < r.frame.plot.X-0.5 || p.X > r.frame.plot.X+r.frame.plotSize.Width+0.5 ||
					p.Y < r.frame.plot.Y-0.5 || p.Y > r.frame.plot.Y+r.frame.plotSize.Height+0.5 {
					t.Errorf("series %d has a line end at %v, outside the plot", i, p)
				}
			}
		}
	}
	// Fewer series: the extra objects hide, the legend shrinks.
	c.SetSeries(moved[:1])
	if r.names[1].Visible() || r.lines[1][0].Visible() {
		t.Error("a removed series is still drawn")
	}
	if !r.ref.Visible() {
		t.Error("reference line hidden without being removed")
	}
	c.SetReference(math.NaN(), "")
	if r.ref.Visible() {
		t.Error("reference line still drawn after removing it")
	}
	// A series' own colour wins over the palette.
	own := moved[:1]
	own[0].Colour = color.NRGBA{1, 2, 3, 255}
	c.SetSeries(own)
	if got := paint.NRGBA(r.lines[0][0].StrokeColor); got != (color.NRGBA{1, 2, 3, 255}) {
		t.Errorf("series colour %v, want its own", got)
	}
}

func TestHistorySeries(t *testing.T) {
	hist := []event.HistoryPoint{
		{Games: 5, Ratings: []event.EntryRating{{Entry: 0, Rating: 10, Low: -50, High: 70}, {Entry: 2, Rating: -10, Low: -70, High: 50}}},
		{Games: 10, Ratings: []event.EntryRating{{Entry: 0, Rating: 20, Low: -20, High: 60}, {Entry: 2, Rating: -20, Low: -60, High: 20}}},
	}
	got := HistorySeries(hist, []string{"a", "filler"})
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "#2" {
		t.Fatalf("series %+v, want a and #2", got)
	}
	want := []Point{{5, -10, -70, 50}, {10, -20, -60, 20}}
	if !got[1].Band || !slices.Equal(got[1].Points, want) {
		t.Errorf("entry 2: %+v, want band %v", got[1], want)
	}
}

func BenchmarkLineChartUpdate(b *testing.B) {
	test.NewTempApp(b)
	c := NewLineChart("Ratings", "games", "rating")
	chartWindow(b, c, 1000, 600)
	series := sampleHistory(b)
	for b.Loop() {
		c.SetSeries(series)
	}
}
