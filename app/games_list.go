package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/storage"
)

// gamesList shows an event's games with their status; a finished game
// opens in the replay viewer.
type gamesList struct {
	u       *UI
	list    *widget.List
	data    *eventData
	open    *widget.Button
	summary *widget.Label
	chosen  int64
	obj     fyne.CanvasObject
}

func newGamesList(u *UI) *gamesList {
	g := &gamesList{u: u}
	g.list = widget.NewList(
		func() int {
			if g.data == nil {
				return 0
			}
			return len(g.data.matches)
		},
		func() fyne.CanvasObject {
			icon := widget.NewIcon(theme.ConfirmIcon())
			l := widget.NewLabel("game 100 · round 1 · seats · ranks")
			l.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, icon, nil, l)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if g.data == nil || i >= len(g.data.matches) {
				return
			}
			m := g.data.matches[i]
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(g.line(m))
			icon := c.Objects[1].(*widget.Icon)
			switch m.Status {
			case storage.MatchDone:
				icon.SetResource(theme.ConfirmIcon())
			case storage.MatchRunning:
				icon.SetResource(theme.MediaPlayIcon())
			case storage.MatchError:
				icon.SetResource(theme.ErrorIcon())
			default:
				icon.SetResource(theme.MoreHorizontalIcon())
			}
		})
	g.list.OnSelected = func(i widget.ListItemID) {
		if g.data == nil || i >= len(g.data.matches) {
			return
		}
		m := g.data.matches[i]
		g.chosen = m.ID
		if m.Status == storage.MatchDone {
			g.open.Enable()
		} else {
			g.open.Disable()
		}
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

func (g *gamesList) line(m storage.Match) string {
	names := make([]string, len(m.Game.Seats))
	for s, e := range m.Game.Seats {
		if e < len(g.data.ev.Entries) {
			names[s] = g.data.ev.Entries[e].Name
		}
	}
	text := fmt.Sprintf("Game %d · round %d · %s", m.Game.Index+1, m.Game.Round+1, strings.Join(names, " vs "))
	switch {
	case m.Result != nil:
		text += fmt.Sprintf(" · ranks %v · %s · %d turns", m.Result.Ranks, m.Result.Reason, m.Result.Turns)
	case m.Error != "":
		text += " · " + m.Error
	default:
		text += " · " + string(m.Status)
	}
	return text
}

func (g *gamesList) set(d *eventData) {
	g.data = d
	counts := map[storage.MatchStatus]int{}
	for _, m := range d.matches {
		counts[m.Status]++
	}
	g.summary.SetText(fmt.Sprintf("%d done · %d playing · %d to play", counts[storage.MatchDone],
		counts[storage.MatchRunning], counts[storage.MatchScheduled]))
	g.list.Refresh()
}
