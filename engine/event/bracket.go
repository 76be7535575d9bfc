package event

import (
	"math/bits"
	"slices"
	"sort"
)

// BracketTree is a knockout as far as it is known, for display: every
// round from the first to the final, with entries not yet known as −1.
type BracketTree struct {
	Rounds []BracketRound `json:"rounds"`
	// Champion is the winner's entry index, or −1 until the final is decided.
	Champion int `json:"champion"`
}

// BracketRound is one round of a knockout.
type BracketRound struct {
	Matches []Match `json:"matches"`
	// Byes lists the entries that skip this round (multi-seat brackets;
	// in two-seat brackets a bye is a Match with Bye set).
	Byes []int `json:"byes,omitempty"`
}

// Match is one match-up: a two-seat match or a multi-seat heat.
type Match struct {
	// Entries holds the entry in each slot, best seed first in the first
	// round; −1 while the slot waits on an earlier match.
	Entries []int `json:"entries"`
	// Bye marks a two-seat first-round slot without an opponent: the
	// entry goes through without playing.
	Bye bool `json:"bye,omitempty"`
	// Games lists the indexes of the match's scheduled games.
	Games []int `json:"games,omitempty"`
	// Played counts the games with an outcome.
	Played int `json:"played"`
	// Points and Wins are per slot, from the played games: points as in
	// the standings, wins are sole first places.
	Points []float64 `json:"points"`
	Wins   []int     `json:"wins"`
	// Tiebreaks counts the extra seat-swapped pairs a level two-seat
	// match scheduled.
	Tiebreaks int `json:"tiebreaks,omitempty"`
	// Decided is set once the match has a result; Order then lists the
	// entries best first and Advance those who go through (the winner of
	// a two-seat match, the top half of a heat, the champion of a final).
	Decided bool  `json:"decided"`
	Order   []int `json:"order,omitempty"`
	Advance []int `json:"advance,omitempty"`
	// Rule says how the match was decided: "bye", "points" (more points
	// after the regular games), "tiebreak" (after extra pairs), "seed"
	// (still level after MaxTiebreakPairs extra pairs: the higher seed
	// goes through) or "heat" (a multi-seat heat's order).
	Rule string `json:"rule,omitempty"`
}

// Tree returns the knockout tree of a bracket event as far as the
// outcomes so far make it known.
func Tree(cfg Config, done []Outcome) (BracketTree, error) {
	b, err := buildAs(cfg, done, Bracket, "a bracket tree")
	if err != nil {
		return BracketTree{}, err
	}
	return *b.bracket, nil
}

// scheduleBracket schedules a single-elimination event round by round.
//
// Two seats: the bracket has P slots, the smallest power of two ≥ n, filled
// by seed (entry order) in standard placement (1 v P, then 1's half also
// holds P/2 v P/2+1 …), so the top two seeds can only meet in the final and
// the top four in the semi-finals; slots beyond n are byes, which therefore
// go to the top seeds. A match is best of cfg.Games played as (Games+1)/2
// seat-swapped pairs, all scheduled at once; more points wins. A level
// match plays one more seat-swapped pair at a time, up to
// MaxTiebreakPairs; if still level, the higher seed (lower entry index)
// goes through. A round's tie-break pairs are scheduled together once all
// of the round's earlier games are played (so indexes do not depend on
// which match finished first), and the next round once every match of
// the round is decided.
//
// More seats (even counts): heats of `seats` entrants where the top half
// goes through. With P the smallest seats·2^k ≥ n, the top P − n seeds get
// a first-round bye and the others play full heats, so the second round
// holds exactly P/2 entrants and every later round halves to the final
// heat. Each round the entrants are dealt into heats by seed in serpentine
// order (seeds 1..H to heats 1..H, the next H back from H to 1, …) to keep
// top seeds apart. A heat plays cfg.Games seeds, each rotated through all
// seats; its order is by points, then sole first places, then seed (no
// extra games). The final heat's order is the podium.
func scheduleBracket(b *book) bool {
	if b.cfg.Seats == 2 {
		return bracketPairs(b)
	}
	return bracketHeats(b)
}

// seedOrder returns the seeds 1..size in standard bracket placement.
func seedOrder(size int) []int {
	order := []int{1}
	for len(order) < size {
		next := make([]int, 0, 2*len(order))
		for _, x := range order {
			next = append(next, x, 2*len(order)+1-x)
		}
		order = next
	}
	return order
}

func bracketPairs(b *book) bool {
	n := len(b.cfg.Entries)
	size := 1
	for size < n {
		size *= 2
	}
	rounds := bits.TrailingZeros(uint(size))
	tree := &BracketTree{Champion: -1, Rounds: make([]BracketRound, rounds)}
	b.bracket = tree
	for r := range rounds {
		ms := make([]Match, size>>(r+1))
		for m := range ms {
			ms[m] = Match{Entries: []int{-1, -1}, Points: make([]float64, 2), Wins: make([]int, 2)}
		}
		tree.Rounds[r].Matches = ms
	}
	order := seedOrder(size)
	for m, match := range tree.Rounds[0].Matches {
		for k := range 2 {
			if seed := order[2*m+k]; seed <= n {
				match.Entries[k] = seed - 1
			} else {
				tree.Rounds[0].Matches[m].Bye = true
			}
		}
	}
	pairs := (b.cfg.Games + 1) / 2
	for r := range rounds {
		ms := tree.Rounds[r].Matches
		for m := range ms {
			if ms[m].Bye {
				decide(tree, r, m, []int{ms[m].Entries[0], -1}, "bye")
				continue
			}
			for range pairs {
				schedulePair(b, r, &ms[m])
			}
		}
		for {
			all := tallyRound(b, ms)
			// A played match with a leader is decided at once (for the
			// tree); level ones wait until the whole round is played, so
			// tie-break indexes do not depend on which match ended first.
			for m := range ms {
				mt := &ms[m]
				if !mt.Decided && mt.Points[0] != mt.Points[1] && b.played(mt.Games) {
					a, c := mt.Entries[0], mt.Entries[1]
					if mt.Points[1] > mt.Points[0] {
						a, c = c, a
					}
					rule := "points"
					if mt.Tiebreaks > 0 {
						rule = "tiebreak"
					}
					decide(tree, r, m, []int{a, c}, rule)
				}
			}
			if !b.played(all) {
				return false
			}
			level := false
			for m := range ms {
				mt := &ms[m]
				switch {
				case mt.Decided:
				case mt.Tiebreaks < MaxTiebreakPairs:
					mt.Tiebreaks++
					schedulePair(b, r, mt)
					level = true
				default:
					a, c := mt.Entries[0], mt.Entries[1]
					decide(tree, r, m, []int{min(a, c), max(a, c)}, "seed")
				}
			}
			if !level {
				break
			}
		}
	}
	tree.Champion = tree.Rounds[rounds-1].Matches[0].Advance[0]
	return true
}

// schedulePair adds one seat-swapped pair to a two-seat match.
func schedulePair(b *book, round int, m *Match) {
	grp, seed := b.group()
	a, c := m.Entries[0], m.Entries[1]
	m.Games = append(m.Games,
		b.add(round, grp, seed, []int{a, c}),
		b.add(round, grp, seed, []int{c, a}))
}

// decide records a two-seat match's result and moves the winner on.
func decide(tree *BracketTree, r, m int, order []int, rule string) {
	mt := &tree.Rounds[r].Matches[m]
	mt.Decided, mt.Rule = true, rule
	mt.Order = slices.DeleteFunc(slices.Clone(order), func(e int) bool { return e < 0 })
	mt.Advance = []int{order[0]}
	if r+1 < len(tree.Rounds) {
		tree.Rounds[r+1].Matches[m/2].Entries[m%2] = order[0]
	}
}

// tallyRound recounts the points and wins of a round's matches from the
// played games and returns all of the round's game indexes.
func tallyRound(b *book, ms []Match) []int {
	var all []int
	for m := range ms {
		mt := &ms[m]
		clear(mt.Points)
		clear(mt.Wins)
		mt.Played = 0
		for _, i := range mt.Games {
			o := b.result(i)
			if o == nil {
				continue
			}
			mt.Played++
			for k, e := range mt.Entries {
				s := seatOf(b.games[i], e)
				mt.Points[k] += points(o.Ranks, s)
				if soleFirst(o.Ranks, s) {
					mt.Wins[k]++
				}
			}
		}
		all = append(all, mt.Games...)
	}
	return all
}

// rankHeat orders a played heat by points, then sole first places, then
// seed, and sends the top half through (the winner alone from the final).
func rankHeat(mt *Match, half int, final bool) {
	slot := make([]int, len(mt.Entries))
	for k := range slot {
		slot[k] = k
	}
	sort.SliceStable(slot, func(i, j int) bool {
		x, y := slot[i], slot[j]
		if mt.Points[x] != mt.Points[y] {
			return mt.Points[x] > mt.Points[y]
		}
		if mt.Wins[x] != mt.Wins[y] {
			return mt.Wins[x] > mt.Wins[y]
		}
		return mt.Entries[x] < mt.Entries[y]
	})
	mt.Decided, mt.Rule = true, "heat"
	mt.Order = make([]int, len(slot))
	for i, k := range slot {
		mt.Order[i] = mt.Entries[k]
	}
	if final {
		mt.Advance = mt.Order[:1:1]
	} else {
		mt.Advance = slices.Clone(mt.Order[:half])
	}
}

// soleFirst reports whether seat s alone has the best rank.
func soleFirst(ranks []int, s int) bool {
	for t, r := range ranks {
		if t != s && r <= ranks[s] {
			return false
		}
	}
	return true
}

func bracketHeats(b *book) bool {
	n, s := len(b.cfg.Entries), b.cfg.Seats
	half := s / 2
	size := s
	for size < n {
		size *= 2
	}
	byes := size - n
	rounds := bits.TrailingZeros(uint(size/s)) + 1
	tree := &BracketTree{Champion: -1, Rounds: make([]BracketRound, rounds)}
	b.bracket = tree
	for r := range rounds {
		count := size >> r
		if r == 0 {
			count = n - byes
		}
		ms := make([]Match, count/s)
		for m := range ms {
			ms[m] = Match{Entries: slices.Repeat([]int{-1}, s), Points: make([]float64, s), Wins: make([]int, s)}
		}
		tree.Rounds[r].Matches = ms
	}
	var players []int
	for e := range n {
		if e < byes {
			tree.Rounds[0].Byes = append(tree.Rounds[0].Byes, e)
		} else {
			players = append(players, e)
		}
	}
	for r := range rounds {
		ms := tree.Rounds[r].Matches
		h := len(ms)
		for i, e := range players {
			row, col := i/h, i%h
			if row%2 == 1 {
				col = h - 1 - col
			}
			ms[col].Entries[row] = e
		}
		for m := range ms {
			for range b.cfg.Games {
				ms[m].Games = append(ms[m].Games, b.rotate(r, ms[m].Entries)...)
			}
		}
		all := tallyRound(b, ms)
		for m := range ms {
			if b.played(ms[m].Games) {
				rankHeat(&ms[m], half, r == rounds-1)
			}
		}
		if !b.played(all) {
			return false
		}
		players = slices.Clone(tree.Rounds[r].Byes)
		for m := range ms {
			players = append(players, ms[m].Advance...)
		}
		slices.Sort(players)
	}
	tree.Champion = tree.Rounds[rounds-1].Matches[0].Order[0]
	return true
}
