package battle2048

import (
	"fmt"
	"strconv"
	"time"

	"ringside/engine"
)

// Event kinds of Battle 2048, besides the engine's shared ones.
const (
	// EventStuck marks a player whose board could not move before its turn.
	EventStuck = "stuck"
	// EventAttack marks a big attack: at least bigAttack merges in one slide.
	EventAttack = "attack"
)

// bigAttack is the number of merges from which an attack gets a timeline
// marker; smaller ones happen nearly every turn.
const bigAttack = 3

// State is one match of Battle 2048. It implements engine.State and adds
// read-only accessors for renderers.
type State struct {
	cfg     config
	players []string

	boards [Seats]Board
	scores [Seats]int64
	used   [Seats]int64 // main-phase milliseconds each seat has spent
	// opening is the seat whose opening answer is due; Seats once both
	// placed their tile.
	opening int
	// half counts the main-phase half-turns whose slide was applied. It is
	// the referee's turn counter: the seat to move is half%2, and a loss
	// is recorded at round half/2+1 with half as it stands then.
	half  int
	round int // round of the pending or last half-turn (1-based); 0 in the opening

	done   bool
	result engine.Result

	// pending caches the current step's asks, so Asks can be called as
	// often as a caller likes; nil until built.
	pending []engine.Ask
	built   bool
	byTotal bool // the pending deadline is the time bank, not turn_ms

	// The last opening placement or attack: the board that received it
	// (-1 before any) and its cells. An accepted attack fills distinct
	// empty cells, so it never has more than Size×Size of them.
	placedOn int
	placed   [Size * Size]Cell
	nPlaced  int
	cellBuf  [Size * Size]Cell // parse buffer for the pending answer

	last    LastMove // Move.Cells is nil here; the cells are placed[:nPlaced]
	hasLast bool

	// Blocks that newAsk and newSeatStep carve one-element slices from.
	askBlock  []engine.Ask
	seatBlock []engine.SeatStep
}

// LastMove is the last accepted half-turn, for renderers.
type LastMove struct {
	Seat   int   // who moved
	Round  int   // 1-based round
	Move   Move  // slide direction, M, V and the cells attacked on the opponent's board
	Merges int   // X, the merges of the slide
	Gain   int64 // points the merges scored
}

// Asks returns the seat that must answer now with its exact input, or
// nothing when the seat to move is stuck (Apply(nil) then ends the game).
func (s *State) Asks() []engine.Ask {
	if s.done {
		return nil
	}
	if !s.built {
		s.build()
	}
	return s.pending
}

func (s *State) build() {
	s.built = true
	s.pending = nil
	if s.opening < Seats {
		seat := s.opening
		s.pending = s.newAsk(engine.Ask{Seat: seat, Input: strconv.Itoa(seat) + "\n", Timeout: ms(s.cfg.initMS)})
		return
	}
	seat := s.half % Seats
	if !s.boards[seat].CanMove() {
		return
	}
	left := s.TimeLeft(seat)
	limit := s.cfg.turnMS
	s.byTotal = left < limit
	if s.byTotal {
		limit = left
	}
	s.pending = s.newAsk(engine.Ask{Seat: seat, Input: s.input(seat, left), Timeout: ms(limit)})
}

// blockSize is how many asks or seat steps one allocation serves.
const blockSize = 64

// newAsk returns a one-element slice holding a. A whole game allocates a
// few blocks instead of one slice per half-turn (allocation dominated the
// cost of a step). Each element is handed out once and never written
// again, so a caller may keep the slice.
func (s *State) newAsk(a engine.Ask) []engine.Ask {
	if len(s.askBlock) == 0 {
		s.askBlock = make([]engine.Ask, blockSize)
	}
	out := s.askBlock[:1:1]
	s.askBlock = s.askBlock[1:]
	out[0] = a
	return out
}

// newSeatStep is newAsk for the one SeatStep of a step.
func (s *State) newSeatStep(seat int) []engine.SeatStep {
	if len(s.seatBlock) == 0 {
		s.seatBlock = make([]engine.SeatStep, blockSize)
	}
	out := s.seatBlock[:1:1]
	s.seatBlock = s.seatBlock[1:]
	out[0] = engine.SeatStep{Seat: seat}
	return out
}

// input renders a half-turn input for seat.
func (s *State) input(seat int, left int64) string {
	var buf [4*20 + 2*rowsMax]byte // four int64 with separators, two boards
	i := 0
	if !s.cfg.beta[seat] {
		i = putInt(buf[:], i, int64(s.half/2+1), ' ')
		i = putInt(buf[:], i, left, ' ')
		i = putInt(buf[:], i, s.scores[seat], ' ')
		i = putInt(buf[:], i, s.scores[1-seat], '\n')
	}
	i = s.boards[seat].putRows(buf[:], i)
	i = s.boards[1-seat].putRows(buf[:], i)
	return string(buf[:i])
}

// putInt writes n in decimal and then sep into buf from index i and
// returns the index after them; buf must have 21 bytes free.
func putInt(buf []byte, i int, n int64, sep byte) int {
	if n < 0 {
		buf[i] = '-'
		i++
		n = -n // the game's numbers are far from the int64 minimum
	}
	k := 1
	for m := n; m >= 10; m /= 10 {
		k++
	}
	for j := i + k - 1; j >= i; j-- {
		buf[j] = byte('0' + n%10)
		n /= 10
	}
	buf[i+k] = sep
	return i + k + 1
}

// TimeLeft is the part of the total time bank seat has not used, in
// milliseconds, never below 0. It is the TimeLeft of the seat's next input.
func (s *State) TimeLeft(seat int) int64 {
	return max(s.cfg.totalMS-s.used[seat], 0)
}

// Apply takes the reply to the pending ask (none when the seat to move is
// stuck) and advances the game.
func (s *State) Apply(replies []engine.Reply) engine.Step {
	if s.done {
		return engine.Step{}
	}
	asks := s.Asks()
	s.built = false
	if len(asks) == 0 {
		seat := s.half % Seats
		return s.stuck(seat)
	}
	seat := asks[0].Seat
	r := engine.Reply{Status: engine.Gone}
	if len(replies) > 0 {
		r = replies[0]
	}
	if s.opening < Seats {
		return s.applyOpening(seat, r)
	}
	return s.applyMain(seat, r)
}

// elapsedMS is the time a reply took in whole milliseconds, truncated as
// the referee's integer clock did.
func elapsedMS(d time.Duration) int64 {
	return max(d.Milliseconds(), 0)
}

func (s *State) applyOpening(seat int, r engine.Reply) engine.Step {
	step := engine.Step{Seats: s.newSeatStep(seat)}
	if f := s.checkTime(seat, r, true); f != nil {
		return s.fail(seat, step, f)
	}
	if detail, long := info.LongReply(r.Line); long {
		return s.fail(seat, step, fault(ReasonMalformedLine, "%s", detail))
	}
	c, err := ParseOpening(r.Line)
	if err != nil {
		return s.fail(seat, step, err.(*Fault))
	}
	opp := 1 - seat
	s.boards[opp][c.Row][c.Col] = 1
	s.placedOn, s.placed[0], s.nPlaced = opp, c, 1
	step.Seats[0].Action = strconv.Itoa(c.Row+1) + " " + strconv.Itoa(c.Col+1)
	s.opening++
	if s.opening == Seats {
		s.round = 1
	}
	return step
}

// checkTime applies the time limits in the referee's order (the turn limit
// first, then the bank) and turns a closed or gone bot into a crash.
func (s *State) checkTime(seat int, r engine.Reply, opening bool) *Fault {
	limit, what := s.cfg.turnMS, "turn"
	if opening {
		limit, what = s.cfg.initMS, "opening"
	}
	switch r.Status {
	case engine.TimedOut:
		if !opening && s.byTotal {
			return &Fault{ReasonTotalTime, fmt.Sprintf("no answer within the %d ms left of the %d ms total", s.TimeLeft(seat), s.cfg.totalMS)}
		}
		return &Fault{ReasonTurnTime, fmt.Sprintf("no answer within the %d ms %s limit", limit, what)}
	case engine.Gone:
		return &Fault{ReasonCrashed, "the bot had already stopped and could not be asked"}
	}
	e := elapsedMS(r.Elapsed)
	if e > limit {
		return &Fault{ReasonTurnTime, fmt.Sprintf("answered after %d ms; the %s limit is %d ms", e, what, limit)}
	}
	if !opening {
		if s.used[seat]+e > s.cfg.totalMS {
			return &Fault{ReasonTotalTime, fmt.Sprintf("answered after %d ms with %d ms left of the %d ms total", e, s.TimeLeft(seat), s.cfg.totalMS)}
		}
		s.used[seat] += e
	}
	if r.Status == engine.Closed {
		return &Fault{ReasonCrashed, "the bot closed its output or exited instead of answering"}
	}
	return nil
}

func (s *State) applyMain(seat int, r engine.Reply) engine.Step {
	step := engine.Step{Seats: s.newSeatStep(seat)}
	if f := s.checkTime(seat, r, false); f != nil {
		return s.fail(seat, step, f)
	}
	if detail, long := info.LongReply(r.Line); long {
		return s.fail(seat, step, fault(ReasonMalformedLine, "%s", detail))
	}
	var buf [16]string
	line := trim(r.Line)
	toks, f := tokens(line, buf[:0])
	if f != nil {
		return s.fail(seat, step, f)
	}
	m, err := parseMoveTokens(toks, s.cellBuf[:0])
	if err != nil {
		return s.fail(seat, step, err.(*Fault))
	}
	step.Seats[0].Action = line
	if !canonical(toks) {
		step.Seats[0].Action = m.String()
	}

	// From here on the referee had counted the half-turn.
	s.half++
	opp := 1 - seat
	next, x, gain := s.boards[seat].Slide(m.Dir)
	if next == s.boards[seat] {
		return s.fail(seat, step, fault(ReasonNoChange, "sliding %s changes nothing on the board", m.Dir))
	}
	s.boards[seat] = next
	s.scores[seat] += gain
	if !sumOK(m.M, m.V, x) {
		return s.fail(seat, step, fault(ReasonWrongSum,
			"the slide made %d merge(s), so the tiles must add up to 2^%d = %d, but M=%d tiles of 2^%d were sent",
			x, x+1, int64(1)<<(x+1), m.M, m.V))
	}
	for i, c := range m.Cells {
		if !c.OnBoard() {
			return s.fail(seat, step, offBoard("the "+ordinal(i+1)+" tile's cell", c))
		}
	}
	board := &s.boards[opp]
	for i, c := range m.Cells {
		if board[c.Row][c.Col] != 0 {
			return s.fail(seat, step, fault(ReasonOccupied, "the %s tile's cell %d %d already holds a tile", ordinal(i+1), c.Row+1, c.Col+1))
		}
		board[c.Row][c.Col] = uint8(m.V)
	}
	s.placedOn, s.nPlaced = opp, copy(s.placed[:], m.Cells)
	s.last = LastMove{Seat: seat, Round: s.round, Move: m, Merges: x, Gain: gain}
	s.last.Move.Cells = nil
	s.hasLast = true
	if x >= bigAttack {
		step.Events = append(step.Events, engine.Event{Turn: s.round, Kind: EventAttack, Seats: []int{seat},
			Text: fmt.Sprintf("%s merges %d times and drops %d×%d on %s", s.who(seat), x, m.M, int64(1)<<m.V, s.who(opp))})
	}
	if s.half >= 2*s.cfg.rounds {
		return s.judge(step)
	}
	s.round = s.half/2 + 1
	return step
}

// canonical reports whether the numbers of a valid move are written the
// plain way (no sign, no leading zero), so the line itself can serve as the
// step's action without building a new string.
func canonical(toks []string) bool {
	for _, t := range toks[1:] {
		if t[0] == '+' || t[0] == '-' || t[0] == '0' {
			return false
		}
	}
	return true
}

func (s *State) who(seat int) string {
	return fmt.Sprintf("%s (player %d)", s.players[seat], seat)
}

// fail ends the game with seat losing for f. step already holds the
// seat's SeatStep.
func (s *State) fail(seat int, step engine.Step, f *Fault) engine.Step {
	verdict, kind := engine.Invalid, engine.EventInvalid
	switch f.Reason {
	case ReasonTurnTime, ReasonTotalTime:
		verdict, kind = engine.Timeout, engine.EventTimeout
	case ReasonCrashed:
		verdict, kind = engine.Crashed, engine.EventCrash
	}
	// A rejected answer has no effective action; the replay keeps the
	// raw line.
	step.Seats[0] = engine.SeatStep{Seat: seat, Verdict: verdict, Detail: f.Detail}
	step.Events = append(step.Events, engine.Event{Turn: s.Turn(), Kind: kind, Seats: []int{seat},
		Text: fmt.Sprintf("%s loses: %s", s.who(seat), f.Detail)})
	return s.end(seat, step, f.Reason)
}

// stuck ends the game for a seat whose board cannot move; it was not asked.
func (s *State) stuck(seat int) engine.Step {
	var step engine.Step
	step.Events = append(step.Events, engine.Event{Turn: s.Turn(), Kind: EventStuck, Seats: []int{seat},
		Text: fmt.Sprintf("%s loses: its board cannot move in any direction", s.who(seat))})
	return s.end(seat, step, ReasonCannotMove)
}

// end records loser's defeat at the referee's turn number.
func (s *State) end(loser int, step engine.Step, reason string) engine.Step {
	winner := 1 - loser
	ranks := make([]int, Seats)
	ranks[winner], ranks[loser] = 1, 2
	s.finish(ranks, reason, s.half/2+1)
	step.Stop = []int{loser}
	step.Events = append(step.Events, engine.Event{Turn: s.Turn(), Kind: engine.EventEnd, Seats: []int{winner},
		Text: fmt.Sprintf("%s wins (%s)", s.who(winner), reason)})
	return step
}

// judge decides a game that lasted every round: the higher score wins and
// equal scores go to the second player.
func (s *State) judge(step engine.Step) engine.Step {
	winner, reason := 1, ReasonTieSecond
	if s.scores[0] != s.scores[1] {
		reason = ReasonHigherScore
		if s.scores[0] > s.scores[1] {
			winner = 0
		}
	}
	ranks := make([]int, Seats)
	ranks[winner], ranks[1-winner] = 1, 2
	s.finish(ranks, reason, s.half/2+1)
	step.Events = append(step.Events, engine.Event{Turn: s.Turn(), Kind: engine.EventEnd, Seats: []int{winner},
		Text: fmt.Sprintf("%s wins on score %d to %d (%s)", s.who(winner), s.scores[winner], s.scores[1-winner], reason)})
	return step
}

func (s *State) finish(ranks []int, reason string, turns int) {
	s.done = true
	s.pending = nil
	s.result = engine.Result{Ranks: ranks, Reason: reason, Turns: turns,
		Scores: []float64{float64(s.scores[0]), float64(s.scores[1])}}
}

// Done reports whether the game is over.
func (s *State) Done() bool { return s.done }

// Result is the outcome once Done. Turns is the referee's turn number: the
// round of the loss, one more when the second player's slide was already
// applied, and rounds+1 after a full game.
func (s *State) Result() engine.Result {
	r := s.result
	r.Ranks = append([]int(nil), r.Ranks...)
	r.Scores = append([]float64(nil), r.Scores...)
	return r
}

// Turn is the current round, 1-based; 0 during the opening.
func (s *State) Turn() int { return s.round }

// Clone returns an independent copy.
func (s *State) Clone() engine.State {
	c := *s
	c.players = append([]string(nil), s.players...)
	c.pending = append([]engine.Ask(nil), s.pending...)
	// The clone must not hand out the same block elements as s.
	c.askBlock, c.seatBlock = nil, nil
	c.result = s.Result()
	return &c
}

// Board returns seat's board.
func (s *State) Board(seat int) Board { return s.boards[seat] }

// Score returns seat's score.
func (s *State) Score(seat int) int64 { return s.scores[seat] }

// Round is the current round, 1-based; 0 during the opening.
func (s *State) Round() int { return s.round }

// Rounds is the number of rounds of a full game.
func (s *State) Rounds() int { return s.cfg.rounds }

// InOpening reports whether the game is (or ended) in the opening, when
// each player places the opponent's first tile.
func (s *State) InOpening() bool { return s.opening < Seats }

// ToMove is the seat whose answer is due (or who was stuck), meaningful
// while the game is not over.
func (s *State) ToMove() int {
	if s.opening < Seats {
		return s.opening
	}
	return s.half % Seats
}

// LastAttack returns the board that received the last tiles (an opening
// placement or an attack) and their cells; board is -1 before any.
func (s *State) LastAttack() (board int, cells []Cell) {
	return s.placedOn, append([]Cell(nil), s.placed[:s.nPlaced]...)
}

// LastMove returns the last accepted half-turn of the main phase.
func (s *State) LastMove() (LastMove, bool) {
	m := s.last
	if s.hasLast {
		m.Move.Cells = append([]Cell(nil), s.placed[:s.nPlaced]...)
	}
	return m, s.hasLast
}

// Players returns the seats' display names.
func (s *State) Players() []string { return append([]string(nil), s.players...) }
