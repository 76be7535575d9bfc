package app

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"ringside/runner/build"
	"ringside/storage"
)

func init() {
	register(&command{
		name: "watch", usage: "[--db PATH] [--debounce DURATION] [--timeout DURATION]",
		summary: "rebuild watched AIs whenever their source folders change",
		help: `Watches the source folder of every watched AI (see "ringside ai add") and
builds a new revision whenever one changes: one line per build, with the time
from the save to the revision being ready. It first builds every watched AI
whose sources changed since its last revision. AIs added, removed or changed
while it runs are picked up within a few seconds. Stop it with Ctrl-C.

A change counts once the folder has been quiet for the debounce time, so a
burst of writes (an editor's save, a git checkout) makes one build. Changes to
.git, build outputs (bot, out/, target/, *.class, *.o) and editor temporary
files (*~, .*.swp, .#*, 4913, *.tmp) are ignored. A failed build keeps the
previous revision playing; "ringside ai show NAME" prints its output. A folder
that is deleted or renamed marks the AI missing until it is back.

  --debounce DURATION  quiet time before building (default 300ms)
  --timeout DURATION   longest a build may take (default 2m)
` + dbHelp,
		run: runWatch,
	})
}

func runWatch(c *cli, args []string) error {
	fs := c.flags("watch")
	dbPath := dbFlag(fs)
	debounce := fs.Duration("debounce", build.DefaultDebounce, "")
	timeout := fs.Duration("timeout", build.DefaultBuildTimeout, "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("watch: unexpected argument %q", fs.Arg(0))
	}
	if *debounce <= 0 || *timeout <= 0 {
		return usagef("watch: --debounce and --timeout must be above 0")
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		dir, err := dataDir(*dbPath)
		if err != nil {
			return err
		}
		s, err := newAIWatcher(db, dir, *debounce, *timeout)
		if err != nil {
			return err
		}
		var outMu sync.Mutex
		say := func(format string, args ...any) {
			outMu.Lock()
			defer outMu.Unlock()
			fmt.Fprintf(c.stdout, time.Now().Format("15:04:05")+" "+format+"\n", args...)
		}
		s.OnWatch = func(names []string) {
			if len(names) == 0 {
				say("no AI is watched yet; AIs added with \"ringside ai add\" are picked up (Ctrl-C stops)")
				return
			}
			say("watching %d AI(s): %s (Ctrl-C stops)", len(names), strings.Join(names, ", "))
		}
		s.OnBuild = func(ev buildEvent) { say("%s", ev.describe()) }
		s.OnMissing = func(name, dir string) {
			say("%s: folder %s is gone; the AI is marked missing until it is back", name, dir)
		}
		s.OnFound = func(name string) { say("%s: folder is back, watching again", name) }
		s.OnError = func(err error) { say("problem: %v", err) }
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return s.run(ctx)
	})
}

// aiWatcher keeps watched AIs built: it watches their folders, builds one
// AI at a time when a folder changed, and stores the revisions. "ringside
// watch" runs one, and so can the desktop app. Callbacks are called from
// run's goroutine, one at a time; set them before run.
type aiWatcher struct {
	OnWatch   func(names []string) // the set of watched AIs changed
	OnBuild   func(ev buildEvent)
	OnMissing func(name, dir string)
	OnFound   func(name string)
	OnError   func(err error)

	db      *storage.DB
	dataDir string
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

// buildEvent is one build done by an aiWatcher.
type buildEvent struct {
	AI    storage.AI
	Out   buildOutcome
	Err   error
	Saved time.Time // when the change was seen; zero for the start-up catch-up
	Ready time.Time // when the revision was stored
}

// describe is the one line "ringside watch" prints for a build.
func (ev buildEvent) describe() string {
	name := ev.AI.Name
	switch {
	case ev.Err != nil:
		return fmt.Sprintf("%s: cannot build: %v", name, ev.Err)
	case ev.Out.Unchanged && ev.Out.Rev.Status == storage.BuildFailed:
		return fmt.Sprintf("%s: sources as in the last failed build; still failing", name)
	case ev.Out.Unchanged:
		return fmt.Sprintf("%s: up to date (revision %d)", name, ev.Out.Rev.Number)
	case ev.Out.Rev.Status == storage.BuildOK:
		after := ""
		if !ev.Saved.IsZero() {
			after = fmt.Sprintf(", %v after the save", ev.Ready.Sub(ev.Saved).Round(time.Millisecond))
		}
		return fmt.Sprintf("%s: revision %d ready (%s)%s, build %v", name, ev.Out.Rev.Number, short(ev.Out.Rev.Hash),
			after, ev.Out.Result.Took.Round(time.Millisecond))
	default:
		return fmt.Sprintf("%s: build failed, the previous revision stays current: %s (\"ringside ai show %s\" has the output)",
			name, firstError(ev.Out.Rev.BuildLog), name)
	}
}

func newAIWatcher(db *storage.DB, dataDir string, debounce, timeout time.Duration) (*aiWatcher, error) {
	w, err := build.NewWatcher(debounce)
	if err != nil {
		return nil, err
	}
	s := &aiWatcher{db: db, dataDir: dataDir, timeout: timeout, w: w, syncEvery: 3 * time.Second,
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

func (s *aiWatcher) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *aiWatcher) note(f func()) {
	s.mu.Lock()
	s.notes = append(s.notes, f)
	s.mu.Unlock()
	s.poke()
}

func (s *aiWatcher) setMissing(name string, missing bool) {
	ai, err := s.db.AIByName(name)
	if err != nil {
		return
	}
	if ai.Missing != missing {
		ai.Missing = missing
		if err := s.db.UpdateAI(ai); err != nil && s.OnError != nil {
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
func (s *aiWatcher) sync(first bool) error {
	ais, err := s.db.ListAIs()
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
		if aiFolderExists(dir) {
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

func aiFolderExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// run watches and builds until ctx ends.
func (s *aiWatcher) run(ctx context.Context) error {
	defer s.w.Close()
	if err := s.sync(true); err != nil {
		return err
	}
	tick := time.NewTicker(s.syncEvery)
	defer tick.Stop()
	for {
		s.mu.Lock()
		notes := s.notes
		s.notes = nil
		s.mu.Unlock()
		for _, f := range notes {
			f()
		}
		if name, saved, ok := s.next(); ok {
			s.buildOne(ctx, name, saved)
			continue
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

// next takes the AI that has waited longest for a build.
func (s *aiWatcher) next() (string, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	best, found := "", false
	for name, at := range s.dirty {
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

func (s *aiWatcher) buildOne(ctx context.Context, name string, saved time.Time) {
	ai, err := s.db.AIByName(name)
	if err != nil {
		return // removed meanwhile
	}
	out, err := buildAI(ctx, s.db, s.dataDir, ai, false, s.timeout)
	ev := buildEvent{AI: ai, Out: out, Err: err, Saved: saved, Ready: time.Now()}
	if ctx.Err() != nil {
		return
	}
	if s.OnBuild != nil {
		s.OnBuild(ev)
	}
}
