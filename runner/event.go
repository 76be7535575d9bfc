package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"ringside/engine"
	"ringside/engine/event"
)

// DefaultConcurrency is how many games of seats bots each an event plays
// at once unless told otherwise. One core is left for Ringside itself and
// the desktop; the others are shared out as two cores for every two seats
// of a game: a game's bots may all think at once (Cloud asks every seat
// each turn), and while a turn-by-turn game keeps about one busy, Java
// bots' start-ups take a core each. On 2 cores that is one game at a time.
func DefaultConcurrency(seats int) int {
	return max(1, (runtime.NumCPU()-1)*2/max(seats, 2))
}

// Event plays an event's games on a pool of workers. It schedules with
// engine/event, so the same configuration and results always give the
// same games, and reports every step through callbacks; storing is the
// caller's business (the callbacks run on Run's goroutine, one at a time).
type Event struct {
	Game        engine.Game
	Options     engine.Options
	Config      event.Config
	Bots        []Bot // one per entry of Config.Entries
	Concurrency int   // 0: DefaultConcurrency(Config.Seats)
	TimeScale   float64
	// Sandbox is how the event's bots are contained.
	Sandbox Sandbox
	// Pace, when above 0, plays each game at most Pace turns a second
	// (Match.Pace).
	Pace float64

	// Done are the outcomes already stored: a resumed event goes on from
	// them and plays only what is missing.
	Done []event.Outcome
	// Games, when set, are the only games to play, instead of the ones
	// Config schedules: a shard of an event played on another machine
	// ("ringside shard run"). Done then holds outcomes of these games only.
	Games []event.Game

	// OnScheduled is called with games not seen before, before any of
	// them is played, so that they can be stored first.
	OnScheduled func(games []event.Game) error
	// OnStart is called when a game is handed to a worker.
	OnStart func(g event.Game) error
	// OnFinished is called for each game played to its end.
	OnFinished func(g event.Game, out *Outcome) error
	// OnProgress is called after every change of the counts.
	OnProgress func(p Progress)
	// OnLog is called as each game starts and after each of its steps
	// (Match.OnLog), from the goroutine playing that game: games played
	// at once call it at once. It must return quickly.
	OnLog func(g event.Game, log *engine.Log)

	mu     sync.Mutex
	paused bool
	wake   chan struct{}
}

// Progress is a snapshot of an event run.
type Progress struct {
	Done      int // games with a result, including earlier runs
	Scheduled int // games known so far (adaptive formats add rounds)
	Running   int
	Paused    bool
	Finished  bool
	Elapsed   time.Duration // of this run
	// Left estimates the time to play the known games that are left, from
	// this run's pace; 0 until a game has finished.
	Left time.Duration
}

// ErrGame is wrapped by Run's error when a game could not be played at
// all; the event stops so the set-up can be fixed. (Bots that cannot
// start are not such a case: they crash their seats.)
var ErrGame = errors.New("game could not be played")

type gameResult struct {
	game event.Game
	out  *Outcome
	err  error
}

// Pause stops handing out new games; the games being played finish.
func (e *Event) Pause() {
	e.mu.Lock()
	e.paused = true
	e.mu.Unlock()
	e.poke()
}

// Resume undoes Pause.
func (e *Event) Resume() {
	e.mu.Lock()
	e.paused = false
	e.mu.Unlock()
	e.poke()
}

// Paused reports whether the event is paused.
func (e *Event) Paused() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.paused
}

func (e *Event) poke() {
	e.mu.Lock()
	w := e.wake
	e.mu.Unlock()
	if w != nil {
		select {
		case w <- struct{}{}:
		default:
		}
	}
}

// Run plays the event until it is finished, ctx is cancelled (games in
// play are abandoned: they have no result and are played again from their
// seed on resume) or a callback fails.
func (e *Event) Run(ctx context.Context) error {
	if err := event.Validate(e.Config); err != nil {
		return err
	}
	if len(e.Bots) != len(e.Config.Entries) {
		return fmt.Errorf("event has %d entries but %d bots", len(e.Config.Entries), len(e.Bots))
	}
	workers := e.Concurrency
	if workers <= 0 {
		workers = DefaultConcurrency(e.Config.Seats)
	}
	e.mu.Lock()
	e.wake = make(chan struct{}, 1)
	e.mu.Unlock()

	began := time.Now()
	done := append([]event.Outcome(nil), e.Done...)
	startDone := len(done)
	seen := map[int]bool{} // game indexes scheduled or running in this run
	for _, o := range done {
		seen[o.Game.Index] = true
	}
	var queue []event.Game
	running := 0
	results := make(chan gameResult)
	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		// Abandoned games report to nobody; drain them so workers end.
		go func() {
			for range results {
			}
		}()
		wg.Wait()
		close(results)
	}()

	progress := func(finished bool) {
		if e.OnProgress == nil {
			return
		}
		p := Progress{Done: len(done), Scheduled: len(done) + running + len(queue), Running: running,
			Paused: e.Paused(), Finished: finished, Elapsed: time.Since(began)}
		if played := len(done) - startDone; played > 0 {
			per := p.Elapsed / time.Duration(played)
			p.Left = per * time.Duration(len(queue)+running) / time.Duration(workers)
			if running > 0 || len(queue) > 0 {
				p.Left += per / 2
			}
		}
		e.OnProgress(p)
	}

	for {
		// New games appear as rounds complete.
		next, finished, err := e.next(done, len(seen) > len(e.Done))
		if err != nil {
			return err
		}
		var fresh []event.Game
		for _, g := range next {
			if !seen[g.Index] {
				fresh = append(fresh, g)
				seen[g.Index] = true
			}
		}
		if len(fresh) > 0 {
			if e.OnScheduled != nil {
				if err := e.OnScheduled(fresh); err != nil {
					return err
				}
			}
			queue = append(queue, fresh...)
		}
		if finished && running == 0 {
			progress(true)
			return nil
		}
		if finished {
			queue = nil // an SPRT that has decided needs no more games
		}
		for running < workers && len(queue) > 0 && !e.Paused() && ctx.Err() == nil {
			g := queue[0]
			queue = queue[1:]
			if e.OnStart != nil {
				if err := e.OnStart(g); err != nil {
					return err
				}
			}
			running++
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := Play(runCtx, e.match(g))
				select {
				case results <- gameResult{g, out, err}:
				case <-runCtx.Done():
				}
			}()
		}
		progress(false)
		if running == 0 && len(queue) == 0 {
			return fmt.Errorf("event schedule is stuck: no game to play and none running")
		}
		select {
		case r := <-results:
			running--
			if r.err != nil {
				return fmt.Errorf("game %d: %w: %w", r.game.Index+1, ErrGame, r.err)
			}
			if r.out.Log.Aborted != "" {
				continue
			}
			if e.OnFinished != nil {
				if err := e.OnFinished(r.game, r.out); err != nil {
					return err
				}
			}
			done = append(done, event.Outcome{Game: r.game, Ranks: r.out.Log.Result.Ranks})
		case <-e.wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// next is what event.Next says, or for an event of fixed Games, those
// games (the first time; handed reports a later call) and whether all of
// them are done.
func (e *Event) next(done []event.Outcome, handed bool) ([]event.Game, bool, error) {
	if e.Games == nil {
		return event.Next(e.Config, done)
	}
	if handed {
		return nil, len(done) >= len(e.Games), nil
	}
	return e.Games, len(done) >= len(e.Games), nil
}

// match is the runner.Match of one scheduled game.
func (e *Event) match(g event.Game) Match {
	bots := make([]Bot, len(g.Seats))
	for s, entry := range g.Seats {
		bots[s] = e.Bots[entry]
	}
	m := Match{Game: e.Game, Options: e.Options, Seed: g.Seed, Bots: bots, TimeScale: e.TimeScale, PlayWithoutBots: true,
		Sandbox: e.Sandbox, Pace: e.Pace}
	if e.OnLog != nil {
		m.OnLog = func(log *engine.Log) { e.OnLog(g, log) }
	}
	return m
}
