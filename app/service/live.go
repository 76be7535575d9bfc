package service

import (
	"sync"
	"time"

	"ringside/engine"
	"ringside/storage"
)

// LiveSaveEvery is how often the process playing an event saves the turns
// so far of each of its running games to the database, where another
// process ("ringside replay export") can read them. Viewers in the same
// process get every step at once through Follow instead.
const LiveSaveEvery = time.Second

// Live follows the games this process is playing, step by step. The
// runner hands it each step as it is played (runner.Event.OnLog); viewers
// take them through a LiveFeed. Recording a step costs a lock, a copy of
// its replies and a non-blocking send per viewer: the game never waits for
// a viewer, and a slow viewer simply takes several steps at once.
type Live struct {
	mu     sync.Mutex
	byID   map[int64]*liveGame
	byGame map[liveKey]*liveGame
}

type liveKey struct {
	event int64
	index int
}

type liveGame struct {
	key     liveKey
	match   int64
	started bool       // the header is known (the runner reported the start)
	header  engine.Log // game, options, seed, players; no steps
	steps   []engine.LogStep
	saved   int // steps in the database's live copy; -1 for none yet
	ended   bool
	final   *engine.Log // the whole replay, when it ended with a result
	stopped string      // why it ended without one
	feeds   []*LiveFeed
}

func newLive() *Live {
	return &Live{byID: map[int64]*liveGame{}, byGame: map[liveKey]*liveGame{}}
}

// LiveGame is a game being played in this process.
type LiveGame struct {
	Match int64 // the match id
	Event int64
	Index int // the game's index in its event's schedule
	Steps int // steps played so far
}

// Games lists the games of event id being played in this process.
func (l *Live) Games(eventID int64) []LiveGame {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []LiveGame
	for _, g := range l.byID {
		if g.key.event == eventID {
			out = append(out, LiveGame{Match: g.match, Event: g.key.event, Index: g.key.index, Steps: len(g.steps)})
		}
	}
	return out
}

// Playing reports whether match id is being played in this process.
func (l *Live) Playing(matchID int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.byID[matchID]
	return ok
}

// begin starts following a game handed to a worker.
func (l *Live) begin(eventID int64, index int, matchID int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := &liveGame{key: liveKey{eventID, index}, match: matchID, saved: -1}
	if old := l.byGame[g.key]; old != nil {
		l.endLocked(old, nil, "the game was started again")
	}
	l.byID[matchID], l.byGame[g.key] = g, g
}

// record takes the runner's log after a step (or at the start). It runs
// on the goroutine playing the game, so it copies the new steps' replies:
// the runner may still add remarks to them when the game ends.
func (l *Live) record(eventID int64, index int, log *engine.Log) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.byGame[liveKey{eventID, index}]
	if g == nil || g.ended {
		return // an abandoned game still winding down
	}
	if !g.started {
		g.started = true
		g.header = engine.Log{Game: log.Game, Options: log.Options, Seed: log.Seed, Players: log.Players}
	}
	for _, s := range log.Steps[min(len(g.steps), len(log.Steps)):] {
		s.Replies = append([]engine.LogReply(nil), s.Replies...)
		g.steps = append(g.steps, s)
	}
	g.notifyLocked()
}

// finish ends a game with its stored replay.
func (l *Live) finish(eventID int64, index int, final *engine.Log) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g := l.byGame[liveKey{eventID, index}]; g != nil {
		l.endLocked(g, final, "")
	}
}

// stopEvent ends every game of an event still followed: the run is over.
func (l *Live) stopEvent(eventID int64, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, g := range l.byID {
		if g.key.event == eventID {
			l.endLocked(g, nil, why)
		}
	}
}

func (l *Live) endLocked(g *liveGame, final *engine.Log, why string) {
	g.ended, g.final, g.stopped = true, final, why
	if l.byID[g.match] == g {
		delete(l.byID, g.match)
	}
	if l.byGame[g.key] == g {
		delete(l.byGame, g.key)
	}
	g.notifyLocked()
}

func (g *liveGame) notifyLocked() {
	for _, f := range g.feeds {
		select {
		case f.c <- struct{}{}:
		default: // already told; it takes every new step at once
		}
	}
}

// unsaved returns, for each game of event id with steps not yet in the
// database, its match id and its log so far.
func (l *Live) unsaved(eventID int64) map[int64]*engine.Log {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[int64]*engine.Log{}
	for _, g := range l.byID {
		if g.key.event != eventID || !g.started || len(g.steps) <= g.saved {
			continue
		}
		log := g.header
		log.Steps = g.steps[:len(g.steps):len(g.steps)]
		log.InProgress = true
		out[g.match] = &log
		g.saved = len(g.steps)
	}
	return out
}

// saveLive writes the turns so far of event id's running games to db
// every LiveSaveEvery until stop closes.
func (l *Live) saveLive(db *storage.DB, eventID int64, stop <-chan struct{}) {
	t := time.NewTicker(LiveSaveEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		for id, log := range l.unsaved(eventID) {
			// A failed save costs only the other processes' view of the
			// game in play; its result is saved on its own when it ends.
			_ = db.SaveLive(id, log)
		}
	}
}

// LiveFeed is one viewer of a live game. C receives a value whenever there
// is something new to Take; values are not queued, so a viewer that takes
// its time gets every step since its last Take in one go.
type LiveFeed struct {
	C     <-chan struct{}
	c     chan struct{}
	l     *Live
	g     *liveGame
	taken int
}

// LiveUpdate is what a viewer has not seen yet of a live game.
type LiveUpdate struct {
	// Header is the game, options, seed and players (no steps); its Game
	// is "" until the runner has started the game.
	Header engine.Log
	// Steps are the steps played since the last Take.
	Steps []engine.LogStep
	// Ended is set once the game is over: Final is then its whole replay
	// as stored, or nil when it ended without a result (Stopped says why).
	Ended   bool
	Final   *engine.Log
	Stopped string
}

// Follow starts following match id, when this process is playing it. The
// first Take returns every step so far.
func (l *Live) Follow(matchID int64) (*LiveFeed, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.byID[matchID]
	if g == nil {
		return nil, false
	}
	c := make(chan struct{}, 1)
	c <- struct{}{}
	f := &LiveFeed{C: c, c: c, l: l, g: g}
	g.feeds = append(g.feeds, f)
	return f, true
}

// Take returns what happened since the last Take.
func (f *LiveFeed) Take() LiveUpdate {
	f.l.mu.Lock()
	defer f.l.mu.Unlock()
	g := f.g
	u := LiveUpdate{Header: g.header, Ended: g.ended, Final: g.final, Stopped: g.stopped}
	u.Steps = g.steps[f.taken:len(g.steps):len(g.steps)]
	f.taken = len(g.steps)
	return u
}

// Close stops following.
func (f *LiveFeed) Close() {
	f.l.mu.Lock()
	defer f.l.mu.Unlock()
	for i, x := range f.g.feeds {
		if x == f {
			f.g.feeds = append(f.g.feeds[:i], f.g.feeds[i+1:]...)
			break
		}
	}
}
