package event

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// play gives every scheduled game the referee's ranks.
func play(t testing.TB, cfg Config, ref referee) []Outcome {
	t.Helper()
	games, _, err := Schedule(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make([]Outcome, len(games))
	for i, g := range games {
		done[i] = Outcome{Game: g, Ranks: ref(g)}
	}
	return done
}

func TestStandingsTwoSeats(t *testing.T) {
	// A (0) wins all its games; B (1) beats C (2) with B in seat 0 and
	// draws with C in seat 0.
	cfg := Config{Format: League, Entries: []Entry{{Name: "A"}, {Name: "B"}, {Name: "C"}}, Seats: 2, Games: 1}
	done := play(t, cfg, func(g Game) []int {
		switch {
		case g.Seats[0] == 0:
			return []int{1, 2}
		case g.Seats[1] == 0:
			return []int{2, 1}
		case g.Seats[0] == 1:
			return []int{1, 2}
		}
		return []int{1, 1}
	})
	tab, err := Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		name          string
		rank, g, w, d int
		l             int
		points, score float64
	}
	want := []line{
		{"A", 1, 4, 4, 0, 0, 4, 1},
		{"B", 2, 4, 1, 1, 2, 1.5, 0.375},
		{"C", 3, 4, 0, 1, 3, 0.5, 0.125},
	}
	for i, w := range want {
		r := tab.Rows[i]
		got := line{r.Name, r.Rank, r.Games, r.Wins, r.Draws, r.Losses, r.Points, r.Score}
		if got != w {
			t.Errorf("row %d: %+v, want %+v", i, got, w)
		}
	}
	if tab.Model != "bradley-terry" {
		t.Errorf("model %q", tab.Model)
	}
	rs := tab.Rows
	if !(rs[0].Rating > rs[1].Rating && rs[1].Rating > rs[2].Rating) || !near(rs[0].Rating+rs[1].Rating+rs[2].Rating, 0, 1e-9) {
		t.Errorf("ratings %v %v %v", rs[0].Rating, rs[1].Rating, rs[2].Rating)
	}
	// Six games cannot separate B from C with confidence.
	if !rs[1].Tied || rs[1].LOS <= 0.5 || rs[1].LOS >= 0.99 || rs[2].LOS != 0 || rs[2].Tied {
		t.Errorf("B: LOS %.3f tied %v; C: LOS %.3f tied %v", rs[1].LOS, rs[1].Tied, rs[2].LOS, rs[2].Tied)
	}
	c := tab.Cross.Cells
	cells := []struct {
		a, b int
		want Cell
	}{{0, 1, Cell{2, 2}}, {1, 0, Cell{0, 2}}, {1, 2, Cell{1.5, 2}}, {2, 1, Cell{0.5, 2}}, {1, 1, Cell{}}}
	for _, x := range cells {
		if c[x.a][x.b] != x.want {
			t.Errorf("cell %d,%d: %+v, want %+v", x.a, x.b, c[x.a][x.b], x.want)
		}
	}
	// Head to head B against C: W1 D1 L0 in one seat-swapped pair
	// (1 + ½ = 3 half points: WD).
	h, err := Compare(cfg, done, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if h.WDL.Wins != 1 || h.WDL.Draws != 1 || h.WDL.Losses != 0 || h.Penta != [5]int{0, 0, 0, 1, 0} || !near(h.Elo.Score, 0.75, 1e-12) {
		t.Errorf("head to head %+v", h)
	}
}

func TestStandingsMultiSeat(t *testing.T) {
	// Five entrants (the last a filler) in 4-seat games: every 4-subset
	// plays one seed rotated through the seats. Lower entries finish
	// ahead, except that 1 and 2 share their place whenever both play.
	es := entries(5)
	es[4].Filler = true
	cfg := Config{Format: League, Entries: es, Seats: 4, Games: 1}
	ref := func(g Game) []int {
		key := slices.Clone(g.Seats)
		for s, e := range key {
			if e == 2 && slices.Contains(g.Seats, 1) {
				key[s] = 1
			}
		}
		return normalize(key)
	}
	tab, err := Standings(cfg, play(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 || tab.Model != "plackett-luce" {
		t.Fatalf("%d rows, model %q", len(tab.Rows), tab.Model)
	}
	// Entry 0 is in 4 of the 5 groups (16 games) and wins them all.
	// Entry 1 plays {0123} {0124} {0134} {1234}: 2nd shared with 2 (½
	// point: places 2 and 3 average (2/3 + 1/3)/2) in 8 games, 2nd
	// alone (2/3) in 4, 1st shared with 2 in 4 ((1 + 2/3)/2 = 5/6):
	// 4 + 8/3 + 10/3 = 10 points, W0 D4 L12.
	r0, r1, r2 := tab.Rows[0], tab.Rows[1], tab.Rows[2]
	if r0.Entry != 0 || r0.Games != 16 || r0.Wins != 16 || r0.Points != 16 {
		t.Errorf("first row %+v", r0)
	}
	if r1.Rank != 2 || r2.Rank != 2 || !near(r1.Points, 10, 1e-9) || !near(r2.Points, 10, 1e-9) ||
		r1.Wins != 0 || r1.Draws != 4 || r1.Losses != 12 {
		t.Errorf("shared second: %+v / %+v", r1, r2)
	}
	if !near(r1.Rating, r2.Rating, 1e-6) || tab.Rows[3].Rank != 4 {
		t.Errorf("ratings %v %v, last rank %d", r1.Rating, r2.Rating, tab.Rows[3].Rank)
	}
	c := tab.Cross.Cells
	if c[0][1] != (Cell{12, 12}) || c[1][2] != (Cell{6, 12}) || c[3][4] != (Cell{12, 12}) {
		t.Errorf("crosstable %+v %+v %+v", c[0][1], c[1][2], c[3][4])
	}
	// Points per game always add up to seats/2.
	var sum float64
	games := 0
	for _, row := range c {
		for _, cell := range row {
			games += cell.Games
		}
	}
	for i := range 5 {
		for j := range 5 {
			sum += c[i][j].Points
		}
	}
	if !near(sum, float64(games)/2, 1e-9) {
		t.Errorf("crosstable points %.1f for %d pair-games", sum, games)
	}
}

// Only the order of ranks counts: dense ranks (1, 1, 2) and competition
// ranks (1, 1, 3) give the same standings, and 2-2 is a draw.
func TestStandingsDenseRanks(t *testing.T) {
	cfg := Config{Format: League, Entries: entries(4), Seats: 4, Games: 1}
	dense := func(g Game) []int {
		key := slices.Clone(g.Seats)
		key[1] = key[0]
		d := make([]int, len(key))
		for s := range key {
			d[s] = 1
			seen := map[int]bool{}
			for _, k := range key {
				if k < key[s] && !seen[k] {
					seen[k] = true
					d[s]++
				}
			}
		}
		return d
	}
	a, err := Standings(cfg, play(t, cfg, dense))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Standings(cfg, play(t, cfg, func(g Game) []int { return normalize(dense(g)) }))
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("dense %s\ncompetition %s", ja, jb)
	}
	two := Config{Format: League, Entries: entries(2), Seats: 2, Games: 1}
	tab, err := Standings(two, play(t, two, func(Game) []int { return []int{2, 2} }))
	if err != nil || tab.Rows[0].Draws != 2 || tab.Rows[0].Points != 1 {
		t.Errorf("2-2 games: %+v %v", tab.Rows, err)
	}
}

func TestStandingsSwissAndBracket(t *testing.T) {
	cfg := Config{Format: Swiss, Entries: entries(5), Seats: 2, Games: 3, Seed: 1}
	_, done := run(t, cfg, byIndex)
	tab, err := Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	byes, games := 0, 0
	for _, r := range tab.Rows {
		byes += r.Byes
		games += r.Games
		if !near(r.Points, r.Score*float64(r.Games)+2*float64(r.Byes), 1e-9) {
			t.Errorf("%s: points %.1f, score %.3f over %d games, %d byes", r.Name, r.Points, r.Score, r.Games, r.Byes)
		}
	}
	if byes != 3 || games != 3*4*2 || tab.Rows[0].Entry != 0 || tab.Rows[0].Buchholz == 0 {
		t.Errorf("byes %d games %d first %+v", byes, games, tab.Rows[0])
	}

	cfg = Config{Format: Bracket, Entries: entries(8), Seats: 2, Games: 1, Seed: 1}
	_, done = run(t, cfg, byIndex)
	tab, err = Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	wantRank := []int{1, 2, 3, 3, 5, 5, 5, 5}
	wantReached := []int{3, 2, 1, 1, 0, 0, 0, 0}
	for i, r := range tab.Rows {
		if r.Entry != i || r.Rank != wantRank[i] || r.Reached != wantReached[i] {
			t.Errorf("row %d: entry %d rank %d reached %d", i, r.Entry, r.Rank, r.Reached)
		}
	}
}

// TestStandingsBracketInPlay: entries still in one undecided heat share
// their place, but are listed by what their games so far say, best score
// first, not by seed.
func TestStandingsBracketInPlay(t *testing.T) {
	cfg := Config{Format: Bracket, Entries: entries(4), Seats: 4, Games: 3, Seed: 1}
	games, finished, err := Next(cfg, nil)
	if err != nil || finished || len(games) < 2 {
		t.Fatalf("the heat's games: %d, finished %v, %v", len(games), finished, err)
	}
	// Two games played, the last seed winning both.
	var done []Outcome
	for _, g := range games[:2] {
		done = append(done, Outcome{Game: g, Ranks: reverseIndex(g)})
	}
	tab, err := Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Rows {
		if want := 3 - i; r.Entry != want || r.Rank != 1 {
			t.Errorf("row %d: entry %d (score %.2f) rank %d; want entry %d, rank 1 (all still in the heat)", i, r.Entry, r.Score, r.Rank, want)
		}
	}
}

func TestStandingsGauntletAndEmpty(t *testing.T) {
	es := entries(4)
	es[3].Candidate = true
	cfg := Config{Format: Gauntlet, Entries: es, Seats: 2, Games: 3}
	tab, err := Standings(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Rows {
		last := i == len(tab.Rows)-1
		if r.Games != 0 || r.Rating != 0 || r.Rank != 1 || r.Tied == last || r.Entry != i {
			t.Errorf("before any game: %+v", r)
		}
	}
	// The candidate beats everyone: it is ranked first by rating though
	// it played as many games as the whole field together.
	tab, err = Standings(cfg, play(t, cfg, reverseIndex))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows[0].Entry != 3 || tab.Rows[0].Score != 1 || tab.Rows[0].Games != 18 || tab.Rows[1].Games != 6 {
		t.Errorf("gauntlet %+v", tab.Rows)
	}
	if _, err := json.Marshal(tab); err != nil {
		t.Errorf("a perfect score must still encode: %v", err)
	}
}

// benchOutcomes plays a 16-entry league of about 100 000 games with the
// given seats, results drawn from a Plackett–Luce model of known strengths.
func benchOutcomes(b *testing.B, seats int) (Config, []Outcome) {
	cfg := Config{Format: League, Entries: entries(16), Seats: seats, Games: 1, Seed: 1}
	per := leagueSize(cfg) // games per cycle
	cfg.Games = (100000 + per - 1) / per
	games, _, err := Schedule(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	done := make([]Outcome, len(games))
	for i, g := range games {
		key := make([]int, len(g.Seats))
		for s, e := range g.Seats {
			key[s] = e*10 + rng.IntN(60) // lower entries mostly ahead; ties happen
		}
		done[i] = Outcome{Game: g, Ranks: normalize(key)}
	}
	return cfg, done
}

func BenchmarkStandings100k(b *testing.B)       { benchStandings(b, 2) }
func BenchmarkStandings100k4Seats(b *testing.B) { benchStandings(b, 4) }

// benchStandings works out the standings of 100k outcomes of games of the
// given number of seats.
func benchStandings(b *testing.B, seats int) {
	cfg, done := benchOutcomes(b, seats)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Standings(cfg, done); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNextLeague100k(b *testing.B) {
	cfg, done := benchOutcomes(b, 2)
	done = done[:len(done)/2]
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Next(cfg, done); err != nil {
			b.Fatal(err)
		}
	}
}
