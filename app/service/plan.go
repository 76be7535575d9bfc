package service

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ringside/engine/event"
)

// Plan is what an event would be before it is created: how many games, and
// how long they would take on this computer.
type Plan struct {
	Format  event.Format
	Entries int // ranked entries
	Fillers int // filler bots added to fill seats
	Seats   int // players per game
	// Games is the number of games; for a bracket and Swiss the first
	// round's (later rounds follow from results), for an SPRT the most.
	Games    int
	Adaptive bool
	// PerGame is the recent average of one game of this game here, over
	// Measured games; 0 when none was played yet.
	PerGame  time.Duration
	Measured int
	AtOnce   int // games played at once
	// Pace is the event's turns a second (0: not paced).
	Pace float64
}

// Duration is the expected wall time of Games games, 0 when unknown.
func (p Plan) Duration() time.Duration {
	if p.PerGame == 0 || p.AtOnce == 0 {
		return 0
	}
	return p.PerGame * time.Duration(p.Games) / time.Duration(p.AtOnce)
}

// Words says the plan in a sentence: "A league of 8 entries, 4 per game:
// 840 games, about 12m at 3 at once."
func (p Plan) Words() string {
	who := fmt.Sprintf("%d entries", p.Entries)
	if p.Fillers > 0 {
		who += fmt.Sprintf(" and %d filler bot(s)", p.Fillers)
	}
	games := fmt.Sprintf("%d games", p.Games)
	switch {
	case p.Format == event.SPRT:
		games = fmt.Sprintf("at most %d games (it stops as soon as the test decides)", p.Games)
	case p.Adaptive:
		games = fmt.Sprintf("%d games in the first round, more as results come in", p.Games)
	}
	s := fmt.Sprintf("A %s of %s, %d per game: %s", p.Format, who, p.Seats, games)
	if p.Pace > 0 {
		// Games played here lately were not slowed down to be watched:
		// their time says nothing about a paced event's.
		return s + fmt.Sprintf(", played at %s turns a second to be watched, so a game of 300 turns lasts %s.",
			paceText(p.Pace), roundDuration(time.Duration(300/p.Pace*float64(time.Second))))
	}
	if d := p.Duration(); d > 0 {
		s += fmt.Sprintf(", about %s at %d at once (games of this game took %s each lately)",
			roundDuration(d), p.AtOnce, roundDuration(p.PerGame))
	} else {
		s += "; how long they take shows once the first games are played"
	}
	return s + "."
}

// roundDuration keeps a duration readable: seconds below a minute,
// minutes below an hour.
func roundDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s") // "9m", not "9m0s"
	}
	s := strings.TrimSuffix(d.Round(10*time.Minute).String(), "0s") // "1h50m", "2h0m"
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// PlanEvent checks spec like CreateEvent and says what the event would
// be, without storing anything.
func (s *Service) PlanEvent(spec EventSpec) (Plan, error) {
	ev, sched, err := s.prepareEvent(spec)
	if err != nil {
		return Plan{}, err
	}
	cfg := ev.Config
	p := Plan{Format: cfg.Format, Seats: cfg.Seats, Games: len(sched), AtOnce: ev.Concurrency, Pace: ev.Pace}
	for _, e := range cfg.Entries {
		if e.Filler {
			p.Fillers++
		} else {
			p.Entries++
		}
	}
	switch cfg.Format {
	case event.SPRT:
		p.Games, p.Adaptive = cfg.Games, true
	case event.Bracket, event.Swiss:
		p.Adaptive = true
	}
	if p.AtOnce <= 0 {
		p.AtOnce = DefaultConcurrency(cfg.Seats)
	}
	p.PerGame, p.Measured, err = s.db.GameTime(ev.Game, 200)
	if err != nil {
		return p, err
	}
	return p, nil
}

// paceText writes a pace without needless decimals: "10", "2.5".
func paceText(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64)
}
