package event

import "sort"

// swissState is what the Swiss scheduler learned, for the standings.
type swissState struct {
	pairs [][][2]int // per round, the pairings (better placed first)
	byes  []int      // per round, the entry with the bye or −1
}

// swissByePoints is what a bye is worth: a won pair of games.
const swissByePoints = 2

// swissBudget bounds the backtracking search for a round's pairing, so a
// round where no rematch-free pairing exists costs little before the
// fallback takes over.
const swissBudget = 100_000

// scheduleSwiss schedules a Swiss event round by round (two seats only).
// Each pairing plays one seed twice with the seats swapped, and a
// pairing's score is its points (0 to 2). Round 1 pairs by entry order,
// the top half against the bottom half (1 v n/2+1, 2 v n/2+2, …). Later
// rounds sort the entries by score (points, byes included), then entry
// order, and pair the highest-placed unpaired entry with the next one it
// has not met, backtracking when that leaves the rest unpairable. With an
// odd count the bye (worth a won pair, 2 points, and no games) goes to the
// lowest-placed entry that has not had one, or the next one up if the rest
// cannot then be paired. If no rematch-free pairing exists (possible late
// in a long event, e.g. 6 entries after 3 rounds that split them into two
// groups of 3), the round is paired greedily, each entry with the next
// one it has met least often.
func scheduleSwiss(b *book) bool {
	n := len(b.cfg.Entries)
	st := &swissState{}
	b.swiss = st
	score := make([]float64, n)
	hadBye := make([]bool, n)
	met := make([][]int, n)
	for i := range met {
		met[i] = make([]int, n)
	}
	for r := range b.cfg.Games {
		var pairs [][2]int
		bye := -1
		if r == 0 {
			pairs, bye = firstRound(n)
		} else {
			pairs, bye = pairRound(score, met, hadBye)
		}
		st.pairs = append(st.pairs, pairs)
		st.byes = append(st.byes, bye)
		games := make([][2]int, len(pairs))
		for i, p := range pairs {
			grp, seed := b.group()
			games[i] = [2]int{
				b.add(r, grp, seed, []int{p[0], p[1]}),
				b.add(r, grp, seed, []int{p[1], p[0]}),
			}
		}
		for _, g := range games {
			if !b.played(g[:]) {
				return false
			}
		}
		for i, p := range pairs {
			for _, gi := range games[i] {
				g, o := b.games[gi], b.result(gi)
				score[p[0]] += points(o.Ranks, seatOf(g, p[0]))
				score[p[1]] += points(o.Ranks, seatOf(g, p[1]))
			}
			met[p[0]][p[1]]++
			met[p[1]][p[0]]++
		}
		if bye >= 0 {
			score[bye] += swissByePoints
			hadBye[bye] = true
		}
	}
	return true
}

// firstRound pairs by entry order, top half against bottom half; with an
// odd count the last entry has the bye.
func firstRound(n int) (pairs [][2]int, bye int) {
	bye = -1
	m := n
	if n%2 == 1 {
		bye, m = n-1, n-1
	}
	for i := range m / 2 {
		pairs = append(pairs, [2]int{i, i + m/2})
	}
	return pairs, bye
}

// pairRound pairs a later round by score.
func pairRound(score []float64, met [][]int, hadBye []bool) (pairs [][2]int, bye int) {
	n := len(score)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return score[order[i]] > score[order[j]] })
	p := &pairer{met: met, budget: swissBudget}
	if n%2 == 0 {
		if pairs, ok := p.pair(order); ok {
			return pairs, -1
		}
		return greedyPairs(order, met), -1
	}
	first := -1
	for k := n - 1; k >= 0; k-- {
		c := order[k]
		if hadBye[c] {
			continue
		}
		if first < 0 {
			first = c
		}
		if pairs, ok := p.pair(without(order, c)); ok {
			return pairs, c
		}
	}
	if first < 0 {
		first = order[n-1] // everyone has had a bye: cannot happen within the round limit
	}
	return greedyPairs(without(order, first), met), first
}

func without(order []int, x int) []int {
	out := make([]int, 0, len(order)-1)
	for _, e := range order {
		if e != x {
			out = append(out, e)
		}
	}
	return out
}

// pairer searches for a rematch-free pairing of entries listed best first:
// the first unpaired entry takes the first unpaired entry below it that it
// has not met, as long as every other unpaired entry keeps at least one
// possible partner.
type pairer struct {
	met    [][]int
	budget int
	list   []int
	used   []bool
	avail  []int // per position: unmet unpaired partners left
	out    [][2]int
}

func (p *pairer) pair(list []int) ([][2]int, bool) {
	m := len(list)
	p.list, p.used, p.avail, p.out = list, make([]bool, m), make([]int, m), nil
	for i := range m {
		for j := range m {
			if i != j && p.met[list[i]][list[j]] == 0 {
				p.avail[i]++
			}
		}
		if p.avail[i] == 0 {
			return nil, false
		}
	}
	if !p.search() {
		return nil, false
	}
	return p.out, true
}

func (p *pairer) search() bool {
	u := -1
	for i, used := range p.used {
		if !used {
			u = i
			break
		}
	}
	if u < 0 {
		return true
	}
	if p.budget <= 0 {
		return false
	}
	p.budget--
	for v := u + 1; v < len(p.list); v++ {
		if p.used[v] || p.met[p.list[u]][p.list[v]] > 0 {
			continue
		}
		if p.take(u, v, -1) {
			p.out = append(p.out, [2]int{p.list[u], p.list[v]})
			if p.search() {
				return true
			}
			p.out = p.out[:len(p.out)-1]
		}
		p.take(u, v, +1)
		if p.budget <= 0 {
			return false
		}
	}
	return false
}

// take marks positions u and v as paired (d = −1) or unpaired (d = +1),
// updating the partners left of the others; when pairing, it reports
// whether every other unpaired entry still has a partner.
func (p *pairer) take(u, v, d int) bool {
	p.used[u], p.used[v] = d < 0, d < 0
	ok := true
	for x := range p.list {
		if p.used[x] || x == u || x == v {
			continue
		}
		for _, y := range [2]int{u, v} {
			if p.met[p.list[x]][p.list[y]] == 0 {
				p.avail[x] += d
			}
		}
		if p.avail[x] == 0 {
			ok = false
		}
	}
	return ok
}

// greedyPairs pairs each unpaired entry, best first, with the next one it
// has met least often.
func greedyPairs(list []int, met [][]int) [][2]int {
	used := make([]bool, len(list))
	var pairs [][2]int
	for u := range list {
		if used[u] {
			continue
		}
		best := -1
		for v := u + 1; v < len(list); v++ {
			if !used[v] && (best < 0 || met[list[u]][list[v]] < met[list[u]][list[best]]) {
				best = v
			}
		}
		if best < 0 {
			break
		}
		used[u], used[best] = true, true
		pairs = append(pairs, [2]int{list[u], list[best]})
	}
	return pairs
}
