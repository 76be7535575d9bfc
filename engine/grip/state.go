package grip

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"ringside/engine"
)

// Result reasons.
const (
	ReasonLastStanding = "last_standing" // one player left
	ReasonAllFallen    = "all_fallen"    // the last players fell together: a draw
	ReasonTurnLimit    = "turn_limit"    // max_turns played with two or more left: a draw
)

// Player is what the board shows of one player.
type Player struct {
	Piece
	// Wait is S: how many of its own turns the player still sits out after
	// an attack; 0 means it may act.
	Wait   int
	Fallen bool
	// FellAt is the global turn at whose end the player fell; -1 while it
	// is on the board.
	FellAt int
	// Stopped means the player's bot gets no more input, because of a fault
	// or because the player fell.
	Stopped bool
	// Fault says why the bot was stopped while its piece stood: "timeout",
	// "crashed", "no READY" or "gone"; empty otherwise.
	Fault string
	// Last is the last command the player carried out ('N' when forced to
	// wait or when its reply was invalid), 'N' before its first turn.
	Last byte
}

// State is a Grip match in progress. It implements engine.State and
// engine.Starter, and has read-only accessors for renderers.
type State struct {
	cfg     config
	names   []string // shared between clones; never written
	start   [Seats]Piece
	blocks  [Blocks][Blocks]int
	players [Seats]Player
	turn    int
	ready   bool // the READY handshake is over
	done    bool
	reason  string
	left    int // players on the board
	busy    int // blocks whose timer is not 0; ticks are skipped when none
}

var (
	_ engine.State   = (*State)(nil)
	_ engine.Starter = (*State)(nil)
)

func newState(cfg config, start [Seats]Piece, names []string) *State {
	s := &State{cfg: cfg, names: names, start: start, left: Seats}
	for i, p := range start {
		s.players[i] = Player{Piece: p, FellAt: -1, Last: 'N'}
	}
	return s
}

// Start returns the start position in the format of the start option.
func (s *State) Start() string { return FormatStart(s.start) }

// Turn returns the global turn about to be played (0 during the READY
// handshake and the first turn).
func (s *State) Turn() int { return s.turn }

// Ready reports whether the READY handshake is over.
func (s *State) Ready() bool { return s.ready }

// MaxTurns is the turn limit of this match.
func (s *State) MaxTurns() int { return s.cfg.maxTurns }

// Blocks returns every block timer, [block row][block column]: 0 stable,
// k > 0 falls at the end of the k-th global turn counting the current one,
// −k fallen and back after k more turns.
func (s *State) Blocks() [Blocks][Blocks]int { return s.blocks }

// Block returns one block timer.
func (s *State) Block(br, bc int) int { return s.blocks[br][bc] }

// Player returns player i (0..3).
func (s *State) Player(i int) Player { return s.players[i] }

// Players returns all four players.
func (s *State) Players() [Seats]Player { return s.players }

// Done reports whether the game is over.
func (s *State) Done() bool { return s.done }

// Clone returns an independent copy.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// Result ranks survivors first (sharing rank 1 when more than one is left),
// then fallen players by the turn they fell, later being better; players
// who fell on the same turn share a rank.
func (s *State) Result() engine.Result {
	key := make([]int, Seats)
	for i, p := range s.players {
		key[i] = math.MaxInt
		if p.Fallen {
			key[i] = p.FellAt
		}
	}
	return engine.Result{Ranks: engine.RanksByOrder(key), Reason: s.reason, Turns: s.turn}
}

// Asks returns the READY handshake (all four seats, nothing written) first,
// then the turn player with its input, or nothing when the turn player has
// fallen or its bot was stopped.
func (s *State) Asks() []engine.Ask {
	if s.done {
		return nil
	}
	if !s.ready {
		asks := make([]engine.Ask, Seats)
		for i := range asks {
			asks[i] = engine.Ask{Seat: i, Timeout: s.cfg.ready, Expect: IsReady}
		}
		return asks
	}
	seat := s.turn % Seats
	if p := &s.players[seat]; p.Fallen || p.Stopped {
		return nil
	}
	return []engine.Ask{{Seat: seat, Input: s.Input(seat), Timeout: s.cfg.turn}}
}

// Input renders the turn input player seat would receive now: its id, the
// turn, six rows of block timers, four player lines (row first, or column
// first with coords=xy, for every seat or this one; "-1 -1 D S" for a fallen player) and EOD.
func (s *State) Input(seat int) string {
	var arr [256]byte
	b := arr[:0]
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, '\n')
	b = strconv.AppendInt(b, int64(s.turn), 10)
	b = append(b, '\n')
	for r := range s.blocks {
		for c, v := range s.blocks[r] {
			if c > 0 {
				b = append(b, ' ')
			}
			b = appendSmall(b, v)
		}
		b = append(b, '\n')
	}
	for _, p := range s.players {
		first, second := p.Row, p.Col
		if p.Fallen {
			first, second = -1, -1
		} else if s.cfg.xy[seat] {
			first, second = p.Col, p.Row
		}
		b = appendSmall(b, first)
		b = append(b, ' ')
		b = appendSmall(b, second)
		b = append(b, ' ', p.Dir, ' ')
		b = appendSmall(b, p.Wait)
		b = append(b, '\n')
	}
	b = append(b, "EOD\n"...)
	return string(b)
}

// smallInts are the numbers a turn input is mostly made of, -fallenTime to
// the largest timer, ready to append: rendering is the costliest part of a
// turn.
var smallInts = func() []string {
	out := make([]string, 0, fallenTime+attackStep*Blocks+1)
	for v := -fallenTime; v <= attackStep*Blocks; v++ {
		out = append(out, strconv.Itoa(v))
	}
	return out
}()

func appendSmall(b []byte, v int) []byte {
	if i := v + fallenTime; i >= 0 && i < len(smallInts) {
		return append(b, smallInts[i]...)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// Apply takes the replies to Asks and plays the handshake or one turn. A
// missing reply counts as Gone.
func (s *State) Apply(replies []engine.Reply) engine.Step {
	if s.done {
		return engine.Step{}
	}
	if !s.ready {
		return s.applyReady(replies)
	}
	var st engine.Step
	t := s.turn
	seat := t % Seats
	p := &s.players[seat]
	cmd := byte('N')
	if !p.Fallen && !p.Stopped {
		r := engine.Reply{Status: engine.Gone}
		if len(replies) > 0 {
			r = replies[0]
		}
		ss := engine.SeatStep{Seat: seat}
		switch r.Status {
		case engine.Answered:
			c, detail, ok := ParseReply(r.Line)
			if ok {
				cmd = c
			} else {
				ss.Verdict, ss.Detail = engine.Invalid, detail
				st.Events = append(st.Events, engine.Event{Turn: t, Kind: engine.EventInvalid, Seats: []int{seat},
					Text: s.name(seat) + ": " + detail})
			}
		case engine.TimedOut:
			ss.Verdict, ss.Detail = engine.Timeout, fmt.Sprintf("no reply within %v", s.cfg.turn)
			s.stop(&st, seat, "timeout")
			st.Events = append(st.Events, engine.Event{Turn: t, Kind: engine.EventTimeout, Seats: []int{seat},
				Text: fmt.Sprintf("%s gave no reply within %v; its piece stays and does N from now on", s.name(seat), s.cfg.turn)})
		case engine.Closed:
			ss.Verdict, ss.Detail = engine.Crashed, "the bot's output closed"
			s.stop(&st, seat, "crashed")
			st.Events = append(st.Events, engine.Event{Turn: t, Kind: engine.EventCrash, Seats: []int{seat},
				Text: s.name(seat) + "'s bot stopped; its piece stays and does N from now on"})
		default:
			ss.Verdict, ss.Detail = engine.NotAsked, "the bot was already stopped"
			p.Stopped, p.Fault = true, "gone"
		}
		if p.Wait > 0 {
			cmd = 'N'
			if ss.Verdict == engine.OK {
				ss.Detail = "waiting"
			}
		}
		ss.Action = commandLines[strings.IndexByte(Commands, cmd)][:1]
		st.Seats = []engine.SeatStep{ss}
	} else {
		// Its turn came but nobody was asked: counted, so a seat's
		// verdicts add up to its turns.
		detail := "fallen"
		if !p.Fallen {
			detail = "bot stopped; the piece does N"
		}
		st.Seats = []engine.SeatStep{{Seat: seat, Verdict: engine.NotAsked, Action: "N", Detail: detail}}
	}
	fell := s.play(cmd)
	if fell != 0 {
		var seats []int
		var who []string
		for i := range Seats {
			if fell&(1<<i) != 0 {
				seats = append(seats, i)
				who = append(who, s.name(i))
				if !s.players[i].Stopped {
					s.players[i].Stopped = true
					st.Stop = append(st.Stop, i)
				}
			}
		}
		st.Events = append(st.Events, engine.Event{Turn: t, Kind: engine.EventFall, Seats: seats,
			Text: strings.Join(who, " and ") + " fell"})
	}
	if s.done {
		st.Events = append(st.Events, s.endEvent(t))
	}
	return st
}

func (s *State) stop(st *engine.Step, seat int, fault string) {
	s.players[seat].Stopped = true
	s.players[seat].Fault = fault
	st.Stop = append(st.Stop, seat)
}

func (s *State) applyReady(replies []engine.Reply) engine.Step {
	var st engine.Step
	st.Seats = make([]engine.SeatStep, Seats)
	for i := range Seats {
		r := engine.Reply{Status: engine.Gone}
		if i < len(replies) {
			r = replies[i]
		}
		ss := engine.SeatStep{Seat: i, Action: "N"}
		switch {
		case r.Status == engine.Answered && IsReady(r.Line):
			ss.Action = "READY"
		case r.Status == engine.Answered:
			// The runner filters with Expect, so this is only reached when
			// replies come from elsewhere; refusing is the safe reading.
			ss.Verdict, ss.Detail = engine.Invalid, fmt.Sprintf("%q is not READY", r.Line)
			s.stop(&st, i, "no READY")
			st.Events = append(st.Events, engine.Event{Kind: engine.EventInvalid, Seats: []int{i},
				Text: s.name(i) + " answered " + strconv.Quote(r.Line) + " instead of READY; its piece stays and does N"})
		case r.Status == engine.TimedOut:
			ss.Verdict, ss.Detail = engine.Timeout, fmt.Sprintf("no READY within %v", s.cfg.ready)
			s.stop(&st, i, "timeout")
			st.Events = append(st.Events, engine.Event{Kind: engine.EventTimeout, Seats: []int{i},
				Text: fmt.Sprintf("%s sent no READY within %v; its piece stays and does N", s.name(i), s.cfg.ready)})
		case r.Status == engine.Closed:
			ss.Verdict, ss.Detail = engine.Crashed, "the bot's output closed before READY"
			s.stop(&st, i, "crashed")
			st.Events = append(st.Events, engine.Event{Kind: engine.EventCrash, Seats: []int{i},
				Text: s.name(i) + "'s bot stopped before READY; its piece stays and does N"})
		default:
			ss.Verdict, ss.Detail = engine.NotAsked, "the bot was already stopped"
			s.players[i].Stopped, s.players[i].Fault = true, "gone"
		}
		st.Seats[i] = ss
	}
	s.ready = true
	return st
}

func (s *State) endEvent(t int) engine.Event {
	e := engine.Event{Turn: t, Kind: engine.EventEnd}
	switch s.reason {
	case ReasonLastStanding:
		for i, p := range s.players {
			if !p.Fallen {
				e.Seats = []int{i}
				e.Text = s.name(i) + " wins: last one standing"
			}
		}
	case ReasonAllFallen:
		e.Text = fmt.Sprintf("draw: the last players fell together on turn %d", t)
	default:
		for i, p := range s.players {
			if !p.Fallen {
				e.Seats = append(e.Seats, i)
			}
		}
		e.Text = fmt.Sprintf("draw after %d turns: %d players left", s.turn, s.left)
	}
	return e
}

func (s *State) name(seat int) string {
	if seat < len(s.names) && s.names[seat] != "" {
		return s.names[seat]
	}
	return "player " + strconv.Itoa(seat)
}

// play carries out one global turn with the turn player's command (already
// read from its reply, or 'N') and returns the players who fell, one bit
// per seat.
func (s *State) play(cmd byte) (fell uint8) {
	p := &s.players[s.turn%Seats]
	if !p.Fallen {
		if p.Wait > 0 {
			cmd = 'N'
		}
		switch cmd {
		case 'U', 'R', 'D', 'L':
			s.move(p, cmd)
		case 'A':
			s.attack(p)
			p.Wait = attackWait
		}
		if p.Wait > 0 {
			p.Wait--
		}
		p.Last = cmd
	}
	if s.busy > 0 {
		fell = s.tick()
	}
	s.turn++
	switch {
	case s.left == 1:
		s.done, s.reason = true, ReasonLastStanding
	case s.left == 0:
		s.done, s.reason = true, ReasonAllFallen
	case s.turn >= s.cfg.maxTurns:
		s.done, s.reason = true, ReasonTurnLimit
	}
	return fell
}

// move turns p toward d and steps there unless the square is off the
// board, in a fallen block, or within distance 3 of another player on the
// board.
func (s *State) move(p *Player, d byte) {
	p.Dir = d
	dr, dc := step(d)
	r, c := p.Row+dr, p.Col+dc
	if !onBoard(r, c) || s.blocks[r/BlockSize][c/BlockSize] < 0 {
		return
	}
	for i := range s.players {
		q := &s.players[i]
		if q != p && !q.Fallen && manhattan(r, c, q.Row, q.Col) < MinStartDistance {
			return
		}
	}
	p.Row, p.Col = r, c
}

// attack schedules every stable block on the line from p's block in its
// facing, starting with the neighbouring block, at 4n for block distance n.
func (s *State) attack(p *Player) {
	dr, dc := step(p.Dir)
	r, c := p.Row/BlockSize+dr, p.Col/BlockSize+dc
	for n := 1; r >= 0 && r < Blocks && c >= 0 && c < Blocks; n++ {
		if s.blocks[r][c] == 0 {
			s.blocks[r][c] = attackStep * n
			s.busy++
		}
		r, c = r+dr, c+dc
	}
}

// tick advances every block timer by one turn and drops the players
// standing on blocks that fell.
func (s *State) tick() (fell uint8) {
	dropped := false
	for r := range s.blocks {
		row := &s.blocks[r]
		for c, v := range row {
			switch {
			case v > 1:
				row[c] = v - 1
			case v == 1:
				row[c] = -fallenTime
				dropped = true
			case v == -1:
				row[c] = 0
				s.busy--
			case v < 0:
				row[c] = v + 1
			}
		}
	}
	if !dropped {
		return 0
	}
	for i := range s.players {
		p := &s.players[i]
		if !p.Fallen && s.blocks[p.Row/BlockSize][p.Col/BlockSize] == -fallenTime {
			p.Fallen, p.FellAt = true, s.turn
			s.left--
			fell |= 1 << i
		}
	}
	return fell
}
