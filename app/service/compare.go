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

// CompareSentence says in plain words what a comparison found.
func CompareSentence(ev storage.Event, r event.SPRTReport) string {
	a, b := ev.Entries[0].Name, ev.Entries[1].Name
	games := r.Games
	if r.Kind == event.TestClassroom {
		switch r.Verdict {
		case rating.AcceptH1:
			return fmt.Sprintf("%s is stronger than %s (it finished ahead in %d of %d decided groups of games; after %d games).",
				a, b, r.State.Ahead, r.State.Ahead+r.State.Behind, games)
		case rating.AcceptWeaker:
			return fmt.Sprintf("%s is weaker than %s (it finished behind in %d of %d decided groups of games; after %d games).",
				a, b, r.State.Behind, r.State.Ahead+r.State.Behind, games)
		case rating.AcceptH0:
			return fmt.Sprintf("No clear difference between %s and %s: neither finishes ahead in %.0f %% of the groups of games (after %d games).",
				a, b, 100*r.Classroom.P1, games)
		}
	} else {
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
	wdl := fmt.Sprintf("ahead/level/behind in games %d/%d/%d", r.WDL.Wins, r.WDL.Draws, r.WDL.Losses)
	if r.Kind == event.TestClassroom {
		st := r.State
		return fmt.Sprintf("%s · groups %d/%d/%d · Elo %s · LOS %.1f %% · LLR stronger %.2f, weaker %.2f (bounds %.2f … %.2f; p1 %.2f, alpha %g, beta %g)",
			wdl, st.Ahead, st.Level, st.Behind, eloText(r.Elo.Elo, r.Elo.Error), 100*r.Elo.LOS,
			st.Up, st.Down, r.Lower, r.Upper, r.Classroom.P1, r.Classroom.Alpha, r.Classroom.Beta)
	}
	pairs := ""
	if r.Pairs > 0 {
		pairs = fmt.Sprintf(" · pairs %v", r.Penta)
	}
	return fmt.Sprintf("W/D/L %d/%d/%d%s · Elo %s · nElo %s · LOS %.1f %% · LLR %.2f (bounds %.2f … %.2f)",
		r.WDL.Wins, r.WDL.Draws, r.WDL.Losses, pairs, eloText(r.Elo.Elo, r.Elo.Error), eloText(r.Elo.NElo, r.Elo.NEloError),
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
