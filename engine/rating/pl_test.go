package rating

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// samplePL draws a finishing order from the Plackett–Luce model: place by
// place, each remaining player with probability proportional to γ.
// addTimes adds the same game, players finishing at ranks, n times.
func addTimes(t *testing.T, f *Fit, n int, players, ranks []int) {
	t.Helper()
	for range n {
		if err := f.Add(players, ranks); err != nil {
			t.Fatal(err)
		}
	}
}

func samplePL(rng *rand.Rand, players []int, gamma []float64) []int {
	ranks := make([]int, len(players))
	left := make([]int, len(players))
	for i := range left {
		left[i] = i
	}
	for place := 1; len(left) > 0; place++ {
		var sum float64
		for _, s := range left {
			sum += gamma[players[s]]
		}
		x := rng.Float64() * sum
		k := 0
		for ; k < len(left)-1; k++ {
			x -= gamma[players[left[k]]]
			if x < 0 {
				break
			}
		}
		ranks[left[k]] = place
		left = append(left[:k], left[k+1:]...)
	}
	return ranks
}

func TestPlackettLuceRecoversOrder(t *testing.T) {
	trueElo := []float64{300, 200, 100, 0, -100, -200, -300, -400}
	gamma := make([]float64, len(trueElo))
	for i, e := range trueElo {
		gamma[i] = math.Pow(10, e/400)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	f := NewFit(len(trueElo))
	for range 4000 {
		perm := rng.Perm(len(trueElo))[:4]
		if err := f.Add(perm, samplePL(rng, perm, gamma)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := f.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, len(trueElo))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return r.Elo[order[a]] > r.Elo[order[b]] })
	for i, p := range order {
		if p != i {
			t.Fatalf("fitted order %v, want 0..7 (ratings %.0f)", order, r.Elo)
		}
	}
	// The true ratings, shifted to average 0 like the fit, should mostly
	// fall inside the 95 % intervals (all of them, for this seed).
	var mean float64
	for _, e := range trueElo {
		mean += e / float64(len(trueElo))
	}
	for i, e := range trueElo {
		lo, hi := r.Interval(i)
		if e-mean < lo || e-mean > hi {
			t.Errorf("player %d: true %.0f outside [%.0f, %.0f]", i, e-mean, lo, hi)
		}
		if se := r.SE(i); se < 5 || se > 40 {
			t.Errorf("player %d: standard error %.1f looks wrong for 2000 games each", i, se)
		}
	}
	if los := r.LOS(0, 7); los < 0.999 {
		t.Errorf("LOS(best, worst) = %g", los)
	}
	if los := r.LOS(7, 0); los > 0.001 {
		t.Errorf("LOS(worst, best) = %g", los)
	}
}

// With two seats the model is Bradley–Terry: 600 wins to 400 is a score of
// 0.6, Elo −400·log10(1/0.6 − 1) = 70.44 apart, and the difference has
// variance 1/(N·p(1−p)) = 1/240 in natural-log units: standard error
// 0.064550·173.718 = 11.21 Elo, so each centred rating (±half the
// difference) has a standard error of 5.61. The prior's two virtual games
// per player shrink this a little.
func TestBradleyTerryTwoSeats(t *testing.T) {
	f := NewFit(2)
	addTimes(t, f, 600, []int{0, 1}, []int{1, 2})
	addTimes(t, f, 400, []int{1, 0}, []int{1, 2})
	r, err := f.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Elo[0] - r.Elo[1]; !near(d, 70.44, 0.5) {
		t.Errorf("difference %.2f, want about 70.44", d)
	}
	if !near(r.Elo[0], -r.Elo[1], 1e-9) {
		t.Errorf("not centred: %v", r.Elo)
	}
	if !near(r.SE(0), 5.61, 0.05) || !near(r.SE(1), 5.61, 0.05) {
		t.Errorf("standard errors %.3f %.3f, want about 5.61", r.SE(0), r.SE(1))
	}
}

// A draw is exactly half a win and half a loss: 40 wins and 20 draws
// fit like 50 wins and 10 losses (the same 50 points of 60).
func TestDrawIsHalfWin(t *testing.T) {
	a := NewFit(3)
	addTimes(t, a, 40, []int{0, 1}, []int{1, 2})
	addTimes(t, a, 20, []int{0, 1}, []int{1, 1})
	a.Add([]int{2, 1}, []int{1, 2})
	ra, _ := a.Solve(nil)
	c := NewFit(3)
	addTimes(t, c, 50, []int{0, 1}, []int{1, 2})
	addTimes(t, c, 10, []int{1, 0}, []int{1, 2})
	c.Add([]int{2, 1}, []int{1, 2})
	rc, _ := c.Solve(nil)
	for i := range 3 {
		if !near(ra.Elo[i], rc.Elo[i], 1e-6) || !near(ra.SE(i), rc.SE(i), 1e-6) {
			t.Errorf("player %d: draws %.4f ± %.4f, half wins %.4f ± %.4f", i, ra.Elo[i], ra.SE(i), rc.Elo[i], rc.SE(i))
		}
	}
}

func TestTiesAndEdges(t *testing.T) {
	// Everyone always shares first place: everyone is rated alike.
	f := NewFit(4)
	addTimes(t, f, 50, []int{0, 1, 2, 3}, []int{1, 1, 1, 1})
	r, err := f.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if !near(r.Elo[i], 0, 1e-9) {
			t.Errorf("all tied: %v", r.Elo)
		}
	}
	// A player who wins every game gets a finite, high rating.
	f = NewFit(3)
	addTimes(t, f, 30, []int{0, 1, 2}, []int{1, 2, 3})
	r, _ = f.Solve([]int{1, 2})
	if math.IsInf(r.Elo[0], 0) || math.IsNaN(r.Elo[0]) || r.Elo[0] < 300 {
		t.Errorf("perfect player rated %v", r.Elo)
	}
	if !near(r.Elo[1]+r.Elo[2], 0, 1e-9) {
		t.Errorf("centre on players 1 and 2: %v", r.Elo)
	}
	// A shared second place sits between first and last.
	f = NewFit(4)
	addTimes(t, f, 40, []int{0, 1, 2, 3}, []int{1, 2, 2, 4})
	r, _ = f.Solve(nil)
	if !(r.Elo[0] > r.Elo[1] && near(r.Elo[1], r.Elo[2], 1e-9) && r.Elo[2] > r.Elo[3]) {
		t.Errorf("shared second: %v", r.Elo)
	}
	// No games: everyone at 0 with the prior's uncertainty.
	r, err = NewFit(3).Solve(nil)
	if err != nil || r.Elo[0] != 0 || r.SE(0) <= 0 {
		t.Errorf("empty fit: %v %v", r, err)
	}
	for _, bad := range [][2][]int{{{0, 0}, {1, 2}}, {{0, 5}, {1, 2}}, {{0, 1}, {1}}, {{0}, {1}}} {
		if err := NewFit(3).Add(bad[0], bad[1]); err == nil {
			t.Errorf("Add(%v, %v) accepted", bad[0], bad[1])
		}
	}
}

func BenchmarkFit4Seats100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	type game struct{ p, r []int }
	gamma := make([]float64, 16)
	for i := range gamma {
		gamma[i] = math.Pow(10, float64(i*20)/400)
	}
	games := make([]game, 100000)
	for i := range games {
		p := rng.Perm(16)[:4]
		games[i] = game{p, samplePL(rng, p, gamma)}
	}
	for b.Loop() {
		f := NewFit(16)
		for _, g := range games {
			f.Add(g.p, g.r)
		}
		f.Solve(nil)
	}
}

// Beyond 64 players the stage sets take another path; players that never
// meet do not influence each other, so a pair's ratings match a two-player
// fit's.
func TestManyPlayers(t *testing.T) {
	small, big := NewFit(2), NewFit(70)
	for i := range 30 {
		r := []int{1, 2}
		if i%3 == 0 {
			r = []int{2, 1}
		}
		small.Add([]int{0, 1}, r)
		big.Add([]int{0, 1}, r)
		big.Add([]int{66, 69, 64, 3}, []int{1, 2, 2, 4})
	}
	rs, err := small.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := big.Solve([]int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if !near(rs.Elo[i], rb.Elo[i], 1e-6) || !near(rs.SE(i), rb.SE(i), 1e-6) {
			t.Errorf("player %d: %g ± %g alone, %g ± %g among 70", i, rs.Elo[i], rs.SE(i), rb.Elo[i], rb.SE(i))
		}
	}
	if !(rb.Elo[66] > rb.Elo[69] && near(rb.Elo[69], rb.Elo[64], 1e-6) && rb.Elo[64] > rb.Elo[3]) {
		t.Errorf("four-seat players: %g %g %g %g", rb.Elo[66], rb.Elo[69], rb.Elo[64], rb.Elo[3])
	}
}
