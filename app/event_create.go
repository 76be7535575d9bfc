package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
)

// formatHelp says what each format does, for the create dialog.
var formatHelp = map[event.Format]string{
	event.League:   "Everyone plays everyone, in seat orders where each sits in every seat and moves after every other entry equally often.",
	event.Bracket:  "Single elimination with seeding and byes; best-of-N matches.",
	event.Gauntlet: "Candidates play the rest of the field.",
	event.Swiss:    "Rounds paired by score, no rematches (two-player games).",
	event.SPRT:     "Two entries until the sequential test tells which is stronger.",
}

// gamesHint says what "Games per pairing" counts in each format.
var gamesHint = map[event.Format]string{
	event.League:   "how many times the whole seat design is played",
	event.Bracket:  "best of N games per match",
	event.Gauntlet: "seeds per pairing or group",
	event.Swiss:    "the number of rounds",
	event.SPRT:     "the most games to play before stopping",
}

// showCreateEvent opens the "New event" dialog. The registered AIs and
// their revisions are read off the UI thread first.
func showCreateEvent(u *UI) { openCreateEventForm(u, nil) }

// openCreateEventForm reads the registered AIs and the events (finished
// events' standings can seed a knockout) off the UI thread, then shows
// the New event form, after prefill, when given, has filled it in.
func openCreateEventForm(u *UI, prefill func(f *createEventForm)) {
	u.goWork(func() {
		ais, err := u.Svc.AIs()
		var evs []service.EventInfo
		if err == nil {
			evs, err = u.Svc.Events()
		}
		uiDo(func() {
			if err != nil {
				u.showError("Cannot read the registered AIs and events", err)
				return
			}
			f := newCreateEventForm(u, ais)
			f.setEvents(evs)
			if prefill != nil {
				prefill(f)
			}
			f.show()
		})
	})
}

// createEventForm is the "New event" dialog. It stays open until the
// event is created: a problem is said under the form, with everything
// entered kept, and a line above the buttons says how many games the
// event would be and how long they would take.
type createEventForm struct {
	u    *UI
	ais  []service.AIStatus
	form *widget.Form // nil until shown

	name       *widget.Entry
	game       *widget.Select
	format     *widget.Select
	formatTip  *widget.Label
	entrants   *entrantPicker
	commands   *widget.Entry
	gamesN     *widget.Entry
	seats      *widget.Select
	filler     *widget.Select
	fillerSpec map[string]string // a filler's label to its entry spec
	conc       *widget.Entry
	scale      *widget.Entry
	pace       *widget.Entry
	seed       *widget.Entry
	options    *widget.Entry
	limits     *widget.Entry
	deadline   *widget.Entry
	trusted    *widget.Check
	runNow     *widget.Check
	// seeding orders the entries (a bracket's seeds); seedFrom maps its
	// "from the standings of …" choices to their events (event_seeding.go).
	seeding  *widget.Select
	seedFrom map[string]int64
	events   []service.EventInfo

	// The form's rows that say more than their label, by name: the
	// format chooses the games row's hint.
	gamesRow, fillerRow, paceRow, limitsRow, deadlineRow *widget.FormItem

	plan    *widget.Label // the event's size and time, or what is wrong
	create  *widget.Button
	dlg     *dialog.CustomDialog
	planGen int // only the newest plan is shown

	// formScroll is the form's scroll, which the wheel scrolls wherever
	// the pointer is (newFormScroll).
	formScroll *container.Scroll
}

// newCreateEventForm makes the dialog's fields, their defaults and
// placeholders from service.DefaultEventSpec and the service's words for
// the defaults that are rules, as "ringside event create" states them.
func newCreateEventForm(u *UI, ais []service.AIStatus) *createEventForm {
	f := &createEventForm{u: u, ais: ais}
	def := service.DefaultEventSpec()
	f.name = newEntry("e.g. Class 3B, round 1 (default: " + service.DefaultNameWords + ")")
	var ids []string
	for _, g := range games.All() {
		ids = append(ids, g.Info().ID)
	}
	f.entrants = newEntrantPicker(f.replan)
	f.commands = widget.NewMultiLineEntry()
	f.commands.SetPlaceHolder("one per line: NAME=COMMAND, e.g. alice=python3 /home/alice/bot.py")
	f.commands.SetMinRowsVisible(3)
	f.seats = widget.NewSelect(nil, func(s string) {
		if n, err := strconv.Atoi(s); err == nil && f.conc != nil {
			f.conc.SetPlaceHolder(service.DefaultConcurrencyText(n))
		}
		f.replan()
	})
	f.filler = widget.NewSelect(nil, func(string) { f.replan() })
	f.game = widget.NewSelect(ids, func(string) { f.gameChanged() })
	var formats []string
	for _, x := range event.Formats {
		formats = append(formats, string(x))
	}
	f.formatTip = widget.NewLabel("")
	f.formatTip.Wrapping = fyne.TextWrapWord
	f.format = widget.NewSelect(formats, func(s string) {
		f.formatTip.SetText(formatHelp[event.Format(s)])
		if f.gamesN != nil {
			f.gamesN.SetPlaceHolder("default: " + service.DefaultGamesText(event.Format(s)))
		}
		if f.form != nil {
			f.gamesRow.HintText = gamesHint[event.Format(s)]
			f.form.Refresh()
		}
		f.replan()
	})
	f.gamesN = newEntry("default: " + service.DefaultGamesText(def.Format))
	// Empty keeps the default, which depends on the players per game.
	f.conc = newEntry("default: " + service.DefaultConcurrencyWords)
	f.scale = widget.NewEntry()
	f.scale.SetText(strconv.FormatFloat(def.TimeScale, 'g', -1, 64))
	f.pace = newEntry("default: " + service.DefaultPaceWords)
	f.seed = newEntry("default: " + service.DefaultSeedWords)
	f.options = widget.NewMultiLineEntry()
	f.options.SetPlaceHolder("game options, one per line: KEY=VALUE (see the Games screen)")
	f.options.SetMinRowsVisible(2)
	f.limits = newEntry("default: " + service.DefaultLimitsText())
	f.deadline = newEntry(service.DefaultDeadlineWords)
	f.trusted = widget.NewCheck("Trusted: no sandbox (bots get your rights and files)", func(bool) { f.replan() })
	for _, e := range []*widget.Entry{f.name, f.commands, f.gamesN, f.conc, f.scale, f.pace, f.seed, f.options, f.limits, f.deadline} {
		e.OnChanged = func(string) { f.replan() }
	}
	f.runNow = widget.NewCheck("Run it now", nil)
	f.runNow.SetChecked(true)
	f.plan = widget.NewLabel("")
	f.plan.Wrapping = fyne.TextWrapWord
	f.newSeeding()
	f.format.SetSelected(string(def.Format))
	f.game.SetSelected(ids[0])
	return f
}

// gameChanged refills what depends on the game: entrants, seats, fillers.
func (f *createEventForm) gameChanged() {
	g, err := games.Get(f.game.Selected)
	if err != nil {
		return
	}
	info := g.Info()
	var choices []entrant
	var fillers []string
	f.fillerSpec = map[string]string{}
	for _, b := range g.Bots() {
		spec := service.BuiltinEntry(info.ID, b)
		label := b + " (built-in bot)"
		choices = append(choices, entrant{spec: spec, label: label})
		fillers = append(fillers, label)
		f.fillerSpec[label] = spec
	}
	for _, a := range f.ais {
		if a.AI.Game != info.ID || a.Missing {
			continue
		}
		choices = append(choices, aiEntrant(a))
	}
	f.entrants.set(choices)
	f.seedingChoices(info.ID)
	var seats []string
	for n := info.MinSeats; n <= info.MaxSeats; n++ {
		seats = append(seats, strconv.Itoa(n))
	}
	f.seats.Options = seats
	f.seats.SetSelected(seats[0])
	if info.MaxSeats > info.MinSeats && info.MaxSeats >= 4 && info.MinSeats <= 4 {
		f.seats.SetSelected("4")
	}
	f.filler.Options = append([]string{"none"}, fillers...)
	f.filler.SetSelected("none")
	for _, b := range fillers {
		if strings.HasSuffix(f.fillerSpec[b], "/random") {
			f.filler.SetSelected(b)
		}
	}
	f.replan()
}

func (f *createEventForm) show() {
	f.gamesRow = widget.NewFormItem("Games per pairing", f.gamesN)
	f.gamesRow.HintText = gamesHint[event.Format(f.format.Selected)]
	f.fillerRow = widget.NewFormItem("Filler for empty seats", f.filler)
	f.fillerRow.HintText = "bots that take the seats entrants leave empty; they are not ranked"
	f.paceRow = widget.NewFormItem("Pace (turns a second)", f.pace)
	f.paceRow.HintText = "to watch games live, e.g. 10; the bots' time limits are not touched"
	f.limitsRow = widget.NewFormItem("Sandbox caps", f.limits)
	f.limitsRow.HintText = "for every bot, e.g. memory=512M cpu=2m; an AI's own caps win"
	f.deadlineRow = widget.NewFormItem("Deadline", f.deadline)
	f.deadlineRow.HintText = "revisions built after it are not used: " + time.Now().Format("2006-01-02") + " 17:00, or 17:00 today"
	seedingRow := widget.NewFormItem("Seeding", f.seeding)
	seedingRow.HintText = "a bracket's seeds: 1 v last, byes to the top seeds"
	form := widget.NewForm(
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Game", f.game),
		widget.NewFormItem("Format", container.NewVBox(f.format, f.formatTip)),
		f.gamesRow,
		seedingRow,
		widget.NewFormItem("Players per game", f.seats),
		f.fillerRow,
		widget.NewFormItem("Games at once", f.conc),
		widget.NewFormItem("Time multiplier", f.scale),
		f.paceRow,
		widget.NewFormItem("Seed", f.seed),
		widget.NewFormItem("Game options", f.options),
		f.limitsRow,
		f.deadlineRow,
		widget.NewFormItem("", f.trusted),
		widget.NewFormItem("", f.runNow),
	)
	f.form = form
	lists := container.NewVSplit(f.entrants.object(),
		container.NewBorder(widget.NewLabel("Other programs, one per line:"), nil, nil, nil, f.commands))
	lists.Offset = 0.7
	who := container.NewBorder(newHeading("Entrants", theme.SizeNameSubHeadingText), nil, nil, nil, lists)
	var scrolled fyne.CanvasObject
	f.formScroll, scrolled = newFormScroll(form)
	split := container.NewHSplit(scrolled, who)
	split.Offset = 0.55
	cancel := widget.NewButton("Cancel", func() { f.dlg.Hide() })
	f.create = widget.NewButtonWithIcon("Create", theme.ConfirmIcon(), f.submit)
	f.create.Importance = widget.HighImportance
	f.dlg = dialog.NewCustomWithoutButtons("New event", container.NewBorder(nil, f.plan, nil, nil, split), f.u.Win)
	f.dlg.SetButtons([]fyne.CanvasObject{cancel, f.create})
	f.dlg.Resize(dialogSize(f.u, 1180, 700))
	f.dlg.Show()
	f.replan()
}

// replan says, off the UI thread, what the event would be with what is
// entered now, or what keeps it from being created.
func (f *createEventForm) replan() {
	if f.plan == nil || f.entrants == nil {
		return // still being built
	}
	f.planGen++
	gen := f.planGen
	spec, err := f.spec()
	if err == nil && len(spec.Entries) == 0 && spec.SeedFrom == 0 {
		f.showPlan("Choose the entrants on the right, or add other programs below them.", false)
		return
	}
	if err != nil {
		f.showPlan(sentence(err), true)
		return
	}
	f.u.goWork(func() {
		p, err := f.u.Svc.PlanEvent(spec)
		uiDo(func() {
			if gen != f.planGen {
				return
			}
			if err != nil {
				f.showPlan(sentence(err), true)
				return
			}
			f.showPlan(p.Words(), false)
		})
	})
}

func (f *createEventForm) showPlan(text string, problem bool) {
	f.plan.Importance = widget.MediumImportance
	if problem {
		f.plan.Importance = widget.DangerImportance
	}
	f.plan.SetText(text)
}

// spec reads the form into an EventSpec; bad numbers are reported by name.
func (f *createEventForm) spec() (service.EventSpec, error) {
	s := service.DefaultEventSpec()
	s.Name, s.Game, s.Format = f.name.Text, f.game.Selected, event.Format(f.format.Selected)
	s.Options, s.Trusted, s.Limits = engine.Options{}, f.trusted.Checked, strings.TrimSpace(f.limits.Text)
	s.Entries = append(s.Entries, f.entrants.selected()...)
	for _, line := range strings.Split(f.commands.Text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			s.Entries = append(s.Entries, line)
		}
	}
	if spec, ok := f.fillerSpec[f.filler.Selected]; ok {
		s.Fillers = []string{spec}
	}
	var err error
	if s.Games, err = optionalInt(f.gamesN.Text, "Games per pairing"); err != nil {
		return s, err
	}
	if s.Seats, err = optionalInt(f.seats.Selected, "Players per game"); err != nil {
		return s, err
	}
	if s.Concurrency, err = optionalInt(f.conc.Text, "Games at once"); err != nil {
		return s, err
	}
	if t := strings.TrimSpace(f.scale.Text); t != "" {
		if s.TimeScale, err = strconv.ParseFloat(t, 64); err != nil || s.TimeScale <= 0 {
			return s, invalidf("Time multiplier: %q is not a number above 0 (1 is normal speed, 2 doubles every limit)", t)
		}
	}
	if t := strings.TrimSpace(f.pace.Text); t != "" {
		if s.Pace, err = strconv.ParseFloat(t, 64); err != nil || !(s.Pace >= 0) || math.IsInf(s.Pace, 0) {
			return s, invalidf("Pace: %q is not a number of turns a second (leave it empty to play as fast as the bots answer)", t)
		}
	}
	if t := strings.TrimSpace(f.seed.Text); t != "" {
		if s.Seed, err = strconv.ParseInt(t, 10, 64); err != nil {
			return s, invalidf("Seed: %q is not a whole number (leave it empty for a random seed)", t)
		}
		s.SeedSet = true
	}
	if s.Deadline, err = service.ParseDeadline(f.deadline.Text, time.Now()); err != nil {
		return s, invalidf("Deadline: %s", strings.TrimPrefix(err.Error(), "deadline "))
	}
	for _, line := range strings.Split(f.options.Text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return s, invalidf("Game options: %q is not KEY=VALUE", line)
		}
		s.Options[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	f.seedSpec(&s)
	return s, nil
}

func optionalInt(text, field string) (int, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, invalidf("%s: %q is not a whole number", field, t)
	}
	return n, nil
}

// submit creates the event; a problem stays in the dialog, under the
// form, with everything entered kept.
func (f *createEventForm) submit() {
	spec, err := f.spec()
	if err != nil {
		f.showPlan(sentence(err), true)
		return
	}
	run := f.runNow.Checked
	f.create.Disable()
	f.u.goWork(func() {
		create := f.u.Svc.CreateEvent
		if run {
			create = f.u.Jobs.CreateAndStart
		}
		ev, _, err := create(spec)
		uiDo(func() {
			f.create.Enable()
			if fix, _ := service.ErrorFix(err); fix == service.FixAllowPartial {
				// Created, not started: the teacher is asked first.
				f.dlg.Hide()
				f.u.events.reload()
				f.u.showErrorThen("Cannot run the event", err, startCreated(f.u, ev.ID))
				return
			}
			if err != nil {
				f.showPlan(sentence(err), true)
				return
			}
			f.dlg.Hide()
			f.u.events.reload()
			f.u.showEvents(ev.ID)
		})
	})
}

// createEvent creates an event off the UI thread, starts it if run, and
// shows it on the events screen; failed titles the error shown instead.
func createEvent(u *UI, spec service.EventSpec, run bool, failed string) {
	u.goWork(func() {
		create := u.Svc.CreateEvent
		if run {
			create = u.Jobs.CreateAndStart
		}
		ev, n, err := create(spec)
		uiDo(func() {
			if err != nil {
				u.showErrorThen(failed, err, startCreated(u, ev.ID))
				return
			}
			u.events.reload()
			u.showEvents(ev.ID)
			if n == 0 {
				u.showError("Nothing to play", fmt.Errorf("event %d has no games scheduled", ev.ID))
			}
		})
	})
}

// startCreated starts event id, created but refused its start, once the
// teacher has accepted a partial sandbox, and shows it; nil without one.
func startCreated(u *UI, id int64) func() {
	if id == 0 {
		return nil
	}
	return func() {
		if err := u.Jobs.Start(id); err != nil {
			u.showError("Cannot run the event", err)
		}
		u.events.reload()
		u.showEvents(id)
	}
}
