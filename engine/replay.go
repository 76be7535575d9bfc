package engine

import (
	"encoding/json"
	"fmt"
	"time"
)

// Log is the compact record of a played match: the replies, not the states.
// Re-simulating it with Expand gives back every input, action and verdict.
type Log struct {
	Game    string    `json:"game"`
	Options Options   `json:"options"`
	Seed    int64     `json:"seed"`
	Players []string  `json:"players"`
	Steps   []LogStep `json:"steps"`
	Result  Result    `json:"result"`
	// Aborted is set when the match was cut short (cancelled); then Result
	// is not a game result.
	Aborted string `json:"aborted,omitempty"`
	// Branch is set on a game branched from another (runner.Branch).
	Branch *Branched `json:"branch,omitempty"`
	// InProgress marks the steps so far of a game still being played:
	// the game is not over and Result is not a game result.
	InProgress bool `json:"in_progress,omitempty"`
	// Deterministic says, per seat, whether its bot decides from its input
	// and the game's seed alone (a built-in, or an AI its teacher marked
	// so): a replay of such seats is the same game on any machine at any
	// load, and a difference elsewhere is expected noise. Nil when the
	// runner was not told (replays from before it was recorded, "ringside
	// play"): then nothing is known either way.
	Deterministic []bool `json:"deterministic,omitempty"`
}

// LogStep holds the replies to one step's asks, in ask order.
type LogStep struct {
	Replies []LogReply `json:"r,omitempty"`
	// Noise are lines bots printed when they were not asked.
	Noise []Noise `json:"n,omitempty"`
}

// LogReply is one seat's reply as the runner saw it.
type LogReply struct {
	Status Status `json:"s,omitempty"`
	Line   string `json:"l,omitempty"`
	Micros int64  `json:"t,omitempty"` // elapsed, microseconds
	Stderr string `json:"e,omitempty"` // stderr written since the seat was last asked
	// Note is the runner's remark: how a process ended, a cut line.
	Note string `json:"x,omitempty"`
}

// Noise is a line a bot printed when it was not asked.
type Noise struct {
	Seat int    `json:"s"`
	Line string `json:"l"`
}

// Reply turns a log entry back into the Reply the game saw.
func (r LogReply) Reply() Reply {
	return Reply{Status: r.Status, Line: r.Line, Elapsed: time.Duration(r.Micros) * time.Microsecond}
}

// LogReplyOf records a Reply. Elapsed is kept to the microsecond; the runner
// truncates before the game sees it so a re-simulation is exact.
func LogReplyOf(r Reply, stderr, note string) LogReply {
	return LogReply{Status: r.Status, Line: r.Line, Micros: r.Elapsed.Microseconds(), Stderr: stderr, Note: note}
}

// Replay is the full, readable record of a match (DESIGN.md, Replays).
type Replay struct {
	Format  string       `json:"format"`
	Game    string       `json:"game"`
	Options Options      `json:"options"`
	Seed    int64        `json:"seed"`
	Players []string     `json:"players"`
	Start   string       `json:"start,omitempty"`
	Steps   []ReplayStep `json:"steps"`
	Events  []Event      `json:"events"`
	Result  Result       `json:"result"`
	Aborted string       `json:"aborted,omitempty"`
	Branch  *Branched    `json:"branch,omitempty"`
	// InProgress marks a replay of a game still being played, exported
	// with the turns played so far (Log.InProgress).
	InProgress bool `json:"in_progress,omitempty"`
	// Deterministic is Log.Deterministic.
	Deterministic []bool `json:"deterministic,omitempty"`
}

// ReplayFormat names the replay JSON layout.
const ReplayFormat = "ringside-replay/1"

// ReplayStep is one step: the game's turn and what each asked seat did.
type ReplayStep struct {
	Turn  int          `json:"turn"`
	Seats []ReplaySeat `json:"seats"`
	Noise []Noise      `json:"noise,omitempty"`
}

// ReplaySeat is one seat's part of a step.
type ReplaySeat struct {
	Seat    int     `json:"seat"`
	Input   string  `json:"input"`
	Reply   *string `json:"reply"` // nil when no line came
	Status  string  `json:"status"`
	Action  string  `json:"action"`
	Verdict Verdict `json:"verdict"`
	Detail  string  `json:"detail,omitempty"`
	Millis  float64 `json:"ms"`
	Stderr  string  `json:"stderr,omitempty"`
	Note    string  `json:"note,omitempty"`
	// Unasked marks a seat whose turn it was but that was not asked
	// (fallen, or its bot stopped); it is not part of the log.
	Unasked bool `json:"unasked,omitempty"`
}

// Sim re-plays a log step by step. It is what the replay viewer and Expand
// use; the state after step i is the state the bots saw before step i+1.
type Sim struct {
	Game  Game
	Log   *Log
	State State
	Next  int // index of the next step to apply
}

// NewSim starts a re-simulation of log.
func NewSim(g Game, log *Log) (*Sim, error) {
	info := g.Info()
	if log.Game != info.ID {
		return nil, fmt.Errorf("replay is of game %q, not %q", log.Game, info.ID)
	}
	opts, err := info.Resolve(log.Options)
	if err != nil {
		return nil, fmt.Errorf("replay options: %w", err)
	}
	st, err := g.New(opts, log.Players, log.Seed)
	if err != nil {
		return nil, fmt.Errorf("replay start: %w", err)
	}
	return &Sim{Game: g, Log: log, State: st}, nil
}

// Step applies the next logged step and returns the asks it answered and
// what the game made of them.
func (s *Sim) Step() ([]Ask, Step, error) {
	if s.Next >= len(s.Log.Steps) {
		return nil, Step{}, fmt.Errorf("replay has no step %d", s.Next)
	}
	if s.State.Done() {
		return nil, Step{}, fmt.Errorf("replay step %d: game already over", s.Next)
	}
	ls := s.Log.Steps[s.Next]
	asks := s.State.Asks()
	if len(asks) != len(ls.Replies) {
		return nil, Step{}, fmt.Errorf("replay step %d: game asks %d seats, log has %d replies", s.Next, len(asks), len(ls.Replies))
	}
	replies := make([]Reply, len(asks))
	for i, r := range ls.Replies {
		replies[i] = r.Reply()
	}
	st := s.State.Apply(replies)
	s.Next++
	return asks, st, nil
}

// Resimulate plays a log's replies through the game again and returns the
// result the game reaches. It checks a log that comes from elsewhere (a
// shard played on another machine): a log whose replies do not make a
// finished game, or lead to another result than it records, is refused.
func Resimulate(g Game, log *Log) (Result, error) {
	if log.Aborted != "" {
		return Result{}, fmt.Errorf("replay was cut short (%s): it has no result", log.Aborted)
	}
	sim, err := NewSim(g, log)
	if err != nil {
		return Result{}, err
	}
	for range log.Steps {
		if _, _, err := sim.Step(); err != nil {
			return Result{}, err
		}
	}
	if !sim.State.Done() {
		return Result{}, fmt.Errorf("replay ends after %d steps but the game is not over", len(log.Steps))
	}
	return sim.State.Result(), nil
}

// Expand re-simulates a log into the full Replay.
func Expand(g Game, log *Log) (*Replay, error) {
	sim, err := NewSim(g, log)
	if err != nil {
		return nil, err
	}
	rp := &Replay{
		Format: ReplayFormat, Game: log.Game, Options: sim.optionsResolved(),
		Seed: log.Seed, Players: log.Players, Aborted: log.Aborted, Branch: log.Branch, InProgress: log.InProgress,
		Deterministic: log.Deterministic, Steps: make([]ReplayStep, 0, len(log.Steps)), Events: []Event{},
	}
	if s, ok := sim.State.(Starter); ok {
		rp.Start = s.Start()
	}
	for i := range log.Steps {
		turn := sim.State.Turn()
		asks, st, err := sim.Step()
		if err != nil {
			return nil, err
		}
		rs := ReplayStep{Turn: turn, Seats: make([]ReplaySeat, len(asks)), Noise: log.Steps[i].Noise}
		for j, a := range asks {
			lr := log.Steps[i].Replies[j]
			seat := ReplaySeat{Seat: a.Seat, Input: a.Input, Status: lr.Status.String(),
				Millis: float64(lr.Micros) / 1000, Stderr: lr.Stderr, Note: lr.Note}
			if lr.Status == Answered {
				line := lr.Line
				seat.Reply = &line
			}
			if j < len(st.Seats) {
				seat.Action, seat.Verdict, seat.Detail = st.Seats[j].Action, st.Seats[j].Verdict, st.Seats[j].Detail
			}
			rs.Seats[j] = seat
		}
		for _, ss := range st.Seats[min(len(asks), len(st.Seats)):] {
			rs.Seats = append(rs.Seats, ReplaySeat{Seat: ss.Seat, Status: Gone.String(), Unasked: true,
				Action: ss.Action, Verdict: ss.Verdict, Detail: ss.Detail})
		}
		for _, e := range st.Events {
			e.Step = i
			rp.Events = append(rp.Events, e)
		}
		rp.Steps = append(rp.Steps, rs)
	}
	if log.Aborted == "" && !log.InProgress {
		if !sim.State.Done() {
			return nil, fmt.Errorf("replay ends after %d steps but the game is not over", len(log.Steps))
		}
		rp.Result = sim.State.Result()
	}
	return rp, nil
}

// ParseStatus is the inverse of Status.String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("unknown reply status %q", s)
}

// DecodeReplay reads a replay file's JSON (from "ringside play --replay"
// or "replay export"), refusing anything of another format. Its errors
// begin "not a", to follow "FILE is".
func DecodeReplay(data []byte) (*Replay, error) {
	var rp Replay
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, fmt.Errorf("not a replay file (JSON: %v)", err)
	}
	if rp.Format != ReplayFormat {
		return nil, fmt.Errorf("not a Ringside replay (format %q, want %q)", rp.Format, ReplayFormat)
	}
	return &rp, nil
}

// Log recovers the compact log from an expanded replay, so a replay file
// written by "ringside play --replay" or "replay export" can be opened
// again; Expand of the result gives the same replay.
func (rp *Replay) Log() (*Log, error) {
	if rp.Format != ReplayFormat {
		return nil, fmt.Errorf("not a Ringside replay (format %q, want %q)", rp.Format, ReplayFormat)
	}
	log := &Log{Game: rp.Game, Options: rp.Options, Seed: rp.Seed, Players: rp.Players,
		Result: rp.Result, Aborted: rp.Aborted, Branch: rp.Branch, InProgress: rp.InProgress, Deterministic: rp.Deterministic,
		Steps: make([]LogStep, len(rp.Steps))}
	for i, st := range rp.Steps {
		ls := LogStep{Noise: st.Noise}
		for _, seat := range st.Seats {
			if seat.Unasked {
				continue
			}
			status, err := ParseStatus(seat.Status)
			if err != nil {
				return nil, fmt.Errorf("replay step %d: %w", i, err)
			}
			r := LogReply{Status: status, Micros: int64(seat.Millis*1000 + 0.5), Stderr: seat.Stderr, Note: seat.Note}
			if seat.Reply != nil {
				r.Line = *seat.Reply
			}
			ls.Replies = append(ls.Replies, r)
		}
		log.Steps[i] = ls
	}
	return log, nil
}

func (s *Sim) optionsResolved() Options {
	o, _ := s.Game.Info().Resolve(s.Log.Options)
	return o
}

// Branched says where a branched game left the game it came from: the
// same game re-played up to Step, from which Seat was played by Bot. The
// branch's steps before Step are the original's, byte for byte.
type Branched struct {
	Match int64  `json:"match,omitempty"` // the stored match branched from; 0 for a replay file
	Turn  int    `json:"turn"`            // the turn asked for
	Seat  int    `json:"seat"`            // 0-based, as in the replay's steps
	Step  int    `json:"step"`            // the first step the seat played live
	Bot   string `json:"bot"`             // who played the seat from Step on
	// Live is, per seat, the first step at which its program played live,
	// or -1 when its recorded replies fitted to the end.
	Live []int `json:"live"`
	// Warmup are Bot's answers to the inputs the seat received before
	// Step: it was fed them so it knows the game so far, but the game used
	// the recorded replies.
	Warmup []Warmup `json:"warmup,omitempty"`
}

// Warmup is one discarded answer of a branched seat's bot.
type Warmup struct {
	Step   int     `json:"step"`
	Status string  `json:"status"`
	Reply  *string `json:"reply"` // nil when no line came
	Millis float64 `json:"ms"`
	Stderr string  `json:"stderr,omitempty"`
	Note   string  `json:"note,omitempty"`
}

// WarmupOf records a discarded reply of step step.
func WarmupOf(step int, r LogReply) Warmup {
	w := Warmup{Step: step, Status: r.Status.String(), Millis: float64(r.Micros) / 1000, Stderr: r.Stderr, Note: r.Note}
	if r.Status == Answered {
		line := r.Line
		w.Reply = &line
	}
	return w
}
