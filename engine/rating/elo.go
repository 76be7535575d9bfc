package rating

import (
	"encoding/json"
	"fmt"
	"math"
)

// WDL counts one player's wins, draws and losses against another.
type WDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games returns the number of games counted.
func (r WDL) Games() int { return r.Wins + r.Draws + r.Losses }

// Penta counts seat-swapped game pairs by the points the first player made
// in the pair, in half points: Penta[0] lost both (LL), [1] lost one and
// drew one (LD), [2] won one and lost one or drew both (WL+DD), [3] won one
// and drew one (WD), [4] won both (WW). This is fastchess's Ptnml(0-2).
type Penta [5]int

// Pairs returns the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// AddPair counts one pair from the first player's points in each of its
// two games (0, 0.5 or 1 each).
func (p *Penta) AddPair(first, second float64) {
	k := int(math.Round(2 * (first + second)))
	p[min(max(k, 0), 4)]++
}

// Estimate is an Elo difference measured from a head-to-head record, from
// the first player's side.
type Estimate struct {
	// N is the number of observations: games for WDL, pairs for Penta.
	N int `json:"n"`
	// Score is the first player's mean points per game, in [0, 1].
	Score float64 `json:"score"`
	// Elo is the logistic Elo difference of Score; ±Inf for a score of 1
	// or 0 (written as null in JSON, as are the other infinite fields).
	Elo float64 `json:"elo"`
	// Low and High bound the 95 % interval of Elo (they may be ±Inf when
	// the interval of the score reaches 0 or 1).
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Error is fastchess's "±": half the width of the 95 % interval.
	Error float64 `json:"error"`
	// NElo is the normalized Elo: the score's distance from ½ in standard
	// deviations of one game (or pair), scaled by 800 / ln 10. Its interval
	// half-width is NEloError.
	NElo      float64 `json:"nelo"`
	NEloError float64 `json:"nelo_error"`
	// LOS is the probability that the first player is the stronger one.
	LOS float64 `json:"los"`
}

// MarshalJSON writes the estimate with null in place of infinite values
// (a record of all wins or all losses), which JSON cannot represent.
func (e Estimate) MarshalJSON() ([]byte, error) {
	finite := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		N         int      `json:"n"`
		Score     *float64 `json:"score"`
		Elo       *float64 `json:"elo"`
		Low       *float64 `json:"low"`
		High      *float64 `json:"high"`
		Error     *float64 `json:"error"`
		NElo      *float64 `json:"nelo"`
		NEloError *float64 `json:"nelo_error"`
		LOS       *float64 `json:"los"`
	}{e.N, finite(e.Score), finite(e.Elo), finite(e.Low), finite(e.High), finite(e.Error),
		finite(e.NElo), finite(e.NEloError), finite(e.LOS)})
}

// String formats the estimate like fastchess's summary line.
func (e Estimate) String() string {
	return fmt.Sprintf("Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f, LOS: %.2f %%",
		e.Elo, e.Error, e.NElo, e.NEloError, 100*e.LOS)
}

// Estimate measures the Elo difference from a trinomial (per game) record,
// as fastchess and cutechess do: the score's standard error is the per-game
// standard deviation over √games, the interval is the score ± 1.96 standard
// errors mapped through ScoreToElo, and LOS comes from the decisive games.
func (r WDL) Estimate() Estimate {
	n := r.Games()
	if n == 0 {
		return Estimate{Score: 0.5, LOS: 0.5}
	}
	w := float64(r.Wins) / float64(n)
	d := float64(r.Draws) / float64(n)
	l := float64(r.Losses) / float64(n)
	s := w + d/2
	v := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	e := estimate(n, s, v, v)
	e.LOS = LOS(r.Wins, r.Losses)
	return e
}

// Estimate measures the Elo difference from pentanomial counts, as
// fastchess does by default: the pair is the unit of observation, which
// removes the seat advantage from the variance and so gives a tighter (and
// honest) interval for seat-swapped play. LOS is Φ((score − ½) / standard
// error).
func (p Penta) Estimate() Estimate {
	n := p.Pairs()
	if n == 0 {
		return Estimate{Score: 0.5, LOS: 0.5}
	}
	var s float64
	for k, c := range p {
		s += float64(k) / 4 * float64(c) / float64(n)
	}
	var v float64
	for k, c := range p {
		d := float64(k)/4 - s
		v += float64(c) / float64(n) * d * d
	}
	// A pair's score is the mean of two games, so one game's variance
	// is about twice the pair's: normalized Elo divides by √(2v).
	e := estimate(n, s, v, 2*v)
	if v > 0 {
		e.LOS = Phi((s - 0.5) / math.Sqrt(v/float64(n)))
	} else {
		e.LOS = step(s)
	}
	return e
}

// estimate fills the common fields from n observations with mean score s
// and per-observation variance v; vGame is the per-game variance used for
// normalized Elo.
func estimate(n int, s, v, vGame float64) Estimate {
	se := math.Sqrt(v / float64(n))
	lo := max(s-Z95*se, 0)
	hi := min(s+Z95*se, 1)
	e := Estimate{N: n, Score: s, Elo: ScoreToElo(s), Low: ScoreToElo(lo), High: ScoreToElo(hi)}
	e.Error = (e.High - e.Low) / 2
	if math.IsInf(e.Low, 0) || math.IsInf(e.High, 0) {
		e.Error = math.Inf(1)
	}
	if vGame > 0 {
		e.NElo = (s - 0.5) / math.Sqrt(vGame) * nEloScale
		e.NEloError = Z95 * se / math.Sqrt(vGame) * nEloScale
	} else if s != 0.5 {
		// Every game went the same way: no spread to normalize by.
		e.NElo = math.Copysign(math.Inf(1), s-0.5)
		e.NEloError = math.Inf(1)
	}
	return e
}

// step is the LOS of a record without any spread: certain either way, or
// a coin toss when every game was drawn.
func step(s float64) float64 {
	switch {
	case s > 0.5:
		return 1
	case s < 0.5:
		return 0
	}
	return 0.5
}
