package engine

import (
	"fmt"
	"strings"
	"time"
)

// MaxWaitMillis is the longest wait, in milliseconds, that a game's time
// option may ask for: ten minutes, so a typo cannot start a game that never
// ends or never waits.
const MaxWaitMillis = 600000

// MillisOption parses value, the value of time option key, as a whole number
// of milliseconds from 1 to MaxWaitMillis.
func MillisOption(key, value string) (time.Duration, error) {
	n, err := IntOption(key, value, 1, MaxWaitMillis, "milliseconds")
	if err != nil {
		return 0, err
	}
	return time.Duration(n) * time.Millisecond, nil
}

// CheckPlayers refuses a number of players the game does not seat, in words
// that say how many it does.
func (in Info) CheckPlayers(n int) error {
	if in.MinSeats == in.MaxSeats && n != in.MinSeats {
		return fmt.Errorf("%s is played by exactly %d players, not %d", in.ID, in.MinSeats, n)
	}
	if n < in.MinSeats || n > in.MaxSeats {
		return fmt.Errorf("%s needs %d to %d players, got %d", in.ID, in.MinSeats, in.MaxSeats, n)
	}
	return nil
}

// BotMaker makes one of a game's built-in bots, seeded for its random choices.
type BotMaker struct {
	Name string
	New  func(seed int64) Bot
}

// Builtins are a game's built-in bots in the order menus show them; a game's
// Bots and NewBot are its Names and New.
type Builtins struct {
	Game string // the game's ID, for the error of an unknown name
	Bots []BotMaker
}

// Names lists the bots' names in order.
func (b Builtins) Names() []string {
	names := make([]string, len(b.Bots))
	for i, m := range b.Bots {
		names[i] = m.Name
	}
	return names
}

// New makes the bot called name; an unknown name's error lists the bots.
func (b Builtins) New(name string, seed int64) (Bot, error) {
	for _, m := range b.Bots {
		if m.Name == name {
			return m.New(seed), nil
		}
	}
	return nil, fmt.Errorf("%s has no built-in bot %q (bots: %s)", b.Game, name, strings.Join(b.Names(), ", "))
}

// Toggle is a per-seat option with two values, such as a protocol
// variant: Off is the default behaviour, On the other.
type Toggle struct {
	Key               string
	Off, On           string
	OffMeans, OnMeans string // a few words on each value, for the error
}

// SeatToggle reads toggle t for one seat: false for Off, true for On. Any
// other value's error names both values and what they mean.
func (in Info) SeatToggle(opts Options, t Toggle, seat int) (bool, error) {
	switch v := in.SeatValue(opts, t.Key, seat); v {
	case t.Off:
		return false, nil
	case t.On:
		return true, nil
	default:
		return false, fmt.Errorf("option %s=%q: want %s (%s) or %s (%s)", t.Key, v, t.Off, t.OffMeans, t.On, t.OnMeans)
	}
}
