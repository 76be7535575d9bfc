// Package rating turns game results into statistics: Elo differences with
// their 95 % intervals and likelihood of superiority from win/draw/loss and
// pentanomial (game pair) counts, the sequential probability ratio test used
// to compare two revisions, and a Plackett–Luce rating for games with any
// number of seats. The formulas follow fastchess's (written here from the
// published definitions); everything is a pure function of counts.
package rating

import "math"

// Z95 is the two-sided 95 % quantile of the standard normal distribution,
// Φ⁻¹(0.975).
const Z95 = 1.959963984540054

// EloPerLogit converts a difference of natural-log strengths into Elo:
// 400 / ln 10, so that a 400 Elo gap is a factor 10 in odds.
const EloPerLogit = 400 / math.Ln10

// nEloScale turns "standard deviations of score per game" into normalized
// Elo: 800 / ln 10, which makes one nElo about one logistic Elo for a
// typical draw rate (fastchess's and fishtest's convention).
const nEloScale = 800 / math.Ln10

// ScoreToElo returns the logistic Elo difference of an expected score in
// [0, 1]: −400·log10(1/score − 1). A score of 0 or 1 gives −Inf or +Inf.
func ScoreToElo(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/score-1)
}

// EloToScore is the inverse of ScoreToElo: the expected score of a player
// elo points stronger than its opponent.
func EloToScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// Phi is the standard normal cumulative distribution function.
func Phi(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// PhiInv is the standard normal quantile function, the inverse of Phi.
func PhiInv(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// LOS is the likelihood of superiority from decisive games only, as
// cutechess prints it: 0.5·(1 + erf((W − L) / √(2(W + L)))). Draws carry no
// information about who is stronger here. With no decisive game it is 0.5.
func LOS(wins, losses int) float64 {
	if wins+losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses))))
}
