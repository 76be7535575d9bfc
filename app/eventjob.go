package app

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

// EventJob runs one stored event: it connects the runner's worker pool to
// the database, so that every scheduled game is stored before it is
// played and every finished game is committed on its own. The CLI and the
// desktop app both run events through it.
type EventJob struct {
	db    *storage.DB
	Event storage.Event
	Run   *runner.Event
	ids   map[int]int64 // game index → match id
	done  []event.Outcome

	// OnTakeOver, if set, is called when Start takes the event over from
	// a run that died without releasing it (a crash, SIGKILL).
	OnTakeOver func(gone storage.LockHolder)
}

// NewEventJob prepares event id for running. concurrency 0 keeps the
// event's own setting.
func NewEventJob(db *storage.DB, id int64, concurrency int) (*EventJob, error) {
	ev, err := db.Event(id)
	if err != nil {
		return nil, err
	}
	g, err := games.Get(ev.Game)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", id, err)
	}
	j := &EventJob{db: db, Event: ev, ids: map[int]int64{}}
	if concurrency <= 0 {
		concurrency = ev.Concurrency
	}
	bots := make([]runner.Bot, len(ev.Entries))
	for i, e := range ev.Entries {
		bots[i] = runner.Bot{Name: e.Name, Command: e.Command, Dir: e.Dir}
	}
	j.Run = &runner.Event{
		Game: g, Options: ev.Options, Config: ev.Config, Bots: bots,
		Concurrency: concurrency, TimeScale: ev.TimeScale,
		OnScheduled: j.scheduled, OnStart: j.start, OnFinished: j.finished,
	}
	return j, nil
}

// Start plays the event until it is finished or ctx is cancelled, keeping
// the event's status in the database up to date. A cancelled run leaves
// the event paused: "event resume" goes on from the stored results.
//
// Only one process runs an event at a time: Start holds the event's lock
// in the database (storage.LockEvent) for the whole run, and returns a
// *storage.LockedError naming the holder when another process runs it.
func (j *EventJob) Start(ctx context.Context) (err error) {
	id := j.Event.ID
	if j.Event.Status == storage.EventFinished {
		return fmt.Errorf("event %d is already finished", id)
	}
	lock, err := j.db.LockEvent(id)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := lock.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if lock.TookOver != nil && j.OnTakeOver != nil {
		j.OnTakeOver(*lock.TookOver)
	}
	// The holder before us may have finished it since NewEventJob looked.
	if ev, err := j.db.Event(id); err != nil {
		return err
	} else if ev.Status == storage.EventFinished {
		return fmt.Errorf("event %d is already finished", id)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var lost atomic.Bool
	go func() {
		select {
		case <-lock.Lost():
			lost.Store(true)
			cancel()
		case <-ctx.Done():
		}
	}()
	if _, err := j.db.ResetRunning(id); err != nil {
		return err
	}
	done, err := j.db.Outcomes(id)
	if err != nil {
		return err
	}
	ms, err := j.db.Matches(id)
	if err != nil {
		return err
	}
	for _, m := range ms {
		j.ids[m.Game.Index] = m.ID
	}
	j.Run.Done = done
	j.done = append([]event.Outcome(nil), done...)
	if err := j.db.SetEventStatus(id, storage.EventRunning); err != nil {
		return err
	}
	runErr := j.Run.Run(ctx)
	if lost.Load() {
		// Its games and status are the new holder's now.
		return fmt.Errorf("event %d was taken over by another process while this one did not answer; stopped without saving the games in play", id)
	}
	status := storage.EventFinished
	switch {
	case runErr == nil:
	case errors.Is(runErr, context.Canceled):
		status = storage.EventPaused
		runErr = nil
	default:
		status = storage.EventPaused
	}
	if err := j.db.SetEventStatus(id, status); err != nil && runErr == nil {
		runErr = err
	}
	if _, err := j.db.ResetRunning(id); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

func (j *EventJob) scheduled(gs []event.Game) error {
	if err := j.db.AddMatches(j.Event.ID, gs); err != nil {
		return err
	}
	ms, err := j.db.Matches(j.Event.ID)
	if err != nil {
		return err
	}
	for _, m := range ms {
		j.ids[m.Game.Index] = m.ID
	}
	return nil
}

func (j *EventJob) start(g event.Game) error {
	return j.db.StartMatch(j.ids[g.Index])
}

func (j *EventJob) finished(g event.Game, out *runner.Outcome) error {
	o := event.Outcome{Game: g, Ranks: out.Log.Result.Ranks}
	// The result and its rating points go in one transaction: a crash
	// between two writes would keep the game and lose its point.
	err := j.db.FinishMatchRated(j.ids[g.Index], out.Log.Result, out.Log, out.Wall.Round(time.Millisecond),
		j.ratings(append(j.done[:len(j.done):len(j.done)], o), g.Index))
	if err != nil {
		return err
	}
	j.done = append(j.done, o)
	return nil
}

// ratings returns every entry's rating after game index, for the ratings
// history. It is kept for charts and exports; standings are always
// recomputed from the results themselves.
func (j *EventJob) ratings(done []event.Outcome, index int) []storage.Rating {
	t, err := event.Standings(j.Event.Config, done)
	if err != nil {
		return nil // a schedule the standings cannot read yet; the result is still saved
	}
	rs := make([]storage.Rating, 0, len(t.Rows))
	for _, r := range t.Rows {
		rs = append(rs, storage.Rating{Entry: r.Entry, AfterMatch: index, Rating: r.Rating, Interval: (r.RatingHigh - r.RatingLow) / 2})
	}
	return rs
}
