package service

import (
	"fmt"
	"strings"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/rating"
	"ringside/runner"
)

// The defaults of creating an event, in one place. A default that is one
// value is filled in by DefaultEventSpec (or DefaultCompareSpec); one that
// depends on other values (the games on the format and the entries, the
// seats on the game, the games at once on the seats and this machine) is
// a zero in the spec that prepareEvent resolves with the functions below,
// and each is said in words by its …Words constant or function, so that
// "ringside help", the CLI's flags and the app's forms state the same
// default as the service applies. The engine's rules keep their own
// numbers (event.DefaultGames, event.DefaultElo1, event.TimeScale,
// rating.DefaultClassroomP1) and the runner its machine rule
// (runner.DefaultConcurrency): this file reads them from there.

// DefaultEventSpec is an event's spec before anything is chosen: a league
// at the games' own time limits, the SPRT's hypotheses and error rates
// should the format become sprt, and zero for every default that is a
// rule (games, seats, concurrency, seed, pace, limits, deadline).
func DefaultEventSpec() EventSpec {
	return EventSpec{Format: event.League, TimeScale: event.DefaultTimeScale,
		Elo0: event.DefaultElo0, Elo1: event.DefaultElo1, Alpha: event.DefaultAlpha, Beta: event.DefaultBeta}
}

// DefaultCompareSpec is a comparison's spec before anything is chosen: an
// SPRT event run as the classroom test with its margin.
func DefaultCompareSpec() EventSpec {
	s := DefaultEventSpec()
	s.Format, s.Test, s.P1 = event.SPRT, event.TestClassroom, rating.DefaultClassroomP1
	return s
}

// The defaults that are rules, in words.
const (
	// DefaultSeatsWords is the rule of DefaultSeats.
	DefaultSeatsWords = "the game's fewest players; for a game of a variable count, one per entry up to its most"
	// DefaultConcurrencyWords is the rule of DefaultConcurrency.
	DefaultConcurrencyWords = "(cores − 1) × 2 ÷ players per game, at least 1"
	// DefaultSeedWords: a seed is drawn when none is set (SeedSet).
	DefaultSeedWords = "random"
	// DefaultPaceWords: a Pace of 0.
	DefaultPaceWords = "0: as fast as the bots answer"
	// DefaultNameWords: the name prepareEvent gives an event without one.
	DefaultNameWords = "the game, the format and the time it was created"
	// DefaultFillersWords: no Fillers; a comparison (sprt) in games of
	// more players fills its seats with the game's built-in bots.
	DefaultFillersWords = "none; sprt: the game's built-in bots, each in turn"
	// DefaultSeedingWords: an empty Seeding (seedEntries).
	DefaultSeedingWords = "listed: the entries' order, or event with --from-event"
	// DefaultTopWords: a Top of 0.
	DefaultTopWords = "0: every entry the event ranks"
	// DefaultDeadlineWords: a zero Deadline.
	DefaultDeadlineWords = "none: each AI plays its current (or pinned) revision"
)

// DefaultConcurrency is how many games of seats players each an event
// plays at once when it is given no number: DefaultConcurrencyWords on
// this machine.
func DefaultConcurrency(seats int) int { return runner.DefaultConcurrency(seats) }

// DefaultConcurrencyText says the default games at once for seats players
// per game on this machine, for a form's placeholder.
func DefaultConcurrencyText(seats int) string {
	return fmt.Sprintf("default: %d for %d players per game", DefaultConcurrency(seats), seats)
}

// DefaultSeats is the players per game of an event of game info with
// entries entries (fillers not counted) when none is given.
func DefaultSeats(info engine.Info, entries int) int {
	if info.MaxSeats > info.MinSeats {
		return max(info.MinSeats, min(entries, info.MaxSeats))
	}
	return info.MinSeats
}

// DefaultGamesText says what Games 0 plays in format f, with the number
// where it is one.
func DefaultGamesText(f event.Format) string {
	switch f {
	case event.Swiss:
		return "enough rounds to leave one entry undefeated, plus one"
	case event.Bracket:
		return fmt.Sprintf("best of %d", event.DefaultGames(f, 0))
	case event.SPRT:
		return fmt.Sprintf("%d, or %d with the Elo test", event.DefaultClassroomGames, event.DefaultGames(f, 0))
	}
	return fmt.Sprint(event.DefaultGames(f, 0))
}

// DefaultGamesWords is DefaultGamesText for every format.
func DefaultGamesWords() string {
	parts := make([]string, len(event.Formats))
	for i, f := range event.Formats {
		parts[i] = string(f) + " " + DefaultGamesText(f)
	}
	return strings.Join(parts, "; ")
}

// defaultGames is cfg's Games when none is given: the format's default for
// its entries (fillers included), the classroom test's cap for such a
// comparison, and a comparison's games rounded up to whole groups of its
// seatings.
func defaultGames(cfg event.Config) int {
	games := event.DefaultGames(cfg.Format, len(cfg.Entries))
	if cfg.Format == event.SPRT && cfg.Test == event.TestClassroom {
		games = event.DefaultClassroomGames
	}
	if size := len(event.CompareSeatings(cfg.Seats)); cfg.Format == event.SPRT && games%size != 0 {
		games += size - games%size
	}
	return games
}

// BuiltinEntry is how an entry or filler names game's built-in bot:
// builtin:GAME/NAME, for front ends that offer the built-in bots (the
// app's New event dialog), which do not import the runner.
func BuiltinEntry(game, bot string) string { return runner.BuiltinPrefix + game + "/" + bot }

// Defaults of the recipe options of "event export" (Recipe): one CPU per
// task, which every node has (a task asking for more CPUs than any node
// has pends for ever), and ten pods of a Kubernetes Job at once.
const (
	DefaultTaskCPUs    = 1
	DefaultParallelism = 10
)
