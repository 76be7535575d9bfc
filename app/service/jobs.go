package service

import (
	"context"
	"fmt"
	"math"
	"sync"

	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// Jobs runs stored events in the background, one goroutine per event, and
// reports through callbacks from those goroutines (the UI wraps them in
// fyne.Do). It is the desktop app's counterpart of "ringside event run".
type Jobs struct {
	s *Service

	// OnProgress is called after every change of a running event's counts.
	OnProgress func(eventID int64, p Progress)
	// OnGameStarted is called when a game of an event is being played
	// (stored as running, and open to be watched live).
	OnGameStarted func(eventID int64)
	// OnGameDone is called after each game of an event has been stored.
	OnGameDone func(eventID int64)
	// OnStopped is called when an event's run ends: finished, paused by
	// cancel, or stopped by an error (err).
	OnStopped func(eventID int64, err error)

	mu      sync.Mutex
	running map[int64]*job
}

type job struct {
	ej     *EventJob
	cancel context.CancelFunc
	done   chan struct{}
}

// NewJobs makes a job runner over the service's database.
func NewJobs(s *Service) *Jobs {
	return &Jobs{s: s, running: map[int64]*job{}}
}

// Start runs event id in the background. Starting an event that is already
// running does nothing.
func (j *Jobs) Start(id int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, ok := j.running[id]; ok {
		return nil
	}
	ej, err := j.s.EventJob(id, 0)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	jb := &job{ej: ej, cancel: cancel, done: make(chan struct{})}
	ej.Run.OnProgress = func(p runner.Progress) {
		if j.OnProgress != nil {
			j.OnProgress(id, Progress(p))
		}
	}
	start := ej.Run.OnStart
	ej.Run.OnStart = func(g event.Game) error {
		if err := start(g); err != nil {
			return err
		}
		if j.OnGameStarted != nil {
			j.OnGameStarted(id)
		}
		return nil
	}
	finished := ej.Run.OnFinished
	ej.Run.OnFinished = func(g event.Game, out *runner.Outcome) error {
		if err := finished(g, out); err != nil {
			return err
		}
		if j.OnGameDone != nil {
			j.OnGameDone(id)
		}
		return nil
	}
	j.running[id] = jb
	go func() {
		err := ej.Start(ctx)
		j.mu.Lock()
		delete(j.running, id)
		j.mu.Unlock()
		close(jb.done)
		if j.OnStopped != nil {
			j.OnStopped(id, err)
		}
	}()
	return nil
}

// CreateAndStart creates the event spec describes and starts running it,
// as the app's New event, demos and Compare do.
func (j *Jobs) CreateAndStart(spec EventSpec) (storage.Event, int, error) {
	ev, n, err := j.s.CreateEvent(spec)
	if err != nil {
		return ev, n, err
	}
	return ev, n, j.Start(ev.ID)
}

// Count is how many events are being played now.
func (j *Jobs) Count() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.running)
}

// Running reports whether event id is being played now.
func (j *Jobs) Running(id int64) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	_, ok := j.running[id]
	return ok
}

// Pause stops handing out new games of event id; games in play finish.
func (j *Jobs) Pause(id int64) error { return j.with(id, func(jb *job) { jb.ej.Run.Pause() }) }

// Resume undoes Pause.
func (j *Jobs) Resume(id int64) error { return j.with(id, func(jb *job) { jb.ej.Run.Resume() }) }

// SetPace changes running event id's pace (turns a second; 0: as fast
// as the bots answer): its games in play follow from their next turn.
// The event keeps it when resumed later.
func (j *Jobs) SetPace(id int64, pace float64) error {
	if !(pace >= 0) || math.IsInf(pace, 0) {
		return Errorf(Invalid, "the pace must be 0 (as fast as the bots answer) or a number of turns a second above 0, not %g", pace)
	}
	if err := j.with(id, func(jb *job) { jb.ej.Run.SetPace(pace) }); err != nil {
		return err
	}
	if err := j.s.db.SetEventPace(id, pace); err != nil {
		return wrap(Failed, err, "the new pace is used but not saved")
	}
	return nil
}

// Pace is running event id's pace now, and whether it runs.
func (j *Jobs) Pace(id int64) (pace float64, running bool) {
	err := j.with(id, func(jb *job) { pace = jb.ej.Run.PaceNow() })
	return pace, err == nil
}

// SlowerPace and FasterPace are the paces a room steps through from
// pace: 0.5 to 32 turns a second, then as fast as the bots answer (0).
func SlowerPace(pace float64) float64 {
	if pace <= 0 {
		return paceSteps[len(paceSteps)-1]
	}
	for i := len(paceSteps) - 1; i >= 0; i-- {
		if paceSteps[i] < pace {
			return paceSteps[i]
		}
	}
	return pace // already the slowest step, or slower
}

// FasterPace: see SlowerPace.
func FasterPace(pace float64) float64 {
	if pace <= 0 {
		return 0
	}
	for _, p := range paceSteps {
		if p > pace {
			return p
		}
	}
	return 0
}

var paceSteps = []float64{0.5, 1, 2, 4, 8, 16, 32}

// PaceWords says a pace for a person: "4 turns a second", "as fast as the
// bots answer".
func PaceWords(pace float64) string {
	if pace <= 0 {
		return "as fast as the bots answer"
	}
	if pace == 1 {
		return "1 turn a second"
	}
	return paceText(pace) + " turns a second"
}

// Paused reports whether a running event is paused.
func (j *Jobs) Paused(id int64) bool {
	paused := false
	_ = j.with(id, func(jb *job) { paused = jb.ej.Run.Paused() })
	return paused
}

// Stop ends event id's run; games in play are abandoned and played again
// from their seeds when the event is resumed. It waits for the run to end.
func (j *Jobs) Stop(id int64) {
	j.mu.Lock()
	jb, ok := j.running[id]
	j.mu.Unlock()
	if !ok {
		return
	}
	jb.cancel()
	<-jb.done
}

// StopAll ends every run (on quit).
func (j *Jobs) StopAll() {
	j.mu.Lock()
	ids := make([]int64, 0, len(j.running))
	for id := range j.running {
		ids = append(ids, id)
	}
	j.mu.Unlock()
	for _, id := range ids {
		j.Stop(id)
	}
}

func (j *Jobs) with(id int64, f func(*job)) error {
	j.mu.Lock()
	jb, ok := j.running[id]
	j.mu.Unlock()
	if !ok {
		return fmt.Errorf("event %d is not running", id)
	}
	f(jb)
	return nil
}
