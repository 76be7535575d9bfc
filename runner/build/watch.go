package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher watches the source folders of many AIs with one fsnotify watcher,
// every subfolder included (new ones are added as they appear), and reports
// a change per AI once its folder has been quiet for the debounce time.
// Build outputs, version control and editor temporary files are ignored
// (see Ignored). A folder that is deleted or renamed makes its AI missing;
// when a folder appears again at the path, watching resumes.
//
// Set the callbacks before the first Add. They are called one at a time
// from the watcher's own goroutine, so they must return quickly: start a
// build elsewhere rather than run it in OnChange.
type Watcher struct {
	// OnChange is called when an AI's folder changed and has been quiet for
	// the debounce time; at is when the last change was seen.
	OnChange func(name string, at time.Time)
	// OnMissing is called when an AI's folder is gone (deleted, renamed).
	OnMissing func(name string)
	// OnFound is called when a missing folder is back, before OnChange.
	OnFound func(name string)
	// OnError reports problems that do not stop watching (too many
	// folders for the system's inotify limit, a folder that cannot be read).
	OnError func(err error)

	debounce time.Duration
	fs       *fsnotify.Watcher
	kick     chan struct{}
	done     chan struct{}
	stopped  chan struct{}
	closeErr error
	once     sync.Once

	mu      sync.Mutex
	ais     map[string]*watched
	pending []func() // callbacks queued by Add, delivered by the loop
}

type watched struct {
	name    string
	root    string
	due     time.Time // zero when no change is waiting
	last    time.Time // the last change seen
	missing bool
}

// NewWatcher starts a watcher; debounce 0 means DefaultDebounce. Close it
// when done.
func NewWatcher(debounce time.Duration) (*Watcher, error) {
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	f, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch folders: %w", err)
	}
	w := &Watcher{debounce: debounce, fs: f, kick: make(chan struct{}, 1), done: make(chan struct{}),
		stopped: make(chan struct{}), ais: map[string]*watched{}}
	go w.loop()
	return w, nil
}

// Add starts watching an AI's source folder, replacing what was watched
// under that name. A folder that does not exist is not an error: the AI is
// reported missing and watched for again.
func (w *Watcher) Add(name, dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w.Remove(name)
	a := &watched{name: name, root: abs}
	w.mu.Lock()
	w.ais[name] = a
	w.mu.Unlock()
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		w.mu.Lock()
		a.missing = true
		w.queue(func() { w.call(w.OnMissing, name) })
		w.mu.Unlock()
		return nil
	}
	w.addTree(abs)
	return nil
}

// Remove stops watching an AI's folder. Unknown names are ignored.
func (w *Watcher) Remove(name string) {
	w.mu.Lock()
	a, ok := w.ais[name]
	if ok {
		delete(w.ais, name)
	}
	w.mu.Unlock()
	if ok {
		w.unwatchUnder(a.root)
	}
}

// Watching returns the names being watched and whether each is missing.
func (w *Watcher) Watching() map[string]bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]bool, len(w.ais))
	for n, a := range w.ais {
		out[n] = a.missing
	}
	return out
}

// Close stops watching. No callback is called after it returns.
func (w *Watcher) Close() error {
	w.once.Do(func() {
		close(w.done)
		<-w.stopped
		w.closeErr = w.fs.Close()
	})
	return w.closeErr
}

// queue adds a callback for the loop to deliver; w.mu must be held.
func (w *Watcher) queue(f func()) {
	w.pending = append(w.pending, f)
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *Watcher) call(f func(string), name string) {
	if f != nil {
		f(name)
	}
}

func (w *Watcher) report(err error) {
	if err != nil && w.OnError != nil {
		w.OnError(err)
	}
}

func (w *Watcher) loop() {
	defer close(w.stopped)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	poll := time.NewTicker(missingPoll)
	defer poll.Stop()
	for {
		var calls []func()
		select {
		case <-w.done:
			timer.Stop()
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			calls = w.event(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			calls = []func(){func() { w.report(fmt.Errorf("watching folders: %w", err)) }}
		case <-timer.C:
			calls = w.fire(time.Now())
		case <-poll.C:
			calls = w.lookForMissing()
		case <-w.kick:
		}
		w.mu.Lock()
		calls = append(w.pending, calls...)
		w.pending = nil
		next := time.Time{}
		for _, a := range w.ais {
			if !a.due.IsZero() && (next.IsZero() || a.due.Before(next)) {
				next = a.due
			}
		}
		w.mu.Unlock()
		if !next.IsZero() {
			timer.Reset(max(time.Until(next), 0))
		} else {
			timer.Stop()
		}
		for _, f := range calls {
			select {
			case <-w.done:
				return
			default:
			}
			f()
		}
	}
}

// event handles one file system event.
func (w *Watcher) event(ev fsnotify.Event) []func() {
	if ev.Op == fsnotify.Chmod {
		return nil
	}
	p := filepath.Clean(ev.Name)
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	created := ev.Has(fsnotify.Create) && isDir(p)
	w.mu.Lock()
	var hit []*watched
	for _, a := range w.ais {
		if a.missing {
			continue
		}
		if rel, ok := within(a.root, p); ok && (rel == "." || !ignoredPath(rel, created)) {
			hit = append(hit, a)
		}
	}
	w.mu.Unlock()
	if len(hit) == 0 {
		return nil
	}
	if gone {
		// A folder that went away or moved: its watch, and its children's
		// (now under stale names), must go too.
		w.unwatchUnder(p)
	}
	if created {
		// Files may be inside before the watch exists; the change scheduled
		// below covers them, as a build copies the whole folder.
		w.addTree(p)
	}
	rootBack := false
	if gone && isDir(p) {
		// Replaced at once (old folder moved aside, a new one in its place).
		for _, a := range hit {
			if a.root == p {
				rootBack = true
			}
		}
		if rootBack {
			w.addTree(p)
		}
	}
	now := time.Now()
	var calls []func()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, a := range hit {
		if w.ais[a.name] != a {
			continue // removed meanwhile
		}
		if gone && p == a.root && !rootBack {
			a.missing, a.due = true, time.Time{}
			name := a.name
			calls = append(calls, func() { w.call(w.OnMissing, name) })
			continue
		}
		a.last = now
		a.due = now.Add(w.debounce)
	}
	return calls
}

// fire reports the AIs whose folders have been quiet long enough.
func (w *Watcher) fire(now time.Time) []func() {
	type firing struct {
		a  *watched
		at time.Time
	}
	var due []firing
	w.mu.Lock()
	for _, a := range w.ais {
		if !a.due.IsZero() && !a.due.After(now) {
			a.due = time.Time{}
			due = append(due, firing{a, a.last})
		}
	}
	w.mu.Unlock()
	var calls []func()
	for _, f := range due {
		name, at := f.a.name, f.at
		if !isDir(f.a.root) {
			w.unwatchUnder(f.a.root)
			w.mu.Lock()
			if w.ais[name] == f.a && !f.a.missing {
				f.a.missing = true
				calls = append(calls, func() { w.call(w.OnMissing, name) })
			}
			w.mu.Unlock()
			continue
		}
		calls = append(calls, func() {
			if w.OnChange != nil {
				w.OnChange(name, at)
			}
		})
	}
	return calls
}

// lookForMissing resumes watching folders that are back.
func (w *Watcher) lookForMissing() []func() {
	var back []*watched
	w.mu.Lock()
	for _, a := range w.ais {
		if a.missing {
			back = append(back, a)
		}
	}
	w.mu.Unlock()
	var calls []func()
	for _, a := range back {
		if !isDir(a.root) {
			continue
		}
		w.addTree(a.root)
		now := time.Now()
		w.mu.Lock()
		if w.ais[a.name] == a && a.missing {
			a.missing = false
			name := a.name
			calls = append(calls, func() { w.call(w.OnFound, name) }, func() {
				if w.OnChange != nil {
					w.OnChange(name, now)
				}
			})
		}
		w.mu.Unlock()
	}
	return calls
}

// addTree watches dir and every folder below it that is not ignored, up
// to MaxWatchedFolders per AI: a folder of thousands of folders must not
// use up the user's inotify watches (which every editor needs too); the
// AI's error is reported instead and the rest is not watched.
func (w *Watcher) addTree(dir string) {
	name, root := "", ""
	w.mu.Lock()
	for _, a := range w.ais {
		if _, ok := within(a.root, dir); ok && len(a.root) > len(root) {
			name, root = a.name, a.root
		}
	}
	w.mu.Unlock()
	count := 0
	if root != "" {
		for _, p := range w.fs.WatchList() {
			if _, ok := within(root, p); ok {
				count++
			}
		}
	}
	errFull := errors.New("full")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted while walking
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && ignoredPath(d.Name(), true) {
			return filepath.SkipDir
		}
		if count >= MaxWatchedFolders {
			return errFull
		}
		if err := w.fs.Add(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("watch %s: %w (on Linux, raise fs.inotify.max_user_watches if there are many folders)", p, err)
		}
		count++
		return nil
	})
	if errors.Is(err, errFull) {
		err = fmt.Errorf("%s: its folder %s has more than %d folders; only %d are watched, so saves in the others may not rebuild it: leave out what the bot does not need with lines in %s",
			name, root, MaxWatchedFolders, MaxWatchedFolders, IgnoreFile)
	}
	if err != nil {
		w.mu.Lock()
		w.queue(func() { w.report(err) })
		w.mu.Unlock()
	}
}

// unwatchUnder drops the watches of dir and everything below it.
func (w *Watcher) unwatchUnder(dir string) {
	for _, p := range w.fs.WatchList() {
		if _, ok := within(dir, p); ok {
			_ = w.fs.Remove(p)
		}
	}
}

// ignoredPath is Ignored for watching: build outputs are always ignored (a
// change there is never a reason to build), and so are installed packages.
func ignoredPath(rel string, isDir bool) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if ignoredDirs[part] || outputDirs[part] || part == "node_modules" {
			return true
		}
	}
	return Ignored(filepath.ToSlash(rel), isDir, true)
}

// within returns p relative to root when p is root or below it.
func within(root, p string) (string, bool) {
	if p == root {
		return ".", true
	}
	if strings.HasPrefix(p, root+string(filepath.Separator)) {
		return p[len(root)+1:], true
	}
	return "", false
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
