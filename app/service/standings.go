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
)

// StandingsFormats are the formats WriteStandings writes.
var StandingsFormats = []string{"text", "json", "csv", "md"}

// WriteStandings writes a standings table as text, json, csv or md.
func WriteStandings(w io.Writer, t event.Table, format string) error {
	rating := func(s event.Standing) string {
		return fmt.Sprintf("%.0f ± %.0f", s.Rating, (s.RatingHigh-s.RatingLow)/2)
	}
	wdl := func(s event.Standing) string { return fmt.Sprintf("%d/%d/%d", s.Wins, s.Draws, s.Losses) }
	rank := func(i int) string { return RankText(t.Rows, i) }
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"rank", "name", "games", "points", "wins", "draws", "losses", "score", "rating", "rating_low", "rating_high", "los", "tied"})
		for _, s := range t.Rows {
			cw.Write([]string{strconv.Itoa(s.Rank), s.Name, strconv.Itoa(s.Games), Points(s.Points),
				strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), fmt.Sprintf("%.4f", s.Score),
				fmt.Sprintf("%.1f", s.Rating), fmt.Sprintf("%.1f", s.RatingLow), fmt.Sprintf("%.1f", s.RatingHigh),
				fmt.Sprintf("%.4f", s.LOS), strconv.FormatBool(s.Tied)})
		}
		cw.Flush()
		return cw.Error()
	case "md":
		fmt.Fprintln(w, "| Rank | Name | Games | Points | W/D/L | Score | Rating | LOS |")
		fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|")
		for i, s := range t.Rows {
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %.1f %% | %s | %.0f %% |\n", rank(i),
				strings.ReplaceAll(s.Name, "|", `\|`), s.Games, Points(s.Points), wdl(s), 100*s.Score, rating(s), 100*s.LOS)
		}
		if tied(t) {
			fmt.Fprintln(w, "\n`=` marks entries whose order the games so far do not establish (95 % intervals overlap).")
		}
		return nil
	case "text", "":
	default:
		return Errorf(Invalid, "standings format %q: want one of %s", format, strings.Join(StandingsFormats, ", "))
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RANK\tNAME\tGAMES\tPOINTS\tW/D/L\tSCORE\tRATING\tLOS\t")
	for i, s := range t.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.1f%%\t%s\t%.0f%%\t\n", rank(i), s.Name, s.Games, Points(s.Points), wdl(s),
			100*s.Score, rating(s), 100*s.LOS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if tied(t) {
		fmt.Fprintln(w, "= : order not established yet (95 % intervals overlap)")
	}
	return nil
}

// RankText is row i's rank, with "=" when its order against a neighbour
// is not established (their 95 % intervals overlap).
func RankText(rows []event.Standing, i int) string {
	if rows[i].Tied || (i > 0 && rows[i-1].Tied) {
		return strconv.Itoa(rows[i].Rank) + "="
	}
	return strconv.Itoa(rows[i].Rank)
}

// Points prints standings points with at most two decimals (multi-seat
// games give thirds).
func Points(p float64) string {
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64)
}

func tied(t event.Table) bool {
	for _, s := range t.Rows {
		if s.Tied {
			return true
		}
	}
	return false
}
