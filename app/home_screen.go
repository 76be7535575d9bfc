package app

import (
	"fmt"
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

// demo is a ready-made event of built-in bots that runs with one click.
type demo struct {
	Game    string
	Title   string
	Text    string
	Spec    service.EventSpec
	Minutes string
}

// demos are the first-run events, one per game.
var demos = []demo{
	{Game: "grip", Title: "Grip: greedy against three random bots",
		Text: "A league of 24 games: one seed played in all 24 orders of the four seats, so the luck of the start evens out.",
		Spec: service.EventSpec{Name: "Demo: Grip league", Game: "grip", Format: event.League, Games: 1, Seed: 1, SeedSet: true,
			Pace:    40, // a game of 500-odd turns in about 15 s
			Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}}},
	{Game: "battle2048", Title: "Battle 2048: greedy, random and random again",
		Text: "A round robin of 24 games with seats swapped on every seed.",
		Spec: service.EventSpec{Name: "Demo: Battle 2048 league", Game: "battle2048", Format: event.League, Games: 4, Seed: 1, SeedSet: true,
			Pace:    3, // 30 to 60 rounds: 10 to 20 s
			Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/random"}}},
	{Game: "cloud", Title: "Cloud Contest: two hunters against two random teams",
		Text: "Four teams of six bots under fog of war, 150 turns a game, 24 games: every order of the four seats.",
		Spec: service.EventSpec{Name: "Demo: Cloud Contest", Game: "cloud", Format: event.League, Games: 1, Seed: 1, SeedSet: true,
			Options: engine.Options{"turns": "150"},
			Pace:    10, // 15 s a game
			Entries: []string{"builtin:cloud/hunter", "builtin:cloud/random", "builtin:cloud/hunter", "builtin:cloud/random"}}},
}

// demoPaced is a new home screen's paced: the demos are played at their
// pace, slow enough to watch; tests that need a demo's results turn it off.
var demoPaced = true

// homeScreen greets a first-time user and offers the demos.
type homeScreen struct {
	u       *UI
	obj     fyne.CanvasObject
	sandbox *widget.Label // how bots are contained on this machine
	// sandboxMore shows sandboxReport, the whole of what this machine
	// offers bots' containment and what it lacks.
	sandboxMore   *widget.Button
	sandboxReport string
	others        *widget.Label // other apps that have the database open
	paced         bool          // demos at their pace (demoPaced)
}

func newHomeScreen(u *UI) *homeScreen {
	h := &homeScreen{u: u, paced: demoPaced}
	title := newHeading("Welcome to Ringside", theme.SizeNameHeadingText)
	intro := widget.NewLabel("Ringside runs tournaments between programs that play games. Start a demo to watch one now: " +
		"the built-in bots play real games through the same pipes as your students' programs, slowed to a pace you can follow " +
		"(open a game in play from the event's Games, or press Projector). " +
		"Then add your own programs, or create an event in the Events screen.")
	intro.Wrapping = fyne.TextWrapWord
	cards := container.NewGridWithColumns(3)
	for _, d := range demos {
		g, err := games.Get(d.Game)
		if err != nil {
			continue
		}
		// The title goes in the content, wrapped: a card's subtitle does
		// not wrap and would make the screen wider than a projector.
		title := widget.NewLabelWithStyle(d.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		title.Wrapping = fyne.TextWrapWord
		text := widget.NewLabel(d.Text)
		text.Wrapping = fyne.TextWrapWord
		run := widget.NewButtonWithIcon("Run demo", theme.MediaPlayIcon(), func() { h.runDemo(d) })
		run.Importance = widget.HighImportance
		// The button at the card's foot, so the three line up.
		cards.Add(widget.NewCard(g.Info().Name, "", container.NewBorder(nil, container.NewHBox(run), nil, nil,
			container.NewVBox(title, text))))
	}
	where := widget.NewLabel(fmt.Sprintf("Database: %s", u.Svc.Path()))
	where.TextStyle = fyne.TextStyle{Italic: true}
	// The path on its own line, broken where it must, and the buttons
	// under it: side by side, a long path and three buttons were wider
	// than a 1024-pixel projector.
	where.Wrapping = fyne.TextWrapBreak
	db := container.NewVBox(where, container.NewHBox(databaseButtons(u)))
	h.sandbox = widget.NewLabel("Sandbox: checking what this machine offers…")
	h.sandbox.Wrapping = fyne.TextWrapWord
	h.others = widget.NewLabel("")
	h.others.Wrapping = fyne.TextWrapWord
	h.others.Importance = widget.WarningImportance
	h.others.Hide()
	// One scroll for the whole screen: wrapped labels ask for a tall
	// minimum size before their width is known, which must not grow the
	// window.
	// "Sandbox: on" and a button for the kernel's features behind it,
	// which a teacher need not read.
	h.sandboxMore = widget.NewButton("Details…", func() { showSandboxDetails(u, h.sandboxReport) })
	h.sandboxMore.Disable()
	sandboxLine := container.NewBorder(nil, nil, nil, h.sandboxMore, h.sandbox)
	h.obj = container.NewVScroll(container.NewPadded(container.NewVBox(title, intro, cards, db, h.others, sandboxLine)))
	// Probing starts a launcher: not on the UI thread.
	u.goWork(func() {
		on, text, report := service.SandboxState()
		uiDo(func() {
			if !on {
				h.sandbox.Importance = widget.WarningImportance
			}
			h.sandbox.SetText(text)
			h.sandboxReport = report
			h.sandboxMore.Enable()
		})
	})
	u.goWork(h.watchOthers)
	return h
}

func (h *homeScreen) object() fyne.CanvasObject { return h.obj }

// showSandboxDetails shows the sandbox's whole report: what contains the
// bots on this machine and what is missing, for whoever asks.
func showSandboxDetails(u *UI, report string) {
	d := dialog.NewCustom("Sandbox details", "Close", container.NewScroll(newLogText(report)), u.Win)
	d.Resize(dialogSize(u, 820, 420))
	d.Show()
}

// othersEvery is how often the Home screen looks for other apps on the
// database.
var othersEvery = 5 * time.Second

// watchOthers keeps the line about other apps on the database current
// until the window closes.
func (h *homeScreen) watchOthers() {
	t := time.NewTicker(othersEvery)
	defer t.Stop()
	for {
		text, err := h.u.Svc.OtherAppsText()
		if err == nil {
			uiDo(func() {
				if text == h.others.Text {
					return
				}
				h.others.SetText(text)
				if text == "" {
					h.others.Hide()
				} else {
					h.others.Show()
				}
			})
		}
		select {
		case <-h.u.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// runDemo creates the demo's event and starts it, off the UI thread.
func (h *homeScreen) runDemo(d demo) {
	// A demo played before is shown again rather than made twice.
	h.u.goWork(func() {
		evs, err := h.u.Svc.Events()
		for _, ev := range evs {
			if err == nil && ev.Name == d.Spec.Name && ev.Game == d.Spec.Game {
				uiDo(func() { h.u.showEvents(ev.ID) })
				return
			}
		}
		spec := d.Spec
		if !h.paced {
			spec.Pace = 0
		}
		uiDo(func() { createEvent(h.u, spec, true, "The demo could not start") })
	})
}
