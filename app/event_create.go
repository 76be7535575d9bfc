package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

// formatHelp says what each format does, for the create dialog.
var formatHelp = map[event.Format]string{
	event.League:   "Everyone plays everyone; each seed in every seat order.",
	event.Bracket:  "Single elimination with seeding and byes; best-of-N matches.",
	event.Gauntlet: "Candidates play the rest of the field.",
	event.Swiss:    "Rounds paired by score, no rematches (two-player games).",
	event.SPRT:     "Two entries until the sequential test tells which is stronger.",
}

// showCreateEvent opens the "New event" dialog. The registered AIs are
// read off the UI thread first.
func showCreateEvent(u *UI) {
	u.goWork(func() {
		ais, err := u.DB.ListAIs()
		uiDo(func() {
			if err != nil {
				u.showError("Cannot read the registered AIs", err)
				return
			}
			newCreateEventForm(u, ais).show()
		})
	})
}

type createEventForm struct {
	u   *UI
	ais []storage.AI

	name      *widget.Entry
	game      *widget.Select
	format    *widget.Select
	formatTip *widget.Label
	entrants  *widget.CheckGroup
	commands  *widget.Entry
	gamesN    *widget.Entry
	seats     *widget.Select
	filler    *widget.Select
	conc      *widget.Entry
	scale     *widget.Entry
	seed      *widget.Entry
	options   *widget.Entry
	runNow    *widget.Check
}

func newCreateEventForm(u *UI, ais []storage.AI) *createEventForm {
	f := &createEventForm{u: u, ais: ais}
	f.name = newEntry("e.g. Class 3B, round 1")
	var ids []string
	for _, g := range games.All() {
		ids = append(ids, g.Info().ID)
	}
	f.entrants = widget.NewCheckGroup(nil, nil)
	f.commands = widget.NewMultiLineEntry()
	f.commands.SetPlaceHolder("one per line: NAME=COMMAND, e.g. alice=python3 /home/alice/bot.py")
	f.commands.SetMinRowsVisible(3)
	f.seats = widget.NewSelect(nil, nil)
	f.filler = widget.NewSelect(nil, nil)
	f.game = widget.NewSelect(ids, func(string) { f.gameChanged() })
	var formats []string
	for _, x := range event.Formats {
		formats = append(formats, string(x))
	}
	f.formatTip = widget.NewLabel("")
	f.formatTip.Wrapping = fyne.TextWrapWord
	f.format = widget.NewSelect(formats, func(s string) { f.formatTip.SetText(formatHelp[event.Format(s)]) })
	f.gamesN = newEntry("format's default")
	f.conc = widget.NewEntry()
	f.conc.SetText(strconv.Itoa(runner.DefaultConcurrency()))
	f.scale = widget.NewEntry()
	f.scale.SetText("1")
	f.seed = newEntry("random")
	f.options = widget.NewMultiLineEntry()
	f.options.SetPlaceHolder("game options, one per line: KEY=VALUE (see the Games screen)")
	f.options.SetMinRowsVisible(2)
	f.runNow = widget.NewCheck("Run it now", nil)
	f.runNow.SetChecked(true)
	f.format.SetSelected(string(event.League))
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
	var opts []string
	for _, b := range g.Bots() {
		opts = append(opts, runner.BuiltinPrefix+info.ID+"/"+b)
	}
	fillers := append([]string(nil), opts...)
	for _, a := range f.ais {
		if a.Game == info.ID && !a.Missing {
			opts = append(opts, a.Name)
		}
	}
	f.entrants.Options = opts
	f.entrants.Selected = nil
	f.entrants.Refresh()
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
	if len(fillers) > 0 {
		for _, b := range fillers {
			if strings.HasSuffix(b, "/random") {
				f.filler.SetSelected(b)
			}
		}
	}
}

func (f *createEventForm) show() {
	form := widget.NewForm(
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Game", f.game),
		widget.NewFormItem("Format", container.NewVBox(f.format, f.formatTip)),
		widget.NewFormItem("Entrants", container.NewVScroll(f.entrants)),
		widget.NewFormItem("Other programs", f.commands),
		widget.NewFormItem("Games per pairing", f.gamesN),
		widget.NewFormItem("Players per game", f.seats),
		widget.NewFormItem("Filler for empty seats", f.filler),
		widget.NewFormItem("Games at once", f.conc),
		widget.NewFormItem("Time multiplier", f.scale),
		widget.NewFormItem("Seed", f.seed),
		widget.NewFormItem("Game options", f.options),
		widget.NewFormItem("", f.runNow),
	)
	form.Items[5].HintText = "league: seeds per pairing; bracket: best of N; swiss: rounds; sprt: most games"
	d := dialog.NewCustomConfirm("New event", "Create", "Cancel", container.NewVScroll(form), func(ok bool) {
		if ok {
			f.create()
		}
	}, f.u.Win)
	d.Resize(fyne.NewSize(760, 680))
	d.Show()
}

// spec reads the form into an EventSpec; bad numbers are reported by name.
func (f *createEventForm) spec() (service.EventSpec, error) {
	s := service.EventSpec{Name: f.name.Text, Game: f.game.Selected, Format: event.Format(f.format.Selected),
		Options: engine.Options{}}
	s.Entries = append(s.Entries, f.entrants.Selected...)
	for _, line := range strings.Split(f.commands.Text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			s.Entries = append(s.Entries, line)
		}
	}
	if f.filler.Selected != "" && f.filler.Selected != "none" {
		s.Fillers = []string{f.filler.Selected}
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
	if t := strings.TrimSpace(f.seed.Text); t != "" {
		if s.Seed, err = strconv.ParseInt(t, 10, 64); err != nil {
			return s, invalidf("Seed: %q is not a whole number (leave it empty for a random seed)", t)
		}
		s.SeedSet = true
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

func (f *createEventForm) create() {
	spec, err := f.spec()
	if err != nil {
		f.u.showError("The event was not created", err)
		return
	}
	createEvent(f.u, spec, f.runNow.Checked, "The event was not created")
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
				u.showError(failed, err)
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
