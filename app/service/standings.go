package service

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"ringside/engine/event"
	"ringside/storage"
)

// StandingsFormats are the formats WriteStandings writes.
var StandingsFormats = []string{"text", "json", "csv", "md"}

// ProblemsText says what went wrong for an entry in plain words: "1
// crash, 3 late, 2 invalid"; "" when nothing did.
func ProblemsText(p Problems) string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(p.Crashed, "crash", "crashes")
	add(p.Timeouts, "late", "late")
	add(p.Invalid, "invalid", "invalid")
	add(p.Busy, "late under load (not its fault: replay the game)", "late under load (not its fault: replay the games)")
	return strings.Join(parts, ", ")
}

// WriteStandings writes a standings table as text, json, csv or md, with
// each entry's problems (crashes, late and invalid replies) where any.
// Places are in sports notation (PlaceText); over says whether the event
// is finished, for the words on rows the games have not separated
// (SeparationText).
func WriteStandings(w io.Writer, t event.Table, problems map[int]storage.Problems, format string, over bool) error {
	anyProblems := false
	for _, s := range t.Rows {
		anyProblems = anyProblems || problems[s.Entry].Any()
	}
	// With more than two players, how often each place instead of won,
	// drawn and lost (where a second place would count as lost).
	wdlHead := "W/D/L"
	if t.Seats > 2 {
		wdlHead = strings.ReplaceAll(PlacesHeader(t.Seats), " · ", "/")
	}
	wdl := func(s event.Standing) string {
		if s.Places != nil {
			return PlacesText(s.Places, "/")
		}
		return fmt.Sprintf("%d/%d/%d", s.Wins, s.Draws, s.Losses)
	}
	place := func(i int) string { return PlaceText(t.Rows, i) }
	separation := func(i int) string { return SeparationText(t.Rows, i, over) }
	switch format {
	case "json":
		// The table with, by entry name, what went wrong.
		out := struct {
			event.Table
			Problems map[string]storage.Problems `json:"problems,omitempty"`
		}{Table: t}
		for _, s := range t.Rows {
			if p := problems[s.Entry]; p.Any() {
				if out.Problems == nil {
					out.Problems = map[string]storage.Problems{}
				}
				out.Problems[s.Name] = p
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "csv":
		return writeStandingsCSV(w, t, problems, place, separation)
	case "md":
		fmt.Fprintf(w, "| Place | Name | Games | Points | %s | Score | Rating | LOS | Separated | Problems |\n", wdlHead)
		fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|---|---|")
		for i, s := range t.Rows {
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %.1f %% | %s | %.0f %% | %s | %s |\n", place(i),
				strings.ReplaceAll(s.Name, "|", `\|`), s.Games, Points(s.Points), wdl(s), 100*s.Score, RatingText(s), 100*s.LOS,
				separation(i), ProblemsText(Problems(problems[s.Entry])))
		}
		return nil
	case "text", "":
	default:
		return Errorf(Invalid, "standings format %q: want one of %s", format, strings.Join(StandingsFormats, ", "))
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "PLACE\tNAME\tGAMES\tPOINTS\t%s\tSCORE\tRATING\tLOS\t\n", wdlHead)
	for i, s := range t.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.1f%%\t%s\t%.0f%%\t\n", place(i), s.Name, s.Games, Points(s.Points), wdl(s),
			100*s.Score, RatingText(s), 100*s.LOS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Which rows the games have not separated, in words under the table
	// rather than as a mark on the place, which would read as a tie.
	var loose []string
	for i, s := range t.Rows {
		if sep := separation(i); sep != "" {
			loose = append(loose, fmt.Sprintf("  %s: %s", s.Name, sep))
		}
	}
	if len(loose) > 0 {
		fmt.Fprintln(w, "separated by the games so far (95 % sure of the order), except:")
		fmt.Fprintln(w, strings.Join(loose, "\n"))
	}
	if anyProblems {
		fmt.Fprintln(w, "problems:")
		for _, s := range t.Rows {
			if p := ProblemsText(Problems(problems[s.Entry])); p != "" {
				fmt.Fprintf(w, "  %s: %s\n", s.Name, p)
			}
		}
	}
	return nil
}

// writeStandingsCSV writes the standings as CSV: with two seats wins,
// draws and losses; with more a column per place (1st, 2nd, …), since
// calling every place but the first a loss says little in a 4-player game.
func writeStandingsCSV(w io.Writer, t event.Table, problems map[int]storage.Problems, place, separation func(int) string) error {
	cw := csv.NewWriter(w)
	head := []string{"place", "name", "games", "points"}
	if t.Seats > 2 {
		for p := 1; p <= t.Seats; p++ {
			head = append(head, Ordinal(p))
		}
	} else {
		head = append(head, "wins", "draws", "losses")
	}
	head = append(head, "score", "rating", "rating_low", "rating_high", "los", "separated", "crashes", "timeouts", "invalid")
	cw.Write(head)
	for i, s := range t.Rows {
		row := []string{place(i), s.Name, strconv.Itoa(s.Games), Points(s.Points)}
		if t.Seats > 2 {
			for p := 0; p < t.Seats; p++ {
				n := 0
				if p < len(s.Places) {
					n = s.Places[p]
				}
				row = append(row, strconv.Itoa(n))
			}
		} else {
			row = append(row, strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses))
		}
		p := problems[s.Entry]
		row = append(row, fmt.Sprintf("%.4f", s.Score), fmt.Sprintf("%.1f", s.Rating), fmt.Sprintf("%.1f", s.RatingLow),
			fmt.Sprintf("%.1f", s.RatingHigh), fmt.Sprintf("%.4f", s.LOS), separation(i),
			strconv.Itoa(p.Crashed), strconv.Itoa(p.Timeouts), strconv.Itoa(p.Invalid))
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// PlacesHeader is the header of the places column for games of seats
// players: "1st · 2nd · 3rd · 4th".
func PlacesHeader(seats int) string {
	parts := make([]string, seats)
	for i := range parts {
		parts[i] = Ordinal(i + 1)
	}
	return strings.Join(parts, " · ")
}

// PlacesText is how often an entry finished 1st, 2nd…, joined by sep.
func PlacesText(places []int, sep string) string {
	parts := make([]string, len(places))
	for i, n := range places {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, sep)
}

// Ordinal writes 1 as "1st", 2 as "2nd"…
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// StandingsNote says in plain words what a standings row means.
func StandingsNote(t event.Table) string {
	note := OrderNote(t) + "Strength is a rating fitted to every game (Elo scale, ± the range it is 95 % sure of). " +
		"Surely ahead is how likely an entry is stronger than the one below it"
	if t.Format != event.Bracket {
		note += "; under 95 % the games have not separated the two yet"
	}
	return note + "."
}

// OrderNote says in plain words how the entries are ranked, ending with a
// space ("Ranked by points … . ").
func OrderNote(t event.Table) string {
	var order string
	switch t.Format {
	case event.League:
		order = "Ranked by score: the share of the points a game gives that the entry won, on average over its games so far "
		if t.Seats > 2 {
			order += fmt.Sprintf("(in %d-player games 1st place wins all, last none, the places between in equal steps)", t.Seats)
		} else {
			order += "(a win all, a draw half)"
		}
		order += ", so entries that have played different numbers of games compare fairly. "
	case event.Swiss:
		order = "Ranked by points (a win 1, a draw ½, a bye 2), then by the points of the opponents met. "
	case event.Gauntlet, event.SPRT:
		order = "Ranked by strength, since entries play different opponents. "
	case event.Bracket:
		order = "Ranked by how far each entry got in the bracket. "
	}
	return order
}

// RatingText is a row's rating with half its 95 % interval: "42 ± 90"
// (never "-0").
func RatingText(s event.Standing) string {
	r := math.Round(s.Rating)
	if r == 0 {
		r = 0 // not -0
	}
	return fmt.Sprintf("%.0f ± %.0f", r, (s.RatingHigh-s.RatingLow)/2)
}

// PlaceText is row i's place in sports notation: rows share a place only
// when their ranking key is equal (1, 2, 2, 4). Whether the games have
// separated a row from the next is another matter (SeparationText): a
// mark on the place would read as a tie.
func PlaceText(rows []event.Standing, i int) string {
	return strconv.Itoa(rows[i].Rank)
}

// SeparationText says, in words, when the games have not separated row i
// from the next one (less than 95 % sure which is stronger): "not yet
// separated from bob" while the event is played, "not separated from
// bob" once it is over; "" otherwise.
func SeparationText(rows []event.Standing, i int, over bool) string {
	if !rows[i].Tied || i+1 >= len(rows) {
		return ""
	}
	if over {
		return "not separated from " + rows[i+1].Name
	}
	return "not yet separated from " + rows[i+1].Name
}

// Points prints standings points with at most two decimals (multi-seat
// games give thirds).
func Points(p float64) string {
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64)
}

// reasonWords are the games' end reasons in plain words.
var reasonWords = map[string]string{
	"last_standing":     "last one standing",
	"all_fallen":        "the last ones fell together",
	"turn_limit":        "all turns played",
	"cannot_move":       "a board could not move",
	"higher_score":      "higher score after the last round",
	"tie_second_player": "tie, won by the second player",
	"no_change":         "a slide changed nothing",
	"wrong_sum":         "an attack of the wrong size",
	"turn_time":         "an answer too late",
	"total_time":        "out of time",
	"crashed":           "a bot crashed",
	"no_reply":          "an empty answer",
	"malformed_line":    "an answer that could not be read",
	"bad_token_count":   "an answer with the wrong count of numbers",
	"bad_direction":     "an answer with no direction",
	"off_board":         "a tile off the board",
	"occupied":          "a tile on a full cell",
}

// ReasonText says why a game ended, in plain words; a reason it does not
// know is shown with spaces for underscores.
func ReasonText(reason string) string {
	if w, ok := reasonWords[reason]; ok {
		return w
	}
	return strings.ReplaceAll(reason, "_", " ")
}
