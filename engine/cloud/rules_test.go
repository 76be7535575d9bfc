package cloud

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ringside/engine"
)

func TestShotsUsePreMovePositions(t *testing.T) {
	// bot1 (alice) at (0,0); bot2 (bob) at (3,0), three steps away.
	tests := []struct {
		name   string
		alice  string
		bob    string
		health int // bob's bot after the turn
	}{
		{"target stays", `{"bot1":{"move":"s","fire":[3,0]}}`, idle, 2},
		{"target moves away but is hit where it was", `{"bot1":{"move":"s","fire":[3,0]}}`, `{"bot2":{"move":"r"}}`, 2},
		{"shot at the cell it moves to misses", `{"bot1":{"move":"s","fire":[4,0]}}`, `{"bot2":{"move":"r"}}`, 3},
		{"shooter moves away and still hits", `{"bot1":{"move":"d","fire":[3,0]}}`, idle, 2},
		{"shooter may not use its new position to reach", `{"bot1":{"move":"r","fire":[4,0]}}`, idle, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tiny(t, 2, nil, "a..b.", ".....")
			s.Apply(answers(tc.alice, tc.bob))
			if got := s.byID(t, "bot2").health; got != tc.health {
				t.Errorf("bob's bot has %d lives, want %d", got, tc.health)
			}
		})
	}
}

func TestLivesAndDeaths(t *testing.T) {
	t.Run("three hits in one turn kill", func(t *testing.T) {
		s := tiny(t, 2, nil, "aaa", "...", ".b.")
		st := s.Apply(answers(`{"bot1":{"fire":[1,2]},"bot2":{"fire":[1,2]},"bot3":{"fire":[1,2]}}`, idle))
		b := s.byID(t, "bot4")
		if b.health != 0 || b.time != 10 {
			t.Fatalf("bot4 health %d time %d, want dead with time 10", b.health, b.time)
		}
		if s.points[0] != 100 {
			t.Errorf("alice has %d points, want 100", s.points[0])
		}
		if k := kinds(st.Events); !reflect.DeepEqual(k, []string{"kill"}) {
			t.Errorf("events %v, want one kill", k)
		}
		if st.Events[0].Seats[len(st.Events[0].Seats)-1] != 1 || st.Events[0].Seats[0] != 0 {
			t.Errorf("kill seats %v, want killer 0 then victim 1", st.Events[0].Seats)
		}
	})
	t.Run("one hit a turn kills on the third", func(t *testing.T) {
		s := tiny(t, 2, nil, "a.b")
		for turn, want := range []int{2, 1, 0} {
			s.Apply(answers(`{"bot1":{"fire":[2,0]}}`, idle))
			if got := s.byID(t, "bot2").health; got != want {
				t.Fatalf("after turn %d bot2 has %d lives, want %d", turn+1, got, want)
			}
		}
		if s.points[0] != 100 {
			t.Errorf("alice has %d points, want 100", s.points[0])
		}
	})
	t.Run("a dying bot's shot counts", func(t *testing.T) {
		s := tiny(t, 2, func(c *config) { c.lives = 1 }, "a.b")
		st := s.Apply(answers(`{"bot1":{"fire":[2,0]}}`, `{"bot2":{"fire":[0,0]}}`))
		if s.bots[0].alive() || s.bots[1].alive() {
			t.Fatalf("both bots should be dead: %+v", s.bots)
		}
		if !reflect.DeepEqual(s.points, []int{100, 100}) {
			t.Errorf("points %v, want both 100", s.points)
		}
		if n := len(st.Events); n != 2 {
			t.Errorf("%d events, want two kills", n)
		}
	})
	t.Run("a dead bot leaves its cell free for movers this turn", func(t *testing.T) {
		s := tiny(t, 2, func(c *config) { c.lives = 1 }, "ab.")
		s.Apply(answers(`{"bot1":{"move":"r","fire":[1,0]}}`, idle))
		if p := s.bots[0].pos; p != (Point{1, 0}) {
			t.Errorf("bot1 at %v, want (1,0) where bot2 died", p)
		}
	})
	t.Run("extra shots do not go below zero", func(t *testing.T) {
		s := tiny(t, 2, func(c *config) { c.lives = 1 }, "aa", "b.")
		s.Apply(answers(`{"bot1":{"fire":[0,1]},"bot2":{"fire":[0,1]}}`, idle))
		if b := s.byID(t, "bot3"); b.health != 0 {
			t.Errorf("health %d, want 0", b.health)
		}
	})
}

func TestPointSplit(t *testing.T) {
	tests := []struct {
		name    string
		rows    []string
		players int
		replies []string
		points  []int
	}{
		{
			// alice fires twice, bob once at carol's bot5: 200/3 and 100/3.
			name: "two to one", players: 3,
			rows:    []string{"aab", "...", ".c."},
			replies: []string{`{"bot1":{"fire":[1,2]},"bot2":{"fire":[1,2]}}`, `{"bot3":{"fire":[1,2]}}`, idle},
			points:  []int{66, 33, 0},
		},
		{
			// Three players one shot each at dave's bot: 33 each, one point lost.
			name: "three equal shares round down", players: 4,
			rows:    []string{"abc", "...", ".d."},
			replies: []string{`{"bot1":{"fire":[1,2]}}`, `{"bot2":{"fire":[1,2]}}`, `{"bot3":{"fire":[1,2]}}`, idle},
			points:  []int{33, 33, 33, 0},
		},
		{
			// bob shoots his own bot along with alice: the total is 3 shots,
			// alice's 2 earn 66, bob's own shot earns nothing.
			name: "own-team shots count in the total", players: 2,
			rows:    []string{"aab", "...", ".b."},
			replies: []string{`{"bot1":{"fire":[1,2]},"bot2":{"fire":[1,2]}}`, `{"bot3":{"fire":[1,2]}}`},
			points:  []int{66, 0},
		},
		{
			name: "own team kills alone: nobody scores", players: 2,
			rows:    []string{"bbb", "...", ".b.", "a.."},
			replies: []string{idle, `{"bot1":{"fire":[1,2]},"bot2":{"fire":[1,2]},"bot3":{"fire":[1,2]}}`},
			points:  []int{0, 0},
		},
		{
			// Five shots at a 3-life bot: all five are in the total.
			name: "overkill shots are in the total", players: 2,
			rows:    []string{"aaaaa", ".....", "..b.."},
			replies: []string{`{"bot1":{"fire":[2,2]},"bot2":{"fire":[2,2]},"bot3":{"fire":[2,2]},"bot4":{"fire":[2,2]},"bot5":{"fire":[2,2]}}`, idle},
			points:  []int{100, 0},
		},
		{
			name: "no kill, no points", players: 2,
			rows:    []string{"a.b"},
			replies: []string{`{"bot1":{"fire":[2,0]}}`, idle},
			points:  []int{0, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tiny(t, tc.players, nil, tc.rows...)
			st := s.Apply(answers(tc.replies...))
			if !reflect.DeepEqual(s.points, tc.points) {
				t.Errorf("points %v, want %v (events %v)", s.points, tc.points, st.Events)
			}
		})
	}
}

func TestMoves(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		moves map[string]string // bot id → move; every bot belongs to alice
		want  []string          // the picture after the turn
	}{
		{"free move", []string{"a.."}, map[string]string{"bot1": "r"}, []string{".a."}},
		{"edge fails", []string{"a.."}, map[string]string{"bot1": "l"}, []string{"a.."}},
		{"wall fails", []string{"a#."}, map[string]string{"bot1": "r"}, []string{"a#."}},
		{"same target: both stay", []string{"a.a"}, map[string]string{"bot1": "r", "bot2": "l"}, []string{"a.a"}},
		{"three into one: all stay", []string{".a.", "a.a"}, map[string]string{"bot1": "d", "bot2": "r", "bot3": "l"}, []string{".a.", "a.a"}},
		{"into a staying bot: stays", []string{"aa."}, map[string]string{"bot1": "r"}, []string{"aa."}},
		{"follow a mover", []string{"aa."}, map[string]string{"bot1": "r", "bot2": "r"}, []string{".aa"}},
		{"chain behind a wall-blocked bot stays", []string{"aaa#"}, map[string]string{"bot1": "r", "bot2": "r", "bot3": "r"}, []string{"aaa#"}},
		{"chain behind an edge-blocked bot stays", []string{"aaa"}, map[string]string{"bot1": "r", "bot2": "r", "bot3": "r"}, []string{"aaa"}},
		{"chain behind a collision stays", []string{"aa.a"}, map[string]string{"bot1": "r", "bot2": "r", "bot3": "l"}, []string{"aa.a"}},
		{"long chain moves", []string{"aaaa."}, map[string]string{"bot1": "r", "bot2": "r", "bot3": "r", "bot4": "r"}, []string{".aaaa"}},
		{"swap: both stay", []string{"aa"}, map[string]string{"bot1": "r", "bot2": "l"}, []string{"aa"}},
		{"chain into a swap stays", []string{"aaa"}, map[string]string{"bot1": "r", "bot2": "r", "bot3": "l"}, []string{"aaa"}},
		{"cycle of four all move", []string{"aa", "aa"}, map[string]string{"bot1": "r", "bot2": "d", "bot4": "l", "bot3": "u"}, []string{"aa", "aa"}},
		{"two into a cell being vacated: both stay", []string{".a.", "aa."}, map[string]string{"bot1": "d", "bot2": "r", "bot3": "r"}, []string{".a.", "a.a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tiny(t, 2, nil, tc.rows...)
			before := map[string]Point{}
			for _, b := range s.bots {
				before[b.id] = b.pos
			}
			var cmds []string
			for _, b := range s.bots {
				if m, ok := tc.moves[b.id]; ok {
					cmds = append(cmds, fmt.Sprintf(`"%s":{"move":"%s"}`, b.id, m))
				}
			}
			st := s.Apply(answers("{"+strings.Join(cmds, ",")+"}", idle))
			if st.Seats[0].Verdict != engine.OK {
				t.Fatalf("verdict %v: %s", st.Seats[0].Verdict, st.Seats[0].Detail)
			}
			if got := picture(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("after the turn:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.name == "cycle of four all move" {
				// The picture is the same; check the bots really turned round.
				for _, b := range s.bots {
					if b.pos == before[b.id] {
						t.Errorf("%s stayed at %v", b.id, b.pos)
					}
				}
			}
		})
	}
}

// picture draws the field as tiny reads it ('a'… for live bots).
func picture(s *State) []string {
	out := make([]string, s.fld.h)
	for y := range s.fld.h {
		row := make([]byte, s.fld.w)
		for x := range s.fld.w {
			p := Point{x, y}
			switch b := s.botAt(p); {
			case s.fld.isWall(p):
				row[x] = '#'
			case b != nil:
				row[x] = byte('a' + b.player)
			default:
				row[x] = '.'
			}
		}
		out[y] = string(row)
	}
	return out
}

func TestMovesAgainstOtherPlayers(t *testing.T) {
	// Collisions do not care whose bots they are.
	s := tiny(t, 2, nil, "a.b")
	s.Apply(answers(`{"bot1":{"move":"r"}}`, `{"bot2":{"move":"l"}}`))
	if got := picture(s); got[0] != "a.b" {
		t.Errorf("got %q, want both to stay", got[0])
	}
	s.Apply(answers(`{"bot1":{"move":"r"}}`, idle))
	s.Apply(answers(`{"bot1":{"move":"r"}}`, `{"bot2":{"move":"l"}}`))
	if got := picture(s); got[0] != ".ab" {
		t.Errorf("got %q, want the swap refused", got[0])
	}
}

func TestRespawnTiming(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.lives = 1; c.respawn = 3 }, "a.b....")
	s.Apply(answers(`{"bot1":{"fire":[2,0]}}`, idle)) // turn 1: bot2 dies
	var times []int
	for s.byID(t, "bot2").health == 0 {
		times = append(times, s.byID(t, "bot2").time)
		if !strings.Contains(s.Input(1), `"bot2":{"player":"bob","position":[2,0],"health":0,"time":`+fmt.Sprint(s.byID(t, "bot2").time)+`,"can_shoot":[[0,0],[1,0],[3,0],[4,0],[5,0]]}`) {
			t.Fatalf("bob's state does not list his dead bot2: %s", s.Input(1))
		}
		if len(times) > 10 {
			t.Fatal("bot2 never came back")
		}
		st := s.Apply(answers(idle, idle))
		if s.byID(t, "bot2").alive() && kinds(st.Events)[0] != EventRespawn {
			t.Errorf("respawn events %v", st.Events)
		}
	}
	// Dead during the states of turns 2, 3, 4, back on turn 5.
	if !reflect.DeepEqual(times, []int{3, 2, 1}) {
		t.Errorf("times shown %v, want [3 2 1]", times)
	}
	if s.turn != 4 {
		t.Errorf("back after turn %d, want after turn 4", s.turn)
	}
	if b := s.byID(t, "bot2"); b.health != 1 || b.time != 0 {
		t.Errorf("respawned bot %+v, want full lives and time 0", *b)
	}
}

func TestRespawnPlacement(t *testing.T) {
	t.Run("fewest opponents in range", func(t *testing.T) {
		// alice at (0,0) reaches (1,0)…(3,0); bob's own live bot at (5,0)
		// does not count against his dead bot3. Best: (4,0) and (6,0).
		seen := map[Point]int{}
		for seed := range int64(40) {
			s := tiny(t, 2, func(c *config) { c.respawn = 1 }, "a....bb")
			s.seed = seed
			s.bots[2].health, s.bots[2].time = 0, 1
			st := s.Apply(answers(idle, idle))
			b := s.bots[2]
			if !b.alive() || b.health != 3 {
				t.Fatalf("bot3 %+v did not come back with full lives", b)
			}
			if len(st.Events) != 1 || st.Events[0].Kind != EventRespawn || !reflect.DeepEqual(st.Events[0].Seats, []int{1}) {
				t.Errorf("events %+v", st.Events)
			}
			seen[b.pos]++
		}
		if len(seen) != 2 || seen[Point{4, 0}] == 0 || seen[Point{6, 0}] == 0 {
			t.Errorf("came back at %v, want only and both of (4,0) and (6,0)", seen)
		}
	})
	t.Run("uniform among the best", func(t *testing.T) {
		counts := map[Point]int{}
		for seed := range int64(200) {
			s := tiny(t, 2, func(c *config) { c.respawn = 1; c.rng = 1 }, "a...", "....", "...b")
			s.seed = seed
			s.bots[1].health, s.bots[1].time = 0, 1
			s.Apply(answers(idle, idle))
			counts[s.bots[1].pos]++
		}
		// Every cell but alice's (0,0) and its two neighbours: 9.
		if len(counts) != 9 {
			t.Errorf("drawn over %d cells, want 9: %v", len(counts), counts)
		}
		for _, bad := range []Point{{0, 0}, {1, 0}, {0, 1}} {
			if counts[bad] > 0 {
				t.Errorf("drawn at %v within alice's range", bad)
			}
		}
	})
	t.Run("no empty cell: waits", func(t *testing.T) {
		s := tiny(t, 2, func(c *config) { c.respawn = 1 }, "aa")
		s.bots = append(s.bots, bot{id: "bot3", player: 1, pos: Point{0, 0}, health: 0, time: 1})
		s.Apply(answers(idle, idle))
		if b := s.bots[2]; b.alive() || b.time != 0 {
			t.Fatalf("bot3 %+v, want still dead with time 0 on a full field", b)
		}
		// alice shoots her own bot2 dead: its cell is free for the
		// respawn of the same turn.
		s.bots[1].health = 1
		s.Apply(answers(`{"bot1":{"fire":[1,0]}}`, idle))
		if b := s.bots[2]; !b.alive() || b.pos != (Point{1, 0}) {
			t.Errorf("bot3 %+v, want back at (1,0)", b)
		}
	})
}

func TestVision(t *testing.T) {
	// Vision 2. alice: bot1 live at (0,0), bot2 dead. bob: bot3 at (2,0)
	// (seen), bot4 at (4,2) (hidden: 6 steps from bot1), bot5 dead at (1,0).
	s := tiny(t, 2, func(c *config) { c.vision = 2; c.rng = 1 },
		"aab..",
		"#....",
		"..b.b")
	s.bots[1].health, s.bots[1].time = 0, 7 // alice's bot2
	s.bots[3].health, s.bots[3].time = 0, 4 // bob's bot4 at (2,2)
	got := s.Input(0)
	want := `{"turn_no":1,"players":{"alice":0,"bob":0},"bots":{` +
		`"bot1":{"player":"alice","position":[0,0],"health":3,"time":0,"can_shoot":[[1,0]]},` +
		`"bot2":{"player":"alice","position":[1,0],"health":0,"time":7,"can_shoot":[[0,0],[1,1],[2,0]]},` +
		`"bot3":{"player":"bob","position":[2,0],"health":3,"time":0,"can_shoot":[[1,0],[2,1],[3,0]]}},` +
		`"empty":[[0,2],[1,0],[1,1]]}` + "\n"
	if got != want {
		t.Errorf("alice's state\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, `"bot5"`) || strings.Contains(got, `"bot4"`) {
		t.Error("alice sees a hidden or dead enemy")
	}
	// bob has two live bots; his dead bot4 is listed with its time.
	// A dead bot's can_shoot is the cells within range of where it died,
	// as in the seed's example.
	if b := s.Input(1); !strings.Contains(b, `"bot4":{"player":"bob","position":[2,2],"health":0,"time":4,"can_shoot":[[1,2],[2,1],[3,2]]}`) {
		t.Errorf("bob's state lacks his dead bot: %s", b)
	}
	// With every bot dead a player sees only its own bots.
	s.bots[0].health, s.bots[0].time = 0, 2
	if got := s.Input(0); !strings.HasSuffix(got, `"empty":[]}`+"\n") || strings.Contains(got, "bot3") {
		t.Errorf("a player with no live bot sees %s", got)
	}
	v := s.View(1)
	if len(v.Bots) != 3 {
		t.Errorf("View(1) lists %d bots, want bob's 3", len(v.Bots))
	}
	if !s.Sees(1, Point{4, 0}) || s.Sees(0, Point{4, 0}) {
		t.Error("Sees disagrees with the vision rule")
	}
}

func TestCanShoot(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.rng = 2 },
		"a#...",
		".....",
		"....b")
	want := []Point{{0, 1}, {0, 2}, {1, 1}, {2, 0}}
	if got := s.canShoot(&s.bots[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("can_shoot of a corner bot next to a wall: %v, want %v", got, want)
	}
	if got := len(s.canShoot(&s.bots[1])); got != 5 {
		t.Errorf("corner (4,2) with range 2 reaches %d cells, want 5", got)
	}
	// Dead, it lists the same cells around where it died (the seed's
	// example shows dead bot2 with four cells), though it cannot fire.
	s.bots[1].health, s.bots[1].time = 0, 7
	if got := len(s.canShoot(&s.bots[1])); got != 5 {
		t.Errorf("a dead bot at (4,2) with range 2 lists %d cells, want 5", got)
	}
	if !strings.Contains(s.Input(1), `"time":7,"can_shoot":[[2,2],[3,1],[3,2],[4,0],[4,1]]}`) {
		t.Errorf("bob's state of his dead bot: %s", s.Input(1))
	}
}

func TestFiringRules(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		note  string // in Detail; "" for a clean shot
	}{
		{"in range", `{"bot1":{"fire":[3,0]}}`, ""},
		{"beyond range", `{"bot1":{"fire":[4,0]}}`, "beyond range 3"},
		{"off the field", `{"bot1":{"fire":[-1,0]}}`, "off the 5×2 field"},
		{"at a wall", `{"bot1":{"fire":[0,1]}}`, "is a wall"},
		{"at itself", `{"bot1":{"fire":[0,0]}}`, "own cell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tiny(t, 2, nil, "a...b", "#....")
			st := s.Apply(answers(tc.reply, idle))
			if tc.note == "" {
				if len(s.shots) != 1 || st.Seats[0].Detail != "" {
					t.Errorf("shots %v detail %q", s.shots, st.Seats[0].Detail)
				}
				return
			}
			if len(s.shots) != 0 {
				t.Errorf("invalid target fired: %v", s.shots)
			}
			if !strings.Contains(st.Seats[0].Detail, tc.note) || st.Seats[0].Verdict != engine.OK {
				t.Errorf("verdict %v detail %q, want ok noting %q", st.Seats[0].Verdict, st.Seats[0].Detail, tc.note)
			}
			if len(st.Send) != 1 || !strings.HasPrefix(st.Send[0].Text, `{"status":"error", "message":"ignored: bot1: shot at`) {
				t.Errorf("send %v", st.Send)
			}
		})
	}
}

func TestReplies(t *testing.T) {
	// alice owns bot1 (0,0) and bot2 (dead); bob owns bot3.
	tests := []struct {
		name    string
		reply   engine.Reply
		verdict engine.Verdict
		send    string // the status line alice gets, "" for none
		bot1    Point  // where alice's bot1 ends
		action  string
	}{
		{"good", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":[]}}`}, engine.OK, "", Point{0, 1}, "bot1:d"},
		{"tagged with this turn", engine.Reply{Status: engine.Answered, Line: `{"turn_no":1,"bot1":{"move":"d"}}`}, engine.OK, "", Point{0, 1}, "bot1:d"},
		{"empty object stays", engine.Reply{Status: engine.Answered, Line: `{}`}, engine.OK, "", Point{0, 0}, "stay"},
		{"malformed", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d"`}, engine.Invalid,
			`{"status":"error", "message":"malformed reply: unexpected end of JSON input; all your bots stay"}`, Point{0, 0}, "stay"},
		{"not an object", engine.Reply{Status: engine.Answered, Line: `["bot1"]`}, engine.Invalid,
			`{"status":"error", "message":"malformed reply: not a JSON object; all your bots stay"}`, Point{0, 0}, "stay"},
		{"tagged with another turn", engine.Reply{Status: engine.Answered, Line: `{"turn_no":7,"bot1":{"move":"d"}}`}, engine.Invalid,
			`{"status":"error", "message":"reply is for turn 7 but this is turn 1; all your bots stay"}`, Point{0, 0}, "stay"},
		{"foreign, dead and unknown ids beside a good one", engine.Reply{Status: engine.Answered,
			Line: `{"bot3":{"move":"l"},"bot1":{"move":"d"},"bot2":{"move":"r"},"bot99":{},"zap":1}`}, engine.OK,
			`{"status":"error", "message":"ignored: bot2 is dead (back in 5 turns); bot3 is not your bot; there is no bot \"bot99\"; there is no bot \"zap\""}`,
			Point{0, 1}, "bot1:d"},
		{"only foreign ids", engine.Reply{Status: engine.Answered, Line: `{"bot3":{"move":"l"}}`}, engine.Invalid,
			`{"status":"error", "message":"ignored: bot3 is not your bot"}`, Point{0, 0}, "stay"},
		{"bad move drops the command", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"x","fire":[1,0]}}`}, engine.Invalid,
			`{"status":"error", "message":"ignored: bot1: move \"x\" is not one of \"u\", \"d\", \"l\", \"r\", \"s\""}`, Point{0, 0}, "stay"},
		{"I is left, as the seed prints it", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"I","fire":[ 1 , 0 ]}}`}, engine.OK, "", Point{0, 0}, "bot1:l@1,0"},
		{"L is left too", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"L","fire":[]}}`}, engine.OK, "", Point{0, 0}, "bot1:l"},
		{"upper-case D is not down", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"D"}}`}, engine.Invalid,
			`{"status":"error", "message":"ignored: bot1: move \"D\" is not one of \"u\", \"d\", \"l\", \"r\", \"s\""}`, Point{0, 0}, "stay"},
		{"huge fire drops only the shot", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":[9223372036854775808,0]}}`}, engine.OK,
			`{"status":"error", "message":"ignored: bot1: shot at [9223372036854775808,0] dropped: it is off the 5×2 field"}`, Point{0, 1}, "bot1:d"},
		{"negative huge fire drops only the shot", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":[0,-1e400]}}`}, engine.OK,
			`{"status":"error", "message":"ignored: bot1: shot at [0,-1e400] dropped: x and y must be whole numbers"}`, Point{0, 1}, "bot1:d"},
		{"fractional fire drops only the shot", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":[1.5,0]}}`}, engine.OK,
			`{"status":"error", "message":"ignored: bot1: shot at [1.5,0] dropped: x and y must be whole numbers"}`, Point{0, 1}, "bot1:d"},
		{"string fire drops the command", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":["1","0"]}}`}, engine.Invalid,
			`{"status":"error", "message":"ignored: bot1: fire [\"1\",\"0\"] is not [x,y] or []"}`, Point{0, 0}, "stay"},
		{"bad fire drops the command", engine.Reply{Status: engine.Answered, Line: `{"bot1":{"move":"d","fire":[1]}}`}, engine.Invalid,
			`{"status":"error", "message":"ignored: bot1: fire [1] is not [x,y] or []"}`, Point{0, 0}, "stay"},
		{"timeout", engine.Reply{Status: engine.TimedOut}, engine.Timeout, `{"status":"error", "message":"turn timeout"}`, Point{0, 0}, "stay"},
		{"closed", engine.Reply{Status: engine.Closed}, engine.Crashed, "", Point{0, 0}, "stay"},
		{"gone", engine.Reply{Status: engine.Gone}, engine.NotAsked, "", Point{0, 0}, "stay"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tiny(t, 2, nil, "aa..b", ".....")
			s.bots[1].health, s.bots[1].time = 0, 5
			st := s.Apply([]engine.Reply{tc.reply, {Status: engine.Answered, Line: idle}})
			ss := st.Seats[0]
			if ss.Verdict != tc.verdict || ss.Action != tc.action {
				t.Errorf("verdict %v action %q (detail %q), want %v %q", ss.Verdict, ss.Action, ss.Detail, tc.verdict, tc.action)
			}
			var send string
			for _, m := range st.Send {
				if m.Seat == 0 {
					send = strings.TrimSuffix(m.Text, "\n")
				}
			}
			if send != tc.send {
				t.Errorf("sent\n %s\nwant\n %s", send, tc.send)
			}
			if p := s.bots[0].pos; p != tc.bot1 {
				t.Errorf("bot1 at %v, want %v", p, tc.bot1)
			}
			if len(st.Stop) != 0 {
				t.Errorf("stopped seats %v; a cloud seat is never stopped", st.Stop)
			}
		})
	}
}

func TestEventsPerDisconnection(t *testing.T) {
	s := tiny(t, 2, nil, "a...b")
	var got []string
	for _, r := range []string{"CLOSED", "CLOSED", idle, "CLOSED", "TIMEOUT", "TIMEOUT", "{"} {
		st := s.Apply(answers(r, idle))
		got = append(got, strings.Join(kinds(st.Events), "+"))
	}
	want := []string{"crash", "", "", "crash", "timeout", "timeout", "invalid"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestExpect(t *testing.T) {
	s := tiny(t, 2, nil, "a...b")
	s.Apply(answers(idle, idle))
	s.Apply(answers(idle, idle))
	ask := s.Asks()[0]
	tests := []struct {
		line string
		want bool
	}{
		{`{"bot1":{"move":"u"}}`, true},
		{`{"turn_no":3,"bot1":{"move":"u"}}`, true},
		{`{"turn_no":2,"bot1":{"move":"u"}}`, false},
		{`{"turn_no":1}`, false},
		{`{"turn_no":4}`, true}, // a future turn is accepted, then judged invalid
		{`{"turn_no":"2"}`, true},
		{`not json "turn_no"`, true},
		{``, true},
	}
	for _, tc := range tests {
		if got := ask.Expect(tc.line); got != tc.want {
			t.Errorf("Expect(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	if ask.Timeout.Milliseconds() != 250 || !strings.HasPrefix(ask.Input, `{"turn_no":3,`) {
		t.Errorf("ask %+v", ask)
	}
}

func TestIntroAndEnd(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.turns = 2 }, "a#.", "..b")
	s.players = []string{`al"ice`, "bob"}
	s.quoted = []string{quote(s.players[0]), quote(s.players[1])}
	if got, want := s.Intro(0), `{"user_id":"al\"ice","width":3,"height":2,"bricks":[[1,0]]}`+"\n"; got != want {
		t.Errorf("Intro\n got %s\nwant %s", got, want)
	}
	if s.Turn() != 1 {
		t.Errorf("Turn %d, want 1", s.Turn())
	}
	s.Apply(answers(idle, idle))
	if s.Turn() != 2 || s.Done() {
		t.Errorf("Turn %d done %v after one turn", s.Turn(), s.Done())
	}
	s.points = []int{0, 100}
	st := s.Apply(answers(idle, idle))
	if !s.Done() || s.Asks() != nil {
		t.Fatal("game not over after its last turn")
	}
	res := s.Result()
	want := engine.Result{Ranks: []int{2, 1}, Reason: "turn_limit", Turns: 2, Scores: []float64{0, 100}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("result %+v, want %+v", res, want)
	}
	last := st.Events[len(st.Events)-1]
	if last.Kind != engine.EventEnd || !reflect.DeepEqual(last.Seats, []int{1}) || last.Turn != 2 {
		t.Errorf("end event %+v", last)
	}
	s.points = []int{100, 100}
	if r := s.Result().Ranks; !reflect.DeepEqual(r, []int{1, 1}) {
		t.Errorf("equal points ranks %v, want shared first", r)
	}
}

func TestClone(t *testing.T) {
	s := tiny(t, 2, nil, "a...b")
	c := s.Clone().(*State)
	c.Apply(answers(`{"bot1":{"move":"r","fire":[3,0]}}`, idle))
	c.points[0] = 7
	if s.turn != 0 || s.bots[0].pos != (Point{0, 0}) || s.points[0] != 0 || s.bots[1].health != 3 || len(s.shots) != 0 {
		t.Errorf("the original changed with its clone: %+v", s)
	}
}

func kinds(evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

// TestTurnTags: the turn the runner reads off each state sent, and off
// replies, is the state's turn and what Expect goes by.
func TestTurnTags(t *testing.T) {
	s := tiny(t, 2, func(c *config) { c.turns = 12 }, "a...b")
	for !s.Done() {
		for _, a := range s.Asks() {
			if n, ok := s.InputTurn(a.Input); !ok || n != int64(s.Turn()) {
				t.Fatalf("InputTurn of turn %d's state = %d %v", s.Turn(), n, ok)
			}
		}
		s.Apply(answers(idle, idle))
	}
	for _, tc := range []struct {
		line string
		n    int64
		ok   bool
	}{
		{`{"turn_no":7,"bot1":{}}`, 7, true}, {`{"bot1":{}, "turn_no": 8}`, 8, true}, {`{"turn_no":"7"}`, 0, false},
		{`{"turn_no":7.0}`, 0, false}, {`{"turn_no":7,`, 0, false}, {`{}`, 0, false}, {``, 0, false},
	} {
		if n, ok := s.ReplyTurn(tc.line); n != tc.n || ok != tc.ok {
			t.Errorf("ReplyTurn(%q) = %d %v, want %d %v", tc.line, n, ok, tc.n, tc.ok)
		}
	}
	for _, in := range []string{``, `{"turn_no":`, `{"turn_no":,`, `{"turn_no":x,`, `{"status":"ok"}`, `{"user_id":"a"}`} {
		if n, ok := s.InputTurn(in); ok {
			t.Errorf("InputTurn(%q) = %d, want none", in, n)
		}
	}
}

// FuzzTurnTags: reading a tag never fails loudly, and a tagged reply is
// one Expect judges by its tag.
func FuzzTurnTags(f *testing.F) {
	for _, s := range []string{`{"turn_no":3}`, `{"turn_no":3,"bot1":{}}`, `{"turn_no":-1,`, `{"turn_no":99999999999999999999}`, `x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := tiny(t, 2, nil, "a...b")
		s.Apply(answers(idle, idle))
		if n, ok := s.InputTurn(line); ok {
			digits, _, _ := strings.Cut(strings.TrimPrefix(line, `{"turn_no":`), ",")
			if m, err := strconv.ParseUint(digits, 10, 63); err != nil || int64(m) != n || !strings.HasPrefix(line, `{"turn_no":`) {
				t.Fatalf("InputTurn(%q) = %d", line, n)
			}
		}
		n, ok := s.ReplyTurn(line)
		if !ok {
			return
		}
		if !json.Valid([]byte(line)) {
			t.Fatalf("ReplyTurn(%q) = %d from invalid JSON", line, n)
		}
		if want := n >= 2; s.Asks()[0].Expect(line) != want {
			t.Fatalf("Expect(%q) disagrees with its tag %d", line, n)
		}
	})
}
