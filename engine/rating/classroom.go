package rating

import (
	"fmt"
	"math"
)

// Classroom is the sequential test a comparison runs by default: is the
// candidate stronger than the base, weaker, or neither by a margin that a
// class would notice? Each observation is one independent seed group (a
// seat-swapped pair, or the rotations of a multi-seat game) that one of the
// two won, that is, finished ahead of the other in more of the group's
// games; groups they drew are not counted.
//
// Two sequential probability ratio tests on the share p of decided groups
// the candidate wins run side by side, "up" (H0 p = ½ against p = P1) and
// "down" (H0 p = ½ against p = 1 − P1), in the manner of Sobel and Wald: a
// test that reaches a bound has decided and stops moving. "Stronger" when
// up accepts P1, "weaker" when down accepts 1 − P1, "no clear difference"
// once both accept ½.
//
// The bounds are ln(β) and ln(1/α) rather than Wald's approximate
// ln(β/(1−α)) and ln((1−β)/α): by Ville's inequality the likelihood ratio
// of a true H0 ever reaching 1/α has probability at most α, and that of a
// true H1 ever falling to β at most β, whatever the stopping rule. So the
// chance of calling two equal bots different one way is at most α, and the
// chance of missing a difference of P1 is at most β (short of a game cap),
// without any approximation; the price is a few more groups than Wald's
// bounds would need.
type Classroom struct {
	// P1 is the share of decided groups the stronger bot wins under the
	// alternative, in (½, 1): 0.75 means "it wins three decided groups
	// out of four".
	P1    float64 `json:"p1"`
	Alpha float64 `json:"alpha"` // chance of "stronger" (or of "weaker") when the two are equal
	Beta  float64 `json:"beta"`  // chance of missing a difference of P1 in either direction
}

// DefaultClassroomP1 is the default margin: three decided groups out of
// four. A lopsided comparison (every group won) then decides after 8
// groups at α = β = 0.05: 16 games of a two-player game.
const DefaultClassroomP1 = 0.75

// Check reports parameters that make no test, phrased for the user.
func (t Classroom) Check() error {
	switch {
	case !(t.P1 > 0.5 && t.P1 < 1):
		return fmt.Errorf("classroom test: p1 %g must be above 0.5 and below 1 (0.75: the stronger wins 3 of 4 decided groups)", t.P1)
	case !(t.Alpha > 0 && t.Alpha < 0.5):
		return fmt.Errorf("classroom test: alpha %g must be between 0 and 0.5 (0.05 is usual)", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("classroom test: beta %g must be between 0 and 0.5 (0.05 is usual)", t.Beta)
	}
	return nil
}

// Bounds returns the decision bounds on each log-likelihood ratio:
// lower = ln β, upper = ln(1/α).
func (t Classroom) Bounds() (lower, upper float64) {
	return math.Log(t.Beta), -math.Log(t.Alpha)
}

// steps returns what one group adds to the "up" ratio when the candidate
// wins it (win > 0) and when it loses it (loss < 0); "down" mirrors them.
func (t Classroom) steps() (win, loss float64) {
	return math.Log(2 * t.P1), math.Log(2 * (1 - t.P1))
}

// ClassroomState is where a classroom test stands after some groups.
type ClassroomState struct {
	Ahead  int     `json:"ahead"`  // decided groups the candidate won
	Behind int     `json:"behind"` // decided groups the base won
	Level  int     `json:"level"`  // groups neither won
	Up     float64 `json:"up"`     // LLR of p = P1 against ½
	Down   float64 `json:"down"`   // LLR of p = 1 − P1 against ½
	// UpDone and DownDone are each test's own verdict once it reached a
	// bound (AcceptH0 or AcceptH1), Continue before.
	UpDone   Verdict `json:"up_done"`
	DownDone Verdict `json:"down_done"`
}

// Add records one group: diff > 0 the candidate won it, diff < 0 the base
// did, 0 neither. A group added after the test decided changes the counts
// but not the verdict.
func (t Classroom) Add(s *ClassroomState, diff int) {
	win, loss := t.steps()
	lower, upper := t.Bounds()
	switch {
	case diff > 0:
		s.Ahead++
	case diff < 0:
		s.Behind++
	default:
		s.Level++
		return
	}
	if s.Verdict() != Continue {
		return
	}
	up, down := win, loss // the "down" test mirrors "up"
	if diff < 0 {
		up, down = loss, win
	}
	advance(&s.Up, &s.UpDone, up, lower, upper)
	advance(&s.Down, &s.DownDone, down, lower, upper)
}

// advance adds step to the LLR of a test that has not reached a bound yet
// and records its verdict; a decided test stays as it is.
func advance(llr *float64, done *Verdict, step, lower, upper float64) {
	if *done != Continue {
		return
	}
	*llr += step
	*done = decide(*llr, lower, upper)
}

// decide is Wald's rule, shared by SPRT and the classroom test: accept H1
// at the upper bound, H0 at the lower, and go on between them.
func decide(llr, lower, upper float64) Verdict {
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// Verdict is the test's answer so far: AcceptH1 (stronger), AcceptWeaker,
// AcceptH0 (no clear difference: both tests accepted ½), or Continue.
func (s ClassroomState) Verdict() Verdict {
	switch {
	case s.UpDone == AcceptH1:
		return AcceptH1
	case s.DownDone == AcceptH1:
		return AcceptWeaker
	case s.UpDone == AcceptH0 && s.DownDone == AcceptH0:
		return AcceptH0
	}
	return Continue
}
