package event

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRatingHistoryMatchesStandings(t *testing.T) {
	fill := entries(5)
	fill[4].Filler = true
	cases := []struct {
		name   string
		cfg    Config
		ref    referee
		points []int
	}{
		{"league 2 seats", Config{Format: League, Entries: entries(4), Seats: 2, Games: 6, Seed: 1}, random(7), []int{1, 4, 7, 1000}},
		{"league 4 seats with filler", Config{Format: League, Entries: fill, Seats: 4, Games: 3, Seed: 2}, random(3), []int{3, 10}},
		{"swiss", Config{Format: Swiss, Entries: entries(6), Seats: 2, Games: 3, Seed: 3}, byIndex, []int{5}},
		{"bracket", Config{Format: Bracket, Entries: entries(5), Seats: 2, Games: 3, Seed: 4}, reverseIndex, []int{4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, done := run(t, c.cfg, c.ref)
			byIdx := slices.Clone(done)
			slices.SortFunc(byIdx, func(a, b Outcome) int { return a.Game.Index - b.Game.Index })
			// The order outcomes arrive in must not matter.
			shuffled := slices.Clone(done)
			rng := rand.New(rand.NewPCG(1, 2))
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for _, points := range c.points {
				hist, err := RatingHistory(c.cfg, shuffled, points)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(points, len(done)); len(hist) != want {
					t.Fatalf("%d points asked of %d games: got %d", points, len(done), len(hist))
				}
				if last := hist[len(hist)-1].Games; last != len(done) {
					t.Errorf("last point counts %d games, want all %d", last, len(done))
				}
				prev := 0
				for _, hp := range hist {
					if hp.Games <= prev {
						t.Fatalf("games %d after %d: not increasing", hp.Games, prev)
					}
					// Evenly spaced: no step is more than one game longer
					// than the average.
					if step := hp.Games - prev; step > len(done)/len(hist)+1 {
						t.Errorf("step of %d games in %d points over %d games", step, len(hist), len(done))
					}
					prev = hp.Games
					tab, err := Standings(c.cfg, byIdx[:hp.Games])
					if err != nil {
						t.Fatal(err)
					}
					checkPoint(t, c.cfg, hp, tab)
				}
			}
		})
	}
}

// checkPoint compares a history point with the standings of its games.
func checkPoint(t *testing.T, cfg Config, hp HistoryPoint, tab Table) {
	t.Helper()
	if len(hp.Ratings) != len(tab.Rows) {
		t.Fatalf("after %d games: %d ratings for %d standings rows", hp.Games, len(hp.Ratings), len(tab.Rows))
	}
	for i, er := range hp.Ratings {
		if cfg.Entries[er.Entry].Filler {
			t.Errorf("filler entry %d has a rating line", er.Entry)
		}
		if i > 0 && er.Entry <= hp.Ratings[i-1].Entry {
			t.Errorf("ratings not in entry order: %d after %d", er.Entry, hp.Ratings[i-1].Entry)
		}
		k := slices.IndexFunc(tab.Rows, func(s Standing) bool { return s.Entry == er.Entry })
		if k < 0 {
			t.Fatalf("entry %d is not in the standings", er.Entry)
		}
		s := tab.Rows[k]
		if !near(er.Rating, s.Rating, 1e-6) || !near(er.Low, s.RatingLow, 1e-6) || !near(er.High, s.RatingHigh, 1e-6) {
			t.Errorf("after %d games entry %d: %.4f [%.4f, %.4f], standings %.4f [%.4f, %.4f]",
				hp.Games, er.Entry, er.Rating, er.Low, er.High, s.Rating, s.RatingLow, s.RatingHigh)
		}
		if er.Low > er.Rating || er.Rating > er.High {
			t.Errorf("entry %d: rating %.2f outside its interval [%.2f, %.2f]", er.Entry, er.Rating, er.Low, er.High)
		}
	}
}

func TestRatingHistoryErrors(t *testing.T) {
	cfg := Config{Format: League, Entries: entries(3), Seats: 2, Games: 2, Seed: 1}
	done := play(t, cfg, byIndex)
	if _, err := RatingHistory(cfg, done, 0); err == nil || !strings.Contains(err.Error(), "at least 1") {
		t.Errorf("0 points: error %v", err)
	}
	bad := slices.Clone(done)
	bad[2].Game.Seed++
	if _, err := RatingHistory(cfg, bad, 5); err == nil || !strings.Contains(err.Error(), "does not match the schedule") {
		t.Errorf("outcome off the schedule: error %v", err)
	}
	hist, err := RatingHistory(cfg, nil, 5)
	if err != nil || hist != nil {
		t.Errorf("no games: %v, %v; want nothing", hist, err)
	}
	// The strongest entry ends on top and its interval narrows.
	hist, err = RatingHistory(cfg, done, len(done))
	if err != nil {
		t.Fatal(err)
	}
	first, last := hist[0].Ratings[0], hist[len(hist)-1].Ratings[0]
	if last.Rating <= hist[len(hist)-1].Ratings[1].Rating {
		t.Errorf("entry 0 wins every game but ends at %.1f", last.Rating)
	}
	if last.High-last.Low >= first.High-first.Low {
		t.Errorf("interval widened from %.1f to %.1f", first.High-first.Low, last.High-last.Low)
	}
}

func TestBin(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name   string
		values []float64
		bins   int
		edges  []float64
		counts []int
	}{
		{"0..10 in 5", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, []float64{0, 2, 4, 6, 8, 10}, []int{2, 2, 2, 2, 3}},
		{"fractions", []float64{0.05, 0.3, 0.95}, 10, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}, []int{1, 0, 0, 1, 0, 0, 0, 0, 0, 1}},
		{"one value", []float64{7, 7}, 4, []float64{7, 8}, []int{2}},
		{"negative", []float64{-3, 4}, 3, []float64{-5, 0, 5}, []int{1, 1}},
		{"start below lo widens", []float64{1, 9.5}, 4, []float64{0, 5, 10}, []int{1, 1}},
		{"NaN and Inf left out", []float64{nan, 1, inf, 2}, 1, []float64{1, 2}, []int{2}},
		{"only NaN", []float64{nan}, 3, nil, nil},
		{"no bins", []float64{1, 2}, 0, nil, nil},
		{"empty", nil, 5, nil, nil},
	}
	for _, c := range cases {
		edges, counts := Bin(c.values, c.bins)
		if !slices.EqualFunc(edges, c.edges, func(a, b float64) bool { return near(a, b, 1e-9) }) || !slices.Equal(counts, c.counts) {
			t.Errorf("%s: Bin(%v, %d) = %v %v, want %v %v", c.name, c.values, c.bins, edges, counts, c.edges, c.counts)
		}
	}
}

func TestBinInts(t *testing.T) {
	cases := []struct {
		values []int
		bins   int
		edges  []float64
		counts []int
	}{
		{[]int{10, 11, 12, 13}, 20, []float64{10, 11, 12, 13, 14}, []int{1, 1, 1, 1}},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, []float64{0, 5, 10, 15}, []int{5, 5, 1}},
		{[]int{-3, 3}, 2, []float64{-5, 0, 5}, []int{1, 1}},
		{[]int{120, 180, 181, 420}, 4, []float64{100, 200, 300, 400, 500}, []int{3, 0, 0, 1}},
		{[]int{5}, 3, []float64{5, 6}, []int{1}},
		{nil, 3, nil, nil},
	}
	for _, c := range cases {
		edges, counts := BinInts(c.values, c.bins)
		if !slices.Equal(edges, c.edges) || !slices.Equal(counts, c.counts) {
			t.Errorf("BinInts(%v, %d) = %v %v, want %v %v", c.values, c.bins, edges, counts, c.edges, c.counts)
		}
	}
}

// checkBins verifies what any binning must satisfy.
func checkBins(t *testing.T, values []float64, bins int, edges []float64, counts []int) {
	t.Helper()
	var finite []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
		}
	}
	if len(finite) == 0 || bins < 1 {
		if edges != nil || counts != nil {
			t.Fatalf("nothing to bin but got %v %v", edges, counts)
		}
		return
	}
	if len(counts) < 1 || len(counts) > bins || len(edges) != len(counts)+1 {
		t.Fatalf("%d bins asked: %d edges, %d counts", bins, len(edges), len(counts))
	}
	sum := 0
	for _, c := range counts {
		sum += c
	}
	if sum != len(finite) {
		t.Fatalf("counts add to %d for %d values", sum, len(finite))
	}
	lo, hi := slices.Min(finite), slices.Max(finite)
	if edges[0] > lo || edges[len(edges)-1] < hi {
		t.Fatalf("edges %v do not cover [%v, %v]", edges, lo, hi)
	}
}

func FuzzBin(f *testing.F) {
	f.Add(0.0, 10.0, 3.5, uint8(5))
	f.Add(-1e9, 1e-9, 0.0, uint8(1))
	f.Add(0.1, 0.1, 0.1, uint8(200))
	f.Fuzz(func(t *testing.T, a, b, c float64, bins uint8) {
		// Huge magnitudes overflow the bin arithmetic the same way any
		// histogram would; the charts only bin game lengths and scores.
		for _, v := range []float64{a, b, c} {
			if math.Abs(v) > 1e12 {
				return
			}
		}
		values := []float64{a, b, c}
		edges, counts := Bin(values, int(bins))
		checkBins(t, values, int(bins), edges, counts)
	})
}

func BenchmarkRatingHistory(b *testing.B) {
	// 8 entries, 2 seats, 100 seat-swapped pairs per pairing: 5600 games.
	cfg := Config{Format: League, Entries: entries(8), Seats: 2, Games: 200, Seed: 1}
	done := play(b, cfg, random(9))
	for b.Loop() {
		if _, err := RatingHistory(cfg, done, 50); err != nil {
			b.Fatal(err)
		}
	}
}
