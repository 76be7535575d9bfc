package event

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// entries makes n plain entries named e0, e1, ….
func entries(n int) []Entry {
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{Name: fmt.Sprintf("e%d", i)}
	}
	return es
}

// referee decides a game's ranks.
type referee func(g Game) []int

// byIndex ranks entries by entry index: the lower index always wins.
func byIndex(g Game) []int {
	ranks := make([]int, len(g.Seats))
	for s, e := range g.Seats {
		ranks[s] = 1
		for _, f := range g.Seats {
			if f < e {
				ranks[s]++
			}
		}
	}
	return ranks
}

// reverseIndex: the higher index always wins.
func reverseIndex(g Game) []int {
	ranks := make([]int, len(g.Seats))
	for s, e := range g.Seats {
		ranks[s] = 1
		for _, f := range g.Seats {
			if f > e {
				ranks[s]++
			}
		}
	}
	return ranks
}

// allTied: every game is a draw (everyone shares first place).
func allTied(g Game) []int {
	return slices.Repeat([]int{1}, len(g.Seats))
}

// random returns a referee drawing ranks (ties possible) from the game's
// index and a salt, so results are reproducible.
func random(salt uint64) referee {
	return func(g Game) []int {
		rng := rand.New(rand.NewPCG(uint64(g.Index), salt))
		ranks := make([]int, len(g.Seats))
		for s := range ranks {
			ranks[s] = 1 + rng.IntN(len(g.Seats))
		}
		return normalize(ranks)
	}
}

// normalize turns arbitrary rank numbers into competition ranks.
func normalize(key []int) []int {
	out := make([]int, len(key))
	for i := range key {
		out[i] = 1
		for j := range key {
			if key[j] < key[i] {
				out[i]++
			}
		}
	}
	return out
}

// run plays an event to the end with the referee, calling Next whenever
// the known games are all played, and returns every game and outcome.
func run(t testing.TB, cfg Config, ref referee) ([]Game, []Outcome) {
	t.Helper()
	var done []Outcome
	seen := map[int]bool{}
	for step := 0; ; step++ {
		if step > 100000 {
			t.Fatal("event never finishes")
		}
		games, finished, err := Next(cfg, done)
		if err != nil {
			t.Fatal(err)
		}
		if finished {
			if len(games) != 0 {
				t.Fatalf("finished with %d games left", len(games))
			}
			break
		}
		if len(games) == 0 {
			t.Fatal("not finished but nothing to play")
		}
		for _, g := range games {
			if seen[g.Index] {
				t.Fatalf("game %d handed out twice", g.Index)
			}
			seen[g.Index] = true
			done = append(done, Outcome{Game: g, Ranks: ref(g)})
		}
	}
	all, finished, err := Schedule(cfg, done)
	if err != nil || !finished {
		t.Fatalf("schedule after the end: finished %v, %v", finished, err)
	}
	checkIndexes(t, all)
	return all, done
}

// runSPRT plays an SPRT event to its end like run and returns its games,
// outcomes and final report.
func runSPRT(t testing.TB, cfg Config, ref referee) ([]Game, []Outcome, SPRTReport) {
	t.Helper()
	games, done := run(t, cfg, ref)
	rep, err := SPRTStatus(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	return games, done, rep
}

// checkIndexes verifies indexes 0..n−1 in order and consistent groups:
// the games of one group share round and seed, have the same members and
// seat each member once per game, rotating through every seat the same
// number of times (once, or once per cyclic order a balanced league plays
// the group's seed in).
func checkIndexes(t testing.TB, games []Game) {
	t.Helper()
	type info struct {
		seed    int64
		members []int
		seats   map[[2]int]int // (entry, seat) → count
		games   int
	}
	groups := map[int]*info{}
	seeds := map[int64]int{}
	for i, g := range games {
		if g.Index != i {
			t.Fatalf("game %d has index %d", i, g.Index)
		}
		gi := groups[g.Group]
		sorted := slices.Sorted(slices.Values(g.Seats))
		if len(slices.Compact(slices.Clone(sorted))) != len(sorted) {
			t.Fatalf("game %d seats an entry twice: %v", i, g.Seats)
		}
		if gi == nil {
			gi = &info{seed: g.Seed, members: sorted, seats: map[[2]int]int{}}
			groups[g.Group] = gi
			if other, ok := seeds[g.Seed]; ok {
				t.Fatalf("groups %d and %d share seed %d", other, g.Group, g.Seed)
			}
			seeds[g.Seed] = g.Group
		}
		if g.Seed != gi.seed || !slices.Equal(sorted, gi.members) {
			t.Fatalf("game %d (seats %v seed %d) differs from its group %d (members %v seed %d)", i, g.Seats, g.Seed, g.Group, gi.members, gi.seed)
		}
		for s, e := range g.Seats {
			gi.seats[[2]int{e, s}]++
		}
		gi.games++
	}
	for id, gi := range groups {
		k := gi.games / len(gi.members)
		if k == 0 || gi.games%len(gi.members) != 0 {
			t.Fatalf("group %d has %d games for %d members", id, gi.games, len(gi.members))
		}
		for _, e := range gi.members {
			for s := range gi.members {
				if gi.seats[[2]int{e, s}] != k {
					t.Fatalf("group %d: entry %d sits in seat %d %d times", id, e, s, gi.seats[[2]int{e, s}])
				}
			}
		}
	}
}

// seatCounts returns per entry how often it sat in each seat.
func seatCounts(games []Game, n, seats int) [][]int {
	c := make([][]int, n)
	for i := range c {
		c[i] = make([]int, seats)
	}
	for _, g := range games {
		for s, e := range g.Seats {
			c[e][s]++
		}
	}
	return c
}
