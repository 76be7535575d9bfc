package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// entrant is one choice of the entrant picker: a built-in bot or an AI,
// and for an AI which of its revisions plays.
type entrant struct {
	spec  string // the entry: builtin:grip/greedy, or the AI's name
	label string
	// revisions are an AI's choices, current (or pinned) first ("current
	// (r5)", "r4", "r3"…); nil for a built-in bot.
	revisions []string
	chosen    int    // index into revisions
	disabled  string // why it cannot be chosen, "" when it can
	on        bool
}

// aiEntrant is the choice of an AI: its current revision unless another
// is picked.
func aiEntrant(st service.AIStatus) entrant {
	e := entrant{spec: st.AI.Name, label: st.AI.Name}
	if st.Current == nil {
		e.disabled = "not built yet"
		e.label += " (not built yet: build it on the AIs screen)"
		return e
	}
	e.revisions = []string{fmt.Sprintf("current (r%d)", st.Current.Number)}
	if st.Pinned != nil {
		// The AI's name plays its pin, wherever it is used.
		e.revisions[0] = fmt.Sprintf("pinned (r%d)", st.Pinned.Number)
	}
	for i := len(st.Revisions) - 1; i >= 0; i-- {
		if r := st.Revisions[i]; r.Number > 0 {
			e.revisions = append(e.revisions, fmt.Sprintf("r%d", r.Number))
		}
	}
	return e
}

// entry is what the choice adds to an event: the AI's name plays its
// current revision, NAME@rN revision N.
func (e entrant) entry() string {
	if e.chosen > 0 && e.chosen < len(e.revisions) {
		return e.spec + "@" + e.revisions[e.chosen]
	}
	return e.spec
}

// entrantPicker lists the bots and AIs of a game with a check each, tall
// enough to see many at once, and for an AI a choice of revision.
type entrantPicker struct {
	items   []entrant
	changed func()
	list    *widget.List
	count   *widget.Label
	obj     fyne.CanvasObject
}

func newEntrantPicker(changed func()) *entrantPicker {
	p := &entrantPicker{changed: changed}
	p.list = widget.NewList(
		func() int { return len(p.items) },
		func() fyne.CanvasObject {
			check := widget.NewCheck("entrant with a long name", nil)
			rev := widget.NewSelect([]string{"current (r10)"}, nil)
			up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), nil)
			down := widget.NewButtonWithIcon("", theme.MoveDownIcon(), nil)
			up.Importance, down.Importance = widget.LowImportance, widget.LowImportance
			return container.NewBorder(nil, nil, container.NewHBox(up, down), rev, check)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(p.items) {
				return
			}
			c := o.(*fyne.Container)
			// NewBorder keeps the centre first, then left and right.
			check, moves, rev := c.Objects[0].(*widget.Check), c.Objects[1].(*fyne.Container), c.Objects[2].(*widget.Select)
			up, down := moves.Objects[0].(*widget.Button), moves.Objects[1].(*widget.Button)
			up.OnTapped, down.OnTapped = func() { p.move(i, -1) }, func() { p.move(i, +1) }
			enable(up, i > 0)
			enable(down, i < len(p.items)-1)
			e := p.items[i]
			check.OnChanged = nil
			check.SetText(e.label)
			check.SetChecked(e.on)
			if e.disabled != "" {
				check.Disable()
			} else {
				check.Enable()
			}
			check.OnChanged = func(on bool) { p.items[i].on = on; p.changedNow() }
			rev.OnChanged = nil
			if len(e.revisions) == 0 {
				rev.Hide()
				return
			}
			rev.Options = e.revisions
			rev.SetSelectedIndex(e.chosen)
			rev.Show()
			rev.OnChanged = func(string) {
				p.items[i].chosen = rev.SelectedIndex()
				p.changedNow()
			}
		})
	all := widget.NewButton("All", func() { p.setAll(true) })
	none := widget.NewButton("None", func() { p.setAll(false) })
	p.count = widget.NewLabel("")
	p.obj = container.NewBorder(container.NewHBox(all, none, p.count), nil, nil, nil, p.list)
	return p
}

func (p *entrantPicker) object() fyne.CanvasObject { return p.obj }

// move moves entrant i by one place up (by -1) or down (+1). The list's
// order is the entries' ("as listed"), which in a bracket are the seeds:
// Fyne 2.7's lists have no drag and drop, so each row has ↑ and ↓.
func (p *entrantPicker) move(i, by int) {
	j := i + by
	if i < 0 || j < 0 || i >= len(p.items) || j >= len(p.items) {
		return
	}
	p.items[i], p.items[j] = p.items[j], p.items[i]
	p.list.Refresh()
	p.changedNow()
}

// enable enables or disables b.
func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// set shows new choices, none chosen.
func (p *entrantPicker) set(items []entrant) {
	p.items = items
	p.list.Refresh()
	p.changedNow()
}

func (p *entrantPicker) setAll(on bool) {
	for i := range p.items {
		if p.items[i].disabled == "" {
			p.items[i].on = on
		}
	}
	p.list.Refresh()
	p.changedNow()
}

// choose checks the entrants whose entry is one of entries (e.g. "alice",
// "alice@r1", "builtin:grip/greedy"), picking the revision asked for.
func (p *entrantPicker) choose(entries ...string) {
	for _, want := range entries {
		name, rev, _ := strings.Cut(want, "@")
		for i := range p.items {
			e := &p.items[i]
			if !strings.EqualFold(e.spec, name) || e.disabled != "" {
				continue
			}
			e.on = true
			for j, r := range e.revisions {
				if j > 0 && r == rev {
					e.chosen = j
				}
			}
		}
	}
	p.list.Refresh()
	p.changedNow()
}

// selected is the entries chosen.
func (p *entrantPicker) selected() []string {
	var out []string
	for _, e := range p.items {
		if e.on {
			out = append(out, e.entry())
		}
	}
	return out
}

func (p *entrantPicker) changedNow() {
	p.count.SetText(fmt.Sprintf("%d of %d chosen", len(p.selected()), len(p.items)))
	if p.changed != nil {
		p.changed()
	}
}
