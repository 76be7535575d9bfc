package cloud

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"ringside/engine"
)

// checkInvariants checks what must hold after every turn.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	f := s.fld
	cells := map[Point]string{}
	for _, b := range s.bots {
		switch {
		case b.alive():
			if !f.in(b.pos) || f.isWall(b.pos) {
				t.Fatalf("turn %d: %s at %v is off the field or on a wall", s.turn, b.id, b.pos)
			}
			if o, ok := cells[b.pos]; ok {
				t.Fatalf("turn %d: %s and %s share %v", s.turn, o, b.id, b.pos)
			}
			cells[b.pos] = b.id
			if b.time != 0 || b.health > s.cfg.lives {
				t.Fatalf("turn %d: live %s has time %d health %d", s.turn, b.id, b.time, b.health)
			}
		default:
			if b.health != 0 || b.time < 0 || b.time > s.cfg.respawn {
				t.Fatalf("turn %d: dead %s has health %d time %d", s.turn, b.id, b.health, b.time)
			}
		}
	}
}

// expectedPoints recomputes a turn's points from its shots: for every bot
// that died, floor(100 × shots ÷ all shots at it) to each other player.
func expectedPoints(before, after *State) ([]int, int) {
	gain := make([]int, len(before.players))
	kills := 0
	byVictim := map[string][]int{}
	for _, sh := range after.shots {
		if sh.Victim == "" {
			continue
		}
		if byVictim[sh.Victim] == nil {
			byVictim[sh.Victim] = make([]int, len(before.players))
		}
		byVictim[sh.Victim][sh.Player]++
	}
	for i, b := range before.bots {
		by, ok := byVictim[b.id]
		if !b.alive() || after.bots[i].alive() {
			continue
		}
		if !ok {
			panic(fmt.Sprintf("%s died without being shot", b.id))
		}
		total := 0
		for _, k := range by {
			total += k
		}
		kills++
		for p, k := range by {
			if p != b.player {
				gain[p] += 100 * k / total
			}
		}
	}
	return gain, kills
}

// randomReply is a reply from a careless bot: commands for any bot, odd
// moves, targets anywhere, sometimes garbage.
func randomReply(rng *rand.Rand, s *State) string {
	switch rng.IntN(20) {
	case 0:
		return "{not json"
	case 1:
		return `{"turn_no":0}`
	}
	var parts []string
	for i := range s.bots {
		if rng.IntN(3) == 0 {
			continue
		}
		fire := "[]"
		if rng.IntN(2) == 0 {
			fire = fmt.Sprintf("[%d,%d]", rng.IntN(s.fld.w+2)-1, rng.IntN(s.fld.h+2)-1)
		}
		parts = append(parts, fmt.Sprintf(`"bot%d":{"move":"%c","fire":%s}`, i+1, "udlrsx"[rng.IntN(6)], fire))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestPropertiesOverRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for game := range 60 {
		players := 2 + rng.IntN(7)
		w, h := 10+rng.IntN(15), 10+rng.IntN(15)
		opts := engine.Options{
			"width": itoa(w), "height": itoa(h), "bots": itoa(1 + rng.IntN(3)),
			"lives": itoa(1 + rng.IntN(3)), "range": itoa(1 + rng.IntN(4)), "vision": itoa(rng.IntN(7)),
			"turns": "60", "respawn": itoa(1 + rng.IntN(5)), "walls": itoa(rng.IntN(25)),
		}
		s, err := newGame(t, opts, players, int64(game))
		if err != nil {
			t.Fatalf("game %d %v: %v", game, opts, err)
		}
		checkInvariants(t, s)
		totalKills := 0
		for !s.Done() {
			before := s.Clone().(*State)
			asks := s.Asks()
			replies := make([]engine.Reply, len(asks))
			for i := range asks {
				switch rng.IntN(30) {
				case 0:
					replies[i] = engine.Reply{Status: engine.TimedOut}
				case 1:
					replies[i] = engine.Reply{Status: engine.Closed}
				default:
					replies[i] = engine.Reply{Status: engine.Answered, Line: randomReply(rng, s)}
				}
			}
			st := s.Apply(replies)
			checkInvariants(t, s)
			gain, kills := expectedPoints(before, s)
			totalKills += kills
			for p := range gain {
				if s.points[p]-before.points[p] != gain[p] {
					t.Fatalf("game %d turn %d: player %d gained %d, shots say %d (shots %+v)",
						game, s.turn, p, s.points[p]-before.points[p], gain[p], s.shots)
				}
			}
			if n := len(kindsOf(st.Events, engine.EventKill)); n != kills {
				t.Fatalf("game %d turn %d: %d kill events for %d kills", game, s.turn, n, kills)
			}
			if len(st.Stop) != 0 {
				t.Fatalf("seats stopped: %v", st.Stop)
			}
		}
		sum := 0
		for _, p := range s.points {
			sum += p
		}
		if sum > 100*totalKills || sum < 0 {
			t.Errorf("game %d: %d points from %d kills", game, sum, totalKills)
		}
	}
}

func kindsOf(evs []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// hash sums up everything a state holds.
func hash(s *State) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, s.turn, s.points, s.bots, s.shots, s.closed)
	return h.Sum64()
}

func TestSameSeedSameGame(t *testing.T) {
	for _, players := range []int{2, 4, 5} {
		run := func() (*engine.Log, []uint64) {
			bots := make([]engine.Bot, players)
			for i := range bots {
				if i%2 == 0 {
					bots[i] = newHunterBot(int64(i))
				} else {
					bots[i] = newRandomBot(int64(i))
				}
			}
			_, log := play(t, engine.Options{"turns": "80"}, bots, 99)
			// Re-simulate and hash every state on the way.
			sim, err := engine.NewSim(New(), log)
			if err != nil {
				t.Fatal(err)
			}
			var hashes []uint64
			for range log.Steps {
				if _, _, err := sim.Step(); err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, hash(sim.State.(*State)))
			}
			return log, hashes
		}
		logA, hashA := run()
		logB, hashB := run()
		if !reflect.DeepEqual(logA, logB) || !reflect.DeepEqual(hashA, hashB) {
			t.Errorf("%d players: two runs with the same seeds differ", players)
		}
		ra, err := engine.Expand(New(), logA)
		if err != nil {
			t.Fatal(err)
		}
		rb, _ := engine.Expand(New(), logB)
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if string(ja) != string(jb) {
			t.Errorf("%d players: expanded replays differ", players)
		}
		if ra.Start == "" || len(ra.Steps) != 80 || ra.Result.Reason != "turn_limit" {
			t.Errorf("replay start %q, %d steps, result %+v", ra.Start, len(ra.Steps), ra.Result)
		}
		for _, st := range ra.Steps {
			for _, seat := range st.Seats {
				if seat.Verdict != engine.OK || seat.Detail != "" {
					t.Fatalf("built-in bot got %v: %s (reply %s)", seat.Verdict, seat.Detail, *seat.Reply)
				}
			}
		}
	}
}

func FuzzReply(f *testing.F) {
	for _, s := range []string{
		`{"bot1":{"move":"u","fire":[3,4]},"bot2":{"move":"s","fire":[]}}`,
		`{"turn_no":1,"bot1":{"move":"d"}}`, `{"turn_no":"x"}`, `{"bot3":{}}`, `{"bot1":null}`,
		`{"bot1":{"fire":[1e3,2]}}`, `{"bot01":{}}`, `[]`, `null`, `{`, `{"bot1":{"move":"uu"}}`,
		`{"bot1":{"fire":[99999999999999999999,1]}}`, `{"bot2":{"move":"r","fire":[-3,0]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := tiny(t, 2, func(c *config) { c.rng = 2 }, "aa.#.", "...b.", "#...b")
		s.bots[1].health, s.bots[1].time = 0, 3
		r := s.parseReply(0, line)
		if r.err != "" && len(r.orders) > 0 {
			t.Fatalf("malformed reply with orders: %+v", r)
		}
		for i, o := range r.orders {
			b := s.bots[i]
			if b.player != 0 || !b.alive() {
				t.Fatalf("order for %s (player %d, health %d)", b.id, b.player, b.health)
			}
			if !strings.ContainsRune("udlrs", rune(o.moveByte())) {
				t.Fatalf("move %q", o.move)
			}
			if o.fire && s.canFire(b.pos, o.target) != "" {
				t.Fatalf("accepted a shot at %v from %v", o.target, b.pos)
			}
		}
		if len(r.detail()) > 4000 {
			t.Fatalf("detail of %d bytes", len(r.detail()))
		}
		st := s.Apply([]engine.Reply{{Status: engine.Answered, Line: line}, {Status: engine.Answered, Line: line}})
		if len(st.Seats) != 2 {
			t.Fatalf("seats %+v", st.Seats)
		}
		for _, m := range st.Send {
			if !json.Valid([]byte(m.Text)) || !strings.HasSuffix(m.Text, "}\n") {
				t.Fatalf("status line %q", m.Text)
			}
		}
		checkInvariants(t, s)
	})
}
