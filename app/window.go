package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/assets"
	"ringside/engine/games"
)

// Icon is Ringside's icon as a Fyne resource.
var Icon = fyne.NewStaticResource("icon.png", assets.Icon)

// newGamesScreen lists the games Ringside can run, with what they are and
// how to configure them.
func newGamesScreen() fyne.CanvasObject {
	title := newHeading("Ringside", theme.SizeNameHeadingText)
	sub := widget.NewLabel("Tournaments between programs that play games. Available games:")
	var cards []fyne.CanvasObject
	for _, g := range games.All() {
		info := g.Info()
		seats := fmt.Sprintf("%d players", info.MinSeats)
		if info.MaxSeats != info.MinSeats {
			seats = fmt.Sprintf("%d–%d players", info.MinSeats, info.MaxSeats)
		}
		desc := widget.NewLabel(info.Description)
		desc.Wrapping = fyne.TextWrapWord
		meta := widget.NewLabel(fmt.Sprintf("Game id: %s · %s · built-in bots: %s (as entries: builtin:%s/NAME)",
			info.ID, seats, strings.Join(g.Bots(), ", "), info.ID))
		meta.TextStyle = fyne.TextStyle{Italic: true}
		meta.Wrapping = fyne.TextWrapWord
		// Items first, one form after: each Append lays out the whole
		// form again, and these rows are wrapped text.
		var items []*widget.FormItem
		for _, o := range info.Options {
			def := o.Default
			if def == "" {
				def = "(empty)"
			}
			text := fmt.Sprintf("%s  —  default %s", o.Doc, def)
			if o.PerSeat {
				text += ". An AI may also carry it for its own seat (its Game options on the AIs screen)."
			}
			doc := widget.NewLabel(text)
			doc.Wrapping = fyne.TextWrapWord
			items = append(items, widget.NewFormItem(o.Key, doc))
		}
		opts := widget.NewForm(items...)
		optHead := widget.NewLabel("Options (Game options in New event, one KEY=VALUE per line):")
		optHead.TextStyle = fyne.TextStyle{Bold: true}
		cards = append(cards, widget.NewCard(info.Name, "", container.NewVBox(desc, meta, optHead, opts)))
	}
	head := container.NewVBox(container.NewHBox(widget.NewIcon(Icon), title), sub)
	return container.NewBorder(head, nil, nil, nil, container.NewVScroll(container.NewVBox(cards...)))
}
