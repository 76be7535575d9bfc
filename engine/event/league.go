package event

// scheduleLeague schedules a round robin; it is complete from the start.
//
// Two seats: every pairing plays cfg.Games seeds, each seed twice with the
// seats swapped (one group per seed). Pairings are ordered by the circle
// method, seed by seed, so results come in evenly for every entrant.
// Round = seed number · rounds per cycle + circle round.
//
// More seats: when the entrants form at most MaxFullGroups distinct seat
// groups (C(n, seats)), every group plays each of cfg.Games seeds rotated
// through all seats (seats games per seed). Otherwise a balanced design:
// for each of cfg.Games cycles the entrants are shuffled (by the master
// seed) into a ring, and each of the n windows of `seats` consecutive
// entrants on the ring plays one seed rotated through all seats. Every
// entrant then lies in exactly `seats` windows per cycle, so all play
// seats² games per cycle and sit in each seat `seats` times; the shuffle
// varies the opponents from cycle to cycle. Round = cycle.
func scheduleLeague(b *book) bool {
	n, s := len(b.cfg.Entries), b.cfg.Seats
	b.reserve(leagueSize(b.cfg))
	all := make([]int, 0, leagueSize(b.cfg))
	for g := range b.cfg.Games {
		if s == 2 {
			rounds := circle(n)
			for r, pairs := range rounds {
				for _, p := range pairs {
					grp, seed := b.group()
					round := g*len(rounds) + r
					all = append(all,
						b.add(round, grp, seed, []int{p[0], p[1]}),
						b.add(round, grp, seed, []int{p[1], p[0]}))
				}
			}
			continue
		}
		for _, members := range leagueGroups(b.cfg, g) {
			all = append(all, b.rotate(g, members)...)
		}
	}
	return b.played(all)
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
