package event

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// Seat orders of multi-seat leagues (Config.Orders).
const (
	// OrdersBalanced, the default, plays each group in a cyclic order
	// chosen so that over the event every entry follows every other entry
	// equally often (see scheduleLeague).
	OrdersBalanced = ""
	// OrdersRotations plays each group in one fixed cyclic order rotated
	// through the seats, so who moves right after whom never changes
	// within a group. It is what leagues created before balanced orders
	// played; their stored games keep it.
	OrdersRotations = "rotations"
)

// cyclicOrders returns every cyclic order of members: the (s−1)!
// permutations that start with members[0], in lexicographic order of the
// rest. Rotating each through all seats gives every one of the s! seat
// orders exactly once.
func cyclicOrders(members []int) [][]int {
	rest := slices.Clone(members[1:])
	var out [][]int
	var walk func(k int)
	walk = func(k int) {
		if k == len(rest) {
			out = append(out, append([]int{members[0]}, rest...))
			return
		}
		for i := k; i < len(rest); i++ {
			rest[k], rest[i] = rest[i], rest[k]
			walk(k + 1)
			rest[k], rest[i] = rest[i], rest[k]
		}
	}
	walk(0)
	// The swaps above visit the orders out of lexicographic order.
	slices.SortFunc(out, slices.Compare)
	return out
}

// followers counts, for a list of cyclic orders, how often entry b sits
// right after entry a (seat p+1 after seat p, the last seat followed by the
// first): f[a*n+b].
type followers struct {
	n    int
	f    []int32
	hist []int // hist[c] = ordered pairs a≠b followed c times
}

func newFollowers(n int) *followers {
	fl := &followers{n: n, f: make([]int32, n*n), hist: []int{n * (n - 1)}}
	return fl
}

func (fl *followers) add(a, b int, d int32) {
	i := a*fl.n + b
	fl.hist[fl.f[i]]--
	fl.f[i] += d
	for int(fl.f[i]) >= len(fl.hist) {
		fl.hist = append(fl.hist, 0)
	}
	fl.hist[fl.f[i]]++
}

// spread returns the most and fewest times an ordered pair is followed.
func (fl *followers) spread() (lo, hi int) {
	lo, hi = -1, 0
	for c, k := range fl.hist {
		if k > 0 {
			if lo < 0 {
				lo = c
			}
			hi = c
		}
	}
	return lo, hi
}

// orderCache keeps the last few designs: Next and Standings rebuild the
// schedule after every game, and the search, though deterministic, is the
// costliest part of a league's schedule.
var orderCache struct {
	sync.Mutex
	keys []orderKey
	vals [][][]int
}

// orderKey is what fixes a design: the league's entry count, seats, games
// and master seed.
type orderKey struct {
	n, seats, games int
	seed            int64
}

// balanceOrders puts the members of each slot (a group that plays one
// seed rotated through all its seats) into a cyclic order, so that over
// all slots every ordered pair of the n entries is followed (b sits right
// after a) as evenly as it can. The result is a pure function of its arguments: the
// search draws from a generator seeded by seed.
//
// The search minimises the sum of squared follower counts, which for a
// fixed total is smallest when the counts are as even as possible. It
// starts from a greedy choice (each slot's next member is the one that
// has followed the current one least) and then swaps two members of a
// random slot, keeping a swap that does not make the sum worse and, with
// a probability that falls as the search goes on, one that does (simulated
// annealing), until the counts are within one or a budget of moves
// proportional to the number of slots is spent.
func balanceOrders(n int, slots [][]int, seed int64, key orderKey) [][]int {
	if len(slots) == 0 {
		return nil
	}
	orderCache.Lock()
	for i, k := range orderCache.keys {
		if k == key {
			v := orderCache.vals[i]
			orderCache.Unlock()
			return v
		}
	}
	orderCache.Unlock()

	rng := rand.New(rand.NewPCG(uint64(seed), 0x4f52_4445_5253)) // "ORDERS"
	fl := newFollowers(n)
	orders := make([][]int, len(slots))
	buf := make([]int, 0, len(slots)*len(slots[0]))
	for k, members := range slots {
		s := len(members)
		left := slices.Clone(members)
		for i := len(left) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			left[i], left[j] = left[j], left[i]
		}
		start := len(buf)
		cur := left[0]
		buf = append(buf, cur)
		left = left[1:]
		for len(left) > 0 {
			best := 0
			for i := 1; i < len(left); i++ {
				if fl.f[cur*n+left[i]] < fl.f[cur*n+left[best]] {
					best = i
				}
			}
			fl.add(cur, left[best], 1)
			cur = left[best]
			buf = append(buf, cur)
			left = slices.Delete(left, best, best+1)
		}
		fl.add(cur, buf[start], 1)
		orders[k] = buf[start : start+s : start+s]
	}

	var sumsq int64
	for _, c := range fl.f {
		sumsq += int64(c) * int64(c)
	}
	// edge updates the sum of squares along with the counts.
	edge := func(a, b int, d int32) {
		c := int64(fl.f[a*n+b])
		sumsq += (c+int64(d))*(c+int64(d)) - c*c
		fl.add(a, b, d)
	}
	// touch applies d to the edges that leave or enter positions i and j
	// of order o (each edge once).
	var touched [4]int
	touch := func(o []int, i, j int, d int32) {
		s := len(o)
		m := 0
		for _, p := range [4]int{(i + s - 1) % s, i, (j + s - 1) % s, j} {
			if !slices.Contains(touched[:m], p) {
				touched[m] = p
				m++
			}
		}
		for _, p := range touched[:m] {
			edge(o[p], o[(p+1)%s], d)
		}
	}
	even := func() bool {
		lo, hi := fl.spread()
		return hi-lo <= 1
	}
	// A move takes one slot and swaps two of its members, keeping the
	// swap unless it makes the sum worse; a worse swap is kept with
	// probability exp(−Δ/T), T falling linearly to nothing (simulated
	// annealing), so the search can leave a local minimum.
	budget := 50*len(slots) + 50_000
	const t0 = 4.0
	ok := even()
	for move := 0; move < budget && !ok; move++ {
		o := orders[rng.IntN(len(orders))]
		s := len(o)
		i, j := rng.IntN(s), rng.IntN(s-1)
		if j >= i {
			j++
		}
		before := sumsq
		touch(o, i, j, -1)
		o[i], o[j] = o[j], o[i]
		touch(o, i, j, 1)
		d := sumsq - before
		if d > 0 {
			temp := t0 * float64(budget-move) / float64(budget)
			if rng.Float64() >= math.Exp(-float64(d)/temp) {
				touch(o, i, j, -1)
				o[i], o[j] = o[j], o[i]
				touch(o, i, j, 1)
			}
			continue
		}
		ok = even()
	}

	orderCache.Lock()
	if len(orderCache.keys) >= 16 {
		orderCache.keys, orderCache.vals = orderCache.keys[1:], orderCache.vals[1:]
	}
	orderCache.keys = append(orderCache.keys, key)
	orderCache.vals = append(orderCache.vals, orders)
	orderCache.Unlock()
	return orders
}
