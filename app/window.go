package app

import (
	"fmt"

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
	cards := container.NewVBox()
	for _, g := range games.All() {
		info := g.Info()
		seats := fmt.Sprintf("%d players", info.MinSeats)
		if info.MaxSeats != info.MinSeats {
			seats = fmt.Sprintf("%d–%d players", info.MinSeats, info.MaxSeats)
		}
		desc := widget.NewLabel(info.Description)
		desc.Wrapping = fyne.TextWrapWord
		var bots []string
		for _, b := range g.Bots() {
			bots = append(bots, "builtin:"+info.ID+"/"+b)
		}
		meta := widget.NewLabel(fmt.Sprintf("Game id: %s · %s · built-in bots: %v", info.ID, seats, bots))
		meta.TextStyle = fyne.TextStyle{Italic: true}
		cards.Add(widget.NewCard(info.Name, "", container.NewVBox(desc, meta)))
	}
	head := container.NewVBox(container.NewHBox(widget.NewIcon(Icon), title), sub)
	return container.NewBorder(head, nil, nil, nil, container.NewVScroll(cards))
}
