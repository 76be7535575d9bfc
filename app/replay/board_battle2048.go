package replay

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine"
	"ringside/engine/battle2048"
)

// battleBoard draws Battle 2048: both players' 5×5 boards side by side,
// the tiles in the 2048 palette, the cells of the last attack outlined and
// the last slide's direction.
type battleBoard struct {
	seats
	caption  *canvas.Text
	captionW float32 // width the caption may take
	sides    [battle2048.Seats]battleSide
	st       *battle2048.State
	step     *stepInfo
}

// battleSide is one player's half of the board.
type battleSide struct {
	dot    *canvas.Circle
	name   *canvas.Text
	score  *canvas.Text
	arrow  *canvas.Polygon // the direction of this player's last slide
	slid   *canvas.Text
	bg     *canvas.Rectangle
	tiles  [battle2048.Size][battle2048.Size]*canvas.Rectangle
	values [battle2048.Size][battle2048.Size]*canvas.Text
	marks  [battle2048.Size][battle2048.Size]*canvas.Rectangle // outlines of attacked cells
	cell   float32                                             // tile side of the last layout
}

// tileColours is the 2048 palette by exponent (index 1 is the tile 2).
var tileColours = []color.NRGBA{
	{0xcd, 0xc1, 0xb4, 0xff}, // empty
	{0xee, 0xe4, 0xda, 0xff}, // 2
	{0xed, 0xe0, 0xc8, 0xff}, // 4
	{0xf2, 0xb1, 0x79, 0xff}, // 8
	{0xf5, 0x95, 0x63, 0xff}, // 16
	{0xf6, 0x7c, 0x5f, 0xff}, // 32
	{0xf6, 0x5e, 0x3b, 0xff}, // 64
	{0xed, 0xcf, 0x72, 0xff}, // 128
	{0xed, 0xcc, 0x61, 0xff}, // 256
	{0xed, 0xc8, 0x50, 0xff}, // 512
	{0xed, 0xc5, 0x3f, 0xff}, // 1024
	{0xed, 0xc2, 0x2e, 0xff}, // 2048
}

var (
	tileBeyond    = color.NRGBA{0x3c, 0x3a, 0x32, 0xff} // 4096 and up
	tileEmptyDark = color.NRGBA{0x4a, 0x46, 0x42, 0xff}
	battleBg      = paint.Shade{Light: color.NRGBA{0xbb, 0xad, 0xa0, 0xff}, Dark: color.NRGBA{0x2e, 0x2b, 0x28, 0xff}}
	tileTextDark  = color.NRGBA{0x77, 0x6e, 0x65, 0xff}
	attackOutline = paint.Shade{Light: color.NRGBA{0x00, 0x5f, 0xb0, 0xff}, Dark: color.NRGBA{0x00, 0x9d, 0xff, 0xff}}
)

// tileColour is the fill and text colour of a tile of exponent e (0 empty).
func tileColour(e uint8, dark bool) (fill, text color.Color) {
	switch {
	case e == 0 && dark:
		return tileEmptyDark, color.Transparent
	case int(e) < len(tileColours):
		if e <= 2 {
			return tileColours[e], tileTextDark
		}
		return tileColours[e], color.White
	}
	return tileBeyond, color.White
}

func newBattleBoard(players []string) *battleBoard {
	b := &battleBoard{seats: newSeats(players, fyne.NewSize(300, 200))}
	b.caption = paint.NewText("", 16, true)
	objs := []fyne.CanvasObject{b.caption}
	for i := range b.sides {
		s := &b.sides[i]
		s.dot = canvas.NewCircle(playerColor(i))
		s.name = paint.NewText(b.name(i), 17, true)
		s.score = paint.NewText("", 15, false)
		s.arrow = canvas.NewPolygon(3, theme.Color(theme.ColorNameForeground))
		s.arrow.Hide()
		s.slid = paint.NewText("", 14, false)
		s.bg = canvas.NewRectangle(battleBg.Light)
		s.bg.CornerRadius = 6
		objs = append(objs, s.dot, s.name, s.score, s.arrow, s.slid, s.bg)
		for r := range s.tiles {
			for c := range s.tiles[r] {
				t := canvas.NewRectangle(tileColours[0])
				t.CornerRadius = 4
				s.tiles[r][c] = t
				s.values[r][c] = paint.NewText("", 20, true)
				m := canvas.NewRectangle(color.Transparent)
				m.StrokeColor = attackOutline.Dark
				m.StrokeWidth = 4
				m.CornerRadius = 4
				m.Hide()
				s.marks[r][c] = m
				objs = append(objs, t)
			}
		}
		for r := range s.tiles {
			for c := range s.tiles[r] {
				objs = append(objs, s.values[r][c], s.marks[r][c])
			}
		}
	}
	b.build(objs, b.layout, b.redraw)
	return b
}

// Show draws st; step is the step that led to it.
func (b *battleBoard) Show(st engine.State, step *stepInfo) {
	showState(st, func(s *battle2048.State) {
		b.st, b.step = s, step
		b.draw()
	})
}

func (b *battleBoard) layout(size fyne.Size) {
	pad := float32(8)
	paint.PlaceText(b.caption, pad, 0)
	b.captionW = max(0, size.Width-2*pad)
	top := b.caption.MinSize().Height + 8
	headH := float32(50)
	colW := (size.Width - 3*pad) / 2
	side := min(colW, size.Height-top-headH-pad)
	side = max(side, 60)
	for i := range b.sides {
		s := &b.sides[i]
		x := pad + float32(i)*(colW+pad) + (colW-side)/2
		paint.Place(s.dot, x, top+6, 16, 16)
		paint.PlaceText(s.name, x+22, top)
		paint.PlaceText(s.score, x+22, top+s.name.MinSize().Height)
		y := top + headH
		paint.Place(s.bg, x, y, side, side)
		gap := side * 0.03
		cell := (side - gap*(battle2048.Size+1)) / battle2048.Size
		s.cell = cell
		arrow := float32(26)
		paint.Place(s.arrow, x+side-arrow, top+6, arrow, arrow)
		// On the score's line: a long name keeps the first line.
		paint.PlaceText(s.slid, x+side-arrow-4-s.slid.MinSize().Width, s.score.Position().Y)
		for r := range s.tiles {
			for c := range s.tiles[r] {
				tx := x + gap + float32(c)*(cell+gap)
				ty := y + gap + float32(r)*(cell+gap)
				paint.Place(s.tiles[r][c], tx, ty, cell, cell)
				paint.Place(s.marks[r][c], tx-1, ty-1, cell+2, cell+2)
				s.marks[r][c].StrokeWidth = max(3, cell/18)
			}
		}
	}
	b.redraw()
}

// redraw draws the state shown again, if there is one yet.
func (b *battleBoard) redraw() {
	if b.st != nil {
		b.draw()
	}
}

func (b *battleBoard) draw() {
	st := b.st
	dark := paint.DarkTheme()
	fg := theme.Color(theme.ColorNameForeground)
	bg := battleBg.On(dark)
	placedOn, cells := st.LastAttack()
	last, hasLast := st.LastMove()
	for i := range b.sides {
		s := &b.sides[i]
		setFill(s.bg, bg)
		board := st.Board(i)
		for r := range board {
			for c, e := range board[r] {
				fill, tc := tileColour(e, dark)
				setFill(s.tiles[r][c], fill)
				txt := ""
				if e > 0 {
					txt = strconv.FormatInt(int64(1)<<e, 10)
				}
				v := s.values[r][c]
				if v.Text != txt {
					v.TextSize = s.cell * 0.42
					if n := len(txt); n > 3 {
						v.TextSize = s.cell * 1.25 / float32(n)
					}
				}
				setText(v, txt, tc)
				t := s.tiles[r][c]
				centreText(v, t.Position().X+t.Size().Width/2, t.Position().Y+t.Size().Height/2)
			}
		}
		marked := map[battle2048.Cell]bool{}
		if placedOn == i {
			for _, c := range cells {
				marked[c] = true
			}
		}
		outline := attackOutline.On(dark)
		for r := range s.marks {
			for c := range s.marks[r] {
				m := s.marks[r][c]
				if paint.NRGBA(m.StrokeColor) != outline {
					m.StrokeColor = outline
					m.Refresh()
				}
				paint.SetVisible(m, marked[battle2048.Cell{Row: r, Col: c}])
			}
		}
		toMove := !st.Done() && st.ToMove() == i
		nameCol := fg
		if toMove {
			nameCol = theme.Color(theme.ColorNamePrimary)
		}
		setText(s.name, b.name(i), nameCol)
		s.name.Resize(s.name.MinSize())
		score := fmt.Sprintf("score %d", st.Score(i))
		if toMove {
			score += " · to move"
		}
		setText(s.score, score, fg)
		s.score.Resize(s.score.MinSize())
		if hasLast && last.Seat == i {
			angle := map[battle2048.Dir]float32{battle2048.Up: 0, battle2048.Right: 90, battle2048.Down: 180, battle2048.Left: 270}[last.Move.Dir]
			if s.arrow.Angle != angle || paint.NRGBA(s.arrow.FillColor) != paint.NRGBA(fg) {
				s.arrow.Angle, s.arrow.FillColor = angle, fg
				s.arrow.Refresh()
			}
			paint.SetVisible(s.arrow, true)
			// The arrow shows the direction: the note says what it made.
			merges := "merges"
			if last.Merges == 1 {
				merges = "merge"
			}
			note := fmt.Sprintf("+%d · %d %s", last.Gain, last.Merges, merges)
			room := s.arrow.Position().X - 4 - (s.score.Position().X + s.score.MinSize().Width + 8)
			setText(s.slid, paint.ClipText(note, s.slid, max(room, 0)), fg)
		} else {
			paint.SetVisible(s.arrow, false)
			setText(s.slid, "", fg)
		}
		ap := s.arrow.Position()
		paint.PlaceText(s.slid, ap.X-4-s.slid.MinSize().Width, s.score.Position().Y)
	}
	b.drawCaption(hasLast, last)
}

func (b *battleBoard) drawCaption(hasLast bool, last battle2048.LastMove) {
	st := b.st
	fg := theme.Color(theme.ColorNameForeground)
	var txt string
	switch {
	case b.step == nil:
		txt = "Start"
	case st.InOpening() || st.Round() == 0 || (b.step.Turn == 0):
		txt = "Opening: each player places the other's first tile"
	default:
		txt = fmt.Sprintf("Round %d of %d", b.step.Turn, b.step.Of)
		if hasLast && len(b.step.Seats) == 1 && b.step.Seats[0].Seat == last.Seat && b.step.Seats[0].Verdict == engine.OK {
			txt += fmt.Sprintf(" · %s slid %s and dropped %d×%d on %s", b.name(last.Seat), last.Move.Dir,
				last.Move.M, int64(1)<<last.Move.V, b.name(1-last.Seat))
		}
	}
	if st.Done() {
		txt += " · game over"
	}
	setText(b.caption, paint.ClipText(txt, b.caption, b.captionW), fg)
	b.caption.Resize(b.caption.MinSize())
}
