package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// pyAI registers a Python Grip AI named name, in a new folder, and
// returns the function that saves content as its bot.py and builds it.
// It skips t without python3.
func pyAI(t *testing.T, u *UI, name string) func(content string) service.BuildOutcome {
	t.Helper()
	fixture.NeedPython(t)
	src := filepath.Join(t.TempDir(), name)
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1)})
	reg, err := u.Svc.Register(service.NewAI{Name: name, Game: "grip", Dir: src})
	if err != nil {
		t.Fatal(err)
	}
	return func(content string) service.BuildOutcome {
		t.Helper()
		fixture.WriteFiles(t, src, map[string]string{"bot.py": content})
		out, err := u.Svc.Build(context.Background(), reg.AI.ID, service.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// showCreateEventForm opens the New event dialog on the AIs registered.
func showCreateEventForm(t *testing.T, u *UI) *createEventForm {
	t.Helper()
	ais, err := u.Svc.AIs()
	if err != nil {
		t.Fatal(err)
	}
	var f *createEventForm
	onUI(func() {
		f = newCreateEventForm(u, ais)
		f.show()
	})
	return f
}

// createdEvent waits for the one event of u's database, made by a
// dialog, and returns it.
func createdEvent(t *testing.T, u *UI) storage.Event {
	t.Helper()
	var evs []storage.Event
	eventually(t, "the event is created", func() bool {
		evs, _ = u.DB.ListEvents()
		return len(evs) > 0
	})
	if len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	ev, err := u.DB.Event(evs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// entryNames are ev's entries by name.
func entryNames(ev storage.Event) []string {
	var names []string
	for _, e := range ev.Entries {
		names = append(names, e.Name)
	}
	return names
}

// TestAIsScreenAfterARevert: the AIs screen and its Check name and play
// the revision whose sources came back, as the CLI does.
func TestAIsScreenAfterARevert(t *testing.T) {
	w, u, s := newAIsTestUI(t)
	build := pyAI(t, u, "erin")
	build(fixture.PyBot(1))
	build(fixture.PyBot(2))
	build(fixture.PyBot(3))
	build(fixture.PyBot(3) + "\nthis is not python(\n")
	out := build(fixture.PyBot(1))
	if !out.Unchanged || out.Rev.Number != 1 {
		t.Fatalf("the revert built %+v", out.Rev)
	}
	s.reload()
	eventually(t, "erin shows revision 1 as current", func() bool {
		r := rowText(s, "erin")
		return r != nil && strings.HasPrefix(r[3], "r1 · ")
	})
	onUI(func() {
		s.selectAI(out.Rev.AIID)
		test.Tap(s.check)
	})
	eventually(t, "the check tested revision 1", func() bool {
		text := overlayText(t, w)
		// Whether the short game passes on a loaded machine is not the
		// point here: which revision it played is.
		return strings.Contains(text, "Check of erin (grip, revision 1,") && strings.Contains(text, "starts")
	})
}

// TestCreateEventDialogRefusesEntriesThatCannotStart: the New event
// dialog goes through the same check as "event create", says what is
// wrong inside the dialog and keeps what was entered.
func TestCreateEventDialogRefusesEntriesThatCannotStart(t *testing.T) {
	w, u := newTestUI(t)
	var f *createEventForm
	onUI(func() {
		f = newCreateEventForm(u, nil)
		f.show()
		f.game.SetSelected("grip")
		f.entrants.choose("builtin:grip/greedy")
		f.commands.SetText("zed=pyhton3 bot.py")
		f.submit()
	})
	eventually(t, "the refusal is shown in the dialog", func() bool {
		text := strings.Join(strings.Fields(overlayText(t, w)), " ")
		return strings.Contains(text, "ntry zed cannot start") && strings.Contains(text, "pyhton3 is not installed")
	})
	onUI(func() {
		if f.commands.Text != "zed=pyhton3 bot.py" || len(w.Canvas().Overlays().List()) == 0 {
			t.Errorf("the dialog lost what was entered or closed: %q", f.commands.Text)
		}
	})
	if evs, err := u.DB.ListEvents(); err != nil || len(evs) != 0 {
		t.Errorf("events after the refusal: %d, %v", len(evs), err)
	}
}

// TestCreateEventDialogPlansAndPicksRevisions: the dialog says how many
// games an event would be before it is created, and an AI can play an
// older revision.
func TestCreateEventDialogPlansAndPicksRevisions(t *testing.T) {
	_, u := newTestUI(t)
	build := pyAI(t, u, "alice")
	build(fixture.PyBot(1))
	build(fixture.PyBot(2))
	f := showCreateEventForm(t, u)
	onUI(func() {
		f.game.SetSelected("grip")
		f.entrants.choose("alice@r1", "builtin:grip/greedy", "builtin:grip/random")
		f.gamesN.SetText("1")
	})
	onUI(func() {
		if got := f.entrants.selected(); strings.Join(got, ",") != "builtin:grip/random,builtin:grip/greedy,alice@r1" {
			t.Errorf("selected = %v", got)
		}
		// Plain words for the filler and for what "games" counts.
		if f.filler.Selected != "random (built-in bot)" {
			t.Errorf("filler shows %q, want \"random (built-in bot)\"", f.filler.Selected)
		}
		if hint := f.form.Items[3].HintText; hint != gamesHint[event.League] {
			t.Errorf("games hint = %q", hint)
		}
		f.format.SetSelected(string(event.Bracket))
		if hint := f.form.Items[3].HintText; hint != "best of N games per match" {
			t.Errorf("bracket games hint = %q", hint)
		}
		f.format.SetSelected(string(event.League))
		spec, err := f.spec()
		if err != nil || len(spec.Fillers) != 1 || spec.Fillers[0] != "builtin:grip/random" {
			t.Errorf("spec fillers = %v, %v", spec.Fillers, err)
		}
	})
	eventually(t, "the plan counts the games", func() bool {
		var text string
		onUI(func() { text = f.plan.Text })
		if !strings.Contains(text, "A league of 3 entries and 1 filler bot(s), 4 per game: ") {
			return false
		}
		// Every seat order of the one group of four: 4 rotations, or all
		// 24 orders where seat orders are balanced.
		return strings.Contains(text, " 4 games") || strings.Contains(text, " 24 games")
	})
	onUI(func() { f.limits.SetText("memory=lots") })
	eventually(t, "bad caps are explained in the plan", func() bool {
		var text string
		onUI(func() { text = f.plan.Text })
		return strings.Contains(text, "memory=lots") && strings.Contains(text, "want a size above 0")
	})
	onUI(func() {
		f.limits.SetText("memory=512M")
		f.trusted.SetChecked(true)
		f.runNow.SetChecked(false)
		f.submit()
	})
	ev := createdEvent(t, u)
	if !ev.Trusted || ev.Limits != "memory=512M" {
		t.Errorf("event stored trusted %v, caps %q; want the dialog's", ev.Trusted, ev.Limits)
	}
	if !slices.Contains(entryNames(ev), "alice r1") {
		t.Errorf("entries %v, want alice r1", entryNames(ev))
	}
}

// TestOpenReplayFollowsTheShownEvent: a game chosen in one event's list
// is forgotten when another event is shown, so Open replay never opens a
// game of an event that is not on screen.
func TestOpenReplayFollowsTheShownEvent(t *testing.T) {
	_, u := newTestUI(t)
	var ids []int64
	for _, seed := range []int64{1, 2} {
		ev, _, err := u.Svc.CreateEvent(service.EventSpec{Game: "battle2048", Seed: seed, SeedSet: true, Games: 1,
			Options: engine.Options{"rounds": "5"}, Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
		if err != nil {
			t.Fatal(err)
		}
		job, err := u.Svc.EventJob(ev.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := job.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ev.ID)
	}
	shown := func(id int64) {
		onUI(func() { u.events.reload(); u.showEvents(id) })
		deadline := time.Now().Add(time.Minute)
		for {
			var ok bool
			var state string
			onUI(func() {
				d := u.events.detail
				ok = d.loaded != nil && d.loaded.ev.ID == id && d.games.data != nil && len(d.games.data.matches) > 0
				state = fmt.Sprintf("title %q, loaded %v, games %v", d.title.Text, d.loaded != nil, d.games.data != nil)
				if d.loaded != nil && d.games.data != nil {
					state += fmt.Sprintf(", loaded event %d with %d games, list of event %d with %d games", d.loaded.ev.ID, len(d.loaded.matches), d.games.data.ev.ID, len(d.games.data.matches))
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
			t.Fatalf("choosing a finished game: chosen %d, open disabled %v; matches %+v", first, g.open.Disabled(), g.data.matches)
		}
	})
	shown(ids[1])
	onUI(func() {
		if g.chosen != 0 || !g.open.Disabled() {
			t.Errorf("after switching events: chosen %d (the other event's game %d), open disabled %v", g.chosen, first, g.open.Disabled())
		}
		g.list.Select(0)
		for _, m := range g.data.matches {
			if m.ID == g.chosen && m.Status == storage.MatchDone {
				return
			}
		}
		t.Errorf("the game chosen (%d) is not one of the shown event's games", g.chosen)
	})
	onUI(func() {
		if text := g.line(g.data.matches[0]); !strings.Contains(text, fmt.Sprintf("Game %d ·", g.data.matches[0].ID)) ||
			!strings.Contains(text, "1st ") || !strings.Contains(text, "2nd ") {
			t.Errorf("game row = %q, want its id and the players by place", text)
		}
	})
}

// TestCloseAsksWhileAnEventRuns: closing the window mid-event asks first;
// with nothing running it closes at once.
func TestCloseAsksWhileAnEventRuns(t *testing.T) {
	w, u := newTestUI(t)
	ev, _, err := u.Jobs.CreateAndStart(service.EventSpec{Game: "grip", Games: 50, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	onUI(u.confirmClose)
	if !strings.Contains(overlayText(t, w), "Quit while games are played?") {
		t.Fatalf("no question before quitting mid-event:\n%s", overlayText(t, w))
	}
	if u.ctx.Err() != nil {
		t.Fatal("the window closed without asking")
	}
	closeOverlays(w)
	u.Jobs.Stop(ev.ID)
	// Closing waits for the background work, which may wait for the UI
	// lock: not under it.
	u.confirmClose()
	if u.ctx.Err() == nil {
		t.Error("with nothing running the window did not close")
	}
}

// TestEventsFromElsewhereShowUp: an event created by another process
// appears in the list without a click; Rename and Delete work.
func TestEventsFromElsewhereShowUp(t *testing.T) {
	w, u := newTestUI(t)
	other, err := service.Open(u.DB.Path()) // another process's connection
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
		return u.events.detail.loaded != nil && u.events.detail.loaded.ev.ID == ev.ID
	})
	if err := u.Svc.RenameEvent(ev.ID, "Class 3B"); err != nil {
		t.Fatal(err)
	}
	onUI(u.events.detail.refreshNow)
	eventuallyUI(t, "the new name is shown", func() bool {
		return u.events.detail.loaded.ev.Name == "Class 3B"
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
		_, err := u.DB.Event(ev.ID)
		return err != nil
	})
}

// TestDemoTwiceIsOneEvent: pressing a demo's Run again shows the demo
// event instead of making a second one.
func TestDemoTwiceIsOneEvent(t *testing.T) {
	w, u := newTestUI(t)
	var runs []*widget.Button
	onUI(func() { runs = buttons(t, w.Content(), "Run demo") })
	onUI(func() { test.Tap(runs[1]) })
	eventually(t, "the demo event exists", func() bool {
		evs, _ := u.DB.ListEvents()
		return len(evs) == 1
	})
	onUI(func() { u.tabs.SelectIndex(0); test.Tap(runs[1]) })
	eventually(t, "the demo is shown again", func() bool {
		var id int64
		var tab int
		onUI(func() { id, tab = u.events.detail.currentID(), u.tabs.SelectedIndex() })
		return id != 0 && tab == 1
	})
	if evs, _ := u.DB.ListEvents(); len(evs) != 1 {
		t.Errorf("%d events after pressing the demo twice, want 1", len(evs))
	}
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

// TestSwitchDatabase: a file that is not a database gets a screen with a
// way on, not a dead end; choosing another database shows the app on it,
// and the next start opens it again.
func TestSwitchDatabase(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(bad, []byte("my lesson notes, not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var u *UI
	var a fyne.App
	onUI(func() {
		a = test.NewTempApp(t)
		u = NewUI(a, bad)
	})
	text := func() string {
		var b strings.Builder
		onUI(func() {
			walk(t, u.Win.Content(), func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Label:
					b.WriteString(x.Text + "\n")
				case *widget.Button:
					b.WriteString("[" + x.Text + "]\n")
				}
			})
		})
		return b.String()
	}
	if s := text(); !strings.Contains(s, "cannot open its database") || !strings.Contains(s, "[Open another database…]") ||
		!strings.Contains(s, "[New database…]") || strings.Contains(s, "ringside --db") {
		t.Fatalf("the error screen:\n%s", s)
	}
	if b, _ := os.ReadFile(bad); !strings.HasPrefix(string(b), "my lesson notes") {
		t.Fatal("the file was changed")
	}
	good := filepath.Join(dir, "class.db")
	switchDatabase(u, good)
	eventually(t, "the app shows the new database", func() bool {
		var ok bool
		onUI(func() {
			_, tabs := u.Win.Content().(*container.AppTabs)
			ok = tabs && strings.Contains(u.Win.Title(), "class.db")
		})
		return ok
	})
	if got := a.Preferences().String(prefDatabase); got != good {
		t.Errorf("remembered database %q, want %q", got, good)
	}
	var next *UI
	onUI(func() { next = NewUI(a, "") })
	if next.Svc == nil || next.Svc.Path() != good {
		t.Errorf("the next start opened %v", next.Svc)
	}
	t.Cleanup(func() {
		next.Win.Close()
		u.Win.Close()
	})
}

// TestEventPlayedElsewhere: while "ringside event run" plays an event,
// the app says who plays it and offers no Run, Stop or Delete.
func TestEventPlayedElsewhere(t *testing.T) {
	_, u := newTestUI(t)
	ev, _, err := u.Svc.CreateEvent(service.EventSpec{Game: "grip", Games: 20, Seed: 1, SeedSet: true, Concurrency: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := runner.Executable()
	cmd := exec.Command(exe, "event", "run", fmt.Sprint(ev.ID), "--db", u.DB.Path(), "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	eventually(t, "the CLI runs the event", func() bool {
		_, running, _ := u.DB.EventHolder(ev.ID)
		return running
	})
	onUI(func() { u.events.reload(); u.showEvents(ev.ID) })
	eventually(t, "the app says who plays it", func() bool {
		var ok bool
		onUI(func() {
			d := u.events.detail
			ok = d.loaded != nil && d.loaded.ev.ID == ev.ID && strings.Contains(d.info.Text, "Being played by process") &&
				d.run.Disabled() && d.run.Text == "Played elsewhere" && d.remove.Disabled()
		})
		return ok
	})
}
