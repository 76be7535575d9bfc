package cloud

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// TestHunterBeatsRandom plays hunter against random: 60 two-player games
// (hunter in seat 0 and 1 in turn) and 60 four-player games (one hunter,
// three randoms, hunter's seat rotating), default options but 100 turns
// to keep the test quick. The hunter must finish alone in first place in
// at least 80 % of each. Without -long only the first 6 of each are
// played (the race detector, which has nothing to find in these
// single-goroutine games, makes them nine times slower).
func TestHunterBeatsRandom(t *testing.T) {
	games := enginetest.Games(60, 6)
	for _, players := range []int{2, 4} {
		wins := 0
		points := 0
		for g := range games {
			seat := g % players
			bots := make([]engine.Bot, players)
			for i := range bots {
				if i == seat {
					bots[i] = newHunterBot(int64(g))
				} else {
					bots[i] = newRandomBot(int64(g*10 + i))
				}
			}
			s, _ := play(t, engine.Options{"turns": "100"}, bots, int64(g))
			res := s.Result()
			if res.Winner() == seat {
				wins++
			}
			points += s.points[seat]
		}
		rate := float64(wins) / float64(games)
		t.Logf("%d players: hunter first alone in %d of %d games (%.0f %%), %.0f points a game", players, wins, games, 100*rate, float64(points)/float64(games))
		if rate < 0.8 {
			t.Errorf("%d players: hunter won only %.0f %%", players, 100*rate)
		}
	}
}

func TestBotFeed(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.rng = 2 }, "aa#..", ".....", "..b..")
	for _, name := range New().Bots() {
		b, err := New().NewBot(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b.Hello() != "" {
			t.Errorf("%s: Hello %q", name, b.Hello())
		}
		if out := b.Feed(strings.TrimSuffix(s.Intro(0), "\n")); out != "" {
			t.Errorf("%s answered the config: %q", name, out)
		}
		for _, l := range []string{`{"status":"ok","message":"logged in"}`, `{"status":"error", "message":"turn timeout"}`, "garbage", ""} {
			if out := b.Feed(l); out != "" {
				t.Errorf("%s answered %q with %q", name, l, out)
			}
		}
		out := b.Feed(strings.TrimSuffix(s.Input(0), "\n"))
		if !strings.HasPrefix(out, `{"turn_no":1,"bot1":{"move":"`) || !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
			t.Fatalf("%s answered the state with %q", name, out)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &m); err != nil || len(m) != 3 {
			t.Fatalf("%s: reply %q: %v", name, out, err)
		}
		st := s.Clone().(*State).Apply(answers(strings.TrimSuffix(out, "\n"), idle))
		if st.Seats[0].Verdict != engine.OK || st.Seats[0].Detail != "" {
			t.Errorf("%s: reply judged %v: %s", name, st.Seats[0].Verdict, st.Seats[0].Detail)
		}
	}
}

func TestHunterFocusesFire(t *testing.T) {
	// Three hunters' bots reach bob's two bots; bot5 has 1 life, bot4 3.
	// Best: one shot kills bot5, the other two wear bot4 down.
	s := tiny(t, 2, nil, "...aa", "..a..", "...bb")
	s.bots[4].health = 1
	out := firstAnswer(newHunterBot(1), s)
	st := s.Apply(answers(strings.TrimSuffix(out, "\n"), idle))
	if s.bots[4].alive() || s.points[0] != 100 {
		t.Errorf("hunter's reply %s did not kill the weak bot5 (events %v)", out, st.Events)
	}
	if got := s.bots[3].health; got != 1 {
		t.Errorf("bot4 has %d lives, want 1 (two shots)", got)
	}
}

func TestHunterWithoutConfig(t *testing.T) {
	// A hunter that missed the config still answers, as if no walls.
	s := tiny(t, 2, nil, "a....", ".....", "....b")
	h := newHunterBot(1).(*client)
	h.me = "alice"
	out := h.Feed(strings.TrimSuffix(s.Input(0), "\n"))
	if !strings.HasPrefix(out, `{"turn_no":1,"bot1":`) {
		t.Errorf("answer %q", out)
	}
}

func TestReadLineMatchesEncodingJSON(t *testing.T) {
	s, err := newGame(t, engine.Options{"turns": "40"}, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	s.players[2] = `c"a<r>o\l` // names that need escaping
	s.quoted[2] = quote(s.players[2])
	bots := []engine.Bot{newHunterBot(1), newRandomBot(2), newHunterBot(3), newRandomBot(4)}
	lines := []string{s.Intro(2), statusLine("error", `bad "thing"`)}
	for !s.Done() {
		asks := s.Asks()
		replies := make([]engine.Reply, len(asks))
		for i, a := range asks {
			lines = append(lines, a.Input)
			replies[i] = engine.Reply{Status: engine.Answered, Line: strings.TrimSuffix(bots[i].Feed(strings.TrimSuffix(a.Input, "\n")), "\n")}
		}
		s.Apply(replies)
	}
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		got, ok := readLine(l)
		var want msgAny
		if err := json.Unmarshal([]byte(l), &want); err != nil || !ok {
			t.Fatalf("line %q: readLine ok %v, encoding/json %v", l, ok, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("line %s\nreadLine %+v\n    json %+v", l, got, want)
		}
	}
}

func FuzzBotFeed(f *testing.F) {
	s := tiny(f, 2, nil, "aa#..", ".....", "..b..")
	f.Add(strings.TrimSuffix(s.Intro(0), "\n"), strings.TrimSuffix(s.Input(0), "\n"))
	f.Add(`{"user_id":"alice","width":3,"height":2,"bricks":[[5,5],[-1,0]]}`, `{"turn_no":2,"bots":{"bot1":{"player":"alice","position":[9,9],"health":1,"can_shoot":[[-4,2]]}}}`)
	f.Add(`{"user_id":"alice","width":100000,"height":-3}`, `{"turn_no":1,"bots":{"x":{"player":"alice","position":[0,0],"health":2}},"empty":null}`)
	f.Add(`{"status":"ok"}`, `{"turn_no":1,"players":{"a\u0041":3},"bots":{},"empty":[[1,2]],"x":[{"y":[true,false,null,1.5e3]}]}`)
	f.Fuzz(func(t *testing.T, config, state string) {
		for _, b := range []engine.Bot{newRandomBot(1), newHunterBot(1), newSquadBot(1)} {
			b.Feed(config)
			out := b.Feed(state)
			if out == "" {
				continue
			}
			if !strings.HasSuffix(out, "}\n") || !json.Valid([]byte(out)) {
				t.Fatalf("answer %q is not a JSON line", out)
			}
		}
		if m, ok := readLine(state); ok {
			if !json.Valid([]byte(state)) {
				t.Fatalf("readLine accepted invalid JSON %q as %+v", state, m)
			}
		}
	})
}

// TestHunterRange: the hunter closes in to within its range, whatever the
// range. With range 1 it must step next to an enemy two steps away (it
// used to hold its ground two steps away and never fire), and it must
// still win its games against random at ranges 1 to 3.
func TestHunterRange(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.rng = 1 }, "a.b..", ".....", ".....")
	out := firstAnswer(newHunterBot(1), s)
	if !strings.Contains(out, `"bot1":{"move":"r"`) {
		t.Errorf("range 1, enemy two steps right: hunter answered %s, want bot1 to step right", out)
	}
	games := enginetest.Games(12, 4)
	for _, rng := range []string{"1", "2", "3"} {
		wins, points := 0, 0
		for g := range games {
			seat := g % 2
			bots := make([]engine.Bot, 2)
			bots[seat] = newHunterBot(int64(g))
			bots[1-seat] = newRandomBot(int64(g*10 + 1))
			s, _ := play(t, engine.Options{"turns": "150", "range": rng}, bots, int64(g))
			if s.Result().Winner() == seat {
				wins++
			}
			points += s.points[seat]
		}
		t.Logf("range %s: hunter won %d of %d games against random, %.0f points a game", rng, wins, games, float64(points)/float64(games))
		if wins < games*9/10 {
			t.Errorf("range %s: hunter won only %d of %d games against random", rng, wins, games)
		}
	}
}
