package service

import (
	"strconv"
	"strings"
	"testing"

	"ringside/engine/event"
	"ringside/engine/games"
)

// TestEventDefaults: an event created from DefaultEventSpec with nothing
// else chosen but the game and entries gets the defaults the words in
// config.go state: the games its format's text names, the seats
// DefaultSeats gives, the games' own time limits, and concurrency left to
// the run (0), which DefaultConcurrency resolves.
func TestEventDefaults(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	tests := []struct {
		format              event.Format
		game                string
		entries             []string
		wantGames, wantSeat int
	}{
		{event.League, "battle2048", []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}, 2, 2},
		{event.Gauntlet, "battle2048", []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}, 2, 2},
		{event.Bracket, "battle2048", []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}, 3, 2},
		{event.League, "cloud", []string{"builtin:cloud/random", "b=builtin:cloud/random", "c=builtin:cloud/random"}, 2, 3},
		{event.SPRT, "battle2048", []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}, event.DefaultClassroomGames, 2},
	}
	for _, tt := range tests {
		t.Run(string(tt.format)+"/"+tt.game, func(t *testing.T) {
			spec := DefaultEventSpec()
			spec.Game, spec.Format, spec.Entries = tt.game, tt.format, tt.entries
			if tt.format == event.Gauntlet {
				spec.Candidates = []string{tt.entries[0]}
			}
			ev, _, err := s.prepareEvent(spec)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Config.Games != tt.wantGames || ev.Config.Seats != tt.wantSeat {
				t.Errorf("games %d, seats %d; want %d, %d", ev.Config.Games, ev.Config.Seats, tt.wantGames, tt.wantSeat)
			}
			if text := DefaultGamesText(tt.format); !strings.Contains(text, strconv.Itoa(tt.wantGames)) {
				t.Errorf("DefaultGamesText(%s) = %q does not state %d", tt.format, text, tt.wantGames)
			}
			g, _ := games.Get(tt.game)
			if got := DefaultSeats(g.Info(), len(tt.entries)); got != tt.wantSeat {
				t.Errorf("DefaultSeats = %d, the event has %d", got, tt.wantSeat)
			}
			if ev.TimeScale != event.DefaultTimeScale || ev.Concurrency != 0 {
				t.Errorf("time scale %v, concurrency %d; want %v and 0 (the run's default)", ev.TimeScale, ev.Concurrency, event.DefaultTimeScale)
			}
		})
	}
	if DefaultConcurrency(2) < 1 || DefaultConcurrency(4) > DefaultConcurrency(2) {
		t.Errorf("DefaultConcurrency: 2 seats %d, 4 seats %d", DefaultConcurrency(2), DefaultConcurrency(4))
	}
}
