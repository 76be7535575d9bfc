package app

import (
	"fmt"
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
	"ringside/runner"
	"ringside/storage"
)

// compareScreen answers "is this revision stronger than that one?" with
// seat-swapped games and an SPRT, in plain words.
type compareScreen struct {
	u   *UI
	obj fyne.CanvasObject

	game      *widget.Select
	a, b      *widget.Select
	maxGames  *widget.Entry
	elo1      *widget.Entry
	start     *widget.Button
	stop      *widget.Button
	verdict   *widget.Label
	numbers   *widget.Label
	progress  *widget.ProgressBar
	running   atomic.Int64 // the event being shown
	entrantsM map[string][]string
}

func newCompareScreen(u *UI) *compareScreen {
	c := &compareScreen{u: u, entrantsM: map[string][]string{}}
	title := newHeading("Compare two bots", theme.SizeNameHeadingText)
	intro := widget.NewLabel("Pick two revisions of an AI (or any two bots). Ringside plays pairs of games with the seats swapped\n" +
		"on the same seed until a sequential test tells whether the first is stronger, then says so in plain words.")
	// The test compares two bots in two-player games; four-player Grip
	// compares revisions in a league instead (the Events screen).
	var ids, others []string
	for _, g := range games.All() {
		if g.Info().MinSeats <= 2 {
			ids = append(ids, g.Info().ID)
		} else {
			others = append(others, g.Info().Name)
		}
	}
	if len(others) > 0 {
		intro.SetText(intro.Text + "\n" + strings.Join(others, ", ") +
			" needs more than two players per game: compare its revisions in a league from the Events screen.")
	}
	c.a = widget.NewSelect(nil, nil)
	c.b = widget.NewSelect(nil, nil)
	c.game = widget.NewSelect(ids, func(string) { c.fill() })
	c.maxGames = widget.NewEntry()
	c.maxGames.SetText("2000")
	c.elo1 = widget.NewEntry()
	c.elo1.SetText("5")
	c.start = widget.NewButtonWithIcon("Compare", theme.MediaPlayIcon(), c.onStart)
	c.start.Importance = widget.HighImportance
	c.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), c.onStop)
	c.stop.Disable()
	form := widget.NewForm(
		widget.NewFormItem("Game", c.game),
		widget.NewFormItem("Under test", c.a),
		widget.NewFormItem("Against", c.b),
		widget.NewFormItem("At most games", c.maxGames),
		widget.NewFormItem("Difference that matters", c.elo1),
	)
	form.Items[4].HintText = "in rating points (normalized Elo): how much stronger counts as stronger; smaller needs more games"
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

func (c *compareScreen) object() fyne.CanvasObject { return c.obj }

// reload refreshes the entrant choices (AIs and their revisions) off the
// UI thread.
func (c *compareScreen) reload() {
	c.u.goWork(func() {
		ais, err := c.u.DB.ListAIs()
		if err != nil {
			uiDo(func() { c.u.showError("Cannot read the registered AIs", err) })
			return
		}
		m := map[string][]string{}
		for _, g := range games.All() {
			for _, b := range g.Bots() {
				m[g.Info().ID] = append(m[g.Info().ID], runner.BuiltinPrefix+g.Info().ID+"/"+b)
			}
		}
		for _, a := range ais {
			revs, err := c.u.DB.Revisions(a.ID)
			if err != nil {
				continue
			}
			for i := len(revs) - 1; i >= 0; i-- {
				if revs[i].Status == storage.BuildOK {
					m[a.Game] = append(m[a.Game], fmt.Sprintf("%s@r%d", a.Name, revs[i].Number))
				}
			}
		}
		uiDo(func() {
			c.entrantsM = m
			c.fill()
		})
	})
}

func (c *compareScreen) fill() {
	opts := c.entrantsM[c.game.Selected]
	c.a.Options, c.b.Options = opts, opts
	if len(opts) > 0 {
		c.a.SetSelected(opts[0])
		c.b.SetSelected(opts[min(1, len(opts)-1)])
	}
	c.a.Refresh()
	c.b.Refresh()
}

func (c *compareScreen) onStart() {
	maxGames, err := strconv.Atoi(strings.TrimSpace(c.maxGames.Text))
	if err != nil || maxGames < 2 || maxGames%2 != 0 {
		c.u.showError("Cannot compare", invalidf("At most games: %q is not an even number of at least 2", c.maxGames.Text))
		return
	}
	elo1, err := strconv.ParseFloat(strings.TrimSpace(c.elo1.Text), 64)
	if err != nil || elo1 <= 0 {
		c.u.showError("Cannot compare", invalidf("Difference that matters: %q is not a number above 0", c.elo1.Text))
		return
	}
	spec := service.EventSpec{Game: c.game.Selected, Format: event.SPRT, Games: maxGames, Elo1: elo1,
		Entries: []string{c.a.Selected, c.b.Selected},
		Name:    fmt.Sprintf("Compare %s with %s", c.a.Selected, c.b.Selected)}
	c.start.Disable()
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
	ev, err := c.u.DB.Event(id)
	if err != nil {
		return
	}
	rep, err := c.u.Svc.CompareReport(ev)
	if err != nil {
		return
	}
	sentence, numbers := service.CompareSentence(ev, rep), service.CompareNumbers(rep)
	frac := float64(2*rep.Pairs) / float64(max(ev.Config.Games, 1))
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
