package replay

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine"
	"ringside/engine/grip"
)

// gripBoard draws Grip: 6×6 blocks of 3×3 squares, coloured by their
// timer, and the four players with their facing.
type gripBoard struct {
	seats

	caption  *canvas.Text
	captionW float32 // width the caption may take
	strip    [grip.Seats]gripChip
	frame    *canvas.Rectangle // the board's outline and the gaps between blocks
	blocks   [grip.Blocks][grip.Blocks]*canvas.Rectangle
	timers   [grip.Blocks][grip.Blocks]*canvas.Text
	grid     []*canvas.Line // square boundaries inside blocks
	pieces   [grip.Seats]gripPiece

	// Geometry of the last layout: origin, square side, gap between blocks.
	x0, y0, sq, gap float32
	chipText        float32 // width a chip's name and info may take
	// The last state shown, for relayouts and theme changes.
	st   *grip.State
	step *stepInfo
}

// gripChip is one player's entry in the strip above the board.
type gripChip struct {
	dot  *canvas.Circle
	name *canvas.Text
	info *canvas.Text
	fit  nameFit
}

// gripPiece is one player on the board.
type gripPiece struct {
	ring  *canvas.Circle    // marks the player who acted in the step
	body  *canvas.Circle    // the piece in its seat colour
	arrow *canvas.Polygon   // its facing
	label *canvas.Text      // seat number
	note  *canvas.Text      // S while waiting, or the turn it fell
	pill  *canvas.Rectangle // behind the note, so it reads on any block
}

// Grip block colours, by theme brightness.
var (
	gripStable      = paint.Shade{Light: color.NRGBA{0xd8, 0xd2, 0xc4, 0xff}, Dark: color.NRGBA{0x5a, 0x5f, 0x68, 0xff}}
	gripHole        = paint.Shade{Light: color.NRGBA{0x26, 0x22, 0x2a, 0xff}, Dark: color.NRGBA{0x06, 0x06, 0x0a, 0xff}}
	gripHoleText    = paint.Shade{Light: color.NRGBA{0xa8, 0xa4, 0xb0, 0xff}, Dark: color.NRGBA{0x90, 0x90, 0x98, 0xff}}
	gripRestore     = paint.Shade{Light: color.NRGBA{0x6b, 0x7d, 0x8c, 0xff}, Dark: color.NRGBA{0x2c, 0x3e, 0x50, 0xff}}
	gripRestoreText = paint.Shade{Light: color.NRGBA{0xff, 0xff, 0xff, 0xff}, Dark: color.NRGBA{0xd0, 0xe4, 0xf4, 0xff}}
	gripFrame       = paint.Shade{Light: color.NRGBA{0x8a, 0x84, 0x78, 0xff}, Dark: color.NRGBA{0x26, 0x28, 0x2c, 0xff}}
	gripGridLine    = paint.Shade{Light: color.NRGBA{0, 0, 0, 0x38}, Dark: color.NRGBA{0xff, 0xff, 0xff, 0x20}}
	// Scheduled blocks warm up as their fall nears: far (timer 24) pale
	// yellow, next turn deep red.
	gripFar  = color.NRGBA{0xff, 0xe8, 0x8a, 0xff}
	gripMid  = color.NRGBA{0xff, 0x98, 0x2e, 0xff}
	gripNear = color.NRGBA{0xd3, 0x1f, 0x1f, 0xff}
)

// restoreSoon is how many turns before coming back a fallen block is
// drawn as restoring rather than as a hole.
const restoreSoon = 3

func newGripBoard(players []string) *gripBoard {
	b := &gripBoard{seats: newSeats(players, fyne.NewSize(240, 280))}
	var objs []fyne.CanvasObject
	b.caption = paint.NewText("", 16, true)
	objs = append(objs, b.caption)
	for i := range b.strip {
		c := &b.strip[i]
		c.dot = canvas.NewCircle(playerColor(i))
		c.name = paint.NewText(b.name(i), 15, true)
		c.info = paint.NewText("", 13, false)
		objs = append(objs, c.dot, c.name, c.info)
	}
	b.frame = canvas.NewRectangle(gripFrame.Light)
	objs = append(objs, b.frame)
	for r := range b.blocks {
		for c := range b.blocks[r] {
			b.blocks[r][c] = canvas.NewRectangle(gripStable.Light)
			b.timers[r][c] = paint.NewText("", 14, true)
			objs = append(objs, b.blocks[r][c])
		}
	}
	for i := 0; i < 2*grip.Blocks*(grip.BlockSize-1); i++ {
		l := canvas.NewLine(color.NRGBA{0, 0, 0, 0x30})
		l.StrokeWidth = 1
		b.grid = append(b.grid, l)
		objs = append(objs, l)
	}
	for r := range b.timers {
		for c := range b.timers[r] {
			objs = append(objs, b.timers[r][c])
		}
	}
	for i := range b.pieces {
		p := &b.pieces[i]
		p.ring = canvas.NewCircle(color.Transparent)
		p.ring.StrokeWidth = 3
		p.ring.Hide()
		p.body = canvas.NewCircle(playerColor(i))
		p.body.StrokeWidth = 2
		p.arrow = canvas.NewPolygon(3, playerColor(i))
		p.arrow.StrokeWidth = 1.5
		p.label = paint.NewText(strconv.Itoa(i), 12, true)
		p.note = paint.NewText("", 12, true)
		p.pill = canvas.NewRectangle(color.Transparent)
		p.pill.CornerRadius = 3
		objs = append(objs, p.ring, p.arrow, p.body, p.label, p.pill, p.note)
	}
	b.build(objs, b.layout, b.redraw)
	return b
}

// Show draws st; step is the step that led to it.
func (b *gripBoard) Show(st engine.State, step *stepInfo) {
	showState(st, func(s *grip.State) {
		b.st, b.step = s, step
		b.draw()
	})
}

// redraw draws the state shown again, if there is one yet.
func (b *gripBoard) redraw() {
	if b.st != nil {
		b.draw()
	}
}

// layout places every object for size; it runs on resizes only.
func (b *gripBoard) layout(size fyne.Size) {
	pad := float32(6)
	top := float32(0)
	// Caption, then the players strip.
	b.caption.TextSize = 16
	paint.PlaceText(b.caption, pad, top)
	b.captionW = max(0, size.Width-2*pad)
	top += b.caption.MinSize().Height + 2
	rowH := float32(24 + 14)
	avail := size.Width - 2*pad
	names := make([]string, len(b.strip))
	for i := range names {
		names[i] = b.name(i)
		b.strip[i].name.TextSize = 15
	}
	perRow := chipsPerRow(names, b.strip[0].name, avail, grip.Seats)
	chipW := avail / float32(perRow)
	b.chipText = max(0, chipW-18-chipGap)
	for i := range b.strip {
		c := &b.strip[i]
		x := pad + float32(i%perRow)*chipW
		y := top + float32(i/perRow)*rowH
		paint.Place(c.dot, x, y+5, 14, 14)
		c.name.Text = c.fit.clip(names[i], c.name, b.chipText)
		paint.PlaceText(c.name, x+18, y)
		c.info.TextSize = 13
		paint.PlaceText(c.info, x+18, y+c.name.MinSize().Height-2)
	}
	top += float32((len(b.strip)+perRow-1)/perRow) * rowH
	side := min(size.Width-2*pad, size.Height-top-pad)
	if side < 60 {
		side = 60
	}
	gap := max(2, side/150)
	sq := (side - gap*(grip.Blocks+1)) / grip.Size
	side = sq*grip.Size + gap*(grip.Blocks+1)
	b.x0, b.y0, b.sq, b.gap = (size.Width-side)/2, top, sq, gap
	paint.Place(b.frame, b.x0, b.y0, side, side)
	blockSide := sq * grip.BlockSize
	fontSize := max(10, blockSide*0.36)
	for r := range b.blocks {
		for c := range b.blocks[r] {
			x := b.x0 + gap + float32(c)*(blockSide+gap)
			y := b.y0 + gap + float32(r)*(blockSide+gap)
			paint.Place(b.blocks[r][c], x, y, blockSide, blockSide)
			t := b.timers[r][c]
			t.TextSize = fontSize
			centreText(t, x+blockSide/2, y+blockSide/2)
		}
	}
	// Inner square boundaries: two per block in each direction.
	i := 0
	for k := range grip.Blocks {
		for j := 1; j < grip.BlockSize; j++ {
			off := gap + float32(k)*(blockSide+gap) + float32(j)*sq
			h, v := b.grid[i], b.grid[i+1]
			h.Position1 = fyne.NewPos(b.x0+gap, b.y0+off)
			h.Position2 = fyne.NewPos(b.x0+side-gap, b.y0+off)
			v.Position1 = fyne.NewPos(b.x0+off, b.y0+gap)
			v.Position2 = fyne.NewPos(b.x0+off, b.y0+side-gap)
			i += 2
		}
	}
	b.redraw()
}

// squareCentre is the centre of a square on screen.
func (b *gripBoard) squareCentre(row, col int) (float32, float32) {
	x := b.x0 + b.gap*float32(col/grip.BlockSize+1) + b.sq*(float32(col)+0.5)
	y := b.y0 + b.gap*float32(row/grip.BlockSize+1) + b.sq*(float32(row)+0.5)
	return x, y
}

// blockColour is the fill and text colour of a block with timer v.
func gripBlockColour(v int, dark bool) (fill, text color.Color) {
	switch {
	case v == 0:
		return gripStable.On(dark), color.Transparent
	case v > 0:
		// 1 is the next turn; 12 and more are far off.
		t := float64(min(v, 13)-1) / 12
		var c color.NRGBA
		if t < 0.5 {
			c = paint.Mix(gripNear, gripMid, t*2)
		} else {
			c = paint.Mix(gripMid, gripFar, (t-0.5)*2)
		}
		return c, textOn(c)
	case -v <= restoreSoon:
		return gripRestore.On(dark), gripRestoreText.On(dark)
	default:
		return gripHole.On(dark), gripHoleText.On(dark)
	}
}

// draw updates colours, texts and piece positions from b.st.
func (b *gripBoard) draw() {
	s := b.st
	dark := paint.DarkTheme()
	fg := theme.Color(theme.ColorNameForeground)
	setFill(b.frame, gripFrame.On(dark))
	for _, l := range b.grid {
		want := gripGridLine.On(dark)
		if paint.NRGBA(l.StrokeColor) != want {
			l.StrokeColor = want
			l.Refresh()
		}
	}
	blocks := s.Blocks()
	for r := range blocks {
		for c, v := range blocks[r] {
			fill, tc := gripBlockColour(v, dark)
			setFill(b.blocks[r][c], fill)
			txt := ""
			if v != 0 {
				txt = strconv.Itoa(v)
			}
			t := b.timers[r][c]
			if t.Text != txt {
				setText(t, txt, tc)
				bs := b.blocks[r][c]
				centreText(t, bs.Position().X+bs.Size().Width/2, bs.Position().Y+bs.Size().Height/2)
			} else {
				setText(t, txt, tc)
			}
		}
	}

	acted := -1
	if b.step != nil && len(b.step.Seats) == 1 {
		acted = b.step.Seats[0].Seat
	}
	players := s.Players()
	for i, p := range players {
		b.drawPiece(i, p, i == acted, fg)
		b.drawChip(i, p, acted)
	}
	b.placeNotes(players[:])
	b.placeTimers()
	b.drawCaption(acted)
}

// rect is a box on the board, for keeping texts apart.
type rect struct{ x, y, w, h float32 }

func rectOf(o fyne.CanvasObject) rect {
	p, s := o.Position(), o.Size()
	return rect{p.X, p.Y, s.Width, s.Height}
}

// overlap is the area two boxes share.
func (r rect) overlap(o rect) float32 {
	w := min(r.x+r.w, o.x+o.w) - max(r.x, o.x)
	h := min(r.y+r.h, o.y+o.h) - max(r.y, o.y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// placeTimers puts each block's number where no piece and no piece's note
// ("fell t87", "S2") covers it: in the middle of the block in large type,
// or else in small type in the first free corner of the block. A fallen
// player stays on the hole it fell through, so its note and the hole's
// countdown meet on every game.
func (b *gripBoard) placeTimers() {
	var obstacles []rect
	for i := range b.pieces {
		pc := &b.pieces[i]
		obstacles = append(obstacles, rectOf(pc.body), rectOf(pc.arrow))
		if pc.note.Text != "" {
			obstacles = append(obstacles, rectOf(pc.pill))
		}
	}
	// A little air around the number, so it does not touch a piece.
	air := max(1, b.sq/14)
	covered := func(r rect) float32 {
		r = rect{r.x - air, r.y - air, r.w + 2*air, r.h + 2*air}
		var a float32
		for _, o := range obstacles {
			a += r.overlap(o)
		}
		return a
	}
	blockSide := b.sq * grip.BlockSize
	big, small := max(10, blockSide*0.36), max(8, b.sq*0.5)
	for r := range b.timers {
		for c, t := range b.timers[r] {
			if t.Text == "" {
				continue
			}
			bp := b.blocks[r][c].Position()
			// Candidates: the middle, then the corners, inset from the
			// block's edge so the number stays on its own block.
			type spot struct{ cx, cy, size float32 }
			in := b.sq / 2
			spots := []spot{{bp.X + blockSide/2, bp.Y + blockSide/2, big},
				{bp.X + in, bp.Y + in, small}, {bp.X + blockSide - in, bp.Y + in, small},
				{bp.X + in, bp.Y + blockSide - in, small}, {bp.X + blockSide - in, bp.Y + blockSide - in, small}}
			best, bestA := 0, float32(-1)
			for k, sp := range spots {
				s := fyne.MeasureText(t.Text, sp.size, t.TextStyle)
				a := covered(rect{sp.cx - s.Width/2, sp.cy - s.Height/2, s.Width, s.Height})
				if bestA < 0 || a < bestA {
					best, bestA = k, a
				}
				if a == 0 {
					break
				}
			}
			sp := spots[best]
			if t.TextSize != sp.size {
				t.TextSize = sp.size
				t.Refresh()
			}
			centreText(t, sp.cx, sp.cy)
		}
	}
}

func (b *gripBoard) drawPiece(i int, p grip.Player, acted bool, fg color.Color) {
	pc := &b.pieces[i]
	cx, cy := b.squareCentre(p.Row, p.Col)
	d := b.sq * 0.84
	col := color.Color(playerColor(i))
	stroke := fg
	if p.Fallen {
		col = paint.WithAlpha(paint.Mix(playerColor(i), color.NRGBA{0x80, 0x80, 0x80, 0xff}, 0.7), 0x90)
		stroke = paint.WithAlpha(fg, 0x60)
	}
	paint.Place(pc.body, cx-d/2, cy-d/2, d, d)
	if paint.NRGBA(pc.body.FillColor) != paint.NRGBA(col) || paint.NRGBA(pc.body.StrokeColor) != paint.NRGBA(stroke) {
		pc.body.FillColor, pc.body.StrokeColor = col, stroke
		pc.body.Refresh()
	}
	// The arrow sits on the piece's edge toward its facing.
	a := b.sq * 0.62
	dx, dy, angle := float32(0), float32(0), float32(0)
	switch p.Dir {
	case 'U':
		dy = -1
	case 'R':
		dx, angle = 1, 90
	case 'D':
		dy, angle = 1, 180
	case 'L':
		dx, angle = -1, 270
	}
	ax, ay := cx+dx*d*0.55, cy+dy*d*0.55
	paint.Place(pc.arrow, ax-a/2, ay-a/2, a, a)
	if pc.arrow.Angle != angle || paint.NRGBA(pc.arrow.FillColor) != paint.NRGBA(col) || paint.NRGBA(pc.arrow.StrokeColor) != paint.NRGBA(stroke) {
		pc.arrow.Angle, pc.arrow.FillColor, pc.arrow.StrokeColor = angle, col, stroke
		pc.arrow.Refresh()
	}
	pc.label.TextSize = max(9, b.sq*0.45)
	setText(pc.label, strconv.Itoa(i), textOn(playerColor(i)))
	centreText(pc.label, cx, cy)

	r := d * 1.7
	paint.Place(pc.ring, cx-r/2, cy-r/2, r, r)
	if acted && !p.Fallen {
		// The foreground colour contrasts with every block and seat colour.
		ring := fg
		if paint.NRGBA(pc.ring.StrokeColor) != paint.NRGBA(ring) {
			pc.ring.StrokeColor = ring
			pc.ring.Refresh()
		}
		pc.ring.StrokeWidth = max(2, b.sq/10)
		paint.SetVisible(pc.ring, true)
	} else {
		paint.SetVisible(pc.ring, false)
	}

	note := ""
	switch {
	case p.Fallen:
		note = "fell t" + strconv.Itoa(p.FellAt)
	case p.Wait > 0:
		note = "S" + strconv.Itoa(p.Wait)
	}
	pc.note.TextSize = max(10, b.sq*0.4)
	setText(pc.note, note, fg)
	pc.note.Resize(pc.note.MinSize())
	setFill(pc.pill, paint.WithAlpha(theme.Color(theme.ColorNameBackground), 0xc8))
	paint.SetVisible(pc.pill, note != "")
}

// placeNotes puts each piece's note beside it: below, else right, left
// or above, wherever it stays on the board and covers no other piece and
// no earlier note. Two players often stand side by side, and the one
// that fell stays on its square.
func (b *gripBoard) placeNotes(players []grip.Player) {
	board := rectOf(b.frame)
	var placed []rect
	for i, p := range players {
		pc := &b.pieces[i]
		if pc.note.Text == "" {
			continue
		}
		var obstacles []rect
		for j := range b.pieces {
			if j != i {
				obstacles = append(obstacles, rectOf(b.pieces[j].body))
			}
			obstacles = append(obstacles, rectOf(b.pieces[j].arrow))
		}
		obstacles = append(obstacles, placed...)
		cx, cy := b.squareCentre(p.Row, p.Col)
		d, a := b.sq*0.84, b.sq*0.62
		ns := pc.note.MinSize()
		below := rect{cx - ns.Width/2 - 3, cy + d/2 + a*0.35, ns.Width + 6, ns.Height}
		above := rect{cx - ns.Width/2 - 3, cy - d/2 - ns.Height - a*0.35, ns.Width + 6, ns.Height}
		right := rect{cx + d/2 + a*0.35, cy - ns.Height/2, ns.Width + 6, ns.Height}
		left := rect{cx - d/2 - a*0.35 - ns.Width - 6, cy - ns.Height/2, ns.Width + 6, ns.Height}
		// Notes under or over a piece at the board's side move inward
		// rather than off the board.
		for _, r := range []*rect{&below, &above} {
			r.x = max(board.x, min(r.x, board.x+board.w-r.w))
		}
		// Beside the piece before above it: a note above sits between
		// the piece and the row over it, and may read as that row's.
		spots := []rect{below, right, left, above}
		if p.Dir == 'D' && !p.Fallen {
			spots = []rect{above, right, left, below}
		}
		best, bestA := -1, float32(0)
		for k, sp := range spots {
			if sp.x < board.x || sp.y < board.y || sp.x+sp.w > board.x+board.w || sp.y+sp.h > board.y+board.h {
				continue
			}
			var area float32
			for _, o := range obstacles {
				area += sp.overlap(o)
			}
			if best < 0 || area < bestA {
				best, bestA = k, area
			}
			if area == 0 {
				break
			}
		}
		if best < 0 {
			best = 0
		}
		sp := spots[best]
		paint.Place(pc.pill, sp.x, sp.y, sp.w, sp.h)
		pc.note.Move(fyne.NewPos(sp.x+3, sp.y))
		placed = append(placed, sp)
	}
}

func (b *gripBoard) drawChip(i int, p grip.Player, acted int) {
	c := &b.strip[i]
	fg := theme.Color(theme.ColorNameForeground)
	name := b.name(i)
	info := "on the board"
	switch {
	case p.Fallen:
		info = fmt.Sprintf("fell on turn %d", p.FellAt)
	case p.Stopped && p.Fault != "":
		info = "stopped: " + p.Fault
	case p.Wait > 0:
		info = fmt.Sprintf("waiting, S=%d", p.Wait)
	}
	col := fg
	if p.Fallen {
		col = theme.Color(theme.ColorNameDisabled)
	}
	nameCol := col
	if i == acted {
		// The player who acted in this step, as the ring on the board.
		nameCol = theme.Color(theme.ColorNamePrimary)
	}
	setText(c.name, c.fit.clip(name, c.name, b.chipText), nameCol)
	setText(c.info, paint.ClipText(info, c.info, b.chipText), col)
	dot := color.Color(playerColor(i))
	if p.Fallen {
		dot = paint.WithAlpha(playerColor(i), 0x60)
	}
	if paint.NRGBA(c.dot.FillColor) != paint.NRGBA(dot) {
		c.dot.FillColor = dot
		c.dot.Refresh()
	}
}

func (b *gripBoard) drawCaption(acted int) {
	s := b.st
	fg := theme.Color(theme.ColorNameForeground)
	var txt string
	switch {
	case b.step == nil:
		txt = "Start position"
	case !s.Ready() || b.step.Index == 0 && len(b.step.Seats) == grip.Seats:
		txt = "READY handshake"
	case acted >= 0:
		ss := b.step.Seats[0]
		txt = fmt.Sprintf("Turn %d of %d · %s: %s", b.step.Turn, b.step.Of, b.name(acted), gripDoes(ss))
	default:
		txt = fmt.Sprintf("Turn %d of %d", b.step.Turn, b.step.Of)
	}
	if s.Done() {
		txt += " · game over"
	}
	setText(b.caption, paint.ClipText(txt, b.caption, b.captionW), fg)
	b.caption.Resize(b.caption.MinSize())
}

// gripDoes says what a seat did in a turn.
func gripDoes(ss engine.SeatStep) string {
	word := map[string]string{"U": "moves up", "R": "moves right", "D": "moves down", "L": "moves left",
		"A": "attacks", "N": "does nothing"}[ss.Action]
	if word == "" {
		word = ss.Action
	}
	switch {
	case ss.Verdict != engine.OK:
		return strings.ReplaceAll(ss.Verdict.String(), "_", " ") + " (" + ss.Detail + "), " + word
	case ss.Detail != "":
		return ss.Detail + ", " + word
	}
	return word
}
