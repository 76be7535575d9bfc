package event

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Limits of the schedulers.
const (
	// MaxFullGroups is the largest number of distinct seat groups (C(n,
	// seats) in a league, C(field, seats−1) per candidate in a gauntlet)
	// for which a multi-seat event plays every group. Beyond it, a
	// balanced cyclic design is used instead (see League).
	MaxFullGroups = 200
	// MaxTiebreakPairs is how many extra seat-swapped pairs a level
	// two-seat bracket match plays before the higher seed goes through.
	MaxTiebreakPairs = 3
	// SPRTBatchPairs is how many seat-swapped pairs an SPRT schedules at
	// a time. Two batches are out at once, so a worker pool of up to
	// 2·SPRTBatchPairs·2 − 1 workers never waits on the test.
	SPRTBatchPairs = 8
	// MaxGames caps the size of a schedule, so a typing slip (games
	// 10000 in a 60-entry league) is refused instead of filling storage.
	MaxGames = 1_000_000
)

// Schedule returns every game of the event that the outcomes so far make
// known, in Index order (indexes run 0, 1, 2, … without gaps), and whether
// the event is finished: nothing more will be scheduled and no unplayed
// game is still needed.
//
// It is a pure function of cfg and the set of outcomes (their order does
// not matter), and it only grows as outcomes are added: a game once
// scheduled keeps its index, seats, seed and group. League and gauntlet
// schedules are complete from the start; a bracket adds a round (or a
// round's tie-break pairs) when the previous one is played out, a Swiss
// event a round when the previous round is complete, and an SPRT a batch
// of pairs when the batch before the previous one is complete.
//
// Every outcome must belong to a scheduled game with the same seats, seed
// and group; otherwise the event's configuration changed since it was
// played and Schedule says so.
func Schedule(cfg Config, done []Outcome) (games []Game, finished bool, err error) {
	b, err := build(cfg, done)
	if err != nil {
		return nil, false, err
	}
	return b.games, b.finished, nil
}

// Next returns the scheduled games that have no outcome yet, in Index
// order, and whether the event is finished (then games is empty: when an
// SPRT has decided, its unplayed games are no longer needed).
//
// The runner stores the games it has not seen before (by Index) and plays
// them. Calling Next again is cheap enough after any finished game, but
// new games only appear once every known game of a round (Game.Round) has
// an outcome, so calling it when a round completes is enough.
func Next(cfg Config, done []Outcome) (games []Game, finished bool, err error) {
	b, err := build(cfg, done)
	if err != nil {
		return nil, false, err
	}
	if b.finished {
		return nil, true, nil
	}
	for _, g := range b.games {
		if b.result(g.Index) == nil {
			games = append(games, g)
		}
	}
	return games, false, nil
}

// book is a schedule being regenerated from the outcomes so far.
type book struct {
	cfg      Config
	games    []Game
	groups   int
	results  []*Outcome // by game index
	finished bool
	seatBuf  []int        // backing store for the games' seat lists
	bracket  *BracketTree // set by the bracket scheduler
	swiss    *swissState  // set by the Swiss scheduler
	sprt     *sprtState   // set by the SPRT scheduler
}

// build validates cfg and done and regenerates the schedule.
func build(cfg Config, done []Outcome) (*book, error) {
	if err := Validate(cfg); err != nil {
		return nil, err
	}
	results, err := index(cfg, done)
	if err != nil {
		return nil, err
	}
	b := &book{cfg: cfg, results: results}
	switch cfg.Format {
	case League:
		b.finished = scheduleLeague(b)
	case Gauntlet:
		b.finished = scheduleGauntlet(b)
	case Bracket:
		b.finished = scheduleBracket(b)
	case Swiss:
		b.finished = scheduleSwiss(b)
	case SPRT:
		b.finished = scheduleSPRT(b)
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	return b, nil
}

// index checks each outcome on its own and files it by game index.
func index(cfg Config, done []Outcome) ([]*Outcome, error) {
	top := -1
	for i := range done {
		top = max(top, done[i].Game.Index)
	}
	results := make([]*Outcome, top+1)
	for i := range done {
		o := &done[i]
		if err := checkOutcome(cfg, o); err != nil {
			return nil, err
		}
		if results[o.Game.Index] != nil {
			return nil, fmt.Errorf("game %d has two outcomes; keep one", o.Game.Index)
		}
		results[o.Game.Index] = o
	}
	return results, nil
}

// checkOutcome checks what can be checked without the schedule.
func checkOutcome(cfg Config, o *Outcome) error {
	g := o.Game
	if g.Index < 0 {
		return fmt.Errorf("an outcome has game index %d; indexes start at 0", g.Index)
	}
	if len(g.Seats) != cfg.Seats {
		return fmt.Errorf("game %d has %d seats but the event plays %d-seat games", g.Index, len(g.Seats), cfg.Seats)
	}
	if len(o.Ranks) != len(g.Seats) {
		return fmt.Errorf("game %d has %d ranks for %d seats", g.Index, len(o.Ranks), len(g.Seats))
	}
	for s, e := range g.Seats {
		if e < 0 || e >= len(cfg.Entries) {
			return fmt.Errorf("game %d seats entry %d, but the event has entries 0..%d", g.Index, e, len(cfg.Entries)-1)
		}
		if r := o.Ranks[s]; r < 1 || r > len(g.Seats) {
			return fmt.Errorf("game %d gives seat %d rank %d; ranks run from 1 to %d", g.Index, s, r, len(g.Seats))
		}
	}
	return nil
}

// check verifies that every outcome belongs to the regenerated schedule.
func (b *book) check() error {
	for i, o := range b.results {
		if o == nil {
			continue
		}
		if i >= len(b.games) {
			return fmt.Errorf("game %d has an outcome but is not in the schedule (%d games so far); was the event's configuration changed after it started?", i, len(b.games))
		}
		g := b.games[i]
		if !slices.Equal(g.Seats, o.Game.Seats) || g.Seed != o.Game.Seed || g.Group != o.Game.Group {
			return fmt.Errorf("the outcome of game %d (seats %v, seed %d) does not match the schedule (seats %v, seed %d); was the event's configuration changed after it started?",
				i, o.Game.Seats, o.Game.Seed, g.Seats, g.Seed)
		}
	}
	return nil
}

// result returns the outcome of game i, or nil while it is unplayed.
func (b *book) result(i int) *Outcome {
	if i < len(b.results) {
		return b.results[i]
	}
	return nil
}

// played reports whether every listed game has an outcome.
func (b *book) played(games []int) bool {
	for _, i := range games {
		if b.result(i) == nil {
			return false
		}
	}
	return true
}

// group opens a new seed group and returns its number and seed.
func (b *book) group() (int, int64) {
	g := b.groups
	b.groups++
	return g, GameSeed(b.cfg.Seed, g)
}

// add schedules one game and returns its index.
func (b *book) add(round, group int, seed int64, seats []int) int {
	// Seat lists are carved out of shared chunks: a large league makes
	// 10⁵–10⁶ of them, and one allocation each dominated the cost.
	if len(b.seatBuf)+len(seats) > cap(b.seatBuf) {
		b.seatBuf = make([]int, 0, max(4096, len(seats)))
	}
	start := len(b.seatBuf)
	b.seatBuf = append(b.seatBuf, seats...)
	g := Game{Round: round, Index: len(b.games), Seats: b.seatBuf[start:len(b.seatBuf):len(b.seatBuf)], Seed: seed, Group: group}
	b.games = append(b.games, g)
	return g.Index
}

// reserve makes room for n more games.
func (b *book) reserve(n int) {
	b.games = slices.Grow(b.games, n)
}

// rotate schedules one seed group: the members sit in every seat once,
// by cyclic rotation (game t puts members[(p+t) mod s] in seat p), and it
// returns the games' indexes.
func (b *book) rotate(round int, members []int) []int {
	g, seed := b.group()
	return b.rotateIn(round, g, seed, members)
}

// rotateIn schedules members' cyclic rotations in an existing seed group.
func (b *book) rotateIn(round, g int, seed int64, members []int) []int {
	s := len(members)
	seats := make([]int, s)
	idx := make([]int, 0, s)
	for t := range s {
		for p := range s {
			seats[p] = members[(p+t)%s]
		}
		idx = append(idx, b.add(round, g, seed, seats))
	}
	return idx
}

// GameSeed derives the seed of a group's games from the event's master
// seed by splitmix64, so a resumed event regenerates the same seeds. The
// result is never negative, for games that read seeds as signed numbers.
func GameSeed(master int64, group int) int64 {
	z := uint64(master) + uint64(group+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int64(z >> 1)
}

// shuffled returns 0..n−1 in an order fixed by the master seed and a
// stream number. The Fisher–Yates shuffle is written out (with Lemire's
// bounded draw) rather than taken from math/rand so the order can never
// change with the Go version: resumed events depend on it.
func shuffled(master int64, stream uint64, n int) []int {
	rng := rand.NewPCG(uint64(master), stream^0x5249_4e47_5349_4445) // "RINGSIDE"
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		hi, _ := bits.Mul64(rng.Uint64(), uint64(i+1))
		j := int(hi)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// points returns the points of seat s in a game with the given ranks:
// place p (1-based) of n is worth (n − p)/(n − 1), and seats sharing a rank
// share the places they cover by averaging. Two seats: win 1, draw ½,
// loss 0.
func points(ranks []int, s int) float64 {
	return float64(pointUnits(ranks, s)) / float64(2*(len(ranks)-1))
}

// pointUnits is points(ranks, s) times 2(n−1): a whole number.
func pointUnits(ranks []int, s int) int {
	n := len(ranks)
	better, equal := 0, 0
	for _, r := range ranks {
		switch {
		case r < ranks[s]:
			better++
		case r == ranks[s]:
			equal++
		}
	}
	return 2*(n-better) - (equal + 1)
}

// seatOf returns the seat entry e sits in, or −1.
func seatOf(g Game, e int) int {
	return slices.Index(g.Seats, e)
}

// binomial returns C(n, k), saturating at limit+1 to avoid overflow.
func binomial(n, k, limit int) int {
	if k < 0 || k > n {
		return 0
	}
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
		if c > limit {
			return limit + 1
		}
	}
	return c
}

// combinations returns every k-subset of items, in lexicographic order of
// positions.
func combinations(items []int, k int) [][]int {
	var out [][]int
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for k <= len(items) {
		c := make([]int, k)
		for i, j := range idx {
			c[i] = items[j]
		}
		out = append(out, c)
		i := k - 1
		for i >= 0 && idx[i] == len(items)-k+i {
			i--
		}
		if i < 0 {
			break
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
	return out
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// windows returns the n cyclic windows of length k over order: window i is
// order[i], order[i+1], …, order[i+k−1] (indexes mod n). Every item lies
// in exactly k windows, once at each position.
func windows(order []int, k int) [][]int {
	n := len(order)
	out := make([][]int, n)
	for i := range n {
		w := make([]int, k)
		for j := range k {
			w[j] = order[(i+j)%n]
		}
		out[i] = w
	}
	return out
}
