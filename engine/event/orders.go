package event

import (
	"math/rand/v2"
	"slices"
	"sync"
)

// Seat orders of multi-seat leagues (Config.Orders).
const (
	// OrdersBalanced, the default, plays a design in which every entry
	// sits in each seat, and follows every other entry, equally often
	// (see scheduleLeague).
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

// A balanced multi-seat league is a cyclic design over Z_n. A base block
// is a cyclic order of s distinct residues, b_0 … b_{s−1}; its
// differences are d_j = b_{j+1} − b_j (mod n, the last wrapping to b_0).
// Developing it, that is adding each i in Z_n to every member, gives n
// cyclic orders, and in them the ordered pair (a, a+d) is neighbours (a
// moves, then a+d) once for every j with d_j = d. So when the differences
// of all base blocks together are every nonzero residue exactly λ times,
// every entry follows every other exactly λ times, each developed order
// is rotated through all seats, and each entry is in the same number of
// orders (s per base block, one per position).

// designKey is what a design depends on: entries and seats only. The
// league's master seed relabels it (see leagueOrders).
type designKey struct{ n, s int }

var designCache struct {
	sync.Mutex
	m map[designKey]design
}

// design is a set of base blocks over Z_n, each difference λ times.
type design struct {
	blocks [][]int
	lambda int
}

// minLambda is the smallest λ for which base blocks of s members can hold
// every nonzero residue of Z_n exactly λ times: s must divide λ(n−1), and
// when n is even the residues sum to n/2 per round, so λ must be even for
// the blocks' differences to sum to 0 each.
func minLambda(n, s int) int {
	l := s / gcd(s, n-1)
	if n%2 == 0 && l%2 == 1 {
		l *= 2
	}
	return l
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// maxLambdaTries bounds the multiples of minLambda leagueDesign tries.
const maxLambdaTries = 4

// leagueDesign returns base blocks for n entries in s-seat games (n > s),
// with the smallest λ (a multiple of minLambda) for which its search finds
// them, or ok false. It is a pure function of n and s: the search draws
// from a generator seeded by them, and uses integers only, so every
// machine finds the same blocks. Tests check that it succeeds with
// minLambda for every s from 3 to 8 and n up to 80 (and, as measured once,
// up to 250 in under 70 ms each, once with twice the smallest λ).
func leagueDesign(n, s int) (design, bool) {
	k := designKey{n, s}
	designCache.Lock()
	defer designCache.Unlock()
	if d, ok := designCache.m[k]; ok {
		return d, d.blocks != nil
	}
	if designCache.m == nil {
		designCache.m = map[designKey]design{}
	}
	rng := rand.New(rand.NewPCG(uint64(n)<<8|uint64(s), 0x4445_5349_474e)) // "DESIGN"
	var d design
	for try := 1; try <= maxLambdaTries && d.blocks == nil; try++ {
		lambda := try * minLambda(n, s)
		if blocks := searchBlocks(n, s, lambda, rng); blocks != nil {
			d = design{blocks: blocks, lambda: lambda}
		}
	}
	designCache.m[k] = d
	return d, d.blocks != nil
}

// searchBlocks arranges the differences 1 … n−1, each λ times, into
// blocks of s whose sums are 0 mod n and whose partial sums are distinct
// mod n (so the members b_j = d_0 + … + d_{j−1} are distinct). It is a
// local search: swap a difference of a block with a defect and any other
// difference, keep the swap unless it adds defects, and keep a worse one
// with a probability that halves with each defect added and falls as the
// search goes on. It returns the blocks as
// members (b_0 = 0), or nil.
func searchBlocks(n, s, lambda int, rng *rand.Rand) [][]int {
	diffs := make([]int, 0, lambda*(n-1))
	for d := 1; d < n; d++ {
		for range lambda {
			diffs = append(diffs, d)
		}
	}
	bs := &blockSearch{
		n: n, s: s, k: len(diffs) / s, diffs: diffs, rng: rng,
		seen:  make([]int, n),
		pool:  make([]int, 0, len(diffs)),
		count: make([]int, n),
	}
	const restarts = 8
	budget := 20_000 + 200*len(diffs)
	for range restarts {
		bs.greedyStart()
		if bs.repair(budget) {
			return bs.members()
		}
	}
	return nil
}

// blockSearch is searchBlocks' state: diffs holds k blocks of s
// differences each, in order.
type blockSearch struct {
	n, s, k int
	diffs   []int
	rng     *rand.Rand
	seen    []int // scratch: generation marks per residue
	gen     int
	pool    []int // the differences not yet placed by greedyStart
	count   []int // how many of each difference pool holds
	cost    []int // defects per block
	bad     []int // the blocks with defects
	at      []int // at[b] is b's place in bad, or −1
}

// defects counts block b's repeated partial sums mod n, plus one if its
// sum is not 0 mod n.
func (bs *blockSearch) defects(b int) int {
	bs.gen++
	c, p := 0, 0
	for j := range bs.s {
		if bs.seen[p] == bs.gen {
			c++
		}
		bs.seen[p] = bs.gen
		p = (p + bs.diffs[b*bs.s+j]) % bs.n
	}
	if p != 0 {
		c++
	}
	return c
}

// take removes pool[i] from the pool and returns it.
func (bs *blockSearch) take(i int) int {
	d := bs.pool[i]
	bs.pool[i] = bs.pool[len(bs.pool)-1]
	bs.pool = bs.pool[:len(bs.pool)-1]
	bs.count[d]--
	return d
}

// greedyStart fills blocks one by one with random differences whose
// partial sums are distinct, closing each with the difference that brings
// its sum to 0 when that one is left. Only the last few blocks tend to
// fail; the search repairs them.
func (bs *blockSearch) greedyStart() {
	bs.pool = append(bs.pool[:0], bs.diffs...)
	clear(bs.count)
	for _, d := range bs.pool {
		bs.count[d]++
	}
	for b := range bs.k {
		blk := bs.diffs[b*bs.s : (b+1)*bs.s]
		ok := false
		for attempt := 0; attempt < 20 && !ok; attempt++ {
			ok = bs.tryBlock(blk)
		}
		if !ok {
			for j := range blk {
				blk[j] = bs.take(bs.rng.IntN(len(bs.pool)))
			}
		}
	}
}

// tryBlock draws blk's differences from the pool; when their partial sums
// are distinct and the closing difference is left, it keeps them, else it
// puts them back and reports false.
func (bs *blockSearch) tryBlock(blk []int) bool {
	n, s := bs.n, bs.s
	bs.gen++
	p := 0
	bs.seen[0] = bs.gen
	j := 0
	for ; j < s-1; j++ {
		blk[j] = bs.take(bs.rng.IntN(len(bs.pool)))
		p = (p + blk[j]) % n
		if bs.seen[p] == bs.gen {
			j++
			break
		}
		bs.seen[p] = bs.gen
	}
	last := (n - p) % n
	if j == s-1 && last != 0 && bs.count[last] > 0 {
		for i, d := range bs.pool {
			if d == last {
				blk[s-1] = bs.take(i)
				break
			}
		}
		return true
	}
	for _, d := range blk[:j] { // put the picks back
		bs.pool = append(bs.pool, d)
		bs.count[d]++
	}
	return false
}

// setCost records block b's defects, keeping bad and at up to date.
func (bs *blockSearch) setCost(b, c int) {
	switch {
	case bs.cost[b] == 0 && c > 0:
		bs.at[b] = len(bs.bad)
		bs.bad = append(bs.bad, b)
	case bs.cost[b] > 0 && c == 0:
		last := bs.bad[len(bs.bad)-1]
		bs.bad[bs.at[b]], bs.at[last] = last, bs.at[b]
		bs.bad = bs.bad[:len(bs.bad)-1]
		bs.at[b] = -1
	}
	bs.cost[b] = c
}

// repair swaps differences for at most budget moves and reports whether
// no block has a defect left.
func (bs *blockSearch) repair(budget int) bool {
	k, s, rng, diffs := bs.k, bs.s, bs.rng, bs.diffs
	bs.cost = make([]int, k)
	bs.bad = make([]int, 0, k)
	bs.at = make([]int, k)
	total := 0
	for b := range k {
		bs.at[b] = -1
		bs.setCost(b, bs.defects(b))
		total += bs.cost[b]
	}
	for move := 0; move < budget && total > 0; move++ {
		// One side of the swap is in a block with a defect; the other
		// is often in another such block (two blocks whose sums are
		// off by opposite amounts are mended by one swap), else
		// anywhere.
		bx := bs.bad[rng.IntN(len(bs.bad))]
		x := bx*s + rng.IntN(s)
		var y int
		if len(bs.bad) > 1 && rng.IntN(2) == 0 {
			y = bs.bad[rng.IntN(len(bs.bad))]*s + rng.IntN(s)
		} else {
			y = rng.IntN(len(diffs))
		}
		by := y / s
		if diffs[x] == diffs[y] {
			continue
		}
		diffs[x], diffs[y] = diffs[y], diffs[x]
		cx, cy := bs.defects(bx), 0
		if by != bx {
			cy = bs.defects(by)
		}
		before := bs.cost[bx] + bs.cost[by]
		if bx == by {
			before = bs.cost[bx]
		}
		delta := cx + cy - before
		if delta > 0 {
			// Probability 2^−(delta + 10·move/budget).
			e := delta + 10*move/budget
			if rng.Uint64()&(1<<e-1) != 0 {
				diffs[x], diffs[y] = diffs[y], diffs[x]
				continue
			}
		}
		bs.setCost(bx, cx)
		if by != bx {
			bs.setCost(by, cy)
		}
		total += delta
	}
	return total == 0
}

// members turns the blocks of differences into blocks of members
// (b_0 = 0, b_j = d_0 + … + d_{j−1} mod n).
func (bs *blockSearch) members() [][]int {
	blocks := make([][]int, bs.k)
	for b := range bs.k {
		m := make([]int, bs.s)
		for j := 1; j < bs.s; j++ {
			m[j] = (m[j-1] + bs.diffs[b*bs.s+j-1]) % bs.n
		}
		blocks[b] = m
	}
	return blocks
}
