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
	// pace is SetPace's, once paceSet: it replaces Pace for every turn
	// from then on, games in play included.
	pace    float64
	paceSet bool
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

// SetPace changes the event's pace while it runs (Pace; 0: as fast as
// the bots answer): the games in play follow it from their next turn,
// the games to come from their first.
func (e *Event) SetPace(perSecond float64) {
	e.mu.Lock()
	e.pace, e.paceSet = perSecond, true
	e.mu.Unlock()
}

// PaceNow is the pace the event's games are played at now.
func (e *Event) PaceNow() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.paceSet {
		return e.pace
	}
	return e.Pace
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

	r := &eventRun{e: e, workers: workers, began: time.Now(), done: append([]event.Outcome(nil), e.Done...),
		seen: map[int]bool{}, results: make(chan gameResult)}
	r.startDone = len(r.done)
	for _, o := range r.done {
		r.seen[o.Game.Index] = true
	}
	var cancel context.CancelFunc
	r.ctx, cancel = context.WithCancel(ctx)
	defer r.end(cancel)
	for {
		finished, err := r.schedule()
		if err != nil {
			return err
		}
		if finished && r.running == 0 {
			r.progress(true)
			return nil
		}
		if finished {
			r.queue = nil // an SPRT that has decided needs no more games
		}
		if err := r.launch(ctx); err != nil {
			return err
		}
		r.progress(false)
		if r.running == 0 && len(r.queue) == 0 {
			return fmt.Errorf("event schedule is stuck: no game to play and none running")
		}
		if err := r.wait(ctx); err != nil {
			return err
		}
	}
}

// eventRun is one Run of an event: the games waiting, those in play and
// the outcomes so far.
type eventRun struct {
	e         *Event
	workers   int
	began     time.Time
	done      []event.Outcome
	startDone int          // outcomes known before this run
	seen      map[int]bool // game indexes scheduled or running in this run
	queue     []event.Game
	running   int
	results   chan gameResult
	ctx       context.Context // the games' own: cancelled when Run returns
	wg        sync.WaitGroup
}

// end abandons the games still in play and waits for their workers.
func (r *eventRun) end(cancel context.CancelFunc) {
	cancel()
	// Abandoned games report to nobody; drain them so workers end.
	go func() {
		for range r.results {
		}
	}()
	r.wg.Wait()
	close(r.results)
}

// schedule queues the games that have appeared (new games appear as
// rounds complete) and reports whether the event is finished.
func (r *eventRun) schedule() (finished bool, err error) {
	next, finished, err := r.e.next(r.done, len(r.seen) > len(r.e.Done))
	if err != nil {
		return false, err
	}
	var fresh []event.Game
	for _, g := range next {
		if !r.seen[g.Index] {
			fresh = append(fresh, g)
			r.seen[g.Index] = true
		}
	}
	if len(fresh) == 0 {
		return finished, nil
	}
	if r.e.OnScheduled != nil {
		if err := r.e.OnScheduled(fresh); err != nil {
			return false, err
		}
	}
	r.queue = append(r.queue, fresh...)
	return finished, nil
}

// launch starts queued games while workers are free, the event is not
// paused and ctx goes on.
func (r *eventRun) launch(ctx context.Context) error {
	for r.running < r.workers && len(r.queue) > 0 && !r.e.Paused() && ctx.Err() == nil {
		g := r.queue[0]
		r.queue = r.queue[1:]
		if r.e.OnStart != nil {
			if err := r.e.OnStart(g); err != nil {
				return err
			}
		}
		r.running++
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			out, err := Play(r.ctx, r.e.match(g))
			select {
			case r.results <- gameResult{g, out, err}:
			case <-r.ctx.Done():
			}
		}()
	}
	return nil
}

// wait waits for a game to end (and records it), a wake-up (Resume) or
// the end of ctx.
func (r *eventRun) wait(ctx context.Context) error {
	select {
	case res := <-r.results:
		r.running--
		if res.err != nil {
			return fmt.Errorf("game %d: %w: %w", res.game.Index+1, ErrGame, res.err)
		}
		if res.out.Log.Aborted != "" {
			return nil
		}
		if r.e.OnFinished != nil {
			if err := r.e.OnFinished(res.game, res.out); err != nil {
				return err
			}
		}
		r.done = append(r.done, event.Outcome{Game: res.game, Ranks: res.out.Log.Result.Ranks})
	case <-r.e.wake:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// progress tells OnProgress how far the event is, with an estimate of
// the time left.
func (r *eventRun) progress(finished bool) {
	if r.e.OnProgress == nil {
		return
	}
	p := Progress{Done: len(r.done), Scheduled: len(r.done) + r.running + len(r.queue), Running: r.running,
		Paused: r.e.Paused(), Finished: finished, Elapsed: time.Since(r.began)}
	if played := len(r.done) - r.startDone; played > 0 {
		per := p.Elapsed / time.Duration(played)
		p.Left = per * time.Duration(len(r.queue)+r.running) / time.Duration(r.workers)
		if r.running > 0 || len(r.queue) > 0 {
			p.Left += per / 2
		}
	}
	r.e.OnProgress(p)
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
		Sandbox: e.Sandbox, Pace: e.Pace, PaceNow: e.PaceNow}
	if e.OnLog != nil {
		m.OnLog = func(log *engine.Log) { e.OnLog(g, log) }
	}
	return m
}
