package event

import (
	"fmt"
	"math"
	"slices"

	"ringside/engine/rating"
)

// HistoryPoint is the standings' ratings after the first Games games of an
// event (in Index order), for charting each entry's rating over time.
type HistoryPoint struct {
	Games int `json:"games"`
	// Ratings has one line per non-filler entry, in entry order.
	Ratings []EntryRating `json:"ratings"`
}

// EntryRating is one entry's rating with its 95 % interval, as in
// Standing.
type EntryRating struct {
	Entry  int     `json:"entry"` // index in Config.Entries
	Rating float64 `json:"rating"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

// RatingHistory returns the ratings of every non-filler entry after the
// first k finished games, for about points values of k evenly spaced up
// to len(done) (every k when there are fewer games than points). Games
// count in Index order, which is the order the schedule handed them out,
// so the history does not depend on which worker finished first. The last
// point always counts every game and matches Standings(cfg, done).
//
// It fits the ratings once per point rather than rebuilding the standings,
// so a long event costs one pass over its games plus points fits.
func RatingHistory(cfg Config, done []Outcome, points int) ([]HistoryPoint, error) {
	if points < 1 {
		return nil, fmt.Errorf("rating history: %d points asked; ask for at least 1", points)
	}
	// Validation is the standings' own: the outcomes must fit the schedule.
	if _, err := build(cfg, done); err != nil {
		return nil, err
	}
	if len(done) == 0 {
		return nil, nil
	}
	order := make([]*Outcome, len(done))
	for i := range done {
		order[i] = &done[i]
	}
	slices.SortFunc(order, func(a, b *Outcome) int { return a.Game.Index - b.Game.Index })

	var ranked []int
	for i, e := range cfg.Entries {
		if !e.Filler {
			ranked = append(ranked, i)
		}
	}
	n := len(done)
	points = min(points, n)
	fit := rating.NewFit(len(cfg.Entries))
	hist := make([]HistoryPoint, 0, points)
	added := 0
	for p := 1; p <= points; p++ {
		// Rounded up, so the first point already counts a game and the
		// last counts them all.
		k := (p*n + points - 1) / points
		for ; added < k; added++ {
			o := order[added]
			if err := fit.Add(o.Game.Seats, o.Ranks); err != nil {
				return nil, fmt.Errorf("game %d: %w", o.Game.Index, err)
			}
		}
		r, err := fit.Solve(ranked)
		if err != nil {
			return nil, fmt.Errorf("rating history after %d games: %w", k, err)
		}
		hp := HistoryPoint{Games: k, Ratings: make([]EntryRating, len(ranked))}
		for j, e := range ranked {
			low, high := r.Interval(e)
			hp.Ratings[j] = EntryRating{Entry: e, Rating: r.Elo[e], Low: low, High: high}
		}
		hist = append(hist, hp)
	}
	return hist, nil
}

// Bin counts values into at most bins equal bins whose width is a round
// number (1, 2 or 5 times a power of ten) and whose edges are multiples
// of it, so the axis of a histogram reads naturally. edges has one more
// element than counts; a value on an inner edge counts in the bin above
// it, and the last bin also holds its upper edge. NaN and infinite values
// are left out. With no values, or bins < 1, both are nil.
func Bin(values []float64, bins int) (edges []float64, counts []int) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if bins < 1 || lo > hi {
		return nil, nil
	}
	width := roundStep((hi - lo) / float64(bins))
	if hi == lo {
		width = roundStep(math.Max(math.Abs(lo), 1) / 10)
	}
	// Widen until the bins cover [lo, hi]: starting at a multiple of the
	// width below lo can need one more bin than the plain ratio.
	var start float64
	var count int
	for {
		start = math.Floor(lo/width) * width
		if start > lo { // 0.06/0.0002 rounds to 300, but 300·0.0002 > 0.06
			start -= width
		}
		count = max(1, int(math.Ceil((hi-start)/width)))
		// Correct the rounding of the division against the edges as they
		// are computed below: the last bin is closed, so a maximum on
		// its edge needs no bin of its own, but the edges must cover it.
		if count > 1 && start+float64(count-1)*width >= hi {
			count--
		}
		if start+float64(count)*width < hi {
			count++
		}
		if count <= bins {
			break
		}
		width = nextRoundStep(width)
	}
	edges = make([]float64, count+1)
	for i := range edges {
		// Multiplying rather than adding keeps edges like 0.3 exact
		// enough to print.
		edges[i] = start + float64(i)*width
	}
	counts = make([]int, count)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		// The nudge puts a value on an edge in the bin above despite
		// rounding (0.3 / 0.1 is 2.9999999999999996).
		i := int(math.Floor((v-start)/width + 1e-9))
		counts[max(0, min(i, count-1))]++
	}
	return edges, counts
}

// BinInts is Bin for whole numbers such as game lengths in turns: bins
// are at least one wide, so none is empty merely because it falls between
// two whole numbers.
func BinInts(values []int, bins int) (edges []float64, counts []int) {
	if len(values) == 0 || bins < 1 {
		return nil, nil
	}
	lo, hi := slices.Min(values), slices.Max(values)
	// Whole-number bins: each holds width consecutive integers.
	width := 1
	for floorDiv(hi, width)-floorDiv(lo, width)+1 > bins {
		width = int(nextRoundStep(float64(width)))
	}
	start := floorDiv(lo, width) * width
	count := (hi-start)/width + 1
	edges = make([]float64, count+1)
	for i := range edges {
		edges[i] = float64(start + i*width)
	}
	counts = make([]int, count)
	for _, v := range values {
		counts[(v-start)/width]++
	}
	return edges, counts
}

// floorDiv is a / b rounded towards minus infinity (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// roundStep is the smallest 1, 2 or 5 times a power of ten ≥ x (x > 0).
func roundStep(x float64) float64 {
	if x <= 0 || math.IsNaN(x) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// nextRoundStep is the 1-2-5 step after s.
func nextRoundStep(s float64) float64 {
	return roundStep(s * 1.5)
}
