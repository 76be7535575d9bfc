package service

import (
	"strings"
	"testing"

	"ringside/engine/event"
	"ringside/storage"
)

func TestStandingWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r     event.Standing
		seats int
		want  string
	}{
		{event.Standing{Rank: 1, Name: "greedy", Games: 6, Wins: 4, Draws: 2, Points: 5}, 2,
			"1st greedy: 5 points from 6 games (4 won, 2 drawn, 0 lost)"},
		{event.Standing{Rank: 2, Name: "bob", Games: 1, Losses: 1}, 2, "2nd bob: 0 points from 1 game (0 won, 0 drawn, 1 lost)"},
		{event.Standing{Rank: 1, Name: "amy", Games: 1, Wins: 1, Points: 1}, 2, "1st amy: 1 point from 1 game (1 won, 0 drawn, 0 lost)"},
		{event.Standing{Rank: 2, Name: "random", Games: 24, Points: 9.333, Places: []int{5, 7, 6, 6}}, 4,
			"2nd random: 9.3 points from 24 games (first 5 times)"},
		{event.Standing{Rank: 3, Name: "x", Games: 24, Points: 2, Places: []int{1, 0, 0, 23}}, 4, "3rd x: 2 points from 24 games (first once)"},
		{event.Standing{Rank: 4, Name: "y", Games: 24, Points: 0, Places: []int{0, 0, 0, 24}}, 4, "4th y: 0 points from 24 games (never first yet)"},
		{event.Standing{Rank: 1, Name: "z"}, 2, "z: no game played yet"},
	} {
		if got := StandingWords(c.r, c.seats, nil); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// TestStandingsWords: a place two entries share says so; one nobody
// shares, and an entry with no game yet, read as before.
func TestStandingsWords(t *testing.T) {
	t.Parallel()
	rows := []event.Standing{
		{Rank: 1, Name: "carol", Games: 5, Points: 4, Places: []int{4, 1, 0, 0}},
		{Rank: 1, Name: "bob", Games: 5, Points: 3.3, Places: []int{2, 1, 1, 1}},
		{Rank: 3, Name: "alice", Games: 5, Points: 2.7, Places: []int{2, 0, 2, 1}},
		{Rank: 4, Name: "dave"},
		{Rank: 4, Name: "erin"},
	}
	want := []string{
		"joint 1st carol: 4 points from 5 games (first 4 times)",
		"joint 1st bob: 3.3 points from 5 games (first 2 times)",
		"3rd alice: 2.7 points from 5 games (first 2 times)",
		"dave: no game played yet",
		"erin: no game played yet",
	}
	got := StandingsWords(rows, 4, nil)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFeatured: a bracket's latest round wins, then the leaders' game,
// then the game furthest along.
func TestFeatured(t *testing.T) {
	t.Parallel()
	table := event.Table{Rows: []event.Standing{{Entry: 2, Rank: 1}, {Entry: 0, Rank: 2}, {Entry: 1, Rank: 3}, {Entry: 3, Rank: 4}}}
	ms := []storage.Match{
		{ID: 10, Game: event.Game{Round: 0, Seats: []int{0, 1}}},
		{ID: 11, Game: event.Game{Round: 0, Seats: []int{2, 0}}},
		{ID: 12, Game: event.Game{Round: 1, Seats: []int{3, 1}}},
		{ID: 13, Game: event.Game{Round: 0, Seats: []int{0, 2}}},
	}
	league := storage.Event{Config: event.Config{Format: event.League}}
	bracket := storage.Event{Config: event.Config{Format: event.Bracket}}
	for _, c := range []struct {
		name    string
		ev      storage.Event
		running []LiveGame
		want    int64
	}{
		{"nothing running", league, nil, 0},
		{"leaders", league, []LiveGame{{Match: 10}, {Match: 11}, {Match: 12}}, 11},
		{"leaders, further along", league, []LiveGame{{Match: 11, Steps: 3}, {Match: 13, Steps: 9}}, 13},
		{"bracket: the later round", bracket, []LiveGame{{Match: 11}, {Match: 12}}, 12},
		{"unknown game", league, []LiveGame{{Match: 99}}, 0},
	} {
		if got := Featured(c.ev, ms, table, c.running); got != c.want {
			t.Errorf("%s: featured %d, want %d", c.name, got, c.want)
		}
	}
}

func TestMatchTitle(t *testing.T) {
	t.Parallel()
	ev := storage.Event{Config: event.Config{Format: event.Bracket},
		Entries: []storage.Entry{{Name: "alice"}, {Name: "bob"}, {Name: "carol"}}}
	m := storage.Match{ID: 7, Game: event.Game{Index: 3, Round: 1, Seats: []int{2, 0}}} // its event's game 4
	for _, c := range []struct {
		rounds int
		want   string
	}{
		{2, "Final, game 4: carol vs alice"},
		{3, "Semi-final, game 4: carol vs alice"},
		{4, "Quarter-final, game 4: carol vs alice"},
		{5, "Round 2, game 4: carol vs alice"},
		{0, "Game 4: carol vs alice"},
	} {
		if got := MatchTitle(ev, m, c.rounds, nil); got != c.want {
			t.Errorf("%d rounds: %q, want %q", c.rounds, got, c.want)
		}
	}
	ev.Config.Format = event.League
	if got := MatchTitle(ev, m, 3, strings.ToUpper); got != "Game 4: CAROL vs ALICE" {
		t.Errorf("league: %q", got)
	}
}
