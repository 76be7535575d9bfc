package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/engine/event"
	"ringside/runner/runnertest"
	"ringside/storage"
)

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
		evs, _ = u.Svc.DB().ListEvents()
		return len(evs) > 0
	})
	if len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	ev, err := u.Svc.DB().Event(evs[0].ID)
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

// TestCreateEventDialogRefusesEntriesThatCannotStart: the New event
// dialog goes through the same check as "event create", says what is
// wrong inside the dialog and keeps what was entered.
func TestCreateEventDialogRefusesEntriesThatCannotStart(t *testing.T) {
	t.Parallel()
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
	if evs, err := u.Svc.DB().ListEvents(); err != nil || len(evs) != 0 {
		t.Errorf("events after the refusal: %d, %v", len(evs), err)
	}
}

// TestCreateEventDialogPlansAndPicksRevisions: the dialog says how many
// games an event would be before it is created, and an AI can play an
// older revision.
func TestCreateEventDialogPlansAndPicksRevisions(t *testing.T) {
	t.Parallel()
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
		if hint := f.gamesRow.HintText; hint != gamesHint[event.League] {
			t.Errorf("games hint = %q", hint)
		}
		f.format.SetSelected(string(event.Bracket))
		if hint := f.gamesRow.HintText; hint != "best of N games per match" {
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

// TestCreateEventDialogDeadline: the New event dialog's deadline is read
// like "event create --deadline", refused in words when unreadable, and
// keeps revisions built after it out of the event.
func TestCreateEventDialogDeadline(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	build := pyAI(t, u, "alice")
	build(fixture.PyBot(1))
	// The deadline is stored to the second: alice r1 is built in an
	// earlier second than the deadline, r2 in a later one.
	deadline := runnertest.NextSecond().Format(time.RFC3339)
	runnertest.NextSecond()
	build(fixture.PyBot(2))
	f := showCreateEventForm(t, u)
	onUI(func() {
		f.game.SetSelected("grip")
		f.entrants.choose("alice", "builtin:grip/greedy", "builtin:grip/random")
		f.gamesN.SetText("1")
		f.deadline.SetText("next friday")
	})
	eventuallyUI(t, "an unreadable deadline is explained", func() bool {
		return strings.Contains(f.plan.Text, `Deadline: "next friday": write a date and time`)
	})
	onUI(func() {
		f.deadline.SetText(deadline)
		f.runNow.SetChecked(false)
		f.submit()
	})
	ev := createdEvent(t, u)
	if ev.Deadline.IsZero() || !slices.Contains(entryNames(ev), "alice r1") {
		t.Errorf("event with deadline %v plays %v; want alice r1, built before the deadline", ev.Deadline, entryNames(ev))
	}
}

// TestCreateEventDialogSevenInABracket: with the default filler already
// chosen, a Grip bracket of 7 entrants takes the one filler it needs
// instead of asking for one, and the entrants list shows a class's worth
// of rows at once, not one.
func TestCreateEventDialogSevenInABracket(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		pyAI(t, u, name)(fixture.PyBot(1))
	}
	f := showCreateEventForm(t, u)
	onUI(func() {
		f.game.SetSelected("grip")
		f.format.SetSelected(string(event.Bracket))
		f.entrants.choose("alice", "bob", "carol", "dave", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/search")
	})
	eventuallyUI(t, "the plan takes one filler", func() bool {
		return strings.Contains(f.plan.Text, "A bracket of 7 entries and 1 filler bot(s), 4 per game")
	})
	onUI(func() {
		if strings.Contains(f.plan.Text, "add") {
			t.Errorf("plan asks for more: %q", f.plan.Text)
		}
		// Rows are as tall as one check; a class of 8 should need little
		// or no scrolling.
		row := widget.NewCheck("x", nil).MinSize().Height
		if h := f.entrants.list.Size().Height; h < 5*row {
			t.Errorf("the entrants list is %v tall, under 5 rows of %v", h, row)
		}
		f.runNow.SetChecked(false)
		f.submit()
	})
	ev := createdEvent(t, u)
	if len(ev.Entries) != 8 || ev.Config.Format != event.Bracket {
		t.Errorf("event %s of %d entries %v, want a bracket of 7 and a filler", ev.Config.Format, len(ev.Entries), entryNames(ev))
	}
}

// TestCreateEventDialogStatesDefaults: the New event dialog's empty
// fields say the defaults the service applies (the same words as "ringside
// help event"), following the format and the players per game, and an
// untouched form asks for exactly service.DefaultEventSpec.
func TestCreateEventDialogStatesDefaults(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	f := showCreateEventForm(t, u)
	onUI(func() {
		f.game.SetSelected("grip")
		def := service.DefaultEventSpec()
		tests := []struct {
			field, got, want string
		}{
			{"format", f.format.Selected, string(def.Format)},
			{"games", f.gamesN.PlaceHolder, "default: " + service.DefaultGamesText(def.Format)},
			{"games at once", f.conc.PlaceHolder, service.DefaultConcurrencyText(4)},
			{"time multiplier", f.scale.Text, "1"},
			{"seed", f.seed.PlaceHolder, "default: " + service.DefaultSeedWords},
			{"pace", f.pace.PlaceHolder, "default: " + service.DefaultPaceWords},
			{"deadline", f.deadline.PlaceHolder, service.DefaultDeadlineWords},
			{"caps", f.limits.PlaceHolder, "default: " + service.DefaultLimitsText()},
		}
		for _, tt := range tests {
			if tt.got != tt.want {
				t.Errorf("%s shows %q, want %q", tt.field, tt.got, tt.want)
			}
		}
		f.format.SetSelected(string(event.Swiss))
		if want := "default: " + service.DefaultGamesText(event.Swiss); f.gamesN.PlaceHolder != want {
			t.Errorf("swiss games placeholder %q, want %q", f.gamesN.PlaceHolder, want)
		}
		f.format.SetSelected(string(def.Format))
		spec, err := f.spec()
		if err != nil {
			t.Fatal(err)
		}
		if spec.TimeScale != def.TimeScale || spec.Games != 0 || spec.Concurrency != 0 || spec.SeedSet || spec.Pace != 0 ||
			spec.Elo1 != def.Elo1 || spec.Alpha != def.Alpha {
			t.Errorf("an untouched form asks for %+v, want the defaults %+v", spec, def)
		}
	})
}

// TestCreateEventFormScrolls: the mouse wheel over the New event form, in
// a 1024×768 window, scrolls it to its end, whatever field comes under the
// pointer on the way (a multi-line entry took the wheel after one step).
func TestCreateEventFormScrolls(t *testing.T) {
	w, u := newTestUI(t)
	onUI(func() { w.Resize(fyne.NewSize(1024, 768)) })
	f := showCreateEventForm(t, u)
	onUI(func() {
		s := f.formScroll
		end := s.Content.MinSize().Height - s.Size().Height
		if end <= 0 {
			t.Skipf("the form fits its %v pixels: nothing to scroll", s.Size().Height)
		}
		c := fyne.CurrentApp().Driver().CanvasForObject(s)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(s).Add(fyne.NewPos(s.Size().Width/2, s.Size().Height/2))
		for range 100 {
			test.Scroll(c, pos, 0, -40)
		}
		if s.Offset.Y < end {
			t.Errorf("the wheel scrolled the form %v of its %v pixels, then stopped", s.Offset.Y, end)
		}
	})
}

// TestCreateEventSeedsAsListedInTheOrderSet: in the New event form, a
// row's ↑ moves an entrant up the list, and a bracket seeded "as listed"
// takes the entrants in the list's order: the third moved up twice is
// seed 1.
func TestCreateEventSeedsAsListedInTheOrderSet(t *testing.T) {
	_, u := newTestUI(t)
	f := showCreateEventForm(t, u)
	var want []string
	onUI(func() {
		f.game.SetSelected("grip")
		f.format.SetSelected(string(event.Bracket))
		if f.seeding.Selected != seedingListed {
			t.Errorf("seeding %q, want %q", f.seeding.Selected, seedingListed)
		}
		if len(f.entrants.items) < 3 {
			t.Fatalf("%d entrants listed, want Grip's three built-in bots", len(f.entrants.items))
		}
		var specs []string
		for _, e := range f.entrants.items[:3] {
			specs = append(specs, e.entry())
		}
		f.entrants.choose(specs...)
		want = []string{specs[2], specs[0], specs[1]}
		for range 2 {
			up := entrantRowButton(t, f, specs[2], theme.MoveUpIcon())
			test.Tap(up)
		}
		if up := entrantRowButton(t, f, specs[2], theme.MoveUpIcon()); !up.Disabled() {
			t.Errorf("the first row's ↑ is enabled")
		}
		if got := f.entrants.selected(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("after moving %s up twice the entries are %v, want %v", specs[2], got, want)
		}
		f.runNow.SetChecked(false)
		f.submit()
	})
	ev := createdEvent(t, u)
	var got []string
	for _, e := range ev.Entries {
		got = append(got, e.Command)
	}
	if len(got) < 3 || strings.Join(got[:3], " ") != strings.Join(want, " ") {
		t.Errorf("the bracket's seeds 1–3 are %v, want %v", got, want)
	}
}

// entrantRowButton is the button with icon in the entrants list's row of
// the entrant whose entry is spec, as the list shows it.
func entrantRowButton(t *testing.T, f *createEventForm, spec string, icon fyne.Resource) *widget.Button {
	t.Helper()
	label := ""
	for _, e := range f.entrants.items {
		if e.entry() == spec {
			label = e.label
		}
	}
	var found *widget.Button
	walk(t, f.entrants.list, func(o fyne.CanvasObject) {
		row, ok := o.(*fyne.Container)
		if !ok || len(row.Objects) != 3 {
			return
		}
		check, ok := row.Objects[0].(*widget.Check)
		moves, ok2 := row.Objects[1].(*fyne.Container)
		if !ok || !ok2 || check.Text != label || !row.Visible() {
			return
		}
		for _, b := range moves.Objects {
			if b, ok := b.(*widget.Button); ok && b.Icon.Name() == icon.Name() {
				found = b
			}
		}
	})
	if found == nil {
		t.Fatalf("no row of %s (%q) with a %s button", spec, label, icon.Name())
	}
	return found
}
