package service

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"ringside/runner/build"
	"ringside/storage"
)

// Watcher keeps watched AIs built: it watches their folders, builds
// (watchBuilders at once, one per AI) when a folder changed, and stores
// the revisions. "ringside
// watch" runs one, and so does the desktop app; builds lock each AI across
// processes, so two watchers on one database make one revision per
// source. Callbacks are called from Run's goroutine, one at a time; set
// them before Run.
type Watcher struct {
	OnWatch   func(names []string) // the set of watched AIs changed
	OnBuild   func(ev BuildEvent)
	OnMissing func(name, dir string)
	OnFound   func(name string)
	OnError   func(err error)

	OnStart func(ai AIInfo, saved time.Time) // a build begins

	s       *Service
	timeout time.Duration
	w       *build.Watcher
	// syncEvery is how often the list of AIs is read again.
	syncEvery time.Duration

	mu      sync.Mutex
	dirty   map[string]time.Time // AIs to build, with the time of the change
	notes   []func()             // missing/found reports for run to deliver
	wake    chan struct{}
	watched map[string]string // name → folder being watched
}

// BuildEvent is one build done by a Watcher.
type BuildEvent struct {
	AI    storage.AI
	Out   BuildOutcome
	Err   error
	Saved time.Time // when the change was seen; zero for the start-up catch-up
	Ready time.Time // when the revision was stored
}

// Describe is one line on how the build went, without advice on what
// to do next (that is each front end's).
func (ev BuildEvent) Describe() string {
	name := ev.AI.Name
	switch {
	case ev.Err != nil:
		return fmt.Sprintf("%s: cannot build: %v", name, ev.Err)
	case ev.Out.Unchanged && ev.Out.Failed():
		return fmt.Sprintf("%s: sources as in the last failed build; still failing", name)
	case ev.Out.Unchanged:
		return fmt.Sprintf("%s: up to date (revision %d)", name, ev.Out.Rev.Number)
	case !ev.Out.Failed():
		after := ""
		if !ev.Saved.IsZero() {
			after = fmt.Sprintf(", %v after the save", ev.Ready.Sub(ev.Saved).Round(time.Millisecond))
		}
		return fmt.Sprintf("%s: revision %d ready (%s)%s, build %v", name, ev.Out.Rev.Number, ShortHash(ev.Out.Rev.Hash),
			after, ev.Out.Result.Took.Round(time.Millisecond))
	default:
		return fmt.Sprintf("%s: build failed, the previous revision stays current: %s", name, FirstError(ev.Out.Rev.BuildLog))
	}
}

// NewWatcher makes a watcher of the service's watched AIs; debounce 0
// means build.DefaultDebounce and timeout 0 build.DefaultBuildTimeout.
func (svc *Service) NewWatcher(debounce, timeout time.Duration) (*Watcher, error) {
	w, err := build.NewWatcher(debounce)
	if err != nil {
		return nil, wrap(Failed, err, "watch")
	}
	s := &Watcher{s: svc, timeout: timeout, w: w, syncEvery: 3 * time.Second,
		dirty: map[string]time.Time{}, wake: make(chan struct{}, 1), watched: map[string]string{}}
	w.OnChange = func(name string, at time.Time) {
		s.mu.Lock()
		if prev, ok := s.dirty[name]; !ok || at.After(prev) {
			s.dirty[name] = at
		}
		s.mu.Unlock()
		s.poke()
	}
	w.OnMissing = func(name string) {
		s.note(func() { s.setMissing(name, true) })
	}
	w.OnFound = func(name string) {
		s.note(func() { s.setMissing(name, false) })
	}
	w.OnError = func(err error) {
		s.note(func() {
			if s.OnError != nil {
				s.OnError(err)
			}
		})
	}
	return s, nil
}

func (s *Watcher) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Watcher) note(f func()) {
	s.mu.Lock()
	s.notes = append(s.notes, f)
	s.mu.Unlock()
	s.poke()
}

func (s *Watcher) setMissing(name string, missing bool) {
	ai, err := s.s.db.AIByName(name)
	if err != nil {
		return
	}
	if ai.Missing != missing {
		ai.Missing = missing
		if err := s.s.db.UpdateAI(ai); err != nil && s.OnError != nil {
			s.OnError(err)
		}
	}
	if missing {
		s.mu.Lock()
		delete(s.dirty, name)
		s.mu.Unlock()
		if s.OnMissing != nil {
			s.OnMissing(name, ai.SourceDir)
		}
	} else if s.OnFound != nil {
		s.OnFound(name)
	}
}

// sync makes the watched set match the database: new watched AIs are added
// (and queued for a catch-up build), removed or unwatched ones dropped.
func (s *Watcher) sync(first bool) error {
	ais, err := s.s.db.ListAIs()
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, ai := range ais {
		if ai.Watch {
			want[ai.Name] = ai.SourceDir
		}
	}
	changed := first
	for name, dir := range s.watched {
		if want[name] != dir {
			s.w.Remove(name)
			delete(s.watched, name)
			s.mu.Lock()
			delete(s.dirty, name)
			s.mu.Unlock()
			changed = true
		}
	}
	for name, dir := range want {
		if _, ok := s.watched[name]; ok {
			continue
		}
		if err := s.w.Add(name, dir); err != nil {
			return err
		}
		s.watched[name] = dir
		changed = true
		if folderExists(dir) {
			s.mu.Lock()
			if _, ok := s.dirty[name]; !ok {
				s.dirty[name] = time.Time{}
			}
			s.mu.Unlock()
		}
	}
	if changed && s.OnWatch != nil {
		names := make([]string, 0, len(s.watched))
		for n := range s.watched {
			names = append(names, n)
		}
		sort.Strings(names)
		s.OnWatch(names)
	}
	return nil
}

// watchBuilders is how many builds a Watcher runs at once (never two of
// one AI): a build that hangs for its whole timeout holds one of them,
// not the class.
const watchBuilders = 2

// Run watches and builds until ctx ends. Builds run on watchBuilders
// goroutines, at most one per AI; a change seen while its AI builds is
// built after it (the newest change wins). Callbacks are still delivered
// here, one at a time.
func (s *Watcher) Run(ctx context.Context) error {
	defer s.w.Close()
	if err := s.sync(true); err != nil {
		return err
	}
	tick := time.NewTicker(s.syncEvery)
	defer tick.Stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	running := map[string]bool{}
	for {
		s.mu.Lock()
		notes := s.notes
		s.notes = nil
		s.mu.Unlock()
		for _, f := range notes {
			f()
		}
		for len(running) < watchBuilders {
			name, saved, ok := s.next(running)
			if !ok {
				break
			}
			ai, err := s.s.db.AIByName(name)
			if err != nil {
				continue // removed meanwhile
			}
			if s.OnStart != nil {
				s.OnStart(s.s.aiInfo(ai), saved)
			}
			running[name] = true
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev, ok := s.buildOne(ctx, ai, saved)
				s.note(func() {
					delete(running, name)
					if ok && s.OnBuild != nil {
						s.OnBuild(ev)
					}
				})
			}()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-tick.C:
			if err := s.sync(false); err != nil && s.OnError != nil {
				s.OnError(err)
			}
		}
	}
}

// next takes the AI, of those not building now, that has waited longest
// for a build.
func (s *Watcher) next(running map[string]bool) (string, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	best, found := "", false
	for name, at := range s.dirty {
		if running[name] {
			continue
		}
		if !found || at.Before(s.dirty[best]) || (at.Equal(s.dirty[best]) && name < best) {
			best, found = name, true
		}
	}
	if !found {
		return "", time.Time{}, false
	}
	at := s.dirty[best]
	delete(s.dirty, best)
	return best, at, true
}

// buildOne builds one AI (on a builder goroutine) and says what happened;
// false when ctx ended meanwhile.
func (s *Watcher) buildOne(ctx context.Context, ai storage.AI, saved time.Time) (BuildEvent, bool) {
	out, err := s.s.Build(ctx, ai.ID, BuildOptions{Timeout: s.timeout})
	if out.AI.ID != 0 {
		ai = out.AI
	}
	ev := BuildEvent{AI: ai, Out: out, Err: err, Saved: saved, Ready: time.Now()}
	return ev, ctx.Err() == nil
}
