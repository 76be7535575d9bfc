package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// TestOpenReplayFollowsTheShownEvent: a game chosen in one event's list
// is forgotten when another event is shown, so Open replay never opens a
// game of an event that is not on screen.
func TestOpenReplayFollowsTheShownEvent(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	var ids []int64
	for _, seed := range []int64{1, 2} {
		ev := playEvent(t, u.Svc, service.EventSpec{Game: "battle2048", Seed: seed, SeedSet: true, Games: 1,
			Options: engine.Options{"rounds": "5"}, Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
		ids = append(ids, ev.ID)
	}
	shown := func(id int64) {
		onUI(func() { u.events.reload(); u.showEvents(id) })
		deadline := time.Now().Add(runnertest.Patience(t))
		for {
			var ok bool
			var state string
			onUI(func() {
				d := u.events.detail
				ok = d.loaded != nil && d.loaded.Event.ID == id && d.games.data != nil && len(d.games.data.Games) > 0
				state = fmt.Sprintf("title %q, loaded %v, games %v", d.title.Text, d.loaded != nil, d.games.data != nil)
				if d.loaded != nil && d.games.data != nil {
					state += fmt.Sprintf(", loaded event %d with %d games, list of event %d with %d games", d.loaded.Event.ID, len(d.loaded.Games), d.games.data.Event.ID, len(d.games.data.Games))
				}
			})
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("event %d and its games are not shown: %s", id, state)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	shown(ids[0])
	g := u.events.detail.games
	var first int64
	onUI(func() {
		g.list.Select(0)
		first = g.chosen
		if first == 0 || g.open.Disabled() {
			t.Fatalf("choosing a finished game: chosen %d, open disabled %v; matches %+v", first, g.open.Disabled(), g.data.Games)
		}
	})
	shown(ids[1])
	onUI(func() {
		if g.chosen != 0 || !g.open.Disabled() {
			t.Errorf("after switching events: chosen %d (the other event's game %d), open disabled %v", g.chosen, first, g.open.Disabled())
		}
		g.list.Select(0)
		for _, m := range g.data.Games {
			if m.ID == g.chosen && m.Status == service.GameDone {
				return
			}
		}
		t.Errorf("the game chosen (%d) is not one of the shown event's games", g.chosen)
	})
	onUI(func() {
		// The second event's first game is its game 1, whatever its id.
		first := g.data.Games[0]
		if first.ID == 1 || first.Game.Index != 0 {
			t.Fatalf("the second event's first game has id %d, index %d", first.ID, first.Game.Index)
		}
		if text := g.line(first); !strings.HasPrefix(text, "Game 1 ·") ||
			!strings.Contains(text, "1st ") || !strings.Contains(text, "2nd ") {
			t.Errorf("game row = %q, want its number in the event and the players by place", text)
		}
	})
}

// TestEventsFromElsewhereShowUp: an event created by another process
// appears in the list without a click; Rename and Delete work.
func TestEventsFromElsewhereShowUp(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	other, err := service.Open(u.Svc.DB().Path()) // another process's connection
	if err != nil {
		t.Fatal(err)
	}
	ev, _, err := other.CreateEvent(service.EventSpec{Name: "made by the CLI", Game: "battle2048", Games: 1, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
	other.Close()
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the event appears in the list", func() bool {
		var ok bool
		onUI(func() {
			for _, r := range u.events.rows {
				ok = ok || r.ev.ID == ev.ID
			}
		})
		return ok
	})
	onUI(func() { u.showEvents(ev.ID) })
	eventuallyUI(t, "it is shown", func() bool {
		return u.events.detail.loaded != nil && u.events.detail.loaded.Event.ID == ev.ID
	})
	if err := u.Svc.RenameEvent(ev.ID, "Class 3B"); err != nil {
		t.Fatal(err)
	}
	onUI(u.events.detail.refreshNow)
	eventuallyUI(t, "the new name is shown", func() bool {
		return u.events.detail.loaded.Event.Name == "Class 3B"
	})
	onUI(func() { test.Tap(u.events.detail.remove) })
	var confirm []*widget.Button
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			confirm = append(confirm, buttons(t, o, "Delete")...)
		}
	})
	if len(confirm) != 1 || !strings.Contains(overlayText(t, w), "Class 3B") {
		t.Fatalf("delete asks with %d Delete buttons:\n%s", len(confirm), overlayText(t, w))
	}
	onUI(func() { test.Tap(confirm[0]) })
	eventually(t, "the event is gone", func() bool {
		_, err := u.Svc.DB().Event(ev.ID)
		return err != nil
	})
}

// TestEventPlayedElsewhere: while "ringside event run" plays an event,
// the app says who plays it and offers no Run, Stop or Delete.
func TestEventPlayedElsewhere(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Game: "grip", Games: 20, Seed: 1, SeedSet: true, Concurrency: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := runner.Executable()
	cmd := exec.Command(exe, "event", "run", fmt.Sprint(ev.ID), "--db", u.Svc.DB().Path(), "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	eventually(t, "the CLI runs the event", func() bool {
		_, running, _ := u.Svc.DB().EventHolder(ev.ID)
		return running
	})
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventually(t, "the app says who plays it", func() bool {
		var ok bool
		onUI(func() {
			d := u.events.detail
			ok = d.loaded != nil && d.loaded.Event.ID == ev.ID && strings.Contains(d.info.Text, "Being played by process") &&
				d.run.Disabled() && d.run.Text == "Played elsewhere" && d.remove.Disabled()
		})
		return ok
	})
}

func TestRunPauseResumeButtons(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	// One cycle of the seat design: the 24 orders of one group of four.
	ev, n, err := u.Svc.CreateEvent(service.EventSpec{Game: "grip", Seed: 2, SeedSet: true, Games: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games", n)
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventuallyUI(t, "the event is shown", func() bool {
		return u.events.detail.loaded != nil && u.events.detail.loaded.Event.ID == ev.ID
	})
	onUI(func() {
		if u.events.detail.run.Text != "Run" || u.events.detail.run.Disabled() {
			t.Errorf("run button = %q disabled=%v before the first run", u.events.detail.run.Text, u.events.detail.run.Disabled())
		}
		test.Tap(u.events.detail.run)
	})
	eventually(t, "a game finishes", func() bool {
		o, _ := u.Svc.DB().Outcomes(ev.ID)
		return len(o) > 0
	})
	onUI(func() { test.Tap(u.events.detail.pause) })
	if !u.Jobs.Paused(ev.ID) && u.Jobs.Running(ev.ID) {
		t.Errorf("pause did not pause")
	}
	onUI(func() {
		if u.Jobs.Running(ev.ID) && u.events.detail.run.Text != "Resume" {
			t.Errorf("run button says %q while paused", u.events.detail.run.Text)
		}
		test.Tap(u.events.detail.run)
	})
	eventually(t, "the event finishes after resume", func() bool {
		e, _ := u.Svc.DB().Event(ev.ID)
		return e.Status == storage.EventFinished
	})
}

// TestGamesListShowsAGameAsItStarts: the first game of an event is shown
// as being played (and can be watched live) while it is played, not only
// once a game has finished.
func TestGamesListShowsAGameAsItStarts(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	// Paced: the first game lasts a minute or two (greedy ends random's
	// game in 24 to 62 turns; it is stopped when the test ends), so it is
	// still being played when the row is selected, however late a busy
	// machine lets the test look.
	ev, _, err := u.Svc.CreateEvent(pacedGame(0.5, "300"))
	if err != nil {
		t.Fatal(err)
	}
	// Shown before it runs, as a teacher selects it and presses Run.
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventuallyUI(t, "the event's games are listed", func() bool {
		g := u.events.detail.games
		return g.data != nil && g.data.Event.ID == ev.ID && len(g.data.Games) > 0
	})
	if err := u.Jobs.Start(ev.ID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { u.Jobs.Stop(ev.ID) })
	var done int
	eventuallyUI(t, "the first game is listed as being played", func() bool {
		g := u.events.detail.games
		if g.data == nil || g.data.Event.ID != ev.ID || len(g.data.Games) == 0 {
			return false
		}
		done = len(g.data.Outcomes)
		return g.data.Games[0].Status == service.GameRunning && strings.Contains(g.summary.Text, "1 playing")
	})
	if done != 0 {
		t.Errorf("the first game was listed as being played only once %d game(s) had finished", done)
	}
	onUI(func() {
		g := u.events.detail.games
		g.list.Select(0)
		if g.open.Disabled() || g.open.Text != "Watch live" {
			t.Errorf("the games list offers %q (disabled %v) for the game being played", g.open.Text, g.open.Disabled())
		}
	})
}

// TestExportFolder: standings are offered for saving in Documents, or
// home, never in the folder a file dialog used last (a student's watched
// folder, where the file would become a new revision of the bot).
func TestExportFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if got := exportFolder(); got != home {
		t.Errorf("without Documents: %q, want %q", got, home)
	}
	docs := filepath.Join(home, "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := exportFolder(); got != docs {
		t.Errorf("with Documents: %q, want %q", got, docs)
	}
}

// TestInterruptedEventSaysSo: an event left marked running by a killed
// app (its status and a game "running", no process holding its lock) is
// shown as "interrupted — Resume" in the list, the progress line and the
// games list, never as running or with a game "playing"; Watch live is
// not offered on the game nobody plays.
func TestInterruptedEventSaysSo(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Name: "Killed mid-game", Game: "battle2048", Seed: 2, SeedSet: true, Games: 1,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	// What a SIGKILL leaves behind: the event and its first game marked
	// running, the lock gone with the process.
	db := u.Svc.DB()
	ms, err := db.Matches(ev.ID)
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches: %v, %d", err, len(ms))
	}
	if err := db.SetEventStatus(ev.ID, storage.EventRunning); err != nil {
		t.Fatal(err)
	}
	if err := db.StartMatch(ms[0].ID); err != nil {
		t.Fatal(err)
	}
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventuallyUI(t, "the event and its list row are shown", func() bool {
		g := u.events.detail.games
		return g.data != nil && g.data.Event.ID == ev.ID && len(u.events.rows) > 0
	})
	onUI(func() {
		if got := u.events.statusText(u.events.rows[0]); got != interruptedWords {
			t.Errorf("list row status %q, want %q", got, interruptedWords)
		}
		// The game by its name, as everywhere a person reads it.
		if got := u.events.rowText(u.events.rows[0]); !strings.HasPrefix(got, "Battle 2048 league · ") {
			t.Errorf("list row %q, want it to name the game Battle 2048", got)
		}
		if got := u.events.detail.info.Text; !strings.HasPrefix(got, "Battle 2048 · league") {
			t.Errorf("event info %q, want it to name the game Battle 2048", got)
		}
		d := u.events.detail
		if got := d.progressText.Text; !strings.Contains(got, interruptedWords) || strings.Contains(got, "running") {
			t.Errorf("progress line %q, want it to say %q and not running", got, interruptedWords)
		}
		g := d.games
		if s := g.summary.Text; strings.Contains(s, "playing") || !strings.Contains(s, "Resume") {
			t.Errorf("games summary %q: want no game playing and Resume named", s)
		}
		if line := g.line(g.data.Games[0]); !strings.Contains(line, "interrupted") {
			t.Errorf("the interrupted game's row %q does not say so", line)
		}
		g.list.Select(0)
		if !g.open.Disabled() {
			t.Errorf("the games list offers %q on a game nobody plays", g.open.Text)
		}
	})
}

// TestEventsListMarksACompareRun: a run started from Compare is filed among
// the events; its row says "compare", the other formats keep their names.
func TestEventsListMarksACompareRun(t *testing.T) {
	s := &eventsScreen{}
	for _, c := range []struct {
		format event.Format
		want   string
	}{
		{event.SPRT, "Grip compare · 3/40 games · finished"},
		{event.League, "Grip league · 3/40 games · finished"},
		{event.Bracket, "Grip bracket · 3/40 games · finished"},
	} {
		r := eventRow{ev: service.EventInfo{Game: "grip", Status: service.EventFinished, Config: event.Config{Format: c.format}}, done: 3, all: 40}
		if got := s.rowText(r); got != c.want {
			t.Errorf("%s row = %q, want %q", c.format, got, c.want)
		}
	}
}
