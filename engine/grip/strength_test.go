package grip

import (
	"flag"
	"runtime"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

var strengthGames = flag.Int("strength", 0, "play this many 4-player games of search against the older built-ins and log how it fares (0: skip)")

// TestSearchStrength measures search against the older built-ins when run
// with -strength N, in two line-ups with search's seat rotated: greedy,
// greedy and random (as TestSearchAgainstGreedy), and three greedy bots.
// It counts two ways of beating them: finishing ahead of every greedy bot
// (a strictly better rank; survivors at the turn limit share rank 1, so a
// draw with a surviving greedy bot does not count) and winning alone (the
// last one standing). It logs search's slowest turn against the default
// limit, both as wall time (which on a loaded machine includes waiting
// for a core) and as the CPU time its thread spent (to the kernel's
// accounting tick). It only reports: issue 18's 90 % is not reached, and a test that
// always fails helps nobody.
//
//	go test -tags ci -p 1 -run TestSearchStrength -v ./engine/grip/ -args -strength=200
func TestSearchStrength(t *testing.T) {
	games := *strengthGames
	if games <= 0 {
		t.Skip("run with -strength N to play N games of each line-up")
	}
	// The bots' CPU time is read off this goroutine's thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, lineup := range []string{"greedy, greedy, random", "greedy, greedy, greedy"} {
		ahead, alone, limit := 0, 0, 0
		var slowest, mostCPU time.Duration
		for g := range games {
			var bots [Seats]engine.Bot
			seat := g % Seats
			rnd := -1
			if lineup == "greedy, greedy, random" {
				rnd = (seat + 1 + (g/Seats)%3) % Seats
			}
			var greedy []int
			for i := range bots {
				switch i {
				case seat:
					bots[i] = &cpuBot{Bot: NewSearchBot(int64(g))}
				case rnd:
					bots[i] = NewRandomBot(int64(g*Seats + i))
				default:
					bots[i] = NewGreedyBot(int64(g*Seats + i))
					greedy = append(greedy, i)
				}
			}
			s, took := playTimed(t, int64(g), bots)
			slowest = max(slowest, took[seat])
			mostCPU = max(mostCPU, bots[seat].(*cpuBot).most)
			r := s.Result()
			ok := true
			for _, o := range greedy {
				ok = ok && r.Ranks[seat] < r.Ranks[o]
			}
			if ok {
				ahead++
			}
			if r.Winner() == seat {
				alone++
			}
			if r.Reason == ReasonTurnLimit {
				limit++
			}
		}
		t.Logf("search against %s (%d games, seats rotated): ahead of every greedy bot in %d (%.1f %%), last one standing in %d (%.1f %%); %d games reached the turn limit; search's slowest turn %v, its most CPU time in one turn %v (default limit 100ms)",
			lineup, games, ahead, 100*float64(ahead)/float64(games), alone, 100*float64(alone)/float64(games), limit, slowest, mostCPU)
	}
}

// cpuBot is a bot that records the most CPU time it spent on one answer
// (all the Feed calls up to and including the one that answers). The
// caller locks its goroutine to its thread.
type cpuBot struct {
	engine.Bot
	spent, most time.Duration
}

func (b *cpuBot) Feed(line string) string {
	start, ok := enginetest.ThreadCPU()
	out := b.Bot.Feed(line)
	if end, ok2 := enginetest.ThreadCPU(); ok && ok2 {
		b.spent += end - start
	}
	if out != "" {
		b.most = max(b.most, b.spent)
		b.spent = 0
	}
	return out
}
