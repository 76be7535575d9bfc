package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// watchRig runs a Watcher over a fresh database.
type watchRig struct {
	s      *Service
	db     *storage.DB
	root   string
	events chan BuildEvent
	// held are events of other AIs that next passed over: builds run in
	// parallel, so they arrive in any order.
	held []BuildEvent
	stop func()
	done chan error
}

func newWatchRig(t testing.TB) *watchRig {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(func() { build.Unseal(root) }) // revisions are read-only
	svc, err := Open(filepath.Join(root, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := svc.DB()
	r := &watchRig{s: svc, db: db, root: root, events: make(chan BuildEvent, 100), done: make(chan error, 1)}
	t.Cleanup(func() {
		if r.stop != nil {
			r.stop()
			<-r.done
		}
		db.Close()
	})
	return r
}

func (r *watchRig) start(t testing.TB, debounce time.Duration) {
	t.Helper()
	s, err := r.s.NewWatcher(debounce, build.DefaultBuildTimeout)
	if err != nil {
		t.Fatal(err)
	}
	s.syncEvery = 200 * time.Millisecond
	s.OnBuild = func(ev BuildEvent) { r.events <- ev }
	s.OnError = func(err error) { t.Errorf("watch: %v", err) }
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.done <- s.Run(ctx) }()
}

// add registers an AI and builds it once.
func (r *watchRig) add(t testing.TB, name, game string, files map[string]string) (storage.AI, string) {
	t.Helper()
	dir := filepath.Join(r.root, "src-"+name)
	runnertest.WriteFiles(t, dir, files)
	g, err := build.GuessCommands(dir)
	if err != nil {
		t.Fatal(err)
	}
	ai, err := r.db.AddAI(storage.AI{Name: name, Game: game, Language: g.Language, SourceDir: dir, BuildCmd: g.Build, RunCmd: g.Run, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.s.Build(context.Background(), ai.ID, BuildOptions{})
	if err != nil || out.Rev.Status != storage.BuildOK {
		t.Fatalf("first build of %s: %v\n%s", name, err, out.Rev.BuildLog)
	}
	return ai, dir
}

// next waits for the next build of name, skipping others' builds.
func (r *watchRig) next(t testing.TB, name string) BuildEvent {
	t.Helper()
	for i, ev := range r.held {
		if ev.AI.Name == name {
			r.held = append(r.held[:i], r.held[i+1:]...)
			return ev
		}
	}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev := <-r.events:
			if ev.AI.Name == name {
				return ev
			}
			r.held = append(r.held, ev)
		case <-deadline:
			t.Fatalf("no build of %s within a minute", name)
		}
	}
}

func TestAIWatcherBuildsRevisions(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t) // it watches a Python bot too
	r := newWatchRig(t)
	goAI, goDir := r.add(t, "gobot", "grip", map[string]string{"go.mod": "module bot\n\ngo 1.21\n", "main.go": fixture.GoBot(1)})
	pyAI, pyDir := r.add(t, "pybot", "grip", map[string]string{"bot.py": fixture.PyBot(1)})
	// A debounce of a second, not the default 300 ms: on a busy machine
	// the burst below must not pause long enough to be two bursts.
	const debounce = time.Second
	r.start(t, debounce)
	for _, name := range []string{"gobot", "pybot"} {
		if ev := r.next(t, name); ev.Err != nil || !ev.Out.Unchanged || ev.Out.Rev.Number != 1 {
			t.Fatalf("catch-up build of %s: %+v", name, ev)
		}
	}
	wantRev := func(ev BuildEvent, n int, what string) {
		t.Helper()
		if ev.Err != nil || ev.Out.Unchanged || ev.Out.Rev.Status != storage.BuildOK || ev.Out.Rev.Number != n {
			t.Fatalf("%s: want revision %d, got %+v (err %v)\n%s", what, n, ev.Out.Rev, ev.Err, ev.Out.Rev.BuildLog)
		}
		t.Logf("%s: %s save → revision ready %v (build %v)", what, ev.AI.Name, ev.Ready.Sub(ev.Saved).Round(time.Millisecond),
			ev.Out.Result.Took.Round(time.Millisecond))
	}

	// A plain save, in place (WriteFiles renames a whole file in).
	if err := os.WriteFile(filepath.Join(goDir, "main.go"), []byte(fixture.GoBot(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	wantRev(r.next(t, "gobot"), 2, "plain save")

	// An atomic save: temporary file renamed over the original.
	tmp := filepath.Join(pyDir, ".bot.py.tmp")
	if err := os.WriteFile(tmp, []byte(fixture.PyBot(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(pyDir, "bot.py")); err != nil {
		t.Fatal(err)
	}
	wantRev(r.next(t, "pybot"), 2, "atomic save")

	// 100 writes in a burst: one build.
	for i := range 100 {
		runnertest.WriteFiles(t, pyDir, map[string]string{"bot.py": fixture.PyBot(100 + i)})
	}
	wantRev(r.next(t, "pybot"), 3, "burst")
	select {
	case ev := <-r.events:
		t.Fatalf("a second build after one burst: %+v", ev)
	case <-time.After(4 * debounce):
	}

	// A broken edit: a failed build with the compiler's output; revision 2
	// stays current.
	runnertest.WriteFiles(t, goDir, map[string]string{"main.go": "package main\n\nfunc main() { fmt.Println(\"x\") }\n"})
	ev := r.next(t, "gobot")
	if ev.Err != nil || ev.Out.Rev.Status != storage.BuildFailed || ev.Out.Rev.Number != 0 ||
		!strings.Contains(ev.Out.Rev.BuildLog, "undefined: fmt") {
		t.Fatalf("broken edit: %+v\n%s", ev.Out.Rev, ev.Out.Rev.BuildLog)
	}
	if cur, err := r.db.CurrentRevision(goAI.ID); err != nil || cur.Number != 2 {
		t.Fatalf("current revision after a failed build: %+v %v", cur, err)
	}
	if !strings.Contains(ev.Describe(), "build failed, the previous revision stays current") {
		t.Errorf("describe = %q", ev.Describe())
	}
	runnertest.WriteFiles(t, goDir, map[string]string{"main.go": fixture.GoBot(3)})
	wantRev(r.next(t, "gobot"), 3, "fixed")

	// Files in a new subfolder are watched.
	runnertest.WriteFiles(t, pyDir, map[string]string{"lib/helper.py": "X = 1\n"})
	first := r.next(t, "pybot")
	if first.Out.Rev.Status != storage.BuildOK || first.Out.Unchanged {
		t.Fatalf("new subfolder: %+v", first)
	}
	n := first.Out.Rev.Number
	runnertest.WriteFiles(t, pyDir, map[string]string{"lib/helper.py": "X = 2\n"})
	wantRev(r.next(t, "pybot"), n+1, "save in a new subfolder")

	// Build outputs never land in the watched folders.
	for _, dir := range []string{goDir, pyDir} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == "bot" || e.Name() == "out" || strings.HasPrefix(e.Name(), ".build-") {
				t.Errorf("%s holds %s", dir, e.Name())
			}
		}
	}

	// Every revision stays runnable: the two Go revisions play each other.
	revs, err := r.db.Revisions(goAI.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ok []storage.Revision
	for _, rv := range revs {
		if rv.Status == storage.BuildOK {
			ok = append(ok, rv)
		}
	}
	if len(ok) != 3 {
		t.Fatalf("gobot has %d good revisions, want 3", len(ok))
	}
	g, err := games.Get("grip")
	if err != nil {
		t.Fatal(err)
	}
	o, err := runner.Play(context.Background(), runner.Match{Game: g, Seed: 2, Options: engine.Options{"max_turns": "40"},
		Bots: []runner.Bot{revisionBot(goAI, ok[0]), revisionBot(goAI, ok[2]),
			{Name: "r1", Command: "builtin:grip/random"}, {Name: "r2", Command: "builtin:grip/random"}}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		if v := o.Verdicts[seat]; v[engine.Crashed]+v[engine.Invalid] > 0 {
			t.Errorf("revisions 1 and 3 playing: seat %d verdicts %v, notes %q", seat, v, o.Notes[seat])
		}
	}

	// The folder deleted: the AI is marked missing.
	if err := os.RemoveAll(pyDir); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(runnertest.Patience(t))
	for {
		ai, err := r.db.AI(pyAI.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ai.Missing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the deleted folder's AI is not marked missing")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// An AI added while watching is picked up.
	_, newDir := r.add(t, "late", "grip", map[string]string{"main.py": fixture.PyBot(1)})
	if ev := r.next(t, "late"); !ev.Out.Unchanged {
		t.Fatalf("catch-up build of a new AI: %+v", ev)
	}
	runnertest.WriteFiles(t, newDir, map[string]string{"main.py": fixture.PyBot(2)})
	wantRev(r.next(t, "late"), 2, "AI added while watching")
}

// BenchmarkSaveToRevision measures the time from a save to the revision
// being stored, with the default debounce, for a Go bot (go build) and a
// Python bot (nothing to build).
func BenchmarkSaveToRevision(b *testing.B) {
	for _, lang := range []string{"go", "python"} {
		b.Run(lang, func(b *testing.B) {
			runnertest.NeedTool(b, map[string]string{"go": "go", "python": "python3"}[lang])
			r := newWatchRig(b)
			files, file, src := map[string]string{"go.mod": "module bot\n", "main.go": fixture.GoBot(0)}, "main.go",
				fixture.GoBot
			if lang == "python" {
				files, file, src = map[string]string{"bot.py": fixture.PyBot(0)}, "bot.py", fixture.PyBot
			}
			_, dir := r.add(b, "bench", "grip", files)
			r.start(b, build.DefaultDebounce)
			r.next(b, "bench") // catch-up
			v := 1
			var total, built time.Duration
			for b.Loop() {
				v++
				runnertest.WriteFiles(b, dir, map[string]string{file: src(v)})
				ev := r.next(b, "bench")
				if ev.Out.Rev.Status != storage.BuildOK {
					b.Fatalf("build failed: %s", ev.Out.Rev.BuildLog)
				}
				total += ev.Ready.Sub(ev.Saved)
				built += ev.Out.Result.Took
			}
			n := float64(v - 1)
			b.ReportMetric(float64(total.Milliseconds())/n, "ms/save-to-revision")
			// The promise: save → revision ≤ debounce + build time + 100 ms.
			b.ReportMetric(float64(built.Milliseconds())/n, "ms/build")
			b.ReportMetric(float64((total-built).Milliseconds())/n-float64(build.DefaultDebounce.Milliseconds()), "ms/overhead")
		})
	}
}

// TestWatchedDataFileMakesNoRevision: a CSV or a log saved into a watched
// folder is not a source: at most an unchanged build, never a revision.
func TestWatchedDataFileMakesNoRevision(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	r := newWatchRig(t)
	_, dir := r.add(t, "pybot", "grip", map[string]string{"bot.py": fixture.PyBot(1)})
	r.start(t, 50*time.Millisecond)
	r.next(t, "pybot") // catch-up
	runnertest.WriteFiles(t, dir, map[string]string{"results.csv": "game,rank\n1,1\n", "run.log": "turn 1\n"})
	if ev := r.next(t, "pybot"); ev.Err != nil || !ev.Out.Unchanged || ev.Out.Rev.Number != 1 {
		t.Fatalf("after saving data files: %+v (err %v)", ev.Out.Rev, ev.Err)
	}
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(2)})
	if ev := r.next(t, "pybot"); ev.Err != nil || ev.Out.Unchanged || ev.Out.Rev.Number != 2 {
		t.Fatalf("after a source change: %+v (err %v)", ev.Out.Rev, ev.Err)
	}
}

// TestWatcherBuildsPinnedAI: a pinned AI's saves still become revisions,
// but its name keeps playing the pin until it is unpinned.
func TestWatcherBuildsPinnedAI(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	r := newWatchRig(t)
	ai, dir := r.add(t, "pinny", "grip", map[string]string{"bot.py": fixture.PyBot(1)})
	if _, err := r.s.PinAI(ai.ID, 1); err != nil {
		t.Fatal(err)
	}
	r.start(t, build.DefaultDebounce)
	r.next(t, "pinny") // catch-up
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(2)})
	if ev := r.next(t, "pinny"); ev.Err != nil || ev.Out.Rev.Number != 2 || ev.Out.Rev.Status != storage.BuildOK {
		t.Fatalf("the save of a pinned AI: %+v, %v", ev.Out.Rev, ev.Err)
	}
	e, err := r.s.ResolveEntry("pinny", "grip")
	if err != nil || e.Name != "pinny r1" {
		t.Fatalf("a pinned AI plays %q (%v), want pinny r1", e.Name, err)
	}
	if _, err := r.s.UnpinAI(ai.ID); err != nil {
		t.Fatal(err)
	}
	if e, err = r.s.ResolveEntry("pinny", "grip"); err != nil || e.Name != "pinny r2" {
		t.Fatalf("after unpinning it plays %q (%v), want pinny r2", e.Name, err)
	}
}
