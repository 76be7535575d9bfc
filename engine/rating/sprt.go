package rating

import (
	"errors"
	"fmt"
	"math"
)

// SPRT is a sequential probability ratio test between two hypotheses about
// the normalized Elo (nElo) of a candidate against a base: H0 "nElo =
// Elo0" and H1 "nElo = Elo1". It follows fastchess's normalized model
// (M. Van den Bergh, "Comments on Normalized Elo"): each hypothesis is the
// distribution closest to the observed one (maximum likelihood) that has
// exactly the hypothesised nElo, and the log-likelihood ratio of the two is
// compared with Wald's bounds.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"` // chance of accepting H1 when H0 holds
	Beta  float64 `json:"beta"`  // chance of accepting H0 when H1 holds
}

// Verdict is the state of a sequential test.
type Verdict int

// The states of a sequential test.
const (
	// Continue: the LLR is between the bounds; play on.
	Continue Verdict = iota
	// AcceptH0: the LLR reached the lower bound; the data favour Elo0,
	// so the candidate is not an improvement of Elo1 (a "fail").
	AcceptH0
	// AcceptH1: the LLR reached the upper bound; the data favour Elo1,
	// so the candidate is better than Elo0 (a "pass").
	AcceptH1
	// AcceptWeaker: a two-sided test (Classroom) found the candidate
	// weaker than the base.
	AcceptWeaker
)

var verdictNames = [...]string{"continue", "accept_h0", "accept_h1", "accept_weaker"}

// String names the verdict: "continue", "accept_h0" or "accept_h1".
func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// MarshalText writes the verdict's name, so JSON shows words.
func (v Verdict) MarshalText() ([]byte, error) {
	if v < 0 || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("rating: unknown verdict %d", int(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText reads a verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, name := range verdictNames {
		if string(b) == name {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("rating: unknown verdict %q (want continue, accept_h0, accept_h1 or accept_weaker)", b)
}

// Check reports parameters that make no test, phrased for the user.
func (t SPRT) Check() error {
	switch {
	case math.IsNaN(t.Elo0) || math.IsNaN(t.Elo1) || math.IsInf(t.Elo0, 0) || math.IsInf(t.Elo1, 0):
		return errors.New("sprt: elo0 and elo1 must be finite numbers")
	case t.Elo0 >= t.Elo1:
		return fmt.Errorf("sprt: elo0 (%g) must be less than elo1 (%g), e.g. elo0 0 and elo1 5", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("sprt: alpha %g must be between 0 and 1 (0.05 is usual)", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("sprt: beta %g must be between 0 and 1 (0.05 is usual)", t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("sprt: alpha + beta is %g; it must be less than 1", t.Alpha+t.Beta)
	}
	return nil
}

// Bounds returns Wald's decision bounds on the log-likelihood ratio:
// lower = ln(β / (1 − α)) and upper = ln((1 − β) / α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide compares a log-likelihood ratio with the bounds.
func (t SPRT) Decide(llr float64) Verdict {
	lower, upper := t.Bounds()
	return decide(llr, lower, upper)
}

// LLR is the log-likelihood ratio of H1 against H0 for pentanomial counts
// of seat-swapped pairs. A pair's nElo is √2 times a game's, because its
// score averages two games.
func (t SPRT) LLR(p Penta) float64 {
	counts := []float64{float64(p[0]), float64(p[1]), float64(p[2]), float64(p[3]), float64(p[4])}
	scores := []float64{0, 0.25, 0.5, 0.75, 1}
	return llrNormalized(counts, scores, math.Sqrt2*t.Elo0/nEloScale, math.Sqrt2*t.Elo1/nEloScale)
}

// LLRWDL is the log-likelihood ratio for unpaired games (the trinomial
// model). Prefer LLR for seat-swapped pairs: the trinomial model ignores
// the correlation inside a pair.
func (t SPRT) LLRWDL(r WDL) float64 {
	counts := []float64{float64(r.Losses), float64(r.Draws), float64(r.Wins)}
	scores := []float64{0, 0.5, 1}
	return llrNormalized(counts, scores, t.Elo0/nEloScale, t.Elo1/nEloScale)
}

// emptyCell stands in for an outcome never observed, so that no
// probability is zero and the logarithms stay finite. fastchess uses the
// same value, which keeps our LLR comparable with its output.
const emptyCell = 1e-3

// llrNormalized returns N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ), where p̂ is the observed
// distribution over the outcome scores and pK the most likely distribution
// whose normalized score (μ − ½)/σ equals tK.
func llrNormalized(counts, scores []float64, t0, t1 float64) float64 {
	var total float64
	for _, c := range counts {
		if c == 0 {
			c = emptyCell
		}
		total += c
	}
	if total < 1 {
		return 0 // nothing observed
	}
	phat := make([]float64, len(counts))
	for i, c := range counts {
		if c == 0 {
			c = emptyCell
		}
		phat[i] = c / total
	}
	p0 := mleNormalized(phat, scores, t0)
	p1 := mleNormalized(phat, scores, t1)
	var sum float64
	for i := range phat {
		sum += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * sum
}

// mleNormalized finds the distribution p over scores that maximizes
// Σ p̂ᵢ ln pᵢ subject to (μ(p) − ½) / σ(p) = t. The constraint is not
// linear, so it is linearized around the current p (φᵢ below) and the
// linear problem solved exactly with one Lagrange multiplier θ, for which
// pᵢ = p̂ᵢ / (1 + θ φᵢ); repeating converges to the constrained optimum.
func mleNormalized(phat, scores []float64, t float64) []float64 {
	n := len(phat)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	phi := make([]float64, n)
	for range 500 {
		var mu, v float64
		for i := range p {
			mu += p[i] * scores[i]
		}
		for i := range p {
			v += p[i] * (scores[i] - mu) * (scores[i] - mu)
		}
		sigma := math.Sqrt(v)
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - 0.5 - 0.5*t*sigma*(1+z*z)
			lo, hi = min(lo, phi[i]), max(hi, phi[i])
		}
		if lo >= 0 || hi <= 0 {
			break // the constraint cannot be met from here; keep the last p
		}
		theta := solveTheta(phat, phi, -1/hi, -1/lo)
		var diff float64
		for i := range p {
			q := phat[i] / (1 + theta*phi[i])
			diff = max(diff, math.Abs(q-p[i]))
			p[i] = q
		}
		if diff < 1e-12 {
			break
		}
	}
	return p
}

// solveTheta finds the root of f(θ) = Σ p̂ᵢ φᵢ / (1 + θ φᵢ) in (a, b), where f
// falls from +∞ to −∞, by Newton steps kept inside a shrinking bracket.
func solveTheta(phat, phi []float64, a, b float64) float64 {
	f := func(x float64) (float64, float64) {
		var y, dy float64
		for i := range phat {
			d := 1 + x*phi[i]
			y += phat[i] * phi[i] / d
			dy -= phat[i] * phi[i] * phi[i] / (d * d)
		}
		return y, dy
	}
	x := 0.0
	if !(x > a && x < b) {
		x = (a + b) / 2
	}
	for range 200 {
		y, dy := f(x)
		if y == 0 {
			return x
		}
		if y > 0 {
			a = x
		} else {
			b = x
		}
		next := x - y/dy
		if !(next > a && next < b) {
			next = a + (b-a)/2
		}
		if math.Abs(next-x) <= 1e-15*max(1, math.Abs(x)) {
			return next
		}
		x = next
	}
	return x
}
