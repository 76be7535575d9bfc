package service

import (
	"fmt"
	"strconv"
	"strings"

	"ringside/engine/event"
	"ringside/storage"
)

// StandingWords says one row of the standings in plain words, for a
// projector: "1st greedy: 5 points from 6 games (4 won, 2 drawn, 0
// lost)" with two seats, "2nd random: 9.3 points from 24 games (first 5
// times)" with more. seats is the players per game; name shows an
// entry's name (nil: as stored).
func StandingWords(r event.Standing, seats int, name func(string) string) string {
	if name != nil {
		r.Name = name(r.Name)
	}
	pts := strconv.FormatFloat(r.Points, 'f', -1, 64)
	if r.Points != float64(int(r.Points)) {
		pts = strconv.FormatFloat(r.Points, 'f', 1, 64)
	}
	games := plural(r.Games, "game", "games")
	s := fmt.Sprintf("%s %s: %s %s from %s", Ordinal(r.Rank), r.Name, pts, pluralWord(r.Points, "point", "points"), games)
	if r.Games == 0 {
		return r.Name + ": no game played yet" // a place before any game says nothing
	}
	if seats <= 2 {
		return s + fmt.Sprintf(" (%d won, %d drawn, %d lost)", r.Wins, r.Draws, r.Losses)
	}
	first := 0
	if len(r.Places) > 0 {
		first = r.Places[0]
	}
	switch first {
	case 0:
		return s + " (never first yet)"
	case 1:
		return s + " (first once)"
	}
	return s + fmt.Sprintf(" (first %d times)", first)
}

// StandingsWords says every row of the standings in plain words, as
// StandingWords does, with "joint" before a place more than one entry
// shares ("joint 1st carol: …" while a final heat is undecided).
func StandingsWords(rows []event.Standing, seats int, name func(string) string) []string {
	sharing := map[int]int{}
	for _, r := range rows {
		sharing[r.Rank]++
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = StandingWords(r, seats, name)
		if sharing[r.Rank] > 1 && r.Games > 0 {
			out[i] = "joint " + out[i]
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func pluralWord(x float64, one, many string) string {
	if x == 1 {
		return one
	}
	return many
}

// Featured picks the game in play most worth showing on a projector from
// running, the ids of the games being played: in a bracket the one of the
// latest round (the final above all), elsewhere the game of the leaders
// (the best sum of its players' places in the standings); then the one
// furthest along. 0 when none is running.
func Featured(ev storage.Event, matches []storage.Match, table event.Table, running []LiveGame) int64 {
	rank := map[int]int{}
	for _, r := range table.Rows {
		rank[r.Entry] = r.Rank
	}
	byID := map[int64]storage.Match{}
	for _, m := range matches {
		byID[m.ID] = m
	}
	var best int64
	var bestKey [3]int
	for _, g := range running {
		m, ok := byID[g.Match]
		if !ok {
			continue
		}
		// Larger is better in every part of the key.
		key := [3]int{0, 0, g.Steps}
		if ev.Config.Format == event.Bracket {
			key[0] = m.Game.Round
		}
		sum := 0
		for _, e := range m.Game.Seats {
			if r, ok := rank[e]; ok {
				sum += r
			} else {
				sum += len(table.Rows) + 1
			}
		}
		key[1] = -sum
		if best == 0 || key[0] > bestKey[0] || (key[0] == bestKey[0] && (key[1] > bestKey[1] ||
			(key[1] == bestKey[1] && key[2] > bestKey[2]))) {
			best, bestKey = g.Match, key
		}
	}
	return best
}

// MatchTitle names a game for a projector: "Game 12: alice vs bob", led
// by its bracket round when it has one ("Final, game 23: …"); rounds is
// the bracket's number of rounds, name shows an entry's name.
func MatchTitle(ev storage.Event, m storage.Match, rounds int, name func(string) string) string {
	names := make([]string, len(m.Game.Seats))
	for s, e := range m.Game.Seats {
		if e >= 0 && e < len(ev.Entries) {
			names[s] = ev.Entries[e].Name
			if name != nil {
				names[s] = name(names[s])
			}
		}
	}
	t := fmt.Sprintf("game %d: %s", GameNumber(m.Game), strings.Join(names, " vs "))
	if ev.Config.Format != event.Bracket || rounds == 0 {
		return "G" + t[1:]
	}
	switch rounds - 1 - m.Game.Round {
	case 0:
		return "Final, " + t
	case 1:
		return "Semi-final, " + t
	case 2:
		return "Quarter-final, " + t
	}
	return fmt.Sprintf("Round %d, %s", m.Game.Round+1, t)
}
