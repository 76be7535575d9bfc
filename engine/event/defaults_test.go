package event

import (
	"fmt"
	"testing"
)

func TestFillersNeeded(t *testing.T) {
	entries := func(n, cands int) []Entry {
		out := make([]Entry, n)
		for i := range out {
			out[i] = Entry{Name: fmt.Sprint("e", i), Candidate: i < cands}
		}
		return out
	}
	tests := []struct {
		format          Format
		n, cands, seats int
		want            int
	}{
		{League, 2, 0, 4, 2},
		{League, 5, 0, 4, 0},
		{Bracket, 7, 0, 4, 1},  // heats of 4, the top 2 go through: a multiple of 2
		{Bracket, 3, 0, 4, 1},  // a heat's 4 seats
		{Bracket, 9, 0, 6, 0},  // a multiple of 3
		{Bracket, 10, 0, 6, 2}, // 12
		{Bracket, 5, 0, 2, 0},  // two-player brackets take byes
		{Gauntlet, 3, 1, 4, 1}, // 2 field entries, 3 needed
		{Gauntlet, 5, 2, 4, 0},
		{Swiss, 3, 0, 2, 0},
		{SPRT, 2, 1, 2, 0},
	}
	for _, tt := range tests {
		cfg := Config{Format: tt.format, Entries: entries(tt.n, tt.cands), Seats: tt.seats, Games: DefaultGames(tt.format, tt.n)}
		got := FillersNeeded(cfg)
		if got != tt.want {
			t.Errorf("%s of %d (%d candidates), %d seats: %d fillers, want %d", tt.format, tt.n, tt.cands, tt.seats, got, tt.want)
		}
		if got > 0 {
			for i := range got {
				cfg.Entries = append(cfg.Entries, Entry{Name: fmt.Sprint("filler", i), Filler: true})
			}
			if err := Validate(cfg); err != nil {
				t.Errorf("%s of %d with %d fillers is still refused: %v", tt.format, tt.n, got, err)
			}
		}
	}
}

// TestTimeScale: an unset multiplier (0, or nonsense below it) is the
// games' own limits; any other is kept as given.
func TestTimeScale(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{0, DefaultTimeScale},
		{-2, DefaultTimeScale},
		{0.5, 0.5},
		{1, 1},
		{10, 10},
	}
	for _, tt := range tests {
		if got := TimeScale(tt.in); got != tt.want {
			t.Errorf("TimeScale(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
