package battle2048

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// play runs one game between two bots through the engine, feeding each
// input line by line as the CLI's bot mode does, with Elapsed 0.
func play(t testing.TB, opts engine.Options, bots [Seats]engine.Bot) *State {
	t.Helper()
	st, _ := playClocked(t, opts, bots, false)
	return st
}

// playClocked is play; with clocked, each reply's real computing time is
// its Elapsed, so the game's own clock judges the bots. It returns each
// seat's slowest reply.
func playClocked(t testing.TB, opts engine.Options, bots [Seats]engine.Bot, clocked bool) (*State, [Seats]time.Duration) {
	t.Helper()
	var slowest [Seats]time.Duration
	st, err := NewState(opts, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bots {
		if h := b.Hello(); h != "" {
			t.Fatalf("hello %q", h)
		}
	}
	for !st.Done() {
		asks := st.Asks()
		if len(asks) == 0 {
			st.Apply(nil)
			continue
		}
		a := asks[0]
		lines := strings.Split(strings.TrimSuffix(a.Input, "\n"), "\n")
		out := ""
		start := time.Now()
		for i, l := range lines {
			out = bots[a.Seat].Feed(l)
			if (out != "") != (i == len(lines)-1) {
				t.Fatalf("bot answered %q after line %d of %d", out, i+1, len(lines))
			}
		}
		took := time.Since(start)
		slowest[a.Seat] = max(slowest[a.Seat], took)
		if !clocked {
			took = 0
		}
		if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
			t.Fatalf("bot output %q is not one line", out)
		}
		step := st.Apply([]engine.Reply{{Status: engine.Answered, Line: strings.TrimSuffix(out, "\n"), Elapsed: took}})
		if v := step.Seats[0]; v.Verdict != engine.OK {
			t.Fatalf("bot of seat %d answered %q to\n%s: %v, %s", a.Seat, out, a.Input, v.Verdict, v.Detail)
		}
	}
	return st, slowest
}

// duelScore is how bot a fared against bot b in duel.
type duelScore struct {
	games, wins, rounds int
	losses              map[string]int // a's lost games by reason
}

// duel plays games of bot a against bot b, a in seat g%2 of game g; seeds
// gives the seeds of the bots in seats 0 and 1 for game g.
func duel(t testing.TB, games int, a, b string, seeds func(g int) (int64, int64)) duelScore {
	t.Helper()
	sc := duelScore{games: games, losses: map[string]int{}}
	for g := range games {
		seat := g % Seats
		var names [Seats]string
		names[seat], names[1-seat] = a, b
		s0, s1 := seeds(g)
		r := play(t, nil, [Seats]engine.Bot{newBot(t, names[0], s0), newBot(t, names[1], s1)}).Result()
		sc.rounds += r.Turns
		if r.Winner() == seat {
			sc.wins++
		} else {
			sc.losses[r.Reason]++
		}
	}
	return sc
}

func newBot(t testing.TB, name string, seed int64) engine.Bot {
	t.Helper()
	b, err := New().NewBot(name, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBotsPlayLegally: every answer of both bots is accepted, under both
// protocols; games end only by a stuck board or on score.
func TestBotsPlayLegally(t *testing.T) {
	for _, protocol := range []string{ProtocolFinal, ProtocolBeta} {
		for seed := int64(0); seed < 6; seed++ {
			names := [Seats]string{BotRandom, BotGreedy}
			if seed%2 == 1 {
				names = [Seats]string{BotGreedy, BotRandom}
			}
			if seed >= 4 {
				names = [Seats]string{BotRandom, BotRandom}
			}
			st := play(t, engine.Options{OptProtocol: protocol},
				[Seats]engine.Bot{newBot(t, names[0], seed), newBot(t, names[1], seed+100)})
			if r := st.Result().Reason; r != ReasonCannotMove && r != ReasonHigherScore && r != ReasonTieSecond {
				t.Errorf("%s seed %d %v: game ended by %s", protocol, seed, names, r)
			}
		}
	}
}

func TestBotFeed(t *testing.T) {
	for _, name := range New().Bots() {
		b := newBot(t, name, 3)
		out := b.Feed("1")
		if _, err := ParseOpening(strings.TrimSuffix(out, "\n")); err != nil || !strings.HasSuffix(out, "\n") {
			t.Fatalf("%s opening %q: %v", name, out, err)
		}
		// A final-protocol input (header + 10 rows), then a beta one.
		final := "1 100000 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 1 0 0\n0 0 0 0 0\n0 0 0 0 0\n" +
			"0 0 0 0 0\n0 0 0 0 0\n0 0 1 0 0\n0 0 0 0 0\n0 0 0 0 0"
		beta := "1 1 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n" +
			"0 0 0 0 0\n0 0 0 0 0\n0 0 1 0 0\n0 0 0 0 0\n0 0 0 0 0"
		for _, in := range []string{final, beta} {
			lines := strings.Split(in, "\n")
			for i, l := range lines[:len(lines)-1] {
				if got := b.Feed(l + "\r"); got != "" {
					t.Fatalf("%s answered %q after line %d", name, got, i+1)
				}
			}
			out := b.Feed(lines[len(lines)-1])
			m, err := ParseMove(strings.TrimSuffix(out, "\n"))
			if err != nil {
				t.Fatalf("%s answer %q: %v", name, out, err)
			}
			var me, opp Board
			readRows(&me, lines[len(lines)-10:len(lines)-5])
			readRows(&opp, lines[len(lines)-5:])
			next, x, _ := me.Slide(m.Dir)
			if next == me || !sumOK(m.M, m.V, x) {
				t.Fatalf("%s answer %q is illegal for\n%s", name, out, in)
			}
			for _, c := range m.Cells {
				if opp[c.Row][c.Col] != 0 {
					t.Fatalf("%s attacks an occupied cell: %q", name, out)
				}
			}
		}
	}
}

// TestGreedyBeatsRandom plays 100 seeds with the seats swapped on each
// (20 without -long).
func TestGreedyBeatsRandom(t *testing.T) {
	seeds := enginetest.Games(100, 20)
	sc := duel(t, 2*seeds, BotGreedy, BotRandom, func(g int) (int64, int64) {
		seed := int64(g/Seats + 1)
		return seed, seed
	})
	rate := float64(sc.wins) / float64(sc.games)
	t.Logf("greedy beat random in %d of %d games (%.1f %%), %.0f rounds on average", sc.wins, sc.games, 100*rate, float64(sc.rounds)/float64(sc.games))
	if rate < 0.9 {
		t.Errorf("greedy won only %.1f %% of its games against random", 100*rate)
	}
}

func BenchmarkGreedyTurn(b *testing.B) {
	p := &greedyPolicy{rng: rand.New(rand.NewPCG(1, 2))}
	var me, opp Board
	me[0] = [Size]uint8{1, 2, 3, 0, 1}
	me[1] = [Size]uint8{2, 0, 1, 0, 0}
	opp[2] = [Size]uint8{1, 1, 0, 4, 0}
	for b.Loop() {
		p.turn(&me, &opp)
	}
}
