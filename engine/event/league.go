package event

// scheduleLeague schedules a round robin; it is complete from the start.
//
// Two seats: every pairing plays cfg.Games seeds, each seed twice with the
// seats swapped (one group per seed). Pairings are ordered by the circle
// method, seed by seed, so results come in evenly for every entrant.
// Round = seed number · rounds per cycle + circle round.
//
// More seats, Orders = OrdersBalanced (the default): cfg.Games cycles
// (Round = cycle), each a balanced design in which every entry sits in
// each seat equally often and follows every other entry (sits in the
// next seat; the last seat is followed by the first) equally often. A
// design is a list of cyclic orders, each played on a seed of its own and
// rotated through all seats (order o gives `seats` games: game t puts
// o[(p+t) mod seats] in seat p), so seat luck on a seed cancels out.
//
//   - n = seats: every cyclic order of the one group, that is the seed
//     in all seats! seat orders; each entry follows each other
//     (seats−2)!·seats times.
//   - n > seats: the cyclic design of leagueDesign over Z_n, with the
//     entries relabelled by a shuffle of the master seed (a new one each
//     cycle): k·n orders, each ordered pair neighbours λ times (so λ·seats
//     games with one following the other), where λ = minLambda(n, seats)
//     and k = λ(n−1)/seats. Every pair meets; not every group of `seats`
//     entries is played.
//
// Orders = OrdersRotations (leagues stored before balanced orders): when
// the entrants form at most MaxFullGroups distinct groups (C(n, seats)),
// every group plays each seed rotated through all seats; otherwise a
// ring design: for each cycle the entrants are shuffled into a ring and
// each of the n windows of `seats` consecutive entrants plays one seed
// rotated through all seats. Each group keeps one cyclic order, so who
// follows whom never changes within it.
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
	case n == s:
		// One group: each cycle's seed in every seat order.
		for g, orders := range leagueOrders(b.cfg) {
			grp, seed := b.group()
			for _, o := range orders {
				all = append(all, b.rotateIn(g, grp, seed, o)...)
			}
		}
	default:
		for g, orders := range leagueOrders(b.cfg) {
			for _, o := range orders {
				all = append(all, b.rotate(g, o)...)
			}
		}
	}
	return b.played(all)
}

// leagueOrders returns a balanced multi-seat league's cyclic orders, per
// cycle, in schedule order. See scheduleLeague.
func leagueOrders(cfg Config) [][][]int {
	n, s := len(cfg.Entries), cfg.Seats
	out := make([][][]int, cfg.Games)
	if n == s {
		all := cyclicOrders(seq(n))
		for g := range out {
			// Spread the orders so a partial cycle is as even as it can be.
			order := shuffled(cfg.Seed, uint64(g)<<2|2, len(all))
			for _, i := range order {
				out[g] = append(out[g], all[i])
			}
		}
		return out
	}
	d, ok := leagueDesign(n, s)
	if !ok {
		return nil
	}
	for g := range out {
		label := shuffled(cfg.Seed, uint64(g)<<2|2, n)
		slots := make([][]int, 0, n*len(d.blocks))
		for _, b := range d.blocks {
			for i := range n {
				o := make([]int, s)
				for j, m := range b {
					o[j] = label[(m+i)%n]
				}
				slots = append(slots, o)
			}
		}
		// Play them in a shuffled order, so that results come in evenly
		// for every entrant rather than block by block.
		for _, i := range shuffled(cfg.Seed, uint64(g)<<2|3, len(slots)) {
			out[g] = append(out[g], slots[i])
		}
	}
	return out
}

// balancedSize returns the games of a balanced multi-seat league, or
// false when no design was found (leagueDesign failed).
func balancedSize(cfg Config) (int, bool) {
	n, s := len(cfg.Entries), cfg.Seats
	if n == s {
		return factorial(s) * cfg.Games, true
	}
	// A lower bound first, so that a league far too big is refused
	// without a search.
	if low := minLambda(n, s) * (n - 1) * n * cfg.Games; low > MaxGames {
		return low, true
	}
	d, ok := leagueDesign(n, s)
	if !ok {
		return 0, false
	}
	return d.lambda * (n - 1) * n * cfg.Games, true
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
