package battle2048

import (
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// TestSearchBeatsGreedy plays search against greedy, the strongest bot
// before it, seats swapped every game (seed g for the bot in seat 0,
// g+1000 for the one in seat 1), and wants it to win at least 90 % of
// them. 200 games with -long; 10 otherwise (the race detector has nothing
// to find here and makes them about ten times slower).
func TestSearchBeatsGreedy(t *testing.T) {
	games := enginetest.ShortGames(200, 10)
	sc := duel(t, games, BotSearch, BotGreedy, func(g int) (int64, int64) { return int64(g), int64(g + 1000) })
	rate := float64(sc.wins) / float64(games)
	t.Logf("search beat greedy in %d of %d games (%.1f %%), %.0f rounds on average; losses by %v",
		sc.wins, games, 100*rate, float64(sc.rounds)/float64(games), sc.losses)
	if rate < 0.9 {
		t.Errorf("search beat greedy in only %.1f %% of %d games, want at least 90 %%", 100*rate, games)
	}
}

// TestSearchDeterministic: the same seed gives the same game.
func TestSearchDeterministic(t *testing.T) {
	record := func() string {
		var out strings.Builder
		st := play(t, nil, [Seats]engine.Bot{newBot(t, BotSearch, 5), newBot(t, BotRandom, 6)})
		for seat := range Seats {
			b := st.Board(seat)
			out.WriteString(b.String())
		}
		r := st.Result()
		out.WriteString(r.Reason)
		return out.String()
	}
	enginetest.SameTwice(t, record)
}

// TestSearchTurnTimes plays search against greedy through whole games,
// checks every answer, and logs the slowest turn against the limit of a
// second a turn. It does not judge time: a shared machine's wall time is
// no measure of the bot; BenchmarkSearchTurn measures one turn.
func TestSearchTurnTimes(t *testing.T) {
	enginetest.LogSlowestTurn(t, BotSearch, 10, 2, time.Second, func(g int) time.Duration {
		seat := g % Seats
		bots := [Seats]engine.Bot{}
		bots[seat], bots[1-seat] = newBot(t, BotSearch, int64(g)), newBot(t, BotGreedy, int64(g))
		// Unclocked: a shared machine's wall time is no measure of the
		// bot (BenchmarkSearchTurn is); the slowest turn is logged.
		_, took := playClocked(t, nil, bots, false)
		return took[seat]
	})
}

// BenchmarkSearchTurn is one turn of the search bot on a busy position:
// many merges to send (so many splits to try) onto an open board.
func BenchmarkSearchTurn(b *testing.B) {
	p := NewSearchBot(1).(*reader).p
	var me, opp Board
	me[0] = [Size]uint8{1, 1, 2, 2, 3}
	me[1] = [Size]uint8{3, 4, 4, 1, 1}
	me[2] = [Size]uint8{2, 2, 0, 5, 5}
	me[3] = [Size]uint8{0, 1, 0, 0, 1}
	opp[2] = [Size]uint8{0, 0, 1, 0, 0}
	for b.Loop() {
		p.turn(&me, &opp)
	}
}

// BenchmarkSearchGame is a whole game of search against greedy; ns/op
// divided by the rounds logged by TestSearchBeatsGreedy (about 75) is the
// cost of a round of both bots.
func BenchmarkSearchGame(b *testing.B) {
	for b.Loop() {
		play(b, nil, [Seats]engine.Bot{newBot(b, BotSearch, 1), newBot(b, BotGreedy, 2)})
	}
}
