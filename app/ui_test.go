package app

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// uiMu serialises everything that touches widgets in these tests.
var uiMu sync.Mutex

func init() {
	uiDo = func(f func()) { uiMu.Lock(); defer uiMu.Unlock(); f() }
}

// onUI runs f as the UI thread would, excluding background updates.
func onUI(f func()) { uiMu.Lock(); defer uiMu.Unlock(); f() }

// sharedApp is the test app every main window opens in. One app for
// all, not one a test: a new test app forgets every text it measured,
// and each test measured them again (a tenth of this package's time
// under the race detector). Tests that make their own app
// (test.NewTempApp) leave another current app behind; it is set back here.
func sharedApp() fyne.App {
	sharedOnce.Do(func() { shared = test.NewApp() })
	if fyne.CurrentApp() != shared {
		fyne.SetCurrentApp(shared)
	}
	return shared
}

var (
	sharedOnce sync.Once
	shared     fyne.App
)

// testApp is one test's view of the shared app: its driver lists only
// the windows this test's UI opened, so tests side by side find their
// own viewer, and never read the test driver's window list, which a
// window another test closes changes in place.
type testApp struct {
	fyne.App
	mu   sync.Mutex
	wins []*testWindow
}

func (a *testApp) NewWindow(title string) fyne.Window {
	w := &testWindow{Window: a.App.NewWindow(title)}
	a.mu.Lock()
	a.wins = append(a.wins, w)
	a.mu.Unlock()
	return w
}

func (a *testApp) Driver() fyne.Driver { return testDriver{a.App.Driver(), a} }

type testDriver struct {
	fyne.Driver
	a *testApp
}

func (d testDriver) AllWindows() []fyne.Window {
	d.a.mu.Lock()
	defer d.a.mu.Unlock()
	var ws []fyne.Window
	for _, w := range d.a.wins {
		if !w.closed.Load() {
			ws = append(ws, w)
		}
	}
	return ws
}

// testWindow is a window of a testApp, which knows when it was closed.
type testWindow struct {
	fyne.Window
	closed atomic.Bool
}

func (w *testWindow) Close() {
	w.closed.Store(true)
	w.Window.Close()
}

// newTestUI opens the main window on a fresh database, as a first run does.
func newTestUI(t testing.TB) (fyne.Window, *UI) {
	t.Helper()
	var u *UI
	onUI(func() {
		u = NewUI(&testApp{App: sharedApp()}, filepath.Join(t.TempDir(), "ringside.db"))
		u.Win.Resize(fyne.NewSize(1200, 780))
	})
	if _, ok := u.Win.Content().(*container.AppTabs); !ok {
		t.Fatalf("main window shows %T, not the screens (database error?)", u.Win.Content())
	}
	// Closing runs the window's close hook, which waits for the
	// background work: not under the UI lock that work may wait for.
	t.Cleanup(func() {
		if u.ctx.Err() == nil { // not closed by the test itself
			u.Win.Close()
		}
	})
	return u.Win, u
}

// walk calls visit for o and every object under it, through containers
// and widgets' renderers.
func walk(t *testing.T, o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(t, c, visit)
		}
	case fyne.Widget:
		if _, ok := x.(*widget.Label); ok {
			return
		}
		for _, c := range test.TempWidgetRenderer(t, x).Objects() {
			walk(t, c, visit)
		}
	}
}

// buttons finds the buttons under o with the given text.
func buttons(t *testing.T, o fyne.CanvasObject, text string) []*widget.Button {
	var out []*widget.Button
	walk(t, o, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}

// eventually polls cond for up to three minutes: games are real
// processes, and a busy machine may be slow to end one (the wait ends as
// soon as cond holds).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	eventuallyEvery(t, 50*time.Millisecond, what, cond)
}

// eventuallyEvery is eventually looking every interval: for a condition
// that reads a whole class from the database, which every 50 ms cost a
// test more than its builds.
func eventuallyEvery(t testing.TB, interval time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(runnertest.Patience(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(interval)
	}
}

// pacedGame is an event of one Battle 2048 game, greedy against random,
// played at pace turns a second for the given rounds: slow enough that a
// test sees it in play.
func pacedGame(pace float64, rounds string) service.EventSpec {
	return service.EventSpec{Game: "battle2048", Format: event.League, Games: 1,
		Seed: 4, SeedSet: true, Pace: pace, Concurrency: 1, Options: engine.Options{"rounds": rounds},
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}}
}

// eventJob creates the event of spec on svc and the job that plays it one
// game at a time.
func eventJob(t *testing.T, svc *service.Service, spec service.EventSpec) (storage.Event, *service.EventJob) {
	t.Helper()
	ev, _, err := svc.CreateEvent(spec)
	if err != nil {
		t.Fatal(err)
	}
	job, err := svc.EventJob(ev.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ev, job
}

// playEvent creates the event of spec on svc and plays it to the end,
// one game at a time.
func playEvent(t *testing.T, svc *service.Service, spec service.EventSpec) storage.Event {
	t.Helper()
	ev, job := eventJob(t, svc, spec)
	if err := job.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ev
}

// eventuallyUI is eventually for a condition on what the screens show: it
// is evaluated on the UI thread.
func eventuallyUI(t testing.TB, what string, cond func() bool) {
	t.Helper()
	eventually(t, what, func() bool {
		var ok bool
		onUI(func() { ok = cond() })
		return ok
	})
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"builtin:grip/greedy":    "greedy (built-in)",
		"builtin:grip/random#3":  "random #3 (built-in)",
		"alice r3":               "alice r3",
		"zed":                    "zed",
		"builtin:cloud/squad#12": "squad #12 (built-in)",
	} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}
