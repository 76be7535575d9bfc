package app

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// gamesList shows an event's games with their status; a finished game
// opens in the replay viewer, and so does a game in play, followed turn by
// turn.
type gamesList struct {
	u       *UI
	list    *widget.List
	data    *eventData
	open    *widget.Button
	summary *widget.Label
	chosen  int64 // the match chosen in the list, 0 for none
	obj     fyne.CanvasObject
}

func newGamesList(u *UI) *gamesList {
	g := &gamesList{u: u}
	g.list = widget.NewList(
		func() int {
			if g.data == nil {
				return 0
			}
			return len(g.data.Games)
		},
		func() fyne.CanvasObject {
			icon := widget.NewIcon(theme.ConfirmIcon())
			l := newLineLabel("game 100 · round 1 · seats · ranks")
			detail := newLineLabel("problems · how it ended · turns")
			detail.SizeName = theme.SizeNameCaptionText
			return container.NewBorder(nil, nil, icon, nil, container.NewVBox(l, detail))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if g.data == nil || i >= len(g.data.Games) {
				return
			}
			m := g.data.Games[i]
			c := o.(*fyne.Container)
			head, detail := g.lines(m)
			text := c.Objects[0].(*fyne.Container).Objects
			text[0].(*widget.Label).SetText(head)
			text[1].(*widget.Label).SetText(detail)
			icon := c.Objects[1].(*widget.Icon)
			switch m.Status {
			case service.GameDone:
				icon.SetResource(theme.ConfirmIcon())
			case service.GameRunning:
				if g.data.Interrupted() {
					icon.SetResource(theme.MoreHorizontalIcon())
				} else {
					icon.SetResource(theme.MediaPlayIcon())
				}
			case service.GameError:
				icon.SetResource(theme.ErrorIcon())
			default:
				icon.SetResource(theme.MoreHorizontalIcon())
			}
		})
	g.list.OnSelected = func(i widget.ListItemID) {
		if g.data == nil || i >= len(g.data.Games) {
			return
		}
		m := g.data.Games[i]
		g.chosen = m.ID
		g.showOpen(m)
	}
	g.open = widget.NewButtonWithIcon("Open replay", theme.MediaPlayIcon(), func() {
		if g.chosen != 0 {
			openReplayWindow(g.u, g.chosen)
		}
	})
	g.open.Disable()
	g.summary = widget.NewLabel("")
	g.obj = container.NewBorder(container.NewHBox(g.open, g.summary), nil, nil, nil, g.list)
	return g
}

func (g *gamesList) object() fyne.CanvasObject { return g.obj }

// showOpen sets the open button for the chosen game m: a finished game
// opens as a replay, a game in play as a viewer that follows it.
func (g *gamesList) showOpen(m service.GameView) {
	text := "Open replay"
	switch m.Status {
	case service.GameDone:
		g.open.Enable()
	case service.GameRunning:
		text = "Watch live"
		if g.data.Interrupted() {
			g.open.Disable() // nobody plays it: it starts again on Resume
			break
		}
		g.open.Enable()
	default:
		g.open.Disable()
	}
	if g.open.Text != text {
		g.open.SetText(text)
	}
}

// line is a game's row in one string: its two lines (lines) joined.
func (g *gamesList) line(m service.GameView) string {
	head, detail := g.lines(m)
	if detail == "" {
		return head
	}
	return head + " · " + detail
}

// lines is a game's row: its number within the event (the replay window
// names the match id too, which "ringside replay export" takes), its
// round, and the players by their
// places once it is played; then, on a line of its own so that a
// 1024-pixel window never cuts it off, what went wrong for whom ("dave
// r1: 1 crash"), how the game ended and its turns.
func (g *gamesList) lines(m service.GameView) (head, detail string) {
	names := make([]string, len(m.Game.Seats))
	for s, e := range m.Game.Seats {
		if e < len(g.data.Event.Entries) {
			names[s] = displayName(g.data.Event.Entries[e].Name)
		}
	}
	// Numbered within the event (the class's first game is game 1).
	text := fmt.Sprintf("Game %d · round %d · ", service.GameNumber(m.Game), m.Game.Round+1)
	switch {
	case m.Result != nil && len(m.Result.Ranks) == len(names):
		var parts []string
		for s, p := range m.Problems {
			if p.Any() && s < len(names) {
				parts = append(parts, names[s]+": "+service.ProblemsText(p))
			}
		}
		parts = append(parts, service.ReasonText(m.Result.Reason), fmt.Sprintf("%d turns", m.Result.Turns))
		return text + placesText(names, m.Result.Ranks), strings.Join(parts, " · ")
	case m.Error != "":
		return text + strings.Join(names, " vs "), m.Error
	case m.Status == service.GameScheduled && m.Away:
		text += strings.Join(names, " vs ") + " · out in a bundle"
	case m.Status == service.GameRunning && g.data.Interrupted():
		text += strings.Join(names, " vs ") + " · interrupted, played again on Resume"
	default:
		text += strings.Join(names, " vs ") + " · " + string(m.Status)
	}
	return text, ""
}

// placesText lists players best first with their places: "1st alice,
// 2nd bob, 2nd carol, 4th dave".
func placesText(names []string, ranks []int) string {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ranks[order[a]] < ranks[order[b]] })
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = service.Ordinal(ranks[s]) + " " + names[s]
	}
	return strings.Join(parts, ", ")
}

// clear forgets the games shown while another event loads.
func (g *gamesList) clear() {
	g.data, g.chosen = nil, 0
	g.list.UnselectAll()
	g.open.Disable()
	g.summary.SetText("")
	g.list.Refresh()
}

// set shows d. A game chosen in another event, or no longer in the list,
// is forgotten, so "Open replay" never opens a game the list does not
// show as chosen.
func (g *gamesList) set(d *eventData) {
	if g.data == nil || d == nil || g.data.Event.ID != d.Event.ID {
		g.chosen = 0
		g.list.UnselectAll()
	}
	g.data = d
	g.open.Disable()
	for _, m := range d.Games {
		if m.ID == g.chosen {
			g.showOpen(m)
		}
	}
	counts := map[service.GameStatus]int{}
	away := 0
	for _, m := range d.Games {
		if m.Status == service.GameScheduled && m.Away {
			away++
			continue
		}
		counts[m.Status]++
	}
	text := fmt.Sprintf("%d done · %d playing · %d to play", counts[service.GameDone],
		counts[service.GameRunning], counts[service.GameScheduled])
	if d.Interrupted() {
		// The games marked running are nobody's: they start again on
		// Resume.
		text = fmt.Sprintf("%d done · %d to play · interrupted — Resume", counts[service.GameDone],
			counts[service.GameRunning]+counts[service.GameScheduled])
	}
	if away > 0 {
		text += fmt.Sprintf(" · %d out in a bundle", away)
	}
	g.summary.SetText(text)
	g.list.Refresh()
}
