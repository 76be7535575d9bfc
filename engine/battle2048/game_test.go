package battle2048

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

func newState(t *testing.T, opts engine.Options) *State {
	t.Helper()
	st, err := NewState(opts, []string{"Ann", "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func answer(line string, elapsed time.Duration) []engine.Reply {
	return []engine.Reply{{Status: engine.Answered, Line: line, Elapsed: elapsed}}
}

// mainState skips the opening: seat 0's board is mine, seat 1's is theirs,
// and seat toMove answers next in round 1.
func mainState(t *testing.T, opts engine.Options, b0, b1 Board, toMove int) *State {
	t.Helper()
	st := newState(t, opts)
	st.opening, st.round, st.half = Seats, 1, toMove
	st.boards = [Seats]Board{b0, b1}
	return st
}

func TestInfoAndOptions(t *testing.T) {
	g := New()
	in := g.Info()
	if in.ID != "battle2048" || in.Name != "Battle 2048" || in.MinSeats != 2 || in.MaxSeats != 2 || in.Description == "" {
		t.Fatalf("info %+v", in)
	}
	want := map[string]string{OptInitMS: "1000", OptTurnMS: "1000", OptTotalMS: "100000", OptRounds: "1000", OptProtocol: "final"}
	for _, o := range in.Options {
		if want[o.Key] != o.Default || o.Doc == "" {
			t.Errorf("option %s: default %q doc %q", o.Key, o.Default, o.Doc)
		}
		delete(want, o.Key)
	}
	if len(want) != 0 {
		t.Errorf("missing options %v", want)
	}
	if _, err := in.Resolve(engine.Options{OptProtocol: "alpha"}); err == nil {
		t.Error("protocol=alpha resolved")
	}
	enginetest.CheckNewErrors(t, g, []enginetest.NewError{
		{Opts: engine.Options{OptTurnMS: "abc"}, Players: 2, Want: "option turn_ms=\"abc\""},
		{Opts: engine.Options{OptTurnMS: "0"}, Players: 2, Want: "from 1 to"},
		{Opts: engine.Options{OptInitMS: "-5"}, Players: 2, Want: "option init_ms"},
		{Opts: engine.Options{OptTotalMS: "1.5"}, Players: 2, Want: "option total_ms"},
		{Opts: engine.Options{OptRounds: "0"}, Players: 2, Want: "option rounds"},
		{Opts: engine.Options{OptRounds: "99999999"}, Players: 2, Want: "option rounds"},
		{Opts: engine.Options{OptProtocol: "gamma"}, Players: 2, Want: "option protocol=\"gamma\""},
		{Opts: nil, Players: 3, Want: "battle2048 is played by exactly 2 players, not 3"},
	})
	if bots := g.Bots(); !slices.Equal(bots, []string{"random", "greedy", "search"}) {
		t.Errorf("bots %v", bots)
	}
	if _, err := g.NewBot("smart", 1); err == nil {
		t.Error("unknown bot accepted")
	}
}

func TestOpening(t *testing.T) {
	st := newState(t, engine.Options{OptInitMS: "700"})
	if st.Turn() != 0 || !st.InOpening() {
		t.Fatalf("turn %d opening %v", st.Turn(), st.InOpening())
	}
	for seat, line := range []string{"1 2", "5 5"} {
		asks := st.Asks()
		if len(asks) != 1 || asks[0].Seat != seat || asks[0].Input != []string{"0\n", "1\n"}[seat] || asks[0].Timeout != 700*time.Millisecond {
			t.Fatalf("opening ask %d: %+v", seat, asks)
		}
		step := st.Apply(answer(line, 699*time.Millisecond))
		if step.Seats[0].Verdict != engine.OK || step.Seats[0].Action != line {
			t.Fatalf("opening %d: %+v", seat, step)
		}
	}
	var want0, want1 Board
	want1[0][1] = 1 // player 0's answer goes on player 1's board
	want0[4][4] = 1
	if st.Board(0) != want0 || st.Board(1) != want1 {
		t.Fatalf("boards\n%v\n%v", st.Board(0), st.Board(1))
	}
	if on, cells := st.LastAttack(); on != 0 || len(cells) != 1 || cells[0] != (Cell{4, 4}) {
		t.Errorf("last attack %d %v", on, cells)
	}
	if st.Turn() != 1 || st.InOpening() {
		t.Errorf("after the opening: turn %d opening %v", st.Turn(), st.InOpening())
	}
	a := st.Asks()[0]
	want := "1 100000 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 1\n0 1 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"
	if a.Seat != 0 || a.Input != want || a.Timeout != time.Second {
		t.Errorf("first turn ask %+v", a)
	}
}

// TestProtocols compares the full input of both protocol variants.
func TestProtocols(t *testing.T) {
	var b0, b1 Board
	b0[0][0], b0[1][1] = 1, 11
	b1[4][0] = 2
	final := "3 99990 12 8\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n2 0 0 0 0\n1 0 0 0 0\n0 11 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"
	beta := final[len("3 99990 12 8\n"):]
	for _, tc := range []struct {
		opts engine.Options
		want string
	}{
		// protocol@SEAT sets one seat's input alone (an AI's own option).
		{engine.Options{"protocol@1": ProtocolBeta}, beta},
		{engine.Options{"protocol@0": ProtocolBeta}, final},
		{engine.Options{OptProtocol: ProtocolBeta, "protocol@1": ProtocolFinal}, final},
	} {
		opts, err := info.Resolve(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		st := mainState(t, opts, b0, b1, 1)
		st.half, st.round = 5, 3
		st.scores = [Seats]int64{8, 12}
		st.used[1] = 10
		if a := st.Asks(); len(a) != 1 || a[0].Input != tc.want {
			t.Errorf("%v: asks %+v\nwant %q", tc.opts, a, tc.want)
		}
	}
	for _, tc := range []struct {
		protocol string
		want     string
	}{
		{ProtocolFinal, "3 99990 12 8\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n2 0 0 0 0\n1 0 0 0 0\n0 11 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"},
		{ProtocolBeta, "0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n2 0 0 0 0\n1 0 0 0 0\n0 11 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"},
	} {
		st := mainState(t, engine.Options{OptProtocol: tc.protocol}, b0, b1, 1)
		st.half, st.round = 5, 3
		st.scores = [Seats]int64{8, 12}
		st.used[1] = 10
		a := st.Asks()
		if len(a) != 1 || a[0].Seat != 1 || a[0].Input != tc.want {
			t.Errorf("%s: asks %+v\nwant %q", tc.protocol, a, tc.want)
		}
	}
}

// anyMove is a legal answer for the seat to move: the first direction that
// changes its board and one tile on the first empty cell of the other.
func anyMove(t *testing.T, st *State) string {
	t.Helper()
	seat := st.ToMove()
	me, opp := st.Board(seat), st.Board(1-seat)
	for _, d := range Dirs {
		if !me.CanSlide(d) {
			continue
		}
		_, x, _ := me.Slide(d)
		cells := emptyCells(&opp, nil)
		return Move{Dir: d, M: 1, V: x + 1, Cells: cells[:1]}.String()
	}
	t.Fatal("no legal move")
	return ""
}

func TestTimeBank(t *testing.T) {
	var b Board
	b[0][0] = 1
	st := mainState(t, engine.Options{OptTurnMS: "200", OptTotalMS: "500"}, b, b, 0)
	// Each accepted turn spends its whole milliseconds, truncated.
	plays := []struct {
		elapsed time.Duration
		left    int64 // TimeLeft in the input before the answer
		timeout time.Duration
	}{
		{199*time.Millisecond + 999*time.Microsecond, 500, 200 * time.Millisecond}, // seat 0 spends 199
		{0, 500, 200 * time.Millisecond},                                           // seat 1 has its own bank
		{200 * time.Millisecond, 301, 200 * time.Millisecond},                      // exactly the limit is fine
		{3 * time.Millisecond, 500, 200 * time.Millisecond},
		{101 * time.Millisecond, 101, 101 * time.Millisecond}, // the bank bounds the wait; spent to the last ms
		{0, 497, 200 * time.Millisecond},
	}
	for i, p := range plays {
		a := st.Asks()
		head := strings.Fields(strings.SplitN(a[0].Input, "\n", 2)[0])
		if head[1] != strconv.FormatInt(p.left, 10) || a[0].Timeout != p.timeout {
			t.Fatalf("play %d: TimeLeft %s timeout %v, want %d %v", i, head[1], a[0].Timeout, p.left, p.timeout)
		}
		if step := st.Apply(answer(anyMove(t, st), p.elapsed)); step.Seats[0].Verdict != engine.OK {
			t.Fatalf("play %d: %+v", i, step)
		}
	}
	if st.TimeLeft(0) != 0 || st.TimeLeft(1) != 497 {
		t.Fatalf("banks %d %d", st.TimeLeft(0), st.TimeLeft(1))
	}
	// An empty bank still allows an answer inside the first millisecond,
	// as the referee's whole-millisecond clock did.
	a := st.Asks()[0]
	if a.Timeout != 0 || !strings.HasPrefix(a.Input, "4 0 ") {
		t.Fatalf("empty bank ask %+v", a)
	}
	if step := st.Apply(answer(anyMove(t, st), 999*time.Microsecond)); step.Seats[0].Verdict != engine.OK {
		t.Fatalf("sub-millisecond answer on an empty bank: %+v", step)
	}
	if step := st.Apply(answer(anyMove(t, st), 0)); step.Seats[0].Verdict != engine.OK {
		t.Fatalf("seat 1: %+v", step)
	}
	if step := st.Apply(answer(anyMove(t, st), time.Millisecond)); step.Seats[0].Verdict != engine.Timeout ||
		st.Result().Reason != ReasonTotalTime {
		t.Fatalf("1 ms on an empty bank: %+v %+v", step, st.Result())
	}
}

// TestLosingReasons plays one half-turn from a fixed position for every
// way to lose. Seat 0's board has a pair in row 1 (L or R merges once, U
// changes nothing); seat 1's board has a tile at 3 3. In the seat-1 cases
// the boards are swapped so the same lines apply.
func TestLosingReasons(t *testing.T) {
	var pair, other, stuck Board
	pair[0][0], pair[0][1] = 1, 1
	other[2][2] = 3
	for r := range stuck {
		for c := range stuck[r] {
			stuck[r][c] = uint8(1 + (r+c)%2)
		}
	}
	type tc struct {
		name    string
		seat    int // seat to move, in round 3
		mine    Board
		used    int64 // bank already spent by the seat
		replies []engine.Reply
		reason  string
		verdict engine.Verdict
		turns   int
		event   string
	}
	ok := func(line string) []engine.Reply { return answer(line, 5*time.Millisecond) }
	cases := []tc{
		{"malformed line", 0, pair, 0, ok("L  1 2 5 5"), ReasonMalformedLine, engine.Invalid, 3, engine.EventInvalid},
		{"tab", 1, pair, 0, ok("L\t1 2 5 5"), ReasonMalformedLine, engine.Invalid, 3, engine.EventInvalid},
		{"V below 1", 0, pair, 0, ok("L 1 0 5 5"), ReasonMalformedLine, engine.Invalid, 3, engine.EventInvalid},
		{"bad token count", 0, pair, 0, ok("L 1 2 5"), ReasonBadTokenCount, engine.Invalid, 3, engine.EventInvalid},
		{"bad token count seat 1", 1, pair, 0, ok("L 2 1 5 5"), ReasonBadTokenCount, engine.Invalid, 3, engine.EventInvalid},
		{"bad direction", 0, pair, 0, ok("l 1 2 5 5"), ReasonBadDirection, engine.Invalid, 3, engine.EventInvalid},
		{"no reply", 0, pair, 0, ok("  "), ReasonNoReply, engine.Invalid, 3, engine.EventInvalid},
		// From the slide on, the referee had counted the half-turn, so a
		// second player's loss is recorded one round later.
		{"no change", 0, pair, 0, ok("U 1 1 5 5"), ReasonNoChange, engine.Invalid, 3, engine.EventInvalid},
		{"no change seat 1", 1, pair, 0, ok("U 1 1 5 5"), ReasonNoChange, engine.Invalid, 4, engine.EventInvalid},
		{"wrong sum", 0, pair, 0, ok("L 1 1 5 5"), ReasonWrongSum, engine.Invalid, 3, engine.EventInvalid},
		{"wrong sum seat 1", 1, pair, 0, ok("L 2 2 5 5 4 4"), ReasonWrongSum, engine.Invalid, 4, engine.EventInvalid},
		{"wrong sum before off board", 0, pair, 0, ok("L 1 1 9 9"), ReasonWrongSum, engine.Invalid, 3, engine.EventInvalid},
		{"off board", 0, pair, 0, ok("L 1 2 6 1"), ReasonOffBoard, engine.Invalid, 3, engine.EventInvalid},
		{"second tile off board", 1, pair, 0, ok("L 2 1 1 1 0 3"), ReasonOffBoard, engine.Invalid, 4, engine.EventInvalid},
		{"off board before occupied", 0, pair, 0, ok("L 2 1 3 3 1 -4"), ReasonOffBoard, engine.Invalid, 3, engine.EventInvalid},
		{"occupied", 0, pair, 0, ok("L 1 2 3 3"), ReasonOccupied, engine.Invalid, 3, engine.EventInvalid},
		{"same cell twice", 1, pair, 0, ok("R 2 1 1 1 1 1"), ReasonOccupied, engine.Invalid, 4, engine.EventInvalid},
		{"no answer in the turn limit", 0, pair, 0, []engine.Reply{{Status: engine.TimedOut, Elapsed: time.Second}}, ReasonTurnTime, engine.Timeout, 3, engine.EventTimeout},
		{"late answer", 1, pair, 0, answer("L 1 2 5 5", 1001*time.Millisecond), ReasonTurnTime, engine.Timeout, 3, engine.EventTimeout},
		{"late answer over both limits", 0, pair, 99900, answer("L 1 2 5 5", 1001*time.Millisecond), ReasonTurnTime, engine.Timeout, 3, engine.EventTimeout},
		{"no answer in the bank", 0, pair, 99500, []engine.Reply{{Status: engine.TimedOut, Elapsed: 500 * time.Millisecond}}, ReasonTotalTime, engine.Timeout, 3, engine.EventTimeout},
		{"answer over the bank", 1, pair, 99500, answer("L 1 2 5 5", 501*time.Millisecond), ReasonTotalTime, engine.Timeout, 3, engine.EventTimeout},
		{"closed", 0, pair, 0, []engine.Reply{{Status: engine.Closed, Elapsed: time.Millisecond}}, ReasonCrashed, engine.Crashed, 3, engine.EventCrash},
		{"gone", 1, pair, 0, []engine.Reply{{Status: engine.Gone}}, ReasonCrashed, engine.Crashed, 3, engine.EventCrash},
		{"no reply at all", 0, pair, 0, nil, ReasonCrashed, engine.Crashed, 3, engine.EventCrash},
		{"cannot move", 0, stuck, 0, nil, ReasonCannotMove, engine.NotAsked, 3, EventStuck},
		{"cannot move seat 1", 1, stuck, 0, nil, ReasonCannotMove, engine.NotAsked, 3, EventStuck},
	}
	for _, c := range cases {
		b0, b1 := c.mine, other
		if c.seat == 1 {
			b0, b1 = other, c.mine
		}
		st := mainState(t, nil, b0, b1, c.seat)
		st.half, st.round = 4+c.seat, 3
		st.used[c.seat] = c.used
		asks := st.Asks()
		if c.reason == ReasonCannotMove {
			if len(asks) != 0 {
				t.Errorf("%s: a stuck seat is asked: %+v", c.name, asks)
			}
		} else if len(asks) != 1 || asks[0].Seat != c.seat {
			t.Fatalf("%s: asks %+v", c.name, asks)
		}
		step := st.Apply(c.replies)
		res := st.Result()
		if !st.Done() || res.Reason != c.reason || res.Turns != c.turns || res.Winner() != 1-c.seat || res.Ranks[c.seat] != 2 {
			t.Errorf("%s: done %v result %+v, want %s at turn %d won by seat %d", c.name, st.Done(), res, c.reason, c.turns, 1-c.seat)
			continue
		}
		if c.verdict == engine.NotAsked {
			if len(step.Seats) != 0 {
				t.Errorf("%s: seat steps %+v for an unasked seat", c.name, step.Seats)
			}
		} else if len(step.Seats) != 1 || step.Seats[0].Verdict != c.verdict || step.Seats[0].Detail == "" {
			t.Errorf("%s: seat step %+v, want verdict %v with a detail", c.name, step.Seats, c.verdict)
		}
		if len(step.Events) != 2 || step.Events[0].Kind != c.event || step.Events[0].Seats[0] != c.seat ||
			step.Events[1].Kind != engine.EventEnd || step.Events[1].Seats[0] != 1-c.seat {
			t.Errorf("%s: events %+v", c.name, step.Events)
		}
		if len(step.Stop) != 1 || step.Stop[0] != c.seat {
			t.Errorf("%s: stop %v", c.name, step.Stop)
		}
		if len(st.Asks()) != 0 {
			t.Errorf("%s: asks after the end", c.name)
		}
		if again := st.Apply(nil); len(again.Seats)+len(again.Events) != 0 {
			t.Errorf("%s: Apply after the end did %+v", c.name, again)
		}
	}
}

// TestOpeningFaults: the opening has its own time limit and turn 1.
func TestOpeningFaults(t *testing.T) {
	cases := []struct {
		name    string
		seat    int
		reply   []engine.Reply
		reason  string
		verdict engine.Verdict
	}{
		{"empty", 1, answer("", 0), ReasonNoReply, engine.Invalid},
		{"one number", 0, answer("3", 0), ReasonBadTokenCount, engine.Invalid},
		{"letters", 1, answer("a b", 0), ReasonMalformedLine, engine.Invalid},
		{"off board", 0, answer("0 1", 0), ReasonOffBoard, engine.Invalid},
		{"timed out", 0, []engine.Reply{{Status: engine.TimedOut, Elapsed: time.Second}}, ReasonTurnTime, engine.Timeout},
		{"late", 1, answer("3 3", 1001*time.Millisecond), ReasonTurnTime, engine.Timeout},
		{"closed", 0, []engine.Reply{{Status: engine.Closed}}, ReasonCrashed, engine.Crashed},
	}
	for _, c := range cases {
		st := newState(t, nil)
		if c.seat == 1 {
			st.Apply(answer("3 3", 0))
		}
		step := st.Apply(c.reply)
		res := st.Result()
		if !st.Done() || !st.InOpening() || res.Reason != c.reason || res.Turns != 1 || res.Winner() != 1-c.seat ||
			step.Seats[0].Verdict != c.verdict || step.Seats[0].Detail == "" {
			t.Errorf("%s: %+v %+v", c.name, res, step)
		}
	}
	// The opening's time does not come out of the bank.
	st := newState(t, nil)
	st.Apply(answer("3 3", 900*time.Millisecond))
	st.Apply(answer("3 3", 900*time.Millisecond))
	if st.TimeLeft(0) != 100000 || st.TimeLeft(1) != 100000 {
		t.Errorf("banks after the opening: %d %d", st.TimeLeft(0), st.TimeLeft(1))
	}
}

// TestEnd plays a one-round game to both endings: equal scores go to the
// second player, otherwise the higher score wins.
func TestEnd(t *testing.T) {
	var pair Board
	pair[0][0], pair[0][1] = 1, 1
	cases := []struct {
		second string // seat 1's answer after seat 0's "L 1 2 5 5"
		winner int
		reason string
		scores []float64
	}{
		{"L 1 2 5 5", 1, ReasonTieSecond, []float64{4, 4}},
		{"D 1 1 1 5", 0, ReasonHigherScore, []float64{4, 0}},
		{"L 2 1 5 5 5 4", 1, ReasonTieSecond, []float64{4, 4}},
	}
	for _, c := range cases {
		st := mainState(t, engine.Options{OptRounds: "1"}, pair, pair, 0)
		if step := st.Apply(answer("L 1 2 5 5", 0)); step.Seats[0].Verdict != engine.OK || st.Done() {
			t.Fatalf("first half-turn: %+v", step)
		}
		step := st.Apply(answer(c.second, 0))
		res := st.Result()
		if !st.Done() || res.Winner() != c.winner || res.Reason != c.reason || res.Turns != 2 ||
			res.Scores[0] != c.scores[0] || res.Scores[1] != c.scores[1] {
			t.Errorf("%q: result %+v", c.second, res)
		}
		if step.Seats[0].Verdict != engine.OK || step.Events[len(step.Events)-1].Kind != engine.EventEnd || len(step.Stop) != 0 {
			t.Errorf("%q: step %+v", c.second, step)
		}
		if st.Turn() != 1 {
			t.Errorf("%q: Turn() = %d after the last round", c.second, st.Turn())
		}
	}
}

func TestScoreAndLastMove(t *testing.T) {
	var b0, b1 Board
	b0[0] = [Size]uint8{1, 1, 2, 2, 0} // L: 2+2 → 4 and 4+4 → 8
	b0[1] = [Size]uint8{3, 3, 0, 0, 0} // L: 8+8 → 16
	b1[4][4] = 1
	st := mainState(t, nil, b0, b1, 0)
	step := st.Apply(answer("L +2 03 1 1 1 2", 7*time.Millisecond))
	if step.Seats[0].Verdict != engine.OK || step.Seats[0].Action != "L 2 3 1 1 1 2" {
		t.Fatalf("step %+v", step)
	}
	if len(step.Events) != 1 || step.Events[0].Kind != EventAttack {
		t.Errorf("events %+v", step.Events)
	}
	if st.Score(0) != 4+8+16 || st.Score(1) != 0 {
		t.Errorf("scores %d %d", st.Score(0), st.Score(1))
	}
	lm, ok := st.LastMove()
	if !ok || lm.Seat != 0 || lm.Round != 1 || lm.Merges != 3 || lm.Gain != 28 || lm.Move.Dir != Left || lm.Move.V != 3 {
		t.Errorf("last move %+v %v", lm, ok)
	}
	on, cells := st.LastAttack()
	if on != 1 || len(cells) != 2 || st.Board(1)[0][0] != 3 || st.Board(1)[0][1] != 3 {
		t.Errorf("attack on %d %v, board\n%v", on, cells, st.Board(1))
	}
	if want := (Board{{2, 3, 0, 0, 0}, {4, 0, 0, 0, 0}}); st.Board(0) != want {
		t.Errorf("board after the slide\n%v", st.Board(0))
	}
	// A plain line is its own action.
	step = st.Apply(answer("D 1 1 5 5", 0))
	if step.Seats[0].Verdict != engine.OK || step.Seats[0].Action != "D 1 1 5 5" || st.Turn() != 2 {
		t.Errorf("step %+v turn %d", step, st.Turn())
	}
}

func TestClone(t *testing.T) {
	st := newState(t, nil)
	st.Apply(answer("3 3", 0))
	st.Apply(answer("3 3", 0))
	st.Apply(answer("U 1 1 1 1", 0))
	c := st.Clone().(*State)
	before := c.Asks()[0].Input
	st.Apply(answer("U 1 1 1 1", 0))
	st.Apply(answer("D 1 1 2 2", 0))
	if c.Asks()[0].Input != before || c.Board(0) == st.Board(0) || c.Turn() == st.Turn() {
		t.Fatalf("clone changed with the original")
	}
	lm, _ := c.LastMove()
	if lm.Seat != 0 || lm.Move.Cells[0] != (Cell{0, 0}) {
		t.Errorf("clone's last move %+v", lm)
	}
	// Replaying the same replies on the clone gives the same game.
	c.Apply(answer("U 1 1 1 1", 0))
	c.Apply(answer("D 1 1 2 2", 0))
	if c.Asks()[0].Input != st.Asks()[0].Input {
		t.Errorf("clone diverged")
	}
}

// FuzzGame feeds arbitrary lines as answers: the engine never panics, a
// step's verdict is OK exactly while the game goes on, and the result is
// consistent once it ends.
func FuzzGame(f *testing.F) {
	f.Add("3 3\n3 3\nU 1 1 1 1\nU 1 1 5 5\nD 1 1 1 1")
	f.Add("1 1\n5 5\nR 1 1 1 1\nL  1 1 1 1")
	f.Add("3 3\n3 3\nU 1 1 1 3\nU 2 1 1 1 1 2\nD 2 32 1 1 1 2")
	f.Fuzz(func(t *testing.T, data string) {
		st, err := NewState(engine.Options{OptRounds: "3"}, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(data, "\n") {
			if st.Done() {
				break
			}
			asks := st.Asks()
			var step engine.Step
			if len(asks) == 0 {
				step = st.Apply(nil)
			} else {
				step = st.Apply(answer(line, time.Millisecond))
				if len(step.Seats) != 1 || step.Seats[0].Seat != asks[0].Seat {
					t.Fatalf("seat steps %+v for asks %+v", step.Seats, asks)
				}
				byFault := st.Done() && st.Result().Reason != ReasonHigherScore && st.Result().Reason != ReasonTieSecond
				if (step.Seats[0].Verdict == engine.OK) == byFault {
					t.Fatalf("verdict %v but the game ended by a fault = %v", step.Seats[0].Verdict, byFault)
				}
			}
			if st.Done() {
				r := st.Result()
				if r.Winner() < 0 || r.Reason == "" || r.Turns < 1 || r.Turns > 4 {
					t.Fatalf("result %+v", r)
				}
				if step.Events[len(step.Events)-1].Kind != engine.EventEnd {
					t.Fatalf("no end event: %+v", step.Events)
				}
			}
			if c := st.Clone().(*State); c.Board(0) != st.Board(0) || c.Done() != st.Done() {
				t.Fatal("clone differs")
			}
		}
	})
}

// An answer longer than Battle 2048 can need loses as a malformed line,
// in the opening and in a turn; one of MaxReply bytes is read as usual.
func TestLongAnswer(t *testing.T) {
	st := newState(t, nil)
	step := st.Apply(answer("1 2"+strings.Repeat(" ", MaxReply-3), time.Millisecond))
	if step.Seats[0].Verdict != engine.OK {
		t.Fatalf("an opening of MaxReply bytes: %+v", step)
	}
	step = st.Apply(answer("5 5"+strings.Repeat(" ", MaxReply), time.Millisecond))
	want := fmt.Sprintf("reply of %d bytes, longer than Battle 2048's longest valid reply (%d bytes)", MaxReply+3, MaxReply)
	if s := step.Seats[0]; s.Verdict != engine.Invalid || s.Detail != want || st.Result().Reason != ReasonMalformedLine {
		t.Fatalf("a long opening: %+v, result %+v", step, st.Result())
	}
	st = newState(t, nil)
	st.Apply(answer("1 2", time.Millisecond))
	st.Apply(answer("5 5", time.Millisecond))
	step = st.Apply(answer(engine.CutReply("U 1 1 1 1"+strings.Repeat(" ", 70000), MaxReply, 70009), time.Millisecond))
	want = fmt.Sprintf("reply of 70009 bytes, longer than Battle 2048's longest valid reply (%d bytes)", MaxReply)
	if s := step.Seats[0]; s.Verdict != engine.Invalid || s.Detail != want || st.Result().Reason != ReasonMalformedLine {
		t.Fatalf("a long turn: %+v, result %+v", step, st.Result())
	}
}

// maskTimeLeft blanks the time bank of the final protocol's header and
// nothing else: the opening and the beta protocol hold no time.
func TestMaskTimeLeft(t *testing.T) {
	for _, tt := range []struct{ in, want, field string }{
		{"12 99870 340 512\n2 0 0 0 0\n", "12 _ 340 512\n2 0 0 0 0\n", "Battle 2048's TimeLeft"},
		{"0\n", "0\n", ""},
		{"2 0 0 0 0\n0 0 4 0 0\n", "2 0 0 0 0\n0 0 4 0 0\n", ""},
		{"", "", ""},
	} {
		got, field := maskTimeLeft(tt.in)
		if got != tt.want || field != tt.field {
			t.Errorf("maskTimeLeft(%q) = %q, %q; want %q, %q", tt.in, got, field, tt.want, tt.field)
		}
	}
}
