package grip

import (
	"flag"
	"runtime"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

var (
	strengthGames = flag.Int("strength", 0, "play this many 4-player games of search against the older built-ins and log how it fares (0: skip)")
	duelGames     = flag.Int("duels", 0, "play this many duels of search against greedy from the start and log how it fares (0: skip)")
	duelFrom      = flag.Int("duelfrom", 0, "the seed of the first duel")
	strengthFirst = flag.Int("strength.first", 0, "with -strength: number of the first game (its seed; search's seat rotates with it)")
	strengthLine  = flag.String("strength.lineup", "", "with -strength: play only this line-up, ggr (greedy, greedy, random) or ggg (three greedy bots); empty: both")
	strengthV     = flag.Bool("strength.v", false, "with -strength: log each game search is not ahead of every greedy bot in")
)

// TestSearchStrength measures search against the older built-ins when run
// with -strength N, in two line-ups with search's seat rotated: greedy,
// greedy and random (as TestSearchAgainstGreedy), and three greedy bots.
// It counts two ways of beating them: finishing ahead of every greedy bot
// (a strictly better rank; survivors at the turn limit share rank 1, so a
// draw with a surviving greedy bot does not count) and winning alone (the
// last one standing). It logs search's slowest turn against the default
// limit, both as wall time (which on a loaded machine includes waiting
// for a core) and as the CPU time its thread spent (to the kernel's
// accounting tick). It only reports: it plays 400 long games, and
// TestSearchAgainstGreedy holds search to issue 18's 90 % on 100 of them.
// Ahead of every greedy bot with greedy, greedy and random: on seven
// sets none of it was chosen on, 16000–16199 to 22000–22199, 192, 190,
// 179, 178, 182, 185 and 191 (1,297 of 1,400, 92.6 %; the search before
// the three-player hunt 1,258, 89.9 %); 1,281 of 9000–9199 to
// 15000–15199, on which the hunt was chosen (1,251 before); 183 of
// games 0–199; against three greedy bots 176 of 2000–2199 (171
// before). Of the 103 games of the seven new sets search was not ahead
// in, 32 were falls with four players left, 15 with three, 7 in a duel,
// 40 three-player games at the turn limit and 9 duels at the limit (see
// SearchBot for what came before).
// -strength.first N plays games N, N+1, … (game g has seed g and search
// in seat g%4, as game 0 and on do), to check that a change is not tuned
// to the usual games; -strength.lineup ggr or ggg plays only greedy,
// greedy and random or only three greedy bots; -strength.v logs each
// game search does not finish ahead of every greedy bot in: when it fell
// and how many were on the board then.
//
//	go test -tags ci -p 1 -timeout 0 -run TestSearchStrength -v ./engine/grip/ -args -strength=200
//	go test -tags ci -p 1 -timeout 0 -run TestSearchStrength -v ./engine/grip/ -args -strength=200 -strength.first=2000 -strength.lineup=ggr -strength.v
func TestSearchStrength(t *testing.T) {
	games := *strengthGames
	if games <= 0 {
		t.Skip("run with -strength N to play N games of each line-up")
	}
	// The bots' CPU time is read off this goroutine's thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lineups := []string{"greedy, greedy, random", "greedy, greedy, greedy"}
	switch *strengthLine {
	case "":
	case "ggr":
		lineups = lineups[:1]
	case "ggg":
		lineups = lineups[1:]
	default:
		t.Fatalf("-strength.lineup=%q: want ggr, ggg or nothing", *strengthLine)
	}
	first := *strengthFirst
	for _, lineup := range lineups {
		ahead, alone, limit := 0, 0, 0
		var slowest, mostCPU time.Duration
		mostNodes := 0
		for g := first; g < first+games; g++ {
			seat := g % Seats
			bots, _, greedy := ggrLineup(g)
			if lineup == "greedy, greedy, greedy" {
				greedy = greedy[:0]
				for i := range bots {
					if i != seat {
						bots[i] = NewGreedyBot(int64(g*Seats + i))
						greedy = append(greedy, i)
					}
				}
			}
			bots[seat] = &cpuBot{Bot: bots[seat]}
			s, took := playTimed(t, int64(g), bots)
			slowest = max(slowest, took[seat])
			mostCPU = max(mostCPU, bots[seat].(*cpuBot).most)
			if sb, ok := bots[seat].(*cpuBot).Bot.(*SearchBot); ok {
				mostNodes = max(mostNodes, sb.maxNodes)
			}
			r := s.Result()
			ok := true
			for _, o := range greedy {
				ok = ok && r.Ranks[seat] < r.Ranks[o]
			}
			if ok {
				ahead++
			} else if *strengthV {
				// How many were on the board when search fell (or at the end).
				me := s.players[seat]
				left := 0
				for _, p := range s.players {
					if !p.Fallen || me.Fallen && p.FellAt >= me.FellAt {
						left++
					}
				}
				t.Logf("game %d: search (seat %d) fell at turn %d with %d left; ended at turn %d, ranks %v, %v", g, seat, me.FellAt, left, s.turn, r.Ranks, r.Reason)
			}
			if r.Winner() == seat {
				alone++
			}
			if r.Reason == ReasonTurnLimit {
				limit++
			}
		}
		t.Logf("search against %s (games %d to %d, seats rotated): ahead of every greedy bot in %d (%.1f %%), last one standing in %d (%.1f %%); %d games reached the turn limit; search's slowest turn %v, its most CPU time in one turn %v (default limit 100ms); the most lines weighed in one turn %d (nodeBudget %d)",
			lineup, first, first+games-1, ahead, 100*float64(ahead)/float64(games), alone, 100*float64(alone)/float64(games), limit, slowest, mostCPU, mostNodes, nodeBudget)
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

// TestSearchDuels measures search in duels against greedy when run with
// -duels N: games from the start position of seed g with the two other
// seats fallen at once, search in seat g%4 and greedy in each of the
// three others in turn. The duel decides most games that search does not
// win outright; a duel it does not win ends at the turn limit, shared.
// It only reports, also how soon search wins: the average turn a duel
// ends on, a duel it does not win counted as the turn limit, and how
// many it wins by turn 250 (seeds 1000 to 1319: 198 and 231; 261 and 197
// with the pull of three players, 30 a square, in duels too).
//
//	go test -tags ci -p 1 -timeout 0 -run TestSearchDuels -v ./engine/grip/ -args -duels=320 -duelfrom=1000
//
//	go test -tags ci -p 1 -timeout 0 -run TestSearchDuels -v ./engine/grip/ -args -duels=80 -duelfrom=40
func TestSearchDuels(t *testing.T) {
	if *duelGames <= 0 {
		t.Skip("run with -duels N to play N duels")
	}
	won, lost, limit := 0, 0, 0
	ends, early := 0, 0
	for g := *duelFrom; g < *duelFrom+*duelGames; g++ {
		seat := g % Seats
		opp := (seat + 1 + (g/Seats)%3) % Seats
		var bots [Seats]engine.Bot
		for i := range bots {
			bots[i] = NewGreedyBot(int64(g*Seats + i))
		}
		bots[seat] = NewSearchBot(int64(g))
		s, _ := playSetUp(t, int64(g), bots, func(s *State) {
			for i := range s.players {
				if i != seat && i != opp {
					p := &s.players[i]
					p.Fallen, p.FellAt, p.Stopped = true, 0, true
					s.left--
				}
			}
		})
		r := s.Result()
		if r.Winner() == seat {
			ends += s.turn
			if s.turn <= 250 {
				early++
			}
		} else {
			ends += s.cfg.maxTurns
		}
		switch {
		case r.Winner() == seat:
			won++
		case r.Reason == ReasonTurnLimit:
			limit++
		default:
			lost++
		}
	}
	t.Logf("search against greedy in %d duels (seeds %d to %d): won %d, reached the turn limit in %d, lost %d; a duel ended on turn %d on average (one not won counted as the turn limit), %d won by turn 250",
		*duelGames, *duelFrom, *duelFrom+*duelGames-1, won, limit, lost, ends / *duelGames, early)
}
