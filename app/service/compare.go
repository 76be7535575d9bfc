package service

import (
	"fmt"
	"math"

	"ringside/engine/event"
	"ringside/engine/rating"
	"ringside/storage"
)

// CompareReport is where an SPRT comparison stands.
func (s *Service) CompareReport(ev storage.Event) (event.SPRTReport, error) {
	done, err := s.db.Outcomes(ev.ID)
	if err != nil {
		return event.SPRTReport{}, err
	}
	return event.SPRTStatus(ev.Config, done)
}

// CompareSentence says in plain words what an SPRT comparison found.
func CompareSentence(ev storage.Event, r event.SPRTReport) string {
	a, b := ev.Entries[0].Name, ev.Entries[1].Name
	games := 2 * r.Pairs
	switch r.Verdict {
	case rating.AcceptH1:
		return fmt.Sprintf("%s is stronger than %s (%.0f %% confidence, after %d games).", a, b, 100*(1-r.Test.Alpha), games)
	case rating.AcceptH0:
		if r.Test.Elo0 <= 0 {
			return fmt.Sprintf("%s is not stronger than %s (%.0f %% confidence, after %d games).", a, b, 100*(1-r.Test.Beta), games)
		}
		return fmt.Sprintf("%s is not stronger than %s by %g normalized Elo or more (%.0f %% confidence, after %d games).",
			a, b, r.Test.Elo1, 100*(1-r.Test.Beta), games)
	}
	if r.Finished {
		return fmt.Sprintf("No clear difference between %s and %s after %d games (the limit).", a, b, games)
	}
	if games == 0 {
		return fmt.Sprintf("Comparing %s with %s: no games finished yet.", a, b)
	}
	return fmt.Sprintf("No difference found yet between %s and %s after %d games.", a, b, games)
}

// CompareNumbers is the line of figures behind the sentence.
func CompareNumbers(r event.SPRTReport) string {
	return fmt.Sprintf("W/D/L %d/%d/%d · pairs %v · Elo %s · nElo %s · LOS %.1f %% · LLR %.2f (bounds %.2f … %.2f)",
		r.WDL.Wins, r.WDL.Draws, r.WDL.Losses, r.Penta, eloText(r.Elo.Elo, r.Elo.Error), eloText(r.Elo.NElo, r.Elo.NEloError),
		100*r.Elo.LOS, r.LLR, r.Lower, r.Upper)
}

func eloText(elo, err float64) string {
	if math.IsInf(elo, 0) || math.IsNaN(elo) {
		if elo > 0 {
			return "+∞"
		}
		return "−∞"
	}
	if math.IsInf(err, 0) || math.IsNaN(err) {
		return fmt.Sprintf("%+.1f", elo)
	}
	return fmt.Sprintf("%+.1f ± %.1f", elo, err)
}
