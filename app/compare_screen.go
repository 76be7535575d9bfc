package app

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/engine/rating"
)

// compareScreen answers "is this revision stronger than that one?" with
// groups of games on one seed and a sequential test, in plain words, for
// every game (fillers take the other seats of games of more players).
type compareScreen struct {
	u   *UI
	obj fyne.CanvasObject

	game      *widget.Select
	a, b      *widget.Select
	maxGames  *widget.Entry
	test      *widget.RadioGroup
	margin    *widget.Entry // p1 (classroom) or elo1 (sprt)
	filler    *widget.Select
	form      *widget.Form
	start     *widget.Button
	stop      *widget.Button
	verdict   *widget.Label
	numbers   *widget.Label
	progress  *widget.ProgressBar
	running   atomic.Int64 // the event being shown
	entrantsM map[string][]string
	specOf    map[string]string // an entrant list's label to its entry spec
}

func newCompareScreen(u *UI) *compareScreen {
	c := &compareScreen{u: u, entrantsM: map[string][]string{}, specOf: map[string]string{}}
	title := newHeading("Compare two bots", theme.SizeNameHeadingText)
	intro := widget.NewLabel("Pick two revisions of an AI (or any two bots). Ringside plays groups of games on one seed each, every\n" +
		"seat taken by each of the two in turn (with filler bots in the other seats of games of more than two players),\n" +
		"until a sequential test tells whether the first finishes ahead of the second, then says so in plain words.")
	var ids []string
	for _, g := range games.All() {
		ids = append(ids, g.Info().ID)
	}
	c.a = widget.NewSelect(nil, nil)
	c.b = widget.NewSelect(nil, nil)
	c.filler = widget.NewSelect(nil, nil)
	c.game = widget.NewSelect(ids, func(string) { c.fill() })
	c.maxGames = widget.NewEntry()
	c.maxGames.SetText(fmt.Sprint(event.DefaultClassroomGames))
	c.margin = widget.NewEntry()
	c.margin.SetText(fmt.Sprint(rating.DefaultClassroomP1))
	c.test = widget.NewRadioGroup([]string{testClassroom, testElo}, func(string) { c.testChanged() })
	c.test.Horizontal = true
	c.test.Required = true
	c.start = widget.NewButtonWithIcon("Compare", theme.MediaPlayIcon(), c.onStart)
	c.start.Importance = widget.HighImportance
	c.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), c.onStop)
	c.stop.Disable()
	form := widget.NewForm(
		widget.NewFormItem("Game", c.game),
		widget.NewFormItem("Under test", c.a),
		widget.NewFormItem("Against", c.b),
		widget.NewFormItem("Other seats", c.filler),
		widget.NewFormItem("Test", c.test),
		widget.NewFormItem("At most games", c.maxGames),
		widget.NewFormItem("Difference that matters", c.margin),
	)
	form.Items[3].HintText = "games of more than two players: the filler bots in the seats the two do not take"
	c.form = form
	c.test.SetSelected(testClassroom)
	c.verdict = newHeading("", theme.SizeNameSubHeadingText)
	c.verdict.Wrapping = fyne.TextWrapWord
	c.numbers = widget.NewLabel("")
	c.numbers.Wrapping = fyne.TextWrapWord
	c.progress = widget.NewProgressBar()
	c.progress.Hide()
	// The figures are for those who know the test; the sentence above
	// them says what they mean.
	details := widget.NewAccordion(widget.NewAccordionItem("The numbers behind it (wins/draws/losses, rating difference, "+
		"likelihood of being stronger, the test's log-likelihood ratio)", c.numbers))
	c.obj = container.NewVScroll(container.NewPadded(container.NewVBox(title, intro, form,
		container.NewHBox(c.start, c.stop), c.progress, c.verdict, details)))
	c.game.SetSelected(ids[0])
	return c
}

// The tests offered, as the radio group words them.
const (
	testClassroom = "Classroom (fast on a clear difference)"
	testElo       = "Chess-engine SPRT (small differences)"
)

// fillerBuiltins is the default choice of filler: the game's built-in
// bots, each in turn.
const fillerBuiltins = "the game's built-in bots, in turn"

func (c *compareScreen) object() fyne.CanvasObject { return c.obj }

// testChanged sets the margin's meaning and defaults for the test chosen.
func (c *compareScreen) testChanged() {
	if c.form == nil {
		return
	}
	item := c.form.Items[6]
	if c.test.Selected == testElo {
		c.margin.SetText(fmt.Sprint(event.DefaultElo1))
		c.maxGames.SetText(fmt.Sprint(event.DefaultSPRTGames))
		item.HintText = "in rating points (normalized Elo): how much stronger counts as stronger; smaller needs more games"
	} else {
		c.margin.SetText(fmt.Sprint(rating.DefaultClassroomP1))
		c.maxGames.SetText(fmt.Sprint(event.DefaultClassroomGames))
		item.HintText = "the share of decided groups of games the stronger finishes ahead in (0.75: three in four)"
	}
	c.form.Refresh()
}

// reload refreshes the entrant choices (AIs and their revisions) off the
// UI thread.
func (c *compareScreen) reload() {
	c.u.goWork(func() {
		ais, err := c.u.Svc.BuiltAIs()
		if err != nil {
			uiDo(func() { c.u.showError("Cannot read the registered AIs", err) })
			return
		}
		m := map[string][]string{}
		for _, g := range games.All() {
			m[g.Info().ID] = service.BuiltinSpecs(g.Info().ID)
		}
		for _, a := range ais {
			m[a.Game] = append(m[a.Game], a.Revisions...)
		}
		uiDo(func() {
			c.entrantsM = m
			c.fill()
		})
	})
}

// entrantLabels shows entry specs by the names the app uses ("greedy
// (built-in)"), and remembers which spec each label stands for.
func (c *compareScreen) entrantLabels(specs []string) []string {
	labels, specOf := entryLabels(specs)
	maps.Copy(c.specOf, specOf)
	return labels
}

// spec is the entry a label of the entrant lists stands for.
func (c *compareScreen) spec(label string) string {
	if s, ok := c.specOf[label]; ok {
		return s
	}
	return label
}

func (c *compareScreen) fill() {
	opts := c.entrantLabels(c.entrantsM[c.game.Selected])
	c.a.Options, c.b.Options = opts, opts
	c.filler.Options = append([]string{fillerBuiltins}, opts...)
	c.filler.SetSelected(fillerBuiltins)
	if g, err := games.Get(c.game.Selected); err == nil && g.Info().MinSeats > 2 {
		c.filler.Enable()
	} else {
		c.filler.Disable()
	}
	if len(opts) > 0 {
		c.a.SetSelected(opts[0])
		c.b.SetSelected(opts[min(1, len(opts)-1)])
	}
	c.a.Refresh()
	c.b.Refresh()
}

func (c *compareScreen) onStart() {
	maxGames, err := strconv.Atoi(strings.TrimSpace(c.maxGames.Text))
	if err != nil || maxGames < 2 {
		c.u.showError("Cannot compare", invalidf("At most games: %q is not a number of at least 2", c.maxGames.Text))
		return
	}
	margin, err := strconv.ParseFloat(strings.TrimSpace(c.margin.Text), 64)
	if err != nil || margin <= 0 {
		c.u.showError("Cannot compare", invalidf("Difference that matters: %q is not a number above 0", c.margin.Text))
		return
	}
	spec := service.EventSpec{Game: c.game.Selected, Format: event.SPRT, Games: maxGames,
		Entries: []string{c.spec(c.a.Selected), c.spec(c.b.Selected)},
		Name:    fmt.Sprintf("Compare %s with %s", c.a.Selected, c.b.Selected)}
	if c.test.Selected == testElo {
		spec.Test, spec.Elo1 = event.TestElo, margin
	} else {
		spec.Test, spec.P1 = event.TestClassroom, margin
	}
	if f := c.filler.Selected; f != "" && f != fillerBuiltins && !c.filler.Disabled() {
		spec.Fillers = []string{c.spec(f)}
	}
	c.start.Disable()
	// The last comparison's answer goes at once: it is not this one's.
	c.verdict.SetText(fmt.Sprintf("Starting: %s with %s…", c.a.Selected, c.b.Selected))
	c.numbers.SetText("")
	c.u.goWork(func() {
		ev, _, err := c.u.Jobs.CreateAndStart(spec)
		uiDo(func() {
			c.start.Enable()
			if err != nil {
				c.u.showError("Cannot compare", err)
				return
			}
			c.running.Store(ev.ID)
			c.stop.Enable()
			c.progress.SetValue(0)
			c.progress.Show()
			c.verdict.SetText(fmt.Sprintf("Comparing %s with %s…", c.a.Selected, c.b.Selected))
			c.numbers.SetText("")
			c.u.events.reload()
		})
	})
}

// gameDone comes from a job's goroutine.
func (c *compareScreen) gameDone(id int64) {
	if id != c.currentID() {
		return
	}
	c.u.goWork(func() { c.refresh(id) })
}

func (c *compareScreen) currentID() int64 { return c.running.Load() }

func (c *compareScreen) refresh(id int64) {
	view, err := c.u.Svc.CompareView(id)
	if err != nil {
		return
	}
	ev, rep := view.Event, view.Report
	sentence, numbers := view.Sentence, view.Numbers
	// Built-in bots by the names the app shows them by.
	for _, e := range ev.Entries {
		if shown := displayName(e.Name); shown != e.Name {
			sentence = strings.ReplaceAll(sentence, e.Name, shown)
		}
	}
	frac := float64(rep.Games) / float64(max(ev.Config.Games, 1))
	if rep.Finished {
		frac = 1
	}
	running := c.u.Jobs.Running(id)
	uiDo(func() {
		if c.running.Load() != id {
			return
		}
		c.verdict.SetText(sentence)
		c.numbers.SetText(numbers)
		c.progress.SetValue(frac)
		if !running {
			c.stop.Disable()
		}
	})
}

// onStop ends the comparison shown; it can go on from the Events screen
// (Resume), where it is an SPRT event.
func (c *compareScreen) onStop() {
	id := c.currentID()
	if id == 0 {
		return
	}
	c.stop.Disable()
	c.u.goWork(func() {
		c.u.Jobs.Stop(id)
		c.refresh(id)
		uiDo(func() {
			if c.running.Load() == id {
				c.verdict.SetText(c.verdict.Text + " Stopped: resume it from the Events screen to go on.")
			}
			c.u.events.reload()
		})
	})
}
