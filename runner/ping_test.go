package runner

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ringside/engine"
)

// pingGame is a tiny game for testing the runner: a READY handshake, then
// each turn one seat in rotation gets a number n and must answer n+1.
type pingGame struct{}

func (pingGame) Info() engine.Info {
	return engine.Info{ID: "ping", Name: "Ping", MinSeats: 1, MaxSeats: 4, Options: []engine.Option{
		{Key: "turns", Default: "8", Doc: "turns"},
		{Key: "turn_ms", Default: "300", Doc: "reply limit"},
		{Key: "all", Default: "0", Doc: "1: every seat answers each turn"},
		{Key: "judge", Default: "0", Doc: "1: the game judges each answer's time itself, as Battle 2048 does"},
	}}
}
func (pingGame) Bots() []string                           { return nil }
func (pingGame) NewBot(string, int64) (engine.Bot, error) { return nil, fmt.Errorf("none") }

func (pingGame) New(opts engine.Options, players []string, seed int64) (engine.State, error) {
	turns, err := strconv.Atoi(opts["turns"])
	if err != nil {
		return nil, err
	}
	ms, err := strconv.Atoi(opts["turn_ms"])
	if err != nil {
		return nil, err
	}
	return &pingState{n: len(players), turns: turns, limit: time.Duration(ms) * time.Millisecond,
		all: opts["all"] == "1", judge: opts["judge"] == "1", gone: make([]bool, len(players)), score: make([]int, len(players))}, nil
}

type pingState struct {
	n, turns, t int
	ready       bool
	all         bool
	judge       bool // an answer whose Elapsed is over limit is late
	limit       time.Duration
	gone        []bool
	score       []int
}

func (s *pingState) Asks() []engine.Ask {
	if !s.ready {
		var asks []engine.Ask
		for i := 0; i < s.n; i++ {
			asks = append(asks, engine.Ask{Seat: i, Timeout: s.limit,
				Expect: func(l string) bool { return strings.TrimSpace(l) == "READY" }})
		}
		return asks
	}
	var asks []engine.Ask
	for i := 0; i < s.n; i++ {
		if (s.all || i == s.t%s.n) && !s.gone[i] {
			asks = append(asks, engine.Ask{Seat: i, Input: fmt.Sprintf("%d\n", s.t*10), Timeout: s.limit})
		}
	}
	return asks
}

func (s *pingState) Apply(rs []engine.Reply) engine.Step {
	var st engine.Step
	asks := s.Asks()
	for i, r := range rs {
		seat := asks[i].Seat
		ss := engine.SeatStep{Seat: seat}
		switch r.Status {
		case engine.Answered:
			if s.judge && r.Elapsed > s.limit {
				ss.Verdict = engine.Timeout
			} else if !s.ready || r.Line == fmt.Sprint(s.t*10+1) {
				ss.Verdict = engine.OK
				if s.ready {
					s.score[seat]++
				}
			} else {
				ss.Verdict = engine.Invalid
			}
		case engine.TimedOut:
			ss.Verdict = engine.Timeout
		default:
			ss.Verdict = engine.Crashed
		}
		if ss.Verdict == engine.Timeout || ss.Verdict == engine.Crashed {
			s.gone[seat] = true
			st.Stop = append(st.Stop, seat)
		}
		st.Seats = append(st.Seats, ss)
	}
	if !s.ready {
		s.ready = true
		return st
	}
	if !s.all && s.gone[s.t%s.n] && len(rs) == 0 {
		st.Seats = append(st.Seats, engine.SeatStep{Seat: s.t % s.n, Verdict: engine.NotAsked})
	}
	s.t++
	return st
}

func (s *pingState) Done() bool { return s.ready && s.t >= s.turns }
func (s *pingState) Turn() int  { return s.t }
func (s *pingState) Result() engine.Result {
	return engine.Result{Ranks: engine.RanksByOrder(s.score), Reason: "turn_limit", Turns: s.t}
}
func (s *pingState) Clone() engine.State {
	c := *s
	c.gone = append([]bool(nil), s.gone...)
	c.score = append([]int(nil), s.score...)
	return &c
}
