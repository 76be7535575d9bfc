package event

import "fmt"

// scheduleLeague schedules a round robin; it is complete from the start.
//
// Two seats: every pairing plays cfg.Games seeds, each seed twice with the
// seats swapped (one group per seed). Pairings are ordered by the circle
// method, seed by seed, so results come in evenly for every entrant.
// Round = seed number · rounds per cycle + circle round.
//
// More seats: each of cfg.Games cycles (Round = cycle) plays a set of seat
// groups, each group on one seed of its own. When the entrants form at
// most MaxFullGroups distinct groups (C(n, seats)) the set is every group;
// otherwise it is the n windows of `seats` consecutive entrants on a ring
// shuffled by the master seed (a new shuffle each cycle), so every
// entrant lies in `seats` windows per cycle.
//
// A group's seed is played in one or more cyclic orders, each rotated
// through all seats (order o gives `seats` games: game t puts o[(p+t) mod
// seats] in seat p). With Orders = OrdersBalanced (the default):
//
//   - when the entrants are exactly one group (n = seats ≤ 4), every
//     cyclic order: the seed is played in all seats! seat orders;
//   - n = seats ≥ 5: seats−1 cyclic orders (2·(seats−1) for 6 seats), one
//     seed per cycle;
//   - otherwise one cyclic order per group and cycle.
//
// The cyclic orders are chosen (see balanceOrders) so that over the whole
// event every entry follows every other entry (sits in the next seat,
// the last seat followed by the first) equally often, or within one where
// the number of games does not divide evenly. Every entry sits in each
// seat equally often, since each order is rotated through all seats.
//
// With Orders = OrdersRotations (leagues stored before balanced orders)
// each group plays its members in ascending order, rotated: one cyclic
// order, so who follows whom never changes within a group.
func scheduleLeague(b *book) bool {
	n, s := len(b.cfg.Entries), b.cfg.Seats
	b.reserve(leagueSize(b.cfg))
	all := make([]int, 0, leagueSize(b.cfg))
	switch {
	case s == 2:
		rounds := circle(n)
		for g := range b.cfg.Games {
			for r, pairs := range rounds {
				for _, p := range pairs {
					grp, seed := b.group()
					round := g*len(rounds) + r
					all = append(all,
						b.add(round, grp, seed, []int{p[0], p[1]}),
						b.add(round, grp, seed, []int{p[1], p[0]}))
				}
			}
		}
	case b.cfg.Orders == OrdersRotations:
		for g := range b.cfg.Games {
			for _, members := range leagueGroups(b.cfg, g) {
				all = append(all, b.rotate(g, members)...)
			}
		}
	default:
		for g, groups := range leagueOrders(b.cfg) {
			for _, orders := range groups {
				grp, seed := b.group()
				for _, o := range orders {
					all = append(all, b.rotateIn(g, grp, seed, o)...)
				}
			}
		}
	}
	return b.played(all)
}

// leagueOrders returns a balanced multi-seat league's cyclic orders:
// per cycle, per group (in schedule order), the orders its seed is played
// in. See scheduleLeague.
func leagueOrders(cfg Config) [][][][]int {
	n, s := len(cfg.Entries), cfg.Seats
	out := make([][][][]int, cfg.Games)
	if binomial(n, s, MaxFullGroups) <= MaxFullGroups {
		// Every cyclic order of every group. Computed once: every cycle
		// plays the same orders, only the group order and seeds change.
		orders := map[string][][]int{}
		for g := range out {
			groups := leagueGroups(cfg, g)
			out[g] = make([][][]int, len(groups))
			for i, members := range groups {
				k := fmt.Sprint(members)
				if orders[k] == nil {
					orders[k] = cyclicOrders(members)
				}
				out[g][i] = orders[k]
			}
		}
		return out
	}
	var slots [][]int
	for g := range out {
		groups := leagueGroups(cfg, g)
		out[g] = make([][][]int, len(groups))
		slots = append(slots, groups...)
	}
	orders := balanceOrders(n, slots, cfg.Seed, orderKey{n: n, seats: s, games: cfg.Games, seed: cfg.Seed})
	k := 0
	for g := range out {
		for i := range out[g] {
			out[g][i] = orders[k : k+1 : k+1]
			k++
		}
	}
	return out
}

func factorial(k int) int {
	f := 1
	for i := 2; i <= k; i++ {
		f *= i
	}
	return f
}

// leagueGroups returns the seat groups of one cycle of a multi-seat league.
func leagueGroups(cfg Config, cycle int) [][]int {
	n, s := len(cfg.Entries), cfg.Seats
	entries := make([]int, n)
	for i := range entries {
		entries[i] = i
	}
	if binomial(n, s, MaxFullGroups) <= MaxFullGroups {
		// Every group, in a shuffled order so partial results are spread
		// over all entrants rather than led by entry 0.
		groups := combinations(entries, s)
		order := shuffled(cfg.Seed, uint64(cycle)<<1, len(groups))
		out := make([][]int, len(groups))
		for i, j := range order {
			out[i] = groups[j]
		}
		return out
	}
	return windows(shuffled(cfg.Seed, uint64(cycle)<<1|1, n), s)
}

// circle returns the rounds of a single round robin by the circle method:
// entrant 0 stays put while the others rotate; with an odd count a dummy
// entrant gives each round's bye.
func circle(n int) [][][2]int {
	m := n + n%2
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
	}
	rounds := make([][][2]int, 0, m-1)
	for r := 0; r < m-1; r++ {
		var pairs [][2]int
		for i := range m / 2 {
			a, c := ring[i], ring[m-1-i]
			if a >= n || c >= n {
				continue
			}
			if i == 0 && r%2 == 1 {
				a, c = c, a // alternate who is listed first for entrant 0
			}
			pairs = append(pairs, [2]int{a, c})
		}
		rounds = append(rounds, pairs)
		last := ring[m-1]
		copy(ring[2:], ring[1:m-1])
		ring[1] = last
	}
	return rounds
}

// scheduleGauntlet schedules every candidate against the field (the
// entries not marked Candidate); candidates never meet each other. It is
// complete from the start.
//
// Two seats: every candidate–field pairing plays cfg.Games seeds, each
// twice with the seats swapped. More seats: each game has one candidate
// and seats−1 field entries, one seed rotated through all seats. The
// field groups are every (seats−1)-subset of the field when there are at
// most MaxFullGroups of them, otherwise the cyclic windows of a shuffled
// field (each field entry in seats−1 windows per cycle), as in a league.
// Round = seed number (cycle).
func scheduleGauntlet(b *book) bool {
	cands, field := split(b.cfg)
	s := b.cfg.Seats
	b.reserve(gauntletSize(b.cfg))
	all := make([]int, 0, gauntletSize(b.cfg))
	for g := range b.cfg.Games {
		groups := fieldGroups(b.cfg, field, g)
		for _, c := range cands {
			if s == 2 {
				for _, f := range field {
					grp, seed := b.group()
					all = append(all,
						b.add(g, grp, seed, []int{c, f}),
						b.add(g, grp, seed, []int{f, c}))
				}
				continue
			}
			for _, fg := range groups {
				all = append(all, b.rotate(g, append([]int{c}, fg...))...)
			}
		}
	}
	return b.played(all)
}

// fieldGroups returns the field entries that fill the other seats, per
// game group of one cycle of a multi-seat gauntlet.
func fieldGroups(cfg Config, field []int, cycle int) [][]int {
	k := cfg.Seats - 1
	if k == 1 {
		return nil
	}
	if binomial(len(field), k, MaxFullGroups) <= MaxFullGroups {
		return combinations(field, k)
	}
	order := shuffled(cfg.Seed, uint64(cycle)<<1|1, len(field))
	ring := make([]int, len(field))
	for i, j := range order {
		ring[i] = field[j]
	}
	return windows(ring, k)
}

// split returns the candidates and the field of a gauntlet.
func split(cfg Config) (cands, field []int) {
	for i, e := range cfg.Entries {
		if e.Candidate {
			cands = append(cands, i)
		} else {
			field = append(field, i)
		}
	}
	return cands, field
}
