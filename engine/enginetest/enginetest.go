// Package enginetest holds what the tests of the games share: the -long
// flag of the strength runs, the race detector's switch, a thread's CPU time, how many games a test plays,
// the same-seeds check, the slowest-turn log and the table of options a
// game's New must refuse, so a strength or timing test reads the same in
// every game package. Only tests import it.
package enginetest

import (
	"flag"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
)

// Long is the -long test flag: play the strength and win-rate tests at
// their full size. Without it such a test plays a few fixed seeds, which
// still check what it guards (the bots play legal games, learn what they
// must, and clear its floors on those seeds) but not the rates, which
// take hundreds of games (minutes, nine under the race detector for
// Grip's search). The full run, without the race detector, which has
// nothing to find in these single-goroutine games:
//
//	go test -tags ci -count=1 -timeout 60m ./engine/... -long
var Long = flag.Bool("long", false, "play the strength and win-rate tests at full size (hundreds of games; minutes)")

// Games is how many games a strength or win-rate test plays: full with
// -long, otherwise guard, a few fixed seeds for the default run.
func Games(full, guard int) int {
	if *Long {
		return full
	}
	return guard
}

// ShortGames is Games that plays guard under -short too.
func ShortGames(full, guard int) int {
	if testing.Short() {
		return guard
	}
	return Games(full, guard)
}

// SameTwice fails t when two calls of record differ: a game played twice
// with the same seeds must come out the same.
func SameTwice(t testing.TB, record func() string) {
	t.Helper()
	if a, b := record(), record(); a != b {
		t.Errorf("two games with the same seeds differ:\n%s\n%s", a, b)
	}
}

// LogSlowestTurn plays games games (raceGames under the race detector)
// with play, which plays game g and returns the slowest turn of the bot
// under test, and logs the slowest of all against the bot's limit. It does
// not fail on time: a test on a shared machine cannot time a turn; a
// benchmark measures one.
func LogSlowestTurn(t testing.TB, bot string, games, raceGames int, limit time.Duration, play func(g int) time.Duration) {
	t.Helper()
	games = Games(games, raceGames)
	var slowest time.Duration
	for g := range games {
		slowest = max(slowest, play(g))
	}
	t.Logf("slowest %s turn in %d games: %v (limit %v a turn)", bot, games, slowest, limit)
}

// NewError is options and a number of players that a game's New must
// refuse, and a part of what its error must say.
type NewError struct {
	Opts    engine.Options
	Players int
	Want    string
}

// CheckNewErrors has g start a game for each case, with players named p1,
// p2, …, and wants each refused with an error that says what the case
// wants. The options go to New as they are, without Info.Resolve, so the
// game's own checks are what is tested.
func CheckNewErrors(t testing.TB, g engine.Game, cases []NewError) {
	t.Helper()
	for _, tc := range cases {
		players := make([]string, tc.Players)
		for i := range players {
			players[i] = "p" + strconv.Itoa(i+1)
		}
		_, err := g.New(tc.Opts, players, 1)
		if err == nil || !strings.Contains(err.Error(), tc.Want) {
			t.Errorf("%s: New(%v) with %d players: error %v, want %q", g.Info().ID, tc.Opts, tc.Players, err, tc.Want)
		}
	}
}
