package replay

import (
	"fmt"
	"image"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/engine"
	"ringside/engine/cloud"
)

// cloudBoard draws Cloud Contest: the walled field as one scaled image,
// the bots as team-coloured circles with health pips, the last turn's
// shots, and optionally one player's fog of war.
type cloudBoard struct {
	seats
	sync func(func()) // runs a change under the viewer's lock

	fogSel  *widget.Select
	fogLbl  *canvas.Text
	fog     int // seat whose vision is shown, -1 for all
	caption *canvas.Text
	chips   []cloudChip
	field   *canvas.Image
	pix     *image.NRGBA
	grid    []*canvas.Line
	bots    []cloudBot
	shots   []*canvas.Line
	targets []*canvas.Circle

	// Geometry of the last layout: the field's origin and cell side.
	fx, fy, cell float32
	top          float32 // where the field area starts
	chipText     float32 // width a chip's name and text may take
	captionW     float32 // width the caption may take, left of Vision
	st           *cloud.State
	step         *stepInfo
}

type cloudChip struct {
	dot  *canvas.Circle
	name *canvas.Text
	text *canvas.Text
	fit  nameFit
}

type cloudBot struct {
	body  *canvas.Circle
	label *canvas.Text // respawn countdown of a dead bot
	pips  []*canvas.Rectangle
	// For lives above maxPips, a bar instead of pips.
	barBg, barFill *canvas.Rectangle
}

// chipGap is the least room between two players' chips.
const chipGap = 8

// maxPips is the most lives drawn as separate pips.
const maxPips = 5

var (
	cloudFloor = paint.Shade{Light: color.NRGBA{0xec, 0xe9, 0xe2, 0xff}, Dark: color.NRGBA{0x3d, 0x41, 0x48, 0xff}}
	cloudWall  = paint.Shade{Light: color.NRGBA{0x5b, 0x50, 0x45, 0xff}, Dark: color.NRGBA{0x9a, 0x9f, 0xa8, 0xff}}
	pipFull    = color.NRGBA{0x2e, 0xcc, 0x40, 0xff}
	pipLost    = color.NRGBA{0x55, 0x55, 0x55, 0xc0}
	hitColour  = color.NRGBA{0xff, 0x20, 0x20, 0xff}
)

const fogAll = "All players"

func newCloudBoard(players []string) *cloudBoard {
	b := &cloudBoard{seats: newSeats(players, fyne.NewSize(260, 260)), fog: -1}
	b.sync = func(f func()) { f() }
	b.fogLbl = paint.NewText("Vision:", 14, false)
	opts := append([]string{fogAll}, players...)
	b.fogSel = widget.NewSelect(opts, nil)
	b.fogSel.SetSelectedIndex(0)
	b.fogSel.OnChanged = func(string) {
		i := b.fogSel.SelectedIndex() - 1
		b.sync(func() {
			b.fog = i
			b.redraw()
		})
		// Give the keyboard back to the viewer's shortcuts.
		if c := fyne.CurrentApp().Driver().CanvasForObject(b.fogSel); c != nil {
			c.Unfocus()
		}
	}
	b.caption = paint.NewText("", 16, true)
	objs := []fyne.CanvasObject{b.caption, b.fogLbl, b.fogSel}
	for i := range players {
		c := cloudChip{dot: canvas.NewCircle(playerColor(i)), name: paint.NewText(players[i], 14, true), text: paint.NewText("", 13, false)}
		b.chips = append(b.chips, c)
		objs = append(objs, c.dot, c.name, c.text)
	}
	b.field = canvas.NewImageFromImage(image.NewNRGBA(image.Rect(0, 0, 1, 1)))
	b.field.ScaleMode = canvas.ImageScalePixels
	b.field.FillMode = canvas.ImageFillStretch
	objs = append(objs, b.field)
	b.build(objs, b.layout, b.redraw)
	return b
}

// SetFog shows the field as seat sees it; -1 shows everything.
func (b *cloudBoard) SetFog(seat int) { b.fogSel.SetSelectedIndex(seat + 1) }

// ensure creates the objects that depend on the game's size the first
// time a state is shown: the field image, grid lines and one set per bot.
func (b *cloudBoard) ensure(s *cloud.State) {
	if b.pix != nil {
		return
	}
	w, h := s.Size()
	b.pix = image.NewNRGBA(image.Rect(0, 0, w, h))
	b.field.Image = b.pix
	for i := 0; i <= w+h; i++ {
		l := canvas.NewLine(color.Transparent)
		l.StrokeWidth = 1
		b.grid = append(b.grid, l)
		b.w.objects = append(b.w.objects, l)
	}
	lives := s.Rules().Lives
	for range s.Bots() {
		cb := cloudBot{body: canvas.NewCircle(color.Transparent), label: paint.NewText("", 10, true)}
		cb.body.StrokeWidth = 1.5
		b.w.objects = append(b.w.objects, cb.body, cb.label)
		if lives <= maxPips {
			for range lives {
				p := canvas.NewRectangle(pipFull)
				cb.pips = append(cb.pips, p)
				b.w.objects = append(b.w.objects, p)
			}
		} else {
			cb.barBg, cb.barFill = canvas.NewRectangle(pipLost), canvas.NewRectangle(pipFull)
			b.w.objects = append(b.w.objects, cb.barBg, cb.barFill)
		}
		b.bots = append(b.bots, cb)
		// A bot fires at most once a turn: one line and one hit ring each.
		l, r := canvas.NewLine(color.Transparent), canvas.NewCircle(color.Transparent)
		l.Hide()
		r.Hide()
		b.shots, b.targets = append(b.shots, l), append(b.targets, r)
	}
	for i := range b.shots {
		b.w.objects = append(b.w.objects, b.shots[i], b.targets[i])
	}
}

// Show draws st; step is the step that led to it.
func (b *cloudBoard) Show(st engine.State, step *stepInfo) {
	showState(st, func(s *cloud.State) {
		first := b.pix == nil
		b.st, b.step = s, step
		b.ensure(s)
		if first {
			b.layout(b.w.Size())
			return
		}
		b.draw()
	})
}

func (b *cloudBoard) layout(size fyne.Size) {
	pad := float32(6)
	// The caption, then the Vision selector on the right of its row, so
	// the players' chips below get the whole width for their names.
	selW := float32(190)
	sel := b.fogSel.MinSize()
	b.fogSel.Resize(fyne.NewSize(selW, sel.Height))
	b.fogSel.Move(fyne.NewPos(size.Width-pad-selW, 0))
	paint.PlaceText(b.fogLbl, size.Width-pad-selW-6-b.fogLbl.MinSize().Width, (sel.Height-b.fogLbl.MinSize().Height)/2)
	b.captionW = max(0, b.fogLbl.Position().X-pad-chipGap)
	paint.PlaceText(b.caption, pad, (sel.Height-b.caption.MinSize().Height)/2)
	top := max(sel.Height, b.caption.MinSize().Height) + 4
	// Chips in rows of four, or of fewer when a name would be cut.
	perRow := 1
	if len(b.chips) > 0 {
		perRow = chipsPerRow(b.players, b.chips[0].name, size.Width-2*pad, min(4, len(b.chips)))
	}
	chipW := (size.Width - 2*pad) / float32(perRow)
	rowH := float32(38)
	// Names still too long are cut with an ellipsis so a chip never runs
	// into the next one; the seat panel and the Vision list show them whole.
	b.chipText = max(0, chipW-18-chipGap)
	for i := range b.chips {
		c := &b.chips[i]
		x := pad + float32(i%perRow)*chipW
		y := top + float32(i/perRow)*rowH
		paint.Place(c.dot, x, y+3, 14, 14)
		c.name.Text = c.fit.clip(b.players[i], c.name, b.chipText)
		paint.PlaceText(c.name, x+18, y)
		c.text.Text = paint.ClipText(c.text.Text, c.text, b.chipText)
		paint.PlaceText(c.text, x+18, y+c.name.MinSize().Height-2)
	}
	rows := (len(b.chips) + perRow - 1) / perRow
	top += float32(rows)*rowH + 4
	b.top = top
	if b.pix == nil {
		b.field.Hide()
		return
	}
	b.field.Show()
	w, h := b.pix.Bounds().Dx(), b.pix.Bounds().Dy()
	cell := min((size.Width-2*pad)/float32(w), (size.Height-top-pad)/float32(h))
	cell = max(cell, 2)
	b.cell = cell
	b.fx = (size.Width - cell*float32(w)) / 2
	b.fy = top
	paint.Place(b.field, b.fx, b.fy, cell*float32(w), cell*float32(h))
	i := 0
	for x := 0; x <= w; x++ {
		l := b.grid[i]
		l.Position1 = fyne.NewPos(b.fx+float32(x)*cell, b.fy)
		l.Position2 = fyne.NewPos(b.fx+float32(x)*cell, b.fy+cell*float32(h))
		i++
	}
	for y := 0; y < h; y++ {
		l := b.grid[i]
		l.Position1 = fyne.NewPos(b.fx, b.fy+float32(y)*cell)
		l.Position2 = fyne.NewPos(b.fx+cell*float32(w), b.fy+float32(y)*cell)
		i++
	}
	b.redraw()
}

// redraw draws the state shown again, if there is one yet.
func (b *cloudBoard) redraw() {
	if b.st != nil {
		b.draw()
	}
}

// centre is the centre of cell p on screen.
func (b *cloudBoard) centre(p cloud.Point) (float32, float32) {
	return b.fx + (float32(p.X)+0.5)*b.cell, b.fy + (float32(p.Y)+0.5)*b.cell
}

func (b *cloudBoard) draw() {
	s := b.st
	dark := paint.DarkTheme()
	fg := theme.Color(theme.ColorNameForeground)
	b.drawField(s, dark)
	gridCol := color.Color(color.Transparent)
	if b.cell >= 10 {
		gridCol = paint.WithAlpha(fg, 0x18)
	}
	for _, l := range b.grid {
		if paint.NRGBA(l.StrokeColor) != paint.NRGBA(gridCol) {
			l.StrokeColor = gridCol
			l.Refresh()
		}
	}
	var seen []bool
	if b.fog >= 0 {
		seen = b.visible(s, b.fog)
	}
	w, _ := s.Size()
	alive := make([]int, len(b.players))
	for i, bi := range s.Bots() {
		hidden := seen != nil && bi.Player != b.fog && !seen[bi.Pos.Y*w+bi.Pos.X]
		if bi.Alive() {
			alive[bi.Player]++
		}
		b.drawBot(&b.bots[i], bi, hidden, s.Rules().Lives, fg)
	}
	b.drawShots(s, fg)
	points := s.Points()
	for i := range b.chips {
		c := &b.chips[i]
		col := fg
		if b.fog == i {
			// The player whose vision is shown.
			col = theme.Color(theme.ColorNamePrimary)
		}
		setText(c.name, c.fit.clip(b.players[i], c.name, b.chipText), col)
		setText(c.text, paint.ClipText(fmt.Sprintf("%d pts · %d/%d bots up", points[i], alive[i], s.Rules().Bots), c.text, b.chipText), fg)
		c.text.Resize(c.text.MinSize())
	}
	txt := "Start"
	if b.step != nil {
		shots, hits, kills := 0, 0, 0
		for _, sh := range s.Shots() {
			shots++
			if sh.Hit() {
				hits++
			}
		}
		for _, e := range b.step.Events {
			if e.Kind == engine.EventKill {
				kills++
			}
		}
		txt = fmt.Sprintf("Turn %d of %d · %d shots, %d hits, %d kills", b.step.Turn, b.step.Of, shots, hits, kills)
	}
	setText(b.caption, paint.ClipText(txt, b.caption, b.captionW), fg)
	b.caption.Resize(b.caption.MinSize())
	setText(b.fogLbl, b.fogLbl.Text, fg)
}

// visible marks the cells seat sees, by y*width+x.
func (b *cloudBoard) visible(s *cloud.State, seat int) []bool {
	w, h := s.Size()
	seen := make([]bool, w*h)
	for _, p := range s.View(seat).Cells {
		seen[p.Y*w+p.X] = true
	}
	return seen
}

// drawField paints walls, floor and fog into the field image.
func (b *cloudBoard) drawField(s *cloud.State, dark bool) {
	floor, wall := cloudFloor.On(dark), cloudWall.On(dark)
	fogF, fogW := paint.Mix(floor, color.Black, 0.55), paint.Mix(wall, color.Black, 0.55)
	var seen []bool
	if b.fog >= 0 {
		seen = b.visible(s, b.fog)
	}
	w, h := s.Size()
	changed := false
	for y := range h {
		for x := range w {
			p := cloud.Point{X: x, Y: y}
			c := floor
			isWall := s.IsWall(p)
			if isWall {
				c = wall
			}
			if seen != nil && !seen[y*w+x] {
				c = fogF
				if isWall {
					c = fogW
				}
			}
			i := b.pix.PixOffset(x, y)
			px := b.pix.Pix[i : i+4 : i+4]
			if px[0] != c.R || px[1] != c.G || px[2] != c.B || px[3] != c.A {
				px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
				changed = true
			}
		}
	}
	if changed {
		b.field.Refresh()
	}
}

func (b *cloudBoard) drawBot(cb *cloudBot, bi cloud.BotInfo, hidden bool, lives int, fg color.Color) {
	cx, cy := b.centre(bi.Pos)
	d := b.cell * 0.78
	paint.Place(cb.body, cx-d/2, cy-d/2, d, d)
	fill, stroke := color.Color(playerColor(bi.Player)), fg
	switch {
	case !bi.Alive():
		fill, stroke = paint.WithAlpha(playerColor(bi.Player), 0x40), paint.WithAlpha(fg, 0x40)
	case hidden:
		fill, stroke = paint.WithAlpha(playerColor(bi.Player), 0x70), paint.WithAlpha(fg, 0x50)
	}
	if paint.NRGBA(cb.body.FillColor) != paint.NRGBA(fill) || paint.NRGBA(cb.body.StrokeColor) != paint.NRGBA(stroke) {
		cb.body.FillColor, cb.body.StrokeColor = fill, stroke
		cb.body.Refresh()
	}
	label := ""
	if !bi.Alive() && b.cell >= 14 {
		label = strconv.Itoa(bi.Time)
	}
	cb.label.TextSize = max(8, b.cell*0.42)
	setText(cb.label, label, paint.WithAlpha(fg, 0xb0))
	centreText(cb.label, cx, cy)

	// Pips along the bottom of the cell.
	ph := max(2, b.cell*0.14)
	py := cy + b.cell/2 - ph - 1
	span := b.cell * 0.84
	x0 := cx - span/2
	if cb.barBg != nil {
		paint.SetVisible(cb.barBg, bi.Alive())
		paint.SetVisible(cb.barFill, bi.Alive())
		paint.Place(cb.barBg, x0, py, span, ph)
		paint.Place(cb.barFill, x0, py, span*float32(bi.Health)/float32(max(1, lives)), ph)
		return
	}
	pw := span / float32(len(cb.pips))
	for k, p := range cb.pips {
		paint.SetVisible(p, bi.Alive())
		paint.Place(p, x0+float32(k)*pw+0.5, py, max(1, pw-1), ph)
		c := pipFull
		if k >= bi.Health {
			c = pipLost
		}
		setFill(p, c)
	}
}

func (b *cloudBoard) drawShots(s *cloud.State, fg color.Color) {
	shots := s.Shots()
	for i, l := range b.shots {
		r := b.targets[i]
		if i >= len(shots) {
			paint.SetVisible(l, false)
			paint.SetVisible(r, false)
			continue
		}
		sh := shots[i]
		x1, y1 := b.centre(sh.From)
		x2, y2 := b.centre(sh.Target)
		l.Position1, l.Position2 = fyne.NewPos(x1, y1), fyne.NewPos(x2, y2)
		if sh.Hit() {
			l.StrokeColor, l.StrokeWidth = playerColor(sh.Player), max(2, b.cell/7)
			d := b.cell * 0.95
			paint.Place(r, x2-d/2, y2-d/2, d, d)
			r.StrokeColor, r.StrokeWidth = hitColour, max(2, b.cell/9)
			paint.SetVisible(r, true)
		} else {
			l.StrokeColor, l.StrokeWidth = paint.WithAlpha(fg, 0x80), max(1, b.cell/16)
			paint.SetVisible(r, false)
		}
		paint.SetVisible(l, true)
		l.Refresh()
		r.Refresh()
	}
}
