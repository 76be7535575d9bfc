package rating

import (
	"errors"
	"fmt"
	"math"
)

// Fit estimates one rating per player from ranked games with any number of
// seats, by the Plackett–Luce model: a game's finishing order is built
// from first place down, and at each place every player still in the
// running takes it with probability proportional to its strength γ =
// exp(θ). With two seats this is the Bradley–Terry (Elo) model.
//
// Shared ranks are scored so that a two-seat draw is exactly half a win and
// half a loss: when k players share a place, each of them is counted as
// taking that place against the players ranked below (not against the
// others in the tie), and the k tied players also meet in one drawn stage
// that each of them wins with weight 1/k.
//
// Ratings are on the Elo scale (400·log10 γ), so two players' ratings give
// their head-to-head odds as in Elo. Each player also gets a weak prior:
// one virtual win and one virtual loss against a player rated 0, which
// keeps ratings finite for a player who won or lost every game and fixes
// the scale's origin; its weight fades as real games accumulate.
//
// The fit maximizes the likelihood by Newton's method; the uncertainty is
// the inverse of the observed information (the negative Hessian of the
// log-likelihood) at the optimum. Games are aggregated by the set of
// players at each stage, so fitting costs little once results are added.
type Fit struct {
	n      int
	wins   []float64      // weighted stages won, per player
	small  map[uint64]int // stage index by bitset, up to 64 players
	index  map[string]int // stage index by bitset bytes, beyond 64
	sets   []stage
	key    []byte // bitset scratch for the current stage
	order  []int  // scratch: seats sorted by rank
	remain []int  // scratch: players still in the running
	tied   []int  // scratch: one tied player and those below
}

// stage is one distinct set of players competing for a place, with the
// total weight of the stages seen on that set.
type stage struct {
	members []int32
	weight  float64
}

// NewFit prepares a fit for players numbered 0..players−1.
func NewFit(players int) *Fit {
	return &Fit{
		n:     players,
		wins:  make([]float64, players),
		small: map[uint64]int{},
		index: map[string]int{},
		key:   make([]byte, (players+7)/8),
	}
}

// Add records one game: players[s] sat in seat s and finished with
// ranks[s] (1-based, equal ranks share a place).
func (f *Fit) Add(players, ranks []int) error {
	if len(players) != len(ranks) {
		return fmt.Errorf("rating: %d players but %d ranks", len(players), len(ranks))
	}
	if len(players) < 2 {
		return errors.New("rating: a game needs at least two players")
	}
	for s, p := range players {
		if p < 0 || p >= f.n {
			return fmt.Errorf("rating: player %d in seat %d is out of range 0..%d", p, s, f.n-1)
		}
		for _, q := range players[:s] {
			if q == p {
				return fmt.Errorf("rating: player %d sits in two seats of one game", p)
			}
		}
	}
	// Insertion sort: seats are few, and sort.Slice would allocate.
	f.order = f.order[:0]
	for s := range players {
		i := len(f.order)
		f.order = append(f.order, s)
		for ; i > 0 && ranks[f.order[i-1]] > ranks[s]; i-- {
			f.order[i] = f.order[i-1]
		}
		f.order[i] = s
	}

	f.remain = f.remain[:0]
	for _, s := range f.order {
		f.remain = append(f.remain, players[s])
	}
	for i := 0; i < len(f.order); {
		j := i + 1
		for j < len(f.order) && ranks[f.order[j]] == ranks[f.order[i]] {
			j++
		}
		// f.remain[i:] is still in the running; f.remain[i:j] share the place.
		below := f.remain[j:]
		if j-i == 1 {
			if len(below) > 0 {
				f.wins[f.remain[i]]++
				f.addStage(f.remain[i:], 1)
			}
		} else {
			for _, p := range f.remain[i:j] {
				if len(below) > 0 {
					f.wins[p]++
					f.tied = append(append(f.tied[:0], p), below...)
					f.addStage(f.tied, 1)
				}
				f.wins[p] += 1 / float64(j-i)
			}
			f.addStage(f.remain[i:j], 1)
		}
		i = j
	}
	return nil
}

// addStage adds weight to the stage on the given set of players.
func (f *Fit) addStage(set []int, w float64) {
	if f.n <= 64 {
		var key uint64
		for _, p := range set {
			key |= 1 << p
		}
		if k, ok := f.small[key]; ok {
			f.sets[k].weight += w
			return
		}
		f.small[key] = len(f.sets)
	} else {
		clear(f.key)
		for _, p := range set {
			f.key[p/8] |= 1 << (p % 8)
		}
		if k, ok := f.index[string(f.key)]; ok {
			f.sets[k].weight += w
			return
		}
		f.index[string(f.key)] = len(f.sets)
	}
	members := make([]int32, len(set))
	for i, p := range set {
		members[i] = int32(p)
	}
	f.sets = append(f.sets, stage{members: members, weight: w})
}

// Ratings is a fitted rating list.
type Ratings struct {
	// Elo is each player's rating on the Elo scale.
	Elo []float64
	// Cov is the covariance of the ratings, in Elo².
	Cov [][]float64
}

// SE returns the standard error of player i's rating.
func (r Ratings) SE(i int) float64 { return math.Sqrt(max(r.Cov[i][i], 0)) }

// Interval returns the 95 % interval of player i's rating.
func (r Ratings) Interval(i int) (low, high float64) {
	d := Z95 * r.SE(i)
	return r.Elo[i] - d, r.Elo[i] + d
}

// LOS returns the probability that player i is stronger than player j,
// from the normal approximation of their rating difference.
func (r Ratings) LOS(i, j int) float64 {
	v := r.Cov[i][i] + r.Cov[j][j] - 2*r.Cov[i][j]
	d := r.Elo[i] - r.Elo[j]
	if v <= 0 {
		return step(0.5 + d)
	}
	return Phi(d / math.Sqrt(v))
}

// priorWeight is the number of virtual wins (and of virtual losses) each
// player gets against a player rated 0.
const priorWeight = 1

// Solve fits the ratings. They are shifted so that the players listed in
// center average 0 (all players when center is empty), and the covariance
// is that of the shifted ratings.
func (f *Fit) Solve(center []int) (Ratings, error) {
	n := f.n
	for _, c := range center {
		if c < 0 || c >= n {
			return Ratings{}, fmt.Errorf("rating: center player %d is out of range 0..%d", c, n-1)
		}
	}
	theta := make([]float64, n)
	grad := make([]float64, n)
	info := newMatrix(n)
	trial := make([]float64, n)
	ll := f.logLik(theta)
	for range 100 {
		f.derivatives(theta, grad, info)
		step, err := solveSPD(info, grad)
		if err != nil {
			return Ratings{}, err
		}
		// Newton's step on a concave function; halve it if it overshoots.
		var next float64
		scale := 1.0
		for range 40 {
			for i := range theta {
				trial[i] = theta[i] + scale*step[i]
			}
			next = f.logLik(trial)
			if next >= ll {
				break
			}
			scale /= 2
		}
		copy(theta, trial)
		var moved float64
		for _, d := range step {
			moved = max(moved, math.Abs(scale*d))
		}
		ll = next
		if moved < 1e-10 {
			break
		}
	}
	f.derivatives(theta, grad, info)
	cov, err := invertSPD(info)
	if err != nil {
		return Ratings{}, err
	}
	if len(center) == 0 {
		center = make([]int, n)
		for i := range center {
			center[i] = i
		}
	}
	recenter(theta, cov, center)
	r := Ratings{Elo: make([]float64, n), Cov: cov}
	for i := range theta {
		r.Elo[i] = EloPerLogit * theta[i]
		for j := range cov[i] {
			cov[i][j] *= EloPerLogit * EloPerLogit
		}
	}
	return r, nil
}

// logLik is the log-likelihood of θ, prior included.
func (f *Fit) logLik(theta []float64) float64 {
	var ll float64
	for i, w := range f.wins {
		ll += w * theta[i]
		// Prior: priorWeight wins and as many losses against θ = 0.
		ll += priorWeight*theta[i] - 2*priorWeight*softplus(theta[i])
	}
	for _, s := range f.sets {
		ll -= s.weight * logSumExp(theta, s.members)
	}
	return ll
}

// derivatives fills grad with the gradient of the log-likelihood and info
// with its negative Hessian.
func (f *Fit) derivatives(theta, grad []float64, info [][]float64) {
	for i := range grad {
		sig := 1 / (1 + math.Exp(-theta[i]))
		grad[i] = f.wins[i] + priorWeight - 2*priorWeight*sig
		clear(info[i])
		info[i][i] = 2 * priorWeight * sig * (1 - sig)
	}
	var p []float64
	for _, s := range f.sets {
		p = p[:0]
		top := math.Inf(-1)
		for _, m := range s.members {
			top = max(top, theta[m])
		}
		var sum float64
		for _, m := range s.members {
			e := math.Exp(theta[m] - top)
			p = append(p, e)
			sum += e
		}
		for a, m := range s.members {
			p[a] /= sum
			grad[m] -= s.weight * p[a]
		}
		for a, m := range s.members {
			info[m][m] += s.weight * p[a]
			for b, o := range s.members {
				info[m][o] -= s.weight * p[a] * p[b]
			}
		}
	}
}

func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func logSumExp(theta []float64, members []int32) float64 {
	top := math.Inf(-1)
	for _, m := range members {
		top = max(top, theta[m])
	}
	var sum float64
	for _, m := range members {
		sum += math.Exp(theta[m] - top)
	}
	return top + math.Log(sum)
}

// recenter shifts θ so the players in center average 0 and turns cov into
// the covariance of the shifted values: C' = A C Aᵀ with A = I − 1·cᵀ/|c|.
func recenter(theta []float64, cov [][]float64, center []int) {
	n := len(theta)
	k := float64(len(center))
	var mean float64
	for _, c := range center {
		mean += theta[c]
	}
	mean /= k
	for i := range theta {
		theta[i] -= mean
	}
	m := make([]float64, n) // m[i] = mean over c of C[i][c]
	var all float64
	for i := range n {
		for _, c := range center {
			m[i] += cov[i][c]
		}
		m[i] /= k
	}
	for _, c := range center {
		all += m[c]
	}
	all /= k
	for i := range n {
		for j := range n {
			cov[i][j] += all - m[i] - m[j]
		}
	}
}

func newMatrix(n int) [][]float64 {
	back := make([]float64, n*n)
	m := make([][]float64, n)
	for i := range m {
		m[i] = back[i*n : (i+1)*n : (i+1)*n]
	}
	return m
}

// cholesky returns the lower triangular L with L·Lᵀ = a.
func cholesky(a [][]float64) ([][]float64, error) {
	n := len(a)
	l := newMatrix(n)
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := a[i][j]
			for k := range j {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(sum > 0) {
					return nil, errors.New("rating: the information matrix is not positive definite (results contain NaN or are degenerate)")
				}
				l[i][i] = math.Sqrt(sum)
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	return l, nil
}

// solveSPD solves a·x = b for a symmetric positive definite a.
func solveSPD(a [][]float64, b []float64) ([]float64, error) {
	l, err := cholesky(a)
	if err != nil {
		return nil, err
	}
	return cholSolve(l, b), nil
}

func cholSolve(l [][]float64, b []float64) []float64 {
	n := len(b)
	y := make([]float64, n)
	for i := range n {
		sum := b[i]
		for k := range i {
			sum -= l[i][k] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	return y
}

// invertSPD inverts a symmetric positive definite matrix.
func invertSPD(a [][]float64) ([][]float64, error) {
	l, err := cholesky(a)
	if err != nil {
		return nil, err
	}
	n := len(a)
	inv := newMatrix(n)
	e := make([]float64, n)
	for j := range n {
		clear(e)
		e[j] = 1
		col := cholSolve(l, e)
		for i := range n {
			inv[i][j] = col[i]
		}
	}
	return inv, nil
}
