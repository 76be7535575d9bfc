package engine

import (
	"strings"
	"testing"
	"time"
)

type helloBot string

func (b helloBot) Hello() string         { return string(b) }
func (helloBot) Feed(line string) string { return "" }

func TestBuiltins(t *testing.T) {
	bs := Builtins{Game: "toy", Bots: []BotMaker{
		{Name: "one", New: func(seed int64) Bot { return helloBot("one") }},
		{Name: "two", New: func(seed int64) Bot { return helloBot("two") }},
	}}
	if got := strings.Join(bs.Names(), ","); got != "one,two" {
		t.Errorf("Names = %s, want one,two in order", got)
	}
	if b, err := bs.New("two", 1); err != nil || b.Hello() != "two" {
		t.Errorf("New(two) = %v, %v", b, err)
	}
	_, err := bs.New("three", 1)
	if want := `toy has no built-in bot "three" (bots: one, two)`; err == nil || err.Error() != want {
		t.Errorf("New(three) error %v, want %q", err, want)
	}
}

func TestCheckPlayersAndOptions(t *testing.T) {
	fixed := Info{ID: "duel", MinSeats: 2, MaxSeats: 2,
		Options: []Option{{Key: "proto", Default: "a", PerSeat: true}}}
	ranged := Info{ID: "crowd", MinSeats: 2, MaxSeats: 8}
	toggle := Toggle{Key: "proto", Off: "a", OffMeans: "plain", On: "b", OnMeans: "fancy"}
	tests := []struct {
		name string
		err  func() error
		want string // "" for no error
	}{
		{"exact seats", func() error { return fixed.CheckPlayers(2) }, ""},
		{"too few for a fixed game", func() error { return fixed.CheckPlayers(3) }, "duel is played by exactly 2 players, not 3"},
		{"in range", func() error { return ranged.CheckPlayers(8) }, ""},
		{"too few", func() error { return ranged.CheckPlayers(1) }, "crowd needs 2 to 8 players, got 1"},
		{"too many", func() error { return ranged.CheckPlayers(9) }, "crowd needs 2 to 8 players, got 9"},
		{"millis", func() error { _, err := MillisOption("turn_ms", "600001"); return err },
			`option turn_ms="600001": want a whole number of milliseconds from 1 to 600000`},
		{"toggle", func() error { _, err := fixed.SeatToggle(Options{"proto@1": "c"}, toggle, 1); return err },
			`option proto="c": want a (plain) or b (fancy)`},
	}
	for _, tt := range tests {
		err := tt.err()
		if (tt.want == "" && err != nil) || (tt.want != "" && (err == nil || err.Error() != tt.want)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if d, err := MillisOption("turn_ms", "250"); err != nil || d != 250*time.Millisecond {
		t.Errorf("MillisOption(250) = %v, %v", d, err)
	}
	for seat, want := range []bool{false, true} {
		if on, err := fixed.SeatToggle(Options{"proto@1": "b"}, toggle, seat); err != nil || on != want {
			t.Errorf("seat %d: toggle %v, %v; want %v", seat, on, err, want)
		}
	}
}
