package cloud

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
)

var names = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"}

// tiny builds a state from a picture: '#' is a wall, '.' an empty cell,
// 'a'…'h' a bot of seat 0…7. Bots are numbered in reading order (row by
// row, left to right), so the first letter is bot1. players is the number
// of seats (at least the highest letter used). set overrides rules.
func tiny(t testing.TB, players int, set func(*config), rows ...string) *State {
	t.Helper()
	cfg := &config{width: len(rows[0]), height: len(rows), bots: 1, lives: 3, rng: 3, vision: 5,
		turns: 300, turnMs: 250, respawn: 10, listed: true}
	if set != nil {
		set(cfg)
	}
	f := &field{w: cfg.width, h: cfg.height, wall: make([]bool, cfg.width*cfg.height), start: make([][]Point, players)}
	s := &State{cfg: cfg, fld: f, players: names[:players], seed: 1,
		points: make([]int, players), closed: make([]bool, players)}
	for _, p := range s.players {
		s.quoted = append(s.quoted, quote(p))
	}
	for y, row := range rows {
		if len(row) != cfg.width {
			t.Fatalf("row %d of the picture is %d wide, want %d", y, len(row), cfg.width)
		}
		for x, ch := range row {
			p := Point{x, y}
			switch {
			case ch == '#':
				f.setWall(p, true)
				f.walls = append(f.walls, p)
			case ch >= 'a' && ch <= 'h':
				seat := int(ch - 'a')
				if seat >= players {
					t.Fatalf("picture has a bot of seat %d but only %d players", seat, players)
				}
				s.bots = append(s.bots, bot{id: "bot" + strconv.Itoa(len(s.bots)+1), player: seat, pos: p, health: cfg.lives})
				f.start[seat] = append(f.start[seat], p)
			case ch != '.':
				t.Fatalf("picture: unknown cell %q", ch)
			}
		}
	}
	sortPoints(f.walls)
	return s
}

// answers makes one Answered reply per seat; "TIMEOUT", "CLOSED" and "GONE"
// stand for those statuses.
func answers(lines ...string) []engine.Reply {
	out := make([]engine.Reply, len(lines))
	for i, l := range lines {
		switch l {
		case "TIMEOUT":
			out[i] = engine.Reply{Status: engine.TimedOut}
		case "CLOSED":
			out[i] = engine.Reply{Status: engine.Closed}
		case "GONE":
			out[i] = engine.Reply{Status: engine.Gone}
		default:
			out[i] = engine.Reply{Status: engine.Answered, Line: l}
		}
	}
	return out
}

// idle is a reply that commands nothing.
const idle = "{}"

// botAt returns the live bot on p, or nil.
func (s *State) botAt(p Point) *bot {
	for i := range s.bots {
		if s.bots[i].alive() && s.bots[i].pos == p {
			return &s.bots[i]
		}
	}
	return nil
}

func (s *State) byID(t testing.TB, id string) *bot {
	t.Helper()
	i, ok := s.botIndex(id)
	if !ok {
		t.Fatalf("no bot %s", id)
	}
	return &s.bots[i]
}

// play runs a whole game in process with built-in bots, speaking the real
// lines: intro, states, status lines. It returns the final state and the
// log.
func play(t testing.TB, opts engine.Options, bots []engine.Bot, seed int64) (*State, *engine.Log) {
	t.Helper()
	s, log, _ := playTimed(t, opts, bots, seed)
	return s, log
}

// playTimed is play that also returns how long each seat's slowest answer
// to a state took.
func playTimed(t testing.TB, opts engine.Options, bots []engine.Bot, seed int64) (*State, *engine.Log, []time.Duration) {
	t.Helper()
	slowest := make([]time.Duration, len(bots))
	g := New()
	o, err := g.Info().Resolve(opts)
	if err != nil {
		t.Fatal(err)
	}
	players := names[:len(bots)]
	st, err := g.New(o, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	log := &engine.Log{Game: "cloud", Options: o, Seed: seed, Players: players}
	for seat, b := range bots {
		b.Hello()
		if out := b.Feed(strings.TrimSuffix(s.Intro(seat), "\n")); out != "" {
			t.Fatalf("seat %d answered the config with %q", seat, out)
		}
	}
	for !s.Done() {
		asks := s.Asks()
		replies := make([]engine.Reply, len(asks))
		logged := make([]engine.LogReply, len(asks))
		for i, a := range asks {
			start := time.Now()
			out := bots[a.Seat].Feed(strings.TrimSuffix(a.Input, "\n"))
			slowest[a.Seat] = max(slowest[a.Seat], time.Since(start))
			replies[i] = engine.Reply{Status: engine.Answered, Line: strings.TrimSuffix(out, "\n")}
			logged[i] = engine.LogReplyOf(replies[i], "", "")
		}
		step := s.Apply(replies)
		log.Steps = append(log.Steps, engine.LogStep{Replies: logged})
		for _, m := range step.Send {
			bots[m.Seat].Feed(strings.TrimSuffix(m.Text, "\n"))
		}
	}
	log.Result = s.Result()
	return s, log, slowest
}

// firstAnswer feeds b seat 0's config and then its first state, and
// returns b's answer to the state.
func firstAnswer(b engine.Bot, s *State) string {
	b.Feed(strings.TrimSuffix(s.Intro(0), "\n"))
	return b.Feed(strings.TrimSuffix(s.Input(0), "\n"))
}

func itoa(n int) string { return strconv.Itoa(n) }
