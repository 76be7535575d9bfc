package app

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/storage"
)

// TestHomeSaysAnotherAppHasTheDatabase: a second app on a class's
// database says so on the Home screen, with the other's process, and the
// line goes once that app closes, or is gone without closing.
func TestHomeSaysAnotherAppHasTheDatabase(t *testing.T) {
	old := othersEvery
	othersEvery = 50 * time.Millisecond
	t.Cleanup(func() { othersEvery = old })
	tests := []struct {
		name string
		stop func(other *exec.Cmd, stdin io.Closer)
	}{
		{"closed", func(_ *exec.Cmd, stdin io.Closer) { stdin.Close() }},
		{"killed", func(other *exec.Cmd, _ io.Closer) { other.Process.Kill() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "class.db")
			other, stdin := fixture.OtherApp(t, path)
			var u *UI
			onUI(func() { u = NewUI(test.NewTempApp(t), path) })
			t.Cleanup(func() { u.Win.Close() })
			others := func() (string, bool) {
				var text string
				var shown bool
				onUI(func() { text, shown = u.home.others.Text, u.home.others.Visible() })
				return text, shown
			}
			eventually(t, "Home names the other app", func() bool {
				text, shown := others()
				return shown && strings.Contains(text, "also open in another Ringside window") &&
					strings.Contains(text, fmt.Sprintf("process %d on ", other.Process.Pid))
			})
			tt.stop(other, stdin)
			other.Wait()
			eventually(t, "the line goes with the other app", func() bool {
				text, shown := others()
				return !shown && text == ""
			})
		})
	}
}

// TestSecondAppOpensOnHome: an app opened on a database another app has
// open starts on Home, where the line about the other app is, even when
// the screen used last was another; without another app it opens where
// the user left it.
func TestSecondAppOpensOnHome(t *testing.T) {
	path := filepath.Join(t.TempDir(), "class.db")
	svc, err := service.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// An event, so that the database is not a first run (which opens on
	// Home anyway).
	if _, _, err := svc.CreateEvent(service.EventSpec{Game: "grip", Seed: 1, SeedSet: true, Games: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}}); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	open := func() *UI {
		var u *UI
		onUI(func() {
			a := test.NewTempApp(t)
			a.Preferences().SetInt(prefScreen, 1) // Events, as the first window left it
			u = NewUI(a, path)
		})
		t.Cleanup(func() {
			if u.ctx.Err() == nil {
				u.Win.Close()
			}
		})
		return u
	}
	alone := open()
	var tab int
	onUI(func() { tab = alone.tabs.SelectedIndex() })
	if tab != 1 {
		t.Errorf("alone on the database the app opens on screen %d, want 1 (Events, where it was left)", tab)
	}
	// Not under the UI lock: closing waits for work that may want it.
	alone.Win.Close()

	fixture.OtherApp(t, path)
	u := open()
	onUI(func() { tab = u.tabs.SelectedIndex() })
	if tab != 0 {
		t.Errorf("with another app on the database the app opens on screen %d, want 0 (Home, which says so)", tab)
	}
	eventually(t, "Home names the other app", func() bool {
		var shown bool
		onUI(func() {
			shown = u.home.others.Visible() && strings.Contains(u.home.others.Text, "also open in another Ringside window")
		})
		return shown
	})
}

// TestDemoTwiceIsOneEvent: pressing a demo's Run again shows the demo
// event instead of making a second one.
func TestDemoTwiceIsOneEvent(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	var runs []*widget.Button
	onUI(func() { runs = buttons(t, w.Content(), "Run demo") })
	onUI(func() { test.Tap(runs[1]) })
	eventually(t, "the demo event exists", func() bool {
		evs, _ := u.Svc.DB().ListEvents()
		return len(evs) == 1
	})
	onUI(func() { u.tabs.SelectIndex(0); test.Tap(runs[1]) })
	eventually(t, "the demo is shown again", func() bool {
		var id int64
		var tab int
		onUI(func() { id, tab = u.events.detail.currentID(), u.tabs.SelectedIndex() })
		return id != 0 && tab == 1
	})
	if evs, _ := u.Svc.DB().ListEvents(); len(evs) != 1 {
		t.Errorf("%d events after pressing the demo twice, want 1", len(evs))
	}
}

func TestFirstRunDemo(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	var runs []*widget.Button
	onUI(func() { runs = buttons(t, w.Content(), "Run demo") })
	if len(runs) != len(demos) {
		t.Fatalf("home shows %d demo buttons, want %d", len(runs), len(demos))
	}
	onUI(func() { test.Tap(runs[1]) }) // Battle 2048: the quickest
	var id int64
	eventually(t, "the demo event is created", func() bool {
		evs, err := u.Svc.DB().ListEvents()
		if err == nil && len(evs) == 1 {
			id = evs[0].ID
			return true
		}
		return false
	})
	eventually(t, "the demo finishes", func() bool {
		ev, err := u.Svc.DB().Event(id)
		return err == nil && ev.Status == storage.EventFinished
	})
	eventually(t, "the events screen shows it", func() bool {
		var ok bool
		onUI(func() {
			ok = u.tabs.SelectedIndex() == 1 && u.events.detail.loaded != nil &&
				u.events.detail.loaded.Event.ID == id && len(u.events.detail.standings.rows) == 3 &&
				u.events.detail.run.Text == "Finished"
		})
		return ok
	})
	onUI(func() {
		rows := u.events.detail.standings.rows
		if rows[0].Name != "builtin:battle2048/greedy" || rows[0].Rank != 1 {
			t.Errorf("standings top = %+v, want greedy first", rows[0])
		}
		if !u.events.detail.run.Disabled() {
			t.Errorf("run button is enabled after the event finished")
		}
		if n := len(u.events.detail.games.data.Games); n != 24 {
			t.Errorf("games list has %d games, want 24", n)
		}
	})
}

func init() {
	// Tests that wait for a demo's results play it at full speed;
	// TestDemosArePaced checks the pace itself.
	demoPaced = false
}

// TestDemosArePaced: each demo is played slowly enough to watch, 10 to
// 20 seconds a game, and its event stores that pace.
func TestDemosArePaced(t *testing.T) {
	t.Parallel()
	// Typical lengths of the demos' games, in turns (Grip's turn is one
	// seat's move).
	turns := map[string]float64{"grip": 550, "battle2048": 40, "cloud": 150}
	for _, d := range demos {
		secs := turns[d.Game] / d.Spec.Pace
		if d.Spec.Pace <= 0 || secs < 8 || secs > 25 {
			t.Errorf("%s demo: pace %v turns a second makes a game of %v turns last %.0f s, want 10 to 20",
				d.Game, d.Spec.Pace, turns[d.Game], secs)
		}
	}
	_, u := newTestUI(t)
	var runs []*widget.Button
	onUI(func() { u.home.paced = true; runs = buttons(t, u.Win.Content(), "Run demo") })
	onUI(func() { test.Tap(runs[2]) })
	var ev storage.Event
	eventually(t, "the demo event is created", func() bool {
		evs, err := u.Svc.DB().ListEvents()
		if err == nil && len(evs) == 1 {
			ev = evs[0]
			return true
		}
		return false
	})
	u.Jobs.Stop(ev.ID)
	if got, _ := u.Svc.DB().Event(ev.ID); got.Pace != demos[2].Spec.Pace {
		t.Errorf("the demo event's pace is %v, want %v", got.Pace, demos[2].Spec.Pace)
	}
}

// TestHomeSandboxLineInPlainWords: Home says "Sandbox: on" on a machine
// that contains bots fully, not the kernel's features ("Landlock ABI 6,
// user/process/… namespaces"), which are behind Details.
func TestHomeSandboxLineInPlainWords(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	on, _, report := service.SandboxState()
	if !on {
		t.Skip("this machine's sandbox is not full: " + report)
	}
	eventuallyUI(t, "the sandbox line is read", func() bool { return !u.home.sandboxMore.Disabled() })
	onUI(func() {
		if got := u.home.sandbox.Text; got != "Sandbox: on" {
			t.Errorf("Home's sandbox line %q, want \"Sandbox: on\"", got)
		}
		if !strings.Contains(u.home.sandboxReport, "Landlock") {
			t.Errorf("the details behind the button do not name Landlock: %q", u.home.sandboxReport)
		}
	})
}

// TestCheckSandboxRowInPlainWords: the Check dialog's sandbox row says
// "on", its details behind a button.
func TestCheckSandboxRowInPlainWords(t *testing.T) {
	res := service.CheckResult{Sandbox: "Sandbox: on — Landlock ABI 7, user/process/mount/network/IPC/UTS namespaces",
		SandboxReport: "Sandbox: on — Landlock ABI 7, user/process/mount/network/IPC/UTS namespaces\nmore"}
	rows, _ := checkRows(res)
	for _, r := range rows {
		if r.what == "sandbox" {
			if r.text != "on" || !r.ok || r.details != res.SandboxReport {
				t.Errorf("sandbox row %+v, want \"on\" with the report as details", r)
			}
			return
		}
	}
	t.Errorf("no sandbox row in %+v", rows)
}
