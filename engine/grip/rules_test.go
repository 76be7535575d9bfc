package grip

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// Far-apart corners: nobody is near anybody.
const corners = "0,0,R/0,17,L/17,0,U/17,17,U"

// newTest starts a game with the given start and extra options (key,
// value pairs) and plays the READY handshake with every bot ready.
func newTest(t *testing.T, start string, kv ...string) *State {
	t.Helper()
	opts := engine.Options{OptStart: start}
	for i := 0; i+1 < len(kv); i += 2 {
		opts[kv[i]] = kv[i+1]
	}
	opts, err := New().Info().Resolve(opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewState(opts, []string{"a", "b", "c", "d"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ready := make([]engine.Reply, Seats)
	for i := range ready {
		ready[i] = engine.Reply{Status: engine.Answered, Line: "READY"}
	}
	s.Apply(ready)
	return s
}

// setBlock sets a block timer, keeping the count of busy blocks right.
func setBlock(s *State, br, bc, v int) {
	if s.blocks[br][bc] == 0 && v != 0 {
		s.busy++
	}
	if s.blocks[br][bc] != 0 && v == 0 {
		s.busy--
	}
	s.blocks[br][bc] = v
}

// play answers the current turn with line (if the turn player is asked)
// and returns the step.
func play(t *testing.T, s *State, line string) engine.Step {
	t.Helper()
	if s.Done() {
		t.Fatalf("turn %d: game already over", s.Turn())
	}
	if len(s.Asks()) == 0 {
		return s.Apply(nil)
	}
	return s.Apply([]engine.Reply{{Status: engine.Answered, Line: line}})
}

// playAll plays one command letter per turn ('.' for N).
func playAll(t *testing.T, s *State, cmds string) {
	t.Helper()
	for _, c := range cmds {
		if c == '.' {
			c = 'N'
		}
		play(t, s, string(c))
	}
}

func TestMoves(t *testing.T) {
	tests := []struct {
		name      string
		start     string
		fallen    [2]int // block to mark fallen, {-1,-1} for none
		cmd       string
		wantRow   int
		wantCol   int
		wantDir   byte
		wantMoved bool
		setup     func(s *State) // more to set up, or nil
	}{
		{"free move right", "5,5,U/0,17,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 6, 'R', true, nil},
		{"free move up", "5,5,L/0,17,L/17,0,U/17,17,U", [2]int{-1, -1}, "U", 4, 5, 'U', true, nil},
		{"edge cancels, facing changes", "0,5,D/0,17,L/17,0,U/17,17,U", [2]int{-1, -1}, "U", 0, 5, 'U', false, nil},
		{"left edge", "5,0,R/0,17,L/17,0,U/17,17,U", [2]int{-1, -1}, "L", 5, 0, 'L', false, nil},
		{"fallen block cancels", "5,5,U/0,17,L/17,0,U/17,17,U", [2]int{1, 2}, "R", 5, 5, 'R', false, nil},
		{"fallen block elsewhere is no obstacle", "5,5,U/0,17,L/17,0,U/17,17,U", [2]int{2, 2}, "R", 5, 6, 'R', true, nil},
		// Player 1 at (5,10): moving to (5,7) would leave distance 3.
		{"distance 3 cancels", "5,6,U/5,10,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 6, 'R', false, nil},
		{"distance 4 is fine", "5,5,U/5,10,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 6, 'R', true, nil},
		{"diagonal distance counts", "5,5,U/6,8,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 5, 'R', false, nil},
		{"a fallen player does not block moves", "5,6,U/5,10,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 7, 'R', true,
			func(s *State) { s.players[1].Fallen, s.players[1].FellAt, s.left = true, 0, 3 }},
		{"a block that is only scheduled can be entered", "5,5,U/0,17,L/17,0,U/17,17,U", [2]int{-1, -1}, "R", 5, 6, 'R', true,
			func(s *State) { setBlock(s, 1, 2, 9) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTest(t, tt.start)
			if tt.fallen[0] >= 0 {
				setBlock(s, tt.fallen[0], tt.fallen[1], -5)
			}
			if tt.setup != nil {
				tt.setup(s)
			}
			st := play(t, s, tt.cmd)
			p := s.Player(0)
			if p.Row != tt.wantRow || p.Col != tt.wantCol || p.Dir != tt.wantDir {
				t.Errorf("after %s: at (%d,%d) facing %c, want (%d,%d) facing %c",
					tt.cmd, p.Row, p.Col, p.Dir, tt.wantRow, tt.wantCol, tt.wantDir)
			}
			if st.Seats[0].Action != tt.cmd || st.Seats[0].Verdict != engine.OK {
				t.Errorf("seat step %+v, want action %s ok (a cancelled move is still the command)", st.Seats[0], tt.cmd)
			}
		})
	}
}

func TestAttackLine(t *testing.T) {
	// Player 0 in block (1,1) facing R; block (1,3) already scheduled and
	// (1,4) fallen: they keep their timers, the others get 4n.
	s := newTest(t, "4,4,R/0,17,L/17,0,U/17,17,U")
	setBlock(s, 1, 3, 2)
	setBlock(s, 1, 4, -7)
	st := play(t, s, "A")
	if st.Seats[0].Action != "A" {
		t.Fatalf("action %q", st.Seats[0].Action)
	}
	// Timers as the next player sees them: one tick later.
	want := [Blocks]int{0, 0, 4*1 - 1, 2 - 1, -7 + 1, 4*4 - 1}
	if got := s.Blocks()[1]; got != want {
		t.Errorf("block row 1 = %v, want %v (own block untouched, neighbour first, scheduled and fallen left alone)", got, want)
	}
	for r := range Blocks {
		if r == 1 {
			continue
		}
		if got := s.Blocks()[r]; got != [Blocks]int{} {
			t.Errorf("block row %d = %v, want untouched", r, got)
		}
	}
	if w := s.Player(0).Wait; w != 2 {
		t.Errorf("wait %d after attacking, want 2", w)
	}
}

func TestAttackUpAndLeft(t *testing.T) {
	s := newTest(t, "10,10,U/0,17,L/17,0,U/17,17,U")
	play(t, s, "A")
	b := s.Blocks()
	for br, want := range []int{11, 7, 3, 0, 0, 0} { // blocks (2..0, 3) are 1..3 away
		if b[br][3] != want {
			t.Errorf("block (%d,3) = %d, want %d", br, b[br][3], want)
		}
	}
	s = newTest(t, "10,10,L/0,17,L/17,0,U/17,17,U")
	play(t, s, "A")
	if got, want := s.Blocks()[3], [Blocks]int{11, 7, 3, 0, 0, 0}; got != want {
		t.Errorf("block row 3 = %v, want %v", got, want)
	}
}

func TestAttackTowardEdge(t *testing.T) {
	s := newTest(t, "16,8,D/0,17,L/0,0,U/8,17,U")
	play(t, s, "A")
	if s.Blocks() != [Blocks][Blocks]int{} {
		t.Errorf("blocks %v, want none hit", s.Blocks())
	}
	if w := s.Player(0).Wait; w != 2 {
		t.Errorf("wait %d, want 2: an attack at nothing still costs the wait", w)
	}
}

func TestWaitAfterAttack(t *testing.T) {
	s := newTest(t, "8,8,D/0,17,L/0,0,U/17,0,U")
	play(t, s, "A")
	playAll(t, s, "...")
	for i, wantS := range []string{"2", "1"} {
		in := s.Asks()[0].Input
		line := strings.Split(in, "\n")[2+Blocks]
		if !strings.HasSuffix(line, " "+wantS) {
			t.Fatalf("own turn %d after the attack: own line %q, want S=%s", i+1, line, wantS)
		}
		st := play(t, s, "R")
		if ss := st.Seats[0]; ss.Action != "N" || ss.Verdict != engine.OK || ss.Detail != "waiting" {
			t.Errorf("own turn %d after the attack: %+v, want N ok waiting", i+1, ss)
		}
		if p := s.Player(0); p.Col != 8 || p.Dir != 'D' {
			t.Errorf("waiting player moved or turned: %+v", p)
		}
		playAll(t, s, "...")
	}
	in := s.Asks()[0].Input
	if line := strings.Split(in, "\n")[2+Blocks]; line != "8 8 D 0" {
		t.Fatalf("third own turn: own line %q, want S=0", line)
	}
	st := play(t, s, "R")
	if st.Seats[0].Action != "R" || s.Player(0).Col != 9 {
		t.Errorf("third own turn after the attack: %+v col %d, want to move", st.Seats[0], s.Player(0).Col)
	}
}

func TestInvalidReplyWhileWaiting(t *testing.T) {
	s := newTest(t, "8,8,D/0,17,L/0,0,U/17,0,U")
	playAll(t, s, "A...")
	st := play(t, s, "x")
	if ss := st.Seats[0]; ss.Verdict != engine.Invalid || ss.Action != "N" || !strings.Contains(ss.Detail, "not a command") {
		t.Errorf("%+v, want invalid N", ss)
	}
}

func TestFallTiming(t *testing.T) {
	// Player 0 attacks right at turn 0: player 1 stands in the block at
	// distance 1 and falls at the end of turn 0+4·1−1 = 3, player 2 at
	// distance 2 at the end of turn 7.
	s := newTest(t, "1,0,R/1,4,L/2,8,U/17,17,U")
	var falls []traceFall
	for s.Turn() < 30 {
		cmd := "N"
		if s.Turn() == 0 {
			cmd = "A"
		}
		st := play(t, s, cmd)
		for _, e := range st.Events {
			if e.Kind != engine.EventFall {
				continue
			}
			falls = append(falls, traceFall{e.Turn, e.Seats})
			for _, seat := range e.Seats {
				if !slices.Contains(st.Stop, seat) {
					t.Errorf("fallen seat %d not in Step.Stop %v", seat, st.Stop)
				}
			}
		}
		switch s.Turn() {
		case 4: // after the fall at the end of turn 3
			if b := s.Block(0, 1); b != -fallenTime {
				t.Errorf("block (0,1) = %d right after falling, want %d", b, -fallenTime)
			}
		case 3 + fallenTime: // 18 ticks later
			if b := s.Block(0, 1); b != -1 {
				t.Errorf("block (0,1) = %d after 18 ticks down, want -1", b)
			}
		case 4 + fallenTime: // 19 ticks later: back
			if b := s.Block(0, 1); b != 0 {
				t.Errorf("block (0,1) = %d after 19 ticks down, want 0 (restored)", b)
			}
		}
	}
	want := []traceFall{{3, []int{1}}, {7, []int{2}}}
	if !reflect.DeepEqual(falls, want) {
		t.Errorf("falls %v, want %v", falls, want)
	}
	for seat, wantAt := range map[int]int{1: 3, 2: 7} {
		if p := s.Player(seat); !p.Fallen || p.FellAt != wantAt || !p.Stopped {
			t.Errorf("player %d = %+v, want fallen at %d and stopped", seat, p, wantAt)
		}
	}
	// A fallen player's turn asks nobody and still advances the game.
	for s.Turn()%Seats != 1 {
		play(t, s, "N")
	}
	if asks := s.Asks(); len(asks) != 0 {
		t.Fatalf("fallen player's turn asks %v", asks)
	}
	turn := s.Turn()
	st := s.Apply(nil)
	if len(st.Seats) != 1 || st.Seats[0].Verdict != engine.NotAsked || s.Turn() != turn+1 {
		t.Errorf("fallen turn: step %+v, turn %d, want one not_asked seat and turn %d", st, s.Turn(), turn+1)
	}
}

func TestRestoredBlockCanBeEntered(t *testing.T) {
	s := newTest(t, "5,5,U/0,17,L/17,0,U/17,17,U")
	setBlock(s, 1, 2, -2)
	playAll(t, s, "R...")
	if s.Player(0).Col != 5 {
		t.Fatal("entered a fallen block")
	}
	if s.Block(1, 2) != 0 {
		t.Fatalf("block (1,2) = %d, want restored", s.Block(1, 2))
	}
	play(t, s, "R")
	if s.Player(0).Col != 6 {
		t.Error("could not enter a restored block")
	}
}

func TestEnteringTimer1BlockFalls(t *testing.T) {
	s := newTest(t, "5,5,U/0,17,L/17,0,U/17,17,U")
	setBlock(s, 1, 2, 1)
	play(t, s, "R")
	if p := s.Player(0); !p.Fallen || p.FellAt != 0 {
		t.Errorf("player 0 = %+v, want fallen at the end of turn 0", p)
	}
}

// fallAt schedules the block under player seat to fall at the end of the
// current turn plus after.
func fallAt(s *State, seat, after int) {
	p := s.Player(seat)
	setBlock(s, p.Row/BlockSize, p.Col/BlockSize, after+1)
}

func TestResults(t *testing.T) {
	tests := []struct {
		name string
		// falls[i] = global turn at whose end player i falls, -1 never.
		falls      [Seats]int
		maxTurns   string
		wantRanks  []int
		wantReason string
		wantTurns  int
		wantWinner int
	}{
		{"last one standing", [Seats]int{-1, 0, 0, 0}, "1000", []int{1, 2, 2, 2}, ReasonLastStanding, 1, 0},
		{"ranks by fall turn", [Seats]int{5, -1, 2, 0}, "1000", []int{2, 1, 3, 4}, ReasonLastStanding, 6, 1},
		{"last ones fall together: draw", [Seats]int{2, 2, 0, 0}, "1000", []int{1, 1, 3, 3}, ReasonAllFallen, 3, -1},
		{"everybody at once", [Seats]int{1, 1, 1, 1}, "1000", []int{1, 1, 1, 1}, ReasonAllFallen, 2, -1},
		{"turn limit draw", [Seats]int{-1, -1, 3, -1}, "8", []int{1, 1, 4, 1}, ReasonTurnLimit, 8, -1},
		{"turn limit with one fall shared", [Seats]int{-1, 4, 4, -1}, "12", []int{1, 3, 3, 1}, ReasonTurnLimit, 12, -1},
		{"win on the last turn", [Seats]int{-1, 7, 7, 7}, "8", []int{1, 2, 2, 2}, ReasonLastStanding, 8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTest(t, corners, OptMaxTurns, tt.maxTurns)
			var ends int
			for !s.Done() {
				for seat, at := range tt.falls {
					if at == s.Turn() {
						fallAt(s, seat, 0)
					}
				}
				st := play(t, s, "N")
				for _, e := range st.Events {
					if e.Kind == engine.EventEnd {
						ends++
						if e.Turn != s.Turn()-1 {
							t.Errorf("end event at turn %d, want %d", e.Turn, s.Turn()-1)
						}
					}
				}
				if s.Turn() > 20 {
					t.Fatal("game does not end")
				}
			}
			r := s.Result()
			if !reflect.DeepEqual(r.Ranks, tt.wantRanks) || r.Reason != tt.wantReason || r.Turns != tt.wantTurns {
				t.Errorf("result %+v, want ranks %v reason %s turns %d", r, tt.wantRanks, tt.wantReason, tt.wantTurns)
			}
			if r.Winner() != tt.wantWinner {
				t.Errorf("winner %d, want %d", r.Winner(), tt.wantWinner)
			}
			if ends != 1 {
				t.Errorf("%d end events, want 1", ends)
			}
			if asks := s.Asks(); asks != nil {
				t.Errorf("asks after the end: %v", asks)
			}
			if st := s.Apply(nil); !reflect.DeepEqual(st, engine.Step{}) || s.Turn() != tt.wantTurns {
				t.Errorf("Apply after the end changed the game: %+v", st)
			}
		})
	}
}

func TestInputFormat(t *testing.T) {
	s := newTest(t, "2,5,R/9,17,L/17,0,U/14,9,D")
	setBlock(s, 0, 0, 12)
	setBlock(s, 5, 5, -3)
	s.players[3].Wait = 1
	s.turn = 4 // player 0's turn
	wantRC := "0\n4\n12 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 -3\n" +
		"2 5 R 0\n9 17 L 0\n17 0 U 0\n14 9 D 1\nEOD\n"
	if got := s.Asks()[0].Input; got != wantRC {
		t.Errorf("coords=rc input\n got %q\nwant %q", got, wantRC)
	}
	s.cfg.xy[0] = true
	wantXY := "0\n4\n12 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 -3\n" +
		"5 2 R 0\n17 9 L 0\n0 17 U 0\n9 14 D 1\nEOD\n"
	if got := s.Asks()[0].Input; got != wantXY {
		t.Errorf("coords=xy input\n got %q\nwant %q", got, wantXY)
	}
	if a := s.Asks()[0]; a.Seat != 0 || a.Timeout != 100*time.Millisecond || a.Expect != nil {
		t.Errorf("ask %+v, want seat 0, 100ms, no filter", a)
	}
}

// TestCoordsPerSeat: coords@N=xy turns the position lines round for seat N
// alone; the other seats keep the game's order.
func TestCoordsPerSeat(t *testing.T) {
	start := "2,5,R/9,17,L/17,0,U/14,9,D"
	for _, tc := range []struct {
		opts   engine.Options
		xySeat [Seats]bool
	}{
		{engine.Options{OptStart: start}, [Seats]bool{}},
		{engine.Options{OptStart: start, "coords@1": CoordsXY}, [Seats]bool{1: true}},
		{engine.Options{OptStart: start, OptCoords: CoordsXY, "coords@2": CoordsRC}, [Seats]bool{true, true, false, true}},
	} {
		opts, err := info.Resolve(tc.opts)
		if err != nil {
			t.Fatalf("%v: %v", tc.opts, err)
		}
		s, err := NewState(opts, []string{"a", "b", "c", "d"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for seat := range Seats {
			lines := strings.Split(s.Input(seat), "\n")
			want := "2 5 R 0"
			if tc.xySeat[seat] {
				want = "5 2 R 0"
			}
			if got := lines[2+Blocks]; got != want {
				t.Errorf("%v seat %d: player 0's line %q, want %q", tc.opts, seat, got, want)
			}
		}
	}
}

func TestFallenPlayerLine(t *testing.T) {
	// Player 3 attacks (S becomes 2) and falls at the end of that turn: its
	// line keeps its last facing and wait.
	s := newTest(t, corners)
	playAll(t, s, "...")
	fallAt(s, 3, 0)
	play(t, s, "A")
	for _, coords := range []bool{false, true} {
		s.cfg.xy[0] = coords
		lines := strings.Split(s.Asks()[0].Input, "\n")
		if got := lines[2+Blocks+3]; got != "-1 -1 U 2" {
			t.Errorf("xy=%v: fallen player's line %q, want \"-1 -1 U 2\"", coords, got)
		}
	}
}

func TestHandshake(t *testing.T) {
	opts, _ := New().Info().Resolve(engine.Options{OptStart: "0,0,R/0,17,L/17,0,U/17,17,U", OptReadyMS: "1500"})
	s, err := NewState(opts, []string{"a", "b", "c", "d"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	asks := s.Asks()
	if len(asks) != Seats {
		t.Fatalf("%d asks, want 4", len(asks))
	}
	for i, a := range asks {
		if a.Seat != i || a.Input != "" || a.Timeout != 1500*time.Millisecond || a.Expect == nil {
			t.Errorf("ask %d = %+v", i, a)
		}
	}
	for _, tt := range []struct {
		line string
		want bool
	}{{"READY", true}, {"  READY\t", true}, {"READY\r", true}, {"Ready", false}, {"READY!", false}, {"", false}, {"READY READY", false}} {
		if got := asks[0].Expect(tt.line); got != tt.want {
			t.Errorf("Expect(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
	st := s.Apply([]engine.Reply{
		{Status: engine.Answered, Line: " READY "},
		{Status: engine.TimedOut},
		{Status: engine.Closed},
		{Status: engine.Answered, Line: "READY"},
	})
	wantV := []engine.Verdict{engine.OK, engine.Timeout, engine.Crashed, engine.OK}
	for i, ss := range st.Seats {
		if ss.Seat != i || ss.Verdict != wantV[i] {
			t.Errorf("seat step %d = %+v, want verdict %v", i, ss, wantV[i])
		}
	}
	if !reflect.DeepEqual(st.Stop, []int{1, 2}) {
		t.Errorf("stop %v, want [1 2]", st.Stop)
	}
	var kinds []string
	for _, e := range st.Events {
		kinds = append(kinds, e.Kind)
	}
	if !reflect.DeepEqual(kinds, []string{engine.EventTimeout, engine.EventCrash}) {
		t.Errorf("events %v", kinds)
	}
	if !s.Ready() || s.Turn() != 0 {
		t.Fatalf("after the handshake: ready %v turn %d", s.Ready(), s.Turn())
	}
	// Stopped seats are never asked; their pieces stay and do N.
	for range 8 {
		asks := s.Asks()
		seat := s.Turn() % Seats
		if stopped := seat == 1 || seat == 2; stopped != (len(asks) == 0) {
			t.Fatalf("turn %d: asks %v", s.Turn(), asks)
		}
		play(t, s, "D")
	}
	if p := s.Player(1); p.Row != 0 || p.Dir != 'L' || p.Fallen || p.Fault != "timeout" || p.Last != 'N' {
		t.Errorf("stopped player 1 = %+v, want in place doing N", p)
	}
	if p := s.Player(0); p.Row != 2 {
		t.Errorf("player 0 at row %d, want 2", p.Row)
	}
}

func TestStoppedPlayerCanWin(t *testing.T) {
	s := newTest(t, corners)
	st := s.Apply([]engine.Reply{{Status: engine.TimedOut}})
	if ss := st.Seats[0]; ss.Verdict != engine.Timeout || ss.Action != "N" || !slices.Equal(st.Stop, []int{0}) {
		t.Fatalf("timeout step %+v", st)
	}
	fallAt(s, 1, 0)
	fallAt(s, 2, 0)
	fallAt(s, 3, 0)
	play(t, s, "N")
	if !s.Done() || s.Result().Winner() != 0 {
		t.Errorf("done %v result %+v, want player 0 (stopped) to win", s.Done(), s.Result())
	}
}

func TestReplyVerdicts(t *testing.T) {
	tests := []struct {
		reply       engine.Reply
		wantVerdict engine.Verdict
		wantAction  string
		wantStop    bool
		wantEvent   string
		wantDetail  string
	}{
		{engine.Reply{Status: engine.Answered, Line: "D"}, engine.OK, "D", false, "", ""},
		{engine.Reply{Status: engine.Answered, Line: " D extra "}, engine.OK, "D", false, "", ""},
		{engine.Reply{Status: engine.Answered, Line: "d"}, engine.Invalid, "N", false, engine.EventInvalid, "upper case"},
		{engine.Reply{Status: engine.Answered, Line: ""}, engine.Invalid, "N", false, engine.EventInvalid, "empty"},
		{engine.Reply{Status: engine.Answered, Line: "D\tU"}, engine.Invalid, "N", false, engine.EventInvalid, "not a command"},
		{engine.Reply{Status: engine.TimedOut}, engine.Timeout, "N", true, engine.EventTimeout, "100ms"},
		{engine.Reply{Status: engine.Closed}, engine.Crashed, "N", true, engine.EventCrash, "closed"},
		{engine.Reply{Status: engine.Gone}, engine.NotAsked, "N", false, "", "stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.reply.Status.String()+" "+tt.reply.Line, func(t *testing.T) {
			s := newTest(t, corners)
			st := s.Apply([]engine.Reply{tt.reply})
			ss := st.Seats[0]
			if ss.Verdict != tt.wantVerdict || ss.Action != tt.wantAction || !strings.Contains(ss.Detail, tt.wantDetail) {
				t.Errorf("seat step %+v, want %v %s detail containing %q", ss, tt.wantVerdict, tt.wantAction, tt.wantDetail)
			}
			if got := slices.Contains(st.Stop, 0); got != tt.wantStop {
				t.Errorf("stop %v", st.Stop)
			}
			var kind string
			for _, e := range st.Events {
				kind = e.Kind
				if e.Turn != 0 || !slices.Equal(e.Seats, []int{0}) {
					t.Errorf("event %+v, want turn 0 seat 0", e)
				}
			}
			if kind != tt.wantEvent {
				t.Errorf("event %q, want %q", kind, tt.wantEvent)
			}
			wantAsked := tt.wantVerdict == engine.OK || tt.wantVerdict == engine.Invalid
			playAll(t, s, "...")
			if asked := len(s.Asks()) == 1; asked != wantAsked {
				t.Errorf("asked again: %v, want %v", asked, wantAsked)
			}
		})
	}
}

func TestClone(t *testing.T) {
	s := newTest(t, corners)
	c := s.Clone().(*State)
	playAll(t, s, "RA..")
	if c.Turn() != 0 || c.Player(0).Col != 0 || c.Blocks() != [Blocks][Blocks]int{} {
		t.Errorf("clone changed with the original: turn %d player %+v", c.Turn(), c.Player(0))
	}
	playAll(t, c, "D")
	if s.Player(0).Row != 0 {
		t.Error("original changed with the clone")
	}
}

func TestGameInfo(t *testing.T) {
	g := New()
	in := g.Info()
	if in.ID != "grip" || in.Name != "Grip" || in.MinSeats != 4 || in.MaxSeats != 4 || in.Description == "" {
		t.Errorf("info %+v", in)
	}
	for _, o := range in.Options {
		if o.Doc == "" {
			t.Errorf("option %s has no doc", o.Key)
		}
	}
	opts, err := in.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Options{OptTurnMS: "100", OptReadyMS: "1000", OptMaxTurns: "1000", OptCoords: "rc", OptStart: ""}
	if !reflect.DeepEqual(opts, want) {
		t.Errorf("defaults %v, want %v", opts, want)
	}
	if _, err := in.Resolve(engine.Options{OptCoords: "yx"}); err == nil {
		t.Error("coords=yx accepted")
	}
	if !slices.Equal(g.Bots(), []string{"random", "greedy", "search"}) {
		t.Errorf("bots %v", g.Bots())
	}
	for _, name := range g.Bots() {
		b, err := g.NewBot(name, 1)
		if err != nil || b.Hello() != "READY\n" {
			t.Errorf("bot %s: %v", name, err)
		}
	}
	if _, err := g.NewBot("clever", 1); err == nil || !strings.Contains(err.Error(), "random, greedy") {
		t.Errorf("unknown bot: %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	enginetest.CheckNewErrors(t, New(), []enginetest.NewError{
		{Opts: engine.Options{OptTurnMS: "abc"}, Players: 4, Want: `option turn_ms="abc": want a whole number of milliseconds from 1 to 600000`},
		{Opts: engine.Options{OptTurnMS: "0"}, Players: 4, Want: `option turn_ms="0"`},
		{Opts: engine.Options{OptReadyMS: "-5"}, Players: 4, Want: `option ready_ms="-5": want a whole number of milliseconds`},
		{Opts: engine.Options{OptMaxTurns: "0"}, Players: 4, Want: `option max_turns="0": want a whole number of turns from 1 to 1000000`},
		{Opts: engine.Options{OptMaxTurns: "1e3"}, Players: 4, Want: `option max_turns="1e3"`},
		{Opts: engine.Options{OptCoords: "yx"}, Players: 4, Want: `option coords="yx": want rc (row first) or xy (column first)`},
		{Opts: engine.Options{OptStart: "1,1,U"}, Players: 4, Want: `option start: want 4 players`},
		{Opts: engine.Options{}, Players: 3, Want: "grip is played by exactly 4 players, not 3"},
	})
	if _, err := New().New(engine.Options{}, make([]string, 4), 1); err != nil {
		t.Errorf("missing options should take defaults: %v", err)
	}
}

func TestStartOption(t *testing.T) {
	tests := []struct {
		in   string
		want string // error, or "" for success
	}{
		{"14,0,D/17,14,L/10,14,U/5,2,R", ""},
		{"0,0,U/0,4,R/0,8,D/0,12,L", ""},
		{"", `option start: want 4 players as row,column,facing separated by "/", e.g. 14,0,D/17,14,L/10,14,U/5,2,R; got 1 part(s) in ""`},
		{"14,0,D/17,14,L/10,14,U", "want 4 players"},
		{"14,0,D/17,14,L/10,14,U/5,2,R/", "got 5 part(s)"},
		{"14,0/17,14,L/10,14,U/5,2,R", `option start: player 0 is "14,0"; want row,column,facing such as 14,0,D`},
		{"14,0,D/17,14,L,X/10,14,U/5,2,R", `player 1 is "17,14,L,X"`},
		{"a,0,D/17,14,L/10,14,U/5,2,R", "row and column must be whole numbers"},
		{"14, 0,D/17,14,L/10,14,U/5,2,R", "row and column must be whole numbers"},
		{"14,0,D/17,14,L/19,14,U/5,2,R", "option start: player 2 at row 19 is off the 18×18 board (rows and columns are 0..17)"},
		{"14,0,D/17,14,L/10,14,U/-1,2,R", "player 3 at row -1 is off the 18×18 board"},
		{"14,18,D/17,14,L/10,14,U/5,2,R", "player 0 at column 18 is off the 18×18 board"},
		{"14,0,X/17,14,L/10,14,U/5,2,R", `option start: player 0 faces "X"; want one of U, R, D, L`},
		{"14,0,d/17,14,L/10,14,U/5,2,R", `player 0 faces "d"`},
		{"14,0,DD/17,14,L/10,14,U/5,2,R", `player 0 faces "DD"`},
		{"14,0,/17,14,L/10,14,U/5,2,R", `player 0 faces ""`},
		{"0,0,U/0,3,R/9,9,D/17,17,L", "option start: players 0 (row 0, column 0) and 1 (row 0, column 3) are 3 apart; every two players must be at least 4 apart (Manhattan distance)"},
		{"0,0,U/9,9,R/10,11,D/17,17,L", "players 1 (row 9, column 9) and 2 (row 10, column 11) are 3 apart"},
		{"0,0,U/9,9,R/17,17,D/9,9,L", "players 1 (row 9, column 9) and 3 (row 9, column 9) are 0 apart"},
	}
	for _, tt := range tests {
		p, err := ParseStart(tt.in)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseStart(%q): %v", tt.in, err)
			} else if got := FormatStart(p); got != tt.in {
				t.Errorf("FormatStart(ParseStart(%q)) = %q", tt.in, got)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseStart(%q): error %v, want %q", tt.in, err, tt.want)
		}
	}
	// The option reaches the game and Start() reports it.
	s := newTest(t, "14,0,D/17,14,L/10,14,U/5,2,R")
	if got := s.Start(); got != "14,0,D/17,14,L/10,14,U/5,2,R" {
		t.Errorf("Start() = %q", got)
	}
	if p := s.Player(1); p.Row != 17 || p.Col != 14 || p.Dir != 'L' {
		t.Errorf("player 1 = %+v", p)
	}
}

func TestGeneratedStart(t *testing.T) {
	seen := map[string]bool{}
	var dirs [4]int
	for seed := int64(-50); seed < 450; seed++ {
		p := GenerateStart(seed)
		if again := GenerateStart(seed); again != p {
			t.Fatalf("seed %d: %v then %v", seed, p, again)
		}
		s := FormatStart(p)
		if _, err := ParseStart(s); err != nil {
			t.Fatalf("seed %d: generated start %s is refused: %v", seed, s, err)
		}
		seen[s] = true
		for _, x := range p {
			dirs[strings.IndexByte(Directions, x.Dir)]++
		}
	}
	if len(seen) < 500 {
		t.Errorf("%d different starts from 500 seeds", len(seen))
	}
	for i, n := range dirs {
		if n < 400 || n > 600 { // 2000 draws, 500 expected each
			t.Errorf("direction %c drawn %d times of 2000", Directions[i], n)
		}
	}
	// The game uses the seed when no start is given.
	g := New()
	opts, _ := g.Info().Resolve(nil)
	st, err := g.New(opts, make([]string, 4), 77)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.(*State).Start(), FormatStart(GenerateStart(77)); got != want {
		t.Errorf("start %s, want %s", got, want)
	}
}
