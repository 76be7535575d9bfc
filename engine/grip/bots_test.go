package grip

import (
	"strings"
	"testing"
	"time"

	"ringside/engine"
)

// playBots plays a whole game in process, feeding each bot the exact input
// of its ask line by line and handing its answer to Apply. It fails the
// test when a bot answers anything but one valid line per input.
func playBots(t testing.TB, seed int64, bots [Seats]engine.Bot, kv ...string) *State {
	t.Helper()
	s, _ := playTimed(t, seed, bots, kv...)
	return s
}

// playTimed is playBots that also returns each seat's slowest answer
// (the time its Feed calls took on one input).
func playTimed(t testing.TB, seed int64, bots [Seats]engine.Bot, kv ...string) (*State, [Seats]time.Duration) {
	t.Helper()
	return playSetUp(t, seed, bots, nil, kv...)
}

// playSetUp is playTimed that lets setUp change the state (when not nil)
// once every bot said READY.
func playSetUp(t testing.TB, seed int64, bots [Seats]engine.Bot, setUp func(*State), kv ...string) (*State, [Seats]time.Duration) {
	t.Helper()
	var slowest [Seats]time.Duration
	opts := engine.Options{}
	for i := 0; i+1 < len(kv); i += 2 {
		opts[kv[i]] = kv[i+1]
	}
	s, err := NewState(opts, []string{"a", "b", "c", "d"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	replies := make([]engine.Reply, Seats)
	for i, b := range bots {
		replies[i] = engine.Reply{Status: engine.Answered, Line: strings.TrimSuffix(b.Hello(), "\n")}
	}
	s.Apply(replies)
	if setUp != nil {
		setUp(s)
	}
	for !s.Done() {
		asks := s.Asks()
		replies := replies[:0]
		for _, a := range asks {
			var out string
			lines := strings.SplitAfter(a.Input, "\n")
			start := time.Now()
			for i, l := range lines[:len(lines)-1] {
				got := bots[a.Seat].Feed(strings.TrimSuffix(l, "\n"))
				if i < len(lines)-2 && got != "" {
					t.Fatalf("seat %d answered %q before EOD", a.Seat, got)
				}
				out += got
			}
			slowest[a.Seat] = max(slowest[a.Seat], time.Since(start))
			if len(out) != 2 || out[1] != '\n' {
				t.Fatalf("seat %d answered %q, want one command line", a.Seat, out)
			}
			replies = append(replies, engine.Reply{Status: engine.Answered, Line: out[:1]})
		}
		st := s.Apply(replies)
		for _, ss := range st.Seats[:len(replies)] {
			if ss.Verdict != engine.OK {
				t.Fatalf("turn %d: seat %d's bot answer judged %+v", s.Turn()-1, ss.Seat, ss)
			}
		}
	}
	return s, slowest
}

// greedyAmongRandom seats a greedy bot in seat seed%4 and random bots in
// the others, all seeded from seed.
func greedyAmongRandom(seed int64) (bots [Seats]engine.Bot, greedy *GreedyBot, seat int) {
	seat = int(seed % Seats)
	for i := range bots {
		if i == seat {
			greedy = NewGreedyBot(seed)
			bots[i] = greedy
		} else {
			bots[i] = NewRandomBot(seed*Seats + int64(i))
		}
	}
	return bots, greedy, seat
}

// knowing returns a greedy bot seeded 1 that has been told the coords
// order (1 rc, 2 xy), so it does not probe it first.
func knowing(xy int) *GreedyBot {
	b := NewGreedyBot(1)
	b.xy = xy
	return b
}

// TestGreedyBeatsRandom plays greedy against three random bots, greedy in
// seat seed%4, and wants it to win alone in at least 60% of the games.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	wins, draws := 0, 0
	for seed := range int64(games) {
		bots, _, g := greedyAmongRandom(seed)
		r := playBots(t, seed, bots).Result()
		switch w := r.Winner(); {
		case w == g:
			wins++
		case r.Ranks[g] == 1:
			draws++
		}
	}
	rate := float64(wins) / float64(games)
	t.Logf("greedy won %d of %d games alone (%.1f%%), shared first place in %d", wins, games, 100*rate, draws)
	if rate < 0.6 {
		t.Errorf("greedy won %.1f%% of its games against three random bots, want at least 60%%", 100*rate)
	}
}

// TestGreedyLearnsXY plays greedy in a coords=xy game: once it has moved it
// reads the input the right way round, so it survives like in rc games.
func TestGreedyLearnsXY(t *testing.T) {
	wins := 0
	const games = 40
	for seed := range int64(games) {
		bots, greedy, g := greedyAmongRandom(seed)
		s := playBots(t, seed, bots, OptCoords, CoordsXY)
		if p := s.Player(g); greedy.xy != 2 && !(p.Fallen && p.FellAt < 40) && s.Turn() > 40 {
			t.Errorf("seed %d: greedy did not notice coords=xy in %d turns", seed, s.Turn())
		}
		if s.Result().Winner() == g {
			wins++
		}
	}
	t.Logf("greedy won %d of %d coords=xy games alone", wins, games)
	if wins < games/2 {
		t.Errorf("greedy won only %d of %d coords=xy games", wins, games)
	}
}

// TestGreedyAnswers gives greedy, told the coords order, one position each:
// it steps off a block about to fall, not onto one, attacks a player it
// can drop, and says N while it waits.
func TestGreedyAnswers(t *testing.T) {
	const empty = "0 0 0 0 0 0\n"
	// Player 1 stands in the middle of the next block to the right, on a
	// stable block: it cannot get off in the one turn it has.
	attack := "0\n8\n" + strings.Repeat(empty, 6) + "4 4 R 0\n4 7 L 0\n17 0 U 0\n17 17 U 0\nEOD\n"
	tests := []struct {
		name   string
		xy     int    // the coords order the bot was told (1 rc, 2 xy)
		before string // an input the bot answered just before, or ""
		in     string
		want   string // the answer, or "" to check only avoid
		avoid  string
	}{
		// Greedy (player 0) stands in block (1,1) which falls at the end of
		// this turn unless it steps out; only stepping left leaves the block.
		// The bot is told the order is rc; a fresh bot would first probe it.
		{"the only way off a block about to fall", 1, "",
			"0\n8\n" + empty + "0 1 0 0 0 0\n" + strings.Repeat(empty, 4) + "4 3 R 0\n0 17 L 0\n17 0 U 0\n17 17 U 0\nEOD\n", "L\n", ""},
		// It does not step onto a block showing 2 either.
		{"not onto a block falling before its next turn", 1, "",
			"0\n8\n" + empty + "0 0 2 0 0 0\n" + strings.Repeat(empty, 4) + "4 5 R 0\n0 17 L 0\n17 0 U 0\n17 17 U 0\nEOD\n", "", "R\n"},
		{"attack", 1, "", attack, "A\n", ""},
		// The same position in coords=xy, to a bot that knows.
		{"attack (xy)", 2, "", strings.Replace(attack, "4 7 L 0", "7 4 L 0", 1), "A\n", ""},
		{"waiting", 1, attack, strings.Replace(attack, "4 4 R 0", "4 4 R 1", 1), "N\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := knowing(tt.xy)
			if tt.before != "" {
				feed(b, tt.before)
			}
			got := feed(b, tt.in)
			if tt.want != "" && got != tt.want {
				t.Errorf("greedy answered %q, want %q", got, tt.want)
			}
			if tt.avoid != "" && got == tt.avoid {
				t.Errorf("greedy answered %q, which it must not", got)
			}
		})
	}
}

func TestBotsSurviveGarbage(t *testing.T) {
	for _, name := range New().Bots() {
		b, _ := New().NewBot(name, 3)
		for _, in := range []string{"EOD\n", "x\ny\nEOD\n", strings.Repeat("1 2 3\n", 100) + "EOD\n", "\n\n\n\n\n\n\n\n\n\n\n\n\nEOD\n"} {
			if got := feed(b, in); len(got) != 2 || strings.IndexByte(Commands, got[0]) < 0 {
				t.Errorf("%s answered %q to %q", name, got, in)
			}
		}
	}
}

func feed(b engine.Bot, in string) string {
	var out string
	for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		out += b.Feed(l)
	}
	return out
}

// TestSides: what closes the sides of a block, the greedy bot's edge and
// fallen-neighbour terms and search's valueHemmed.
func TestSides(t *testing.T) {
	tests := []struct {
		name          string
		set           map[[2]int]int // block timers
		br, bc        int
		edges, closed int
	}{
		{"open middle", nil, 2, 3, 0, 0},
		{"corner", nil, 0, 0, 2, 0},
		{"edge", nil, 5, 2, 1, 0},
		{"fallen left, falling below", map[[2]int]int{{2, 2}: -5, {3, 3}: 4}, 2, 3, 0, 2},
		{"own block and a diagonal do not count", map[[2]int]int{{2, 3}: 4, {1, 2}: -1}, 2, 3, 0, 0},
		{"corner beside a hole", map[[2]int]int{{0, 4}: -19}, 0, 5, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var blocks [Blocks][Blocks]int
			for at, k := range tt.set {
				blocks[at[0]][at[1]] = k
			}
			edges, closed := sides(&blocks, tt.br, tt.bc)
			if edges != tt.edges || closed != tt.closed {
				t.Errorf("sides(%d, %d) = %d edges, %d closed, want %d, %d", tt.br, tt.bc, edges, closed, tt.edges, tt.closed)
			}
		})
	}
}
