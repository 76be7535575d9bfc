package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/runner/runnertest"
)

// generous bounds the wait for something that should happen: the tests
// never assert on speed, only that it happens.
const generous = 15 * time.Second

// watchLog collects a Watcher's callbacks.
type watchLog struct {
	changes chan string
	missing chan string
	found   chan string
}

func newTestWatcher(t *testing.T, debounce time.Duration) (*Watcher, *watchLog) {
	t.Helper()
	w, err := NewWatcher(debounce)
	if err != nil {
		t.Fatal(err)
	}
	l := &watchLog{changes: make(chan string, 100), missing: make(chan string, 100), found: make(chan string, 100)}
	w.OnChange = func(name string, at time.Time) {
		if at.IsZero() {
			t.Errorf("change of %s without a time", name)
		}
		l.changes <- name
	}
	w.OnMissing = func(name string) { l.missing <- name }
	w.OnFound = func(name string) { l.found <- name }
	w.OnError = func(err error) { t.Errorf("watch error: %v", err) }
	t.Cleanup(func() { w.Close() })
	return w, l
}

// expect waits for name on ch.
func expect(t *testing.T, ch chan string, name, what string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != name {
			t.Fatalf("%s: got %s, want %s", what, got, name)
		}
	case <-time.After(generous):
		t.Fatalf("%s: nothing for %s within %v", what, name, generous)
	}
}

// quiet checks nothing arrives on ch for a while (several debounce times).
func quiet(t *testing.T, ch chan string, d time.Duration, what string) {
	t.Helper()
	select {
	case got := <-ch:
		t.Fatalf("%s: unexpected event for %s", what, got)
	case <-time.After(d):
	}
}

func TestWatchSaves(t *testing.T) {
	t.Parallel()
	const debounce = 100 * time.Millisecond
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"main.go": "package main\n", "sub/x.go": "package sub\n"})
	w, l := newTestWatcher(t, debounce)
	if err := w.Add("alice", dir); err != nil {
		t.Fatal(err)
	}
	quiet(t, l.changes, 3*debounce, "after Add")

	// A plain save, in place (WriteFiles renames a whole file in).
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // saved\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expect(t, l.changes, "alice", "plain save")

	// An editor's atomic save: write a temporary file, rename it over.
	tmp := filepath.Join(dir, ".main.go.tmp")
	if err := os.WriteFile(tmp, []byte("package main // atomic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "main.go")); err != nil {
		t.Fatal(err)
	}
	expect(t, l.changes, "alice", "atomic save")

	runnertest.WriteFiles(t, dir, map[string]string{"sub/x.go": "package sub // deep\n"})
	expect(t, l.changes, "alice", "save in an existing subfolder")

	// A new subfolder: its creation is a change, and later saves inside it
	// are seen too.
	if err := os.MkdirAll(filepath.Join(dir, "newpkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	expect(t, l.changes, "alice", "new subfolder")
	runnertest.WriteFiles(t, dir, map[string]string{"newpkg/y.go": "package newpkg\n"})
	expect(t, l.changes, "alice", "save in a new subfolder")
	if err := os.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	expect(t, l.changes, "alice", "new nested folders")
	runnertest.WriteFiles(t, dir, map[string]string{"a/b/c/z.go": "package c\n"})
	expect(t, l.changes, "alice", "save in a new nested folder")
	quiet(t, l.changes, 3*debounce, "after the saves")
}

func TestWatchBurstIsOneChange(t *testing.T) {
	t.Parallel()
	// A long debounce: the burst below must fit in it however loaded the
	// machine is.
	const debounce = time.Second
	dir := t.TempDir()
	w, l := newTestWatcher(t, debounce)
	if err := w.Add("bob", dir); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		runnertest.WriteFiles(t, dir, map[string]string{fmt.Sprintf("f%d.py", i%7): fmt.Sprintf("x = %d\n", i)})
	}
	expect(t, l.changes, "bob", "burst")
	quiet(t, l.changes, 3*debounce, "after the burst")
}

func TestWatchIgnoresOutputsAndTempFiles(t *testing.T) {
	t.Parallel()
	const debounce = 100 * time.Millisecond
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"Main.java": "", "out/.keep": "", ".git/HEAD": "", "target/.keep": ""})
	w, l := newTestWatcher(t, debounce)
	if err := w.Add("carol", dir); err != nil {
		t.Fatal(err)
	}
	runnertest.WriteFiles(t, dir, map[string]string{
		"bot": "binary", "out/Main.class": "x", "Main.class": "x", "x.o": "x", "target/release/carol": "x",
		".git/index": "x", "Main.java~": "x", ".Main.java.swp": "x", ".#Main.java": "x", "4913": "", "save.tmp": "x",
		"__pycache__/m.pyc": "x", "node_modules/pkg/index.js": "x",
	})
	if err := os.Remove(filepath.Join(dir, "4913")); err != nil {
		t.Fatal(err)
	}
	quiet(t, l.changes, 5*debounce, "ignored files")
	runnertest.WriteFiles(t, dir, map[string]string{"Main.java": "class Main {}"})
	expect(t, l.changes, "carol", "a real source")
}

func TestWatchMissingFolder(t *testing.T) {
	t.Parallel()
	const debounce = 100 * time.Millisecond
	parent := t.TempDir()
	dir := filepath.Join(parent, "src")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": "", "sub/lib.py": ""})
	w, l := newTestWatcher(t, debounce)
	if err := w.Add("dave", dir); err != nil {
		t.Fatal(err)
	}

	// Deleted: missing, then back.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	expect(t, l.missing, "dave", "deleted folder")
	if !w.Watching()["dave"] {
		t.Errorf("Watching() does not say dave is missing")
	}
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": "print(1)\n"})
	expect(t, l.found, "dave", "folder back")
	expect(t, l.changes, "dave", "folder back")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": "print(2)\n"})
	expect(t, l.changes, "dave", "save after coming back")

	// Renamed away: missing; renamed back: found. Saves in the renamed
	// folder in between are not this AI's business.
	moved := filepath.Join(parent, "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	expect(t, l.missing, "dave", "renamed folder")
	runnertest.WriteFiles(t, moved, map[string]string{"bot.py": "print(3)\n"})
	quiet(t, l.changes, 3*debounce, "saves in the moved folder")
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	expect(t, l.found, "dave", "renamed back")
	expect(t, l.changes, "dave", "renamed back")
	runnertest.WriteFiles(t, dir, map[string]string{"sub/lib.py": "x = 1\n"})
	expect(t, l.changes, "dave", "save in a subfolder after coming back")

	// Added while missing.
	if err := w.Add("erin", filepath.Join(parent, "later")); err != nil {
		t.Fatal(err)
	}
	expect(t, l.missing, "erin", "added while missing")
	runnertest.WriteFiles(t, filepath.Join(parent, "later"), map[string]string{"bot.py": ""})
	expect(t, l.found, "erin", "appeared")
}

func TestWatchSeveralAIs(t *testing.T) {
	t.Parallel()
	const debounce = 100 * time.Millisecond
	a, b := t.TempDir(), t.TempDir()
	w, l := newTestWatcher(t, debounce)
	if err := w.Add("a", a); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("b", b); err != nil {
		t.Fatal(err)
	}
	runnertest.WriteFiles(t, b, map[string]string{"x.py": ""})
	expect(t, l.changes, "b", "save in b")
	quiet(t, l.changes, 3*debounce, "only b changed")

	w.Remove("b")
	runnertest.WriteFiles(t, b, map[string]string{"x.py": "1"})
	quiet(t, l.changes, 3*debounce, "b is no longer watched")
	runnertest.WriteFiles(t, a, map[string]string{"y.py": ""})
	expect(t, l.changes, "a", "a still watched")
	if got := w.Watching(); len(got) != 1 || got["a"] {
		t.Errorf("Watching() = %v", got)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestWatcherCapsFoldersPerAI: a folder of more folders than
// MaxWatchedFolders is watched only that far, with the AI's error
// reported, and the other AI's saves are still seen.
func TestWatcherCapsFoldersPerAI(t *testing.T) {
	w, l := newTestWatcher(t, 20*time.Millisecond)
	errs := make(chan error, 10)
	w.OnError = func(err error) { errs <- err }
	root := t.TempDir()
	big, small := filepath.Join(root, "big"), filepath.Join(root, "small")
	for i := range MaxWatchedFolders + 50 {
		if err := os.MkdirAll(filepath.Join(big, fmt.Sprintf("d%d", i/100), fmt.Sprintf("e%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runnertest.WriteFiles(t, small, map[string]string{"bot.py": "print(1)\n"})
	if err := w.Add("mallory", big); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("alice", small); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errs:
		if !strings.Contains(err.Error(), fmt.Sprintf("mallory: its folder %s has more than %d folders", big, MaxWatchedFolders)) {
			t.Fatalf("error: %v", err)
		}
	case <-time.After(generous):
		t.Fatal("no error for mallory's folder")
	}
	n := 0
	for _, p := range w.fs.WatchList() {
		if _, ok := within(big, p); ok {
			n++
		}
	}
	if n != MaxWatchedFolders {
		t.Fatalf("%d folders of mallory watched, want %d", n, MaxWatchedFolders)
	}
	runnertest.WriteFiles(t, small, map[string]string{"bot.py": "print(2)\n"})
	expect(t, l.changes, "alice", "alice's save")
}
