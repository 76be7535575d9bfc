package chart

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/engine/event"
)

// BracketTree draws a knockout: rounds from left to right, a box per
// match listing its entries (seed, name, points so far) with the winner
// highlighted, lines from each match to the slot its winner takes in the
// next round, and the champion at the end. Multi-seat heats are boxes of
// their entrants, best first once played, with the ones going through
// highlighted; first-round byes get a box of their own. Slots still
// waiting on a match show "—". The widget's MinSize is the whole tree
// (or, with MinScale, the tree at its smallest): wrap it in
// container.NewScroll. Call SetTree again as games finish.
// Call its methods on the UI goroutine (fyne.Do from elsewhere).
type BracketTree struct {
	widget.BaseWidget

	// MinScale, between 0 and 1, lets the tree shrink, type and all, to
	// fit the size it is given, down to that fraction of its full size,
	// for a pane that must show the whole bracket at once (the
	// projector). 0 draws it at full size, to be scrolled.
	MinScale float32

	tree  event.BracketTree
	names []string
	r     *bracketRenderer
}

// NewBracketTree makes an empty bracket.
func NewBracketTree() *BracketTree {
	b := &BracketTree{tree: event.BracketTree{Champion: -1}}
	b.ExtendBaseWidget(b)
	return b
}

// SetTree shows tree; names are by entry index.
func (b *BracketTree) SetTree(tree event.BracketTree, names []string) {
	b.tree, b.names = tree, names
	b.Refresh()
}

// Bracket geometry, in Fyne units; text sizes come from the theme.
const (
	bracketGapX    = 40 // between columns, where the connectors run
	bracketGapY    = 18 // between boxes of the first round
	bracketAccentW = 4  // the bar marking a row that goes through
	bracketInset   = 8  // text inside a box
)

// bracketRow is one line of a box: an entry and its points.
type bracketRow struct {
	hl, accent      *canvas.Rectangle
	seed, name, pts *canvas.Text
}

// bracketBox is one match, heat, the byes or the champion.
type bracketBox struct {
	bg     *canvas.Rectangle
	rows   []*bracketRow
	footer *canvas.Text
	noSeed bool // the champion's box lists no seed
	// Set by update, used by Layout.
	pos  fyne.Position
	size fyne.Size
	used int // rows in use
}

// rowState is how a row is drawn.
type rowState int

const (
	rowPending  rowState = iota // still playing, or waiting
	rowAdvanced                 // goes through (or is the champion)
	rowOut                      // eliminated
	rowEmpty                    // the slot waits on an earlier match
	rowBye                      // the missing opponent of a two-seat bye
)

// CreateRenderer is part of fyne.Widget.
func (b *BracketTree) CreateRenderer() fyne.WidgetRenderer {
	r := &bracketRenderer{b: b, k: 1}
	r.empty = paint.NewText("The bracket appears when the event starts", theme.TextSize(), false)
	b.r = r
	r.update()
	return r
}

type bracketRenderer struct {
	b       *BracketTree
	boxes   []*bracketBox
	headers []*canvas.Text
	lines   []*canvas.Line
	empty   *canvas.Text
	renderer
	min fyne.Size
	// k is the scale the tree is drawn at (1 but with MinScale); nat and
	// least are its size at full scale and at MinScale, fitted the size
	// k was chosen for.
	k                  float32
	nat, least, fitted fyne.Size
	// Counts in use after the last update.
	nBoxes, nHeaders, nLines int
}

// bracketGeom is the size of a box's parts in the current theme.
type bracketGeom struct {
	rowH, seedW, nameW, ptsW, boxW, footH float32
}

// update rebuilds the drawing from the tree, the names and the theme at
// scale k, having measured the tree at full scale and at MinScale when it
// may shrink: text does not measure exactly in proportion to its size.
func (r *bracketRenderer) update() {
	if least := r.b.MinScale; least > 0 && least < 1 {
		k := r.k
		r.k = least
		r.build()
		r.least = r.min
		r.k = 1
		r.build()
		r.nat = r.min
		r.k = k
		r.fitted = fyne.Size{}
	}
	r.build()
}

// build draws the tree at scale k: box contents and colours, and every
// position (they depend only on the tree's shape and the text sizes, not
// on the widget's size).
func (r *bracketRenderer) build() {
	b := r.b
	tree := b.tree
	r.nBoxes, r.nHeaders, r.nLines = 0, 0, 0
	g := r.geometry()
	pad := r.px(chartPad())
	fg := theme.Color(theme.ColorNameForeground)
	r.empty.Color, r.empty.TextSize = paint.WithAlpha(fg, 0xb0), r.textSize()
	if len(tree.Rounds) == 0 {
		r.collect()
		s := r.empty.MinSize()
		r.min = fyne.NewSize(s.Width+2*pad, s.Height+2*pad)
		return
	}
	two := len(tree.Rounds[0].Matches) > 0 && len(tree.Rounds[0].Matches[0].Entries) == 2

	top := pad + fyne.MeasureText("Champion", r.textSize(), fyne.TextStyle{Bold: true}).Height + r.px(chartGap)
	colX := func(c int) float32 { return pad + float32(c)*(g.boxW+r.px(bracketGapX)) }

	// Each column's boxes, top to bottom; cols[r][i] is an index into
	// r.boxes. Round 0 of a multi-seat bracket starts with its byes.
	cols := make([][]int, len(tree.Rounds))
	byesBox := -1
	where := map[[2]int]int{} // (round, match) → box
	for ri, round := range tree.Rounds {
		if !two && len(round.Byes) > 0 {
			byesBox = r.fillByes(round.Byes, g)
			cols[ri] = append(cols[ri], byesBox)
		}
		for mi := range round.Matches {
			i := r.fillMatch(&round.Matches[mi], ri == len(tree.Rounds)-1, two, g)
			where[[2]int{ri, mi}] = i
			cols[ri] = append(cols[ri], i)
		}
	}
	champ := r.fillChampion(tree.Champion, g)

	// Vertical placement.
	if two {
		// The classic tree: first-round boxes evenly stacked, each later
		// box centred between the two it is fed by.
		for ci, col := range cols {
			for k, i := range col {
				box := r.boxes[i]
				y := top + float32(k)*(box.size.Height+r.px(bracketGapY))
				if ci > 0 {
					a, c := r.boxes[cols[ci-1][2*k]], r.boxes[cols[ci-1][min(2*k+1, len(cols[ci-1])-1)]]
					y = (a.pos.Y+a.size.Height/2+c.pos.Y+c.size.Height/2)/2 - box.size.Height/2
				}
				box.pos = fyne.NewPos(colX(ci), y)
			}
		}
	} else {
		// Heats do not pair up, so each column is spread evenly over the
		// height of the tallest.
		var tallest float32
		for _, col := range cols {
			var h float32
			for _, i := range col {
				h += r.boxes[i].size.Height + r.px(bracketGapY)
			}
			tallest = max(tallest, h)
		}
		for ci, col := range cols {
			var h float32
			for _, i := range col {
				h += r.boxes[i].size.Height
			}
			space := (tallest - h) / float32(len(col))
			y := top + space/2
			for _, i := range col {
				r.boxes[i].pos = fyne.NewPos(colX(ci), y)
				y += r.boxes[i].size.Height + space
			}
		}
	}
	final := r.boxes[cols[len(cols)-1][0]]
	cb := r.boxes[champ]
	cb.pos = fyne.NewPos(colX(len(cols)), final.pos.Y+final.size.Height/2-cb.size.Height/2)

	// Column headers.
	for ci := range cols {
		r.header(roundName(len(tree.Rounds[ci].Matches), ci, len(cols), two))
	}
	r.header("Champion")
	for ci := 0; ci <= len(cols); ci++ {
		t := r.headers[ci]
		s := t.MinSize()
		t.Move(fyne.NewPos(colX(ci)+(g.boxW-s.Width)/2, pad))
		t.Resize(s)
	}

	// Connectors.
	on := theme.Color(theme.ColorNamePrimary)
	var off color.Color = paint.WithAlpha(fg, 0x60)
	if two {
		for ri := 0; ri+1 < len(tree.Rounds); ri++ {
			for mi, m := range tree.Rounds[ri].Matches {
				from, to := r.boxes[where[[2]int{ri, mi}]], r.boxes[where[[2]int{ri + 1, mi / 2}]]
				c := off
				if m.Decided {
					c = on
				}
				r.elbow(from, from.size.Height/2, to, r.rowMid(to, mi%2, g), 0.5, c)
			}
		}
	} else {
		r.linkHeats(tree, where, byesBox, on, g)
	}
	c := off
	if tree.Champion >= 0 {
		c = on
	}
	r.elbow(final, final.size.Height/2, cb, cb.size.Height/2, 0.5, c)

	// Lines go under the boxes, so the boxes are laid out after them.
	var right, bottom float32
	for _, box := range r.boxes[:r.nBoxes] {
		right = max(right, box.pos.X+box.size.Width)
		bottom = max(bottom, box.pos.Y+box.size.Height)
	}
	r.min = fyne.NewSize(right+pad, bottom+pad)
	r.collect()
}

// textSize is the size of names and points at scale k.
func (r *bracketRenderer) textSize() float32 { return r.px(theme.TextSize()) }

// px scales a length of the full-size tree to scale k.
func (r *bracketRenderer) px(v float32) float32 { return v * r.k }

// fit draws the tree at the largest scale, in steps of 2% and no less
// than MinScale, at which it fits size, and says whether that changed
// the scale.
func (r *bracketRenderer) fit(size fyne.Size) bool {
	least := r.b.MinScale
	if least <= 0 || least >= 1 || size == r.fitted || r.nat.Width <= 0 || r.nat.Height <= 0 {
		return false
	}
	r.fitted = size
	was := r.k
	// From the scale the full-size tree suggests, down until it fits.
	k := min(1, size.Width/r.nat.Width, size.Height/r.nat.Height)
	r.k = max(least, float32(math.Floor(float64(k)*50))/50)
	r.build()
	for r.k > least && (r.min.Width > size.Width || r.min.Height > size.Height) {
		r.k = max(least, r.k-0.02)
		r.build()
	}
	return r.k != was
}

// geometry measures the parts of a box in the current theme.
func (r *bracketRenderer) geometry() bracketGeom {
	ts := r.textSize()
	bold := fyne.TextStyle{Bold: true}
	lineH := fyne.MeasureText("Mg", ts, bold).Height
	g := bracketGeom{rowH: lineH + r.px(6), footH: lineH + r.px(4)}
	g.seedW = fyne.MeasureText(seedText(max(len(r.b.names), 9)-1), r.px(seedSize()), fyne.TextStyle{}).Width + r.px(bracketInset)
	// Names up to 11 text heights wide are shown whole, longer ones cut,
	// so an 8-entry bracket fits a 1000-unit window.
	var widest float32
	for _, n := range r.b.names {
		widest = max(widest, fyne.MeasureText(n, ts, bold).Width)
	}
	g.nameW = min(max(widest, 6*ts), 11*ts)
	g.ptsW = fyne.MeasureText("10½", ts, bold).Width + r.px(bracketInset)
	g.boxW = r.px(bracketAccentW+2*bracketInset) + g.seedW + g.nameW + g.ptsW
	return g
}

// roundName heads column ci of n columns (rounds) with m matches each.
func roundName(m, ci, n int, two bool) string {
	if !two {
		if ci == n-1 {
			return "Final heat"
		}
		return fmt.Sprintf("Round %d", ci+1)
	}
	switch m {
	case 1:
		return "Final"
	case 2:
		return "Semi-finals"
	case 4:
		return "Quarter-finals"
	}
	return fmt.Sprintf("Round %d", ci+1)
}

// header takes the next pooled column header.
func (r *bracketRenderer) header(s string) *canvas.Text {
	if r.nHeaders == len(r.headers) {
		r.headers = append(r.headers, paint.NewText("", theme.TextSize(), true))
	}
	t := r.headers[r.nHeaders]
	r.nHeaders++
	t.Text, t.Color, t.TextSize = s, theme.Color(theme.ColorNameForeground), r.textSize()
	return t
}

// box takes the next pooled box with rows rows and sizes it.
func (r *bracketRenderer) box(rows int, g bracketGeom) *bracketBox {
	if r.nBoxes == len(r.boxes) {
		r.boxes = append(r.boxes, &bracketBox{
			bg:     canvas.NewRectangle(color.Transparent),
			footer: paint.NewText("", theme.TextSize(), false),
		})
	}
	box := r.boxes[r.nBoxes]
	r.nBoxes++
	for len(box.rows) < rows {
		box.rows = append(box.rows, &bracketRow{
			hl:     canvas.NewRectangle(color.Transparent),
			accent: canvas.NewRectangle(color.Transparent),
			seed:   paint.NewText("", theme.TextSize(), false),
			name:   paint.NewText("", theme.TextSize(), false),
			pts:    paint.NewText("", theme.TextSize(), false),
		})
	}
	box.used, box.noSeed = rows, false
	fg := theme.Color(theme.ColorNameForeground)
	box.bg.FillColor = paint.WithAlpha(fg, 0x0c)
	box.bg.StrokeColor, box.bg.StrokeWidth = paint.WithAlpha(fg, 0x48), chartAxisW
	box.bg.CornerRadius = 4
	box.footer.Text, box.footer.Color, box.footer.TextSize = "", paint.WithAlpha(fg, 0xa8), r.textSize()
	box.size = fyne.NewSize(g.boxW, float32(rows)*g.rowH+g.footH+r.px(4))
	return box
}

// setRow fills row k of box with entry e (−1: an empty slot).
func (r *bracketRenderer) setRow(box *bracketBox, k, e int, pts string, st rowState, g bracketGeom) {
	row := box.rows[k]
	fg := theme.Color(theme.ColorNameForeground)
	primary := theme.Color(theme.ColorNamePrimary)
	name := "—"
	if e >= 0 {
		name = entryName(r.b.names, e)
	}
	row.seed.Text, row.seed.Color, row.seed.TextSize = "", paint.WithAlpha(fg, 0x90), r.px(seedSize())
	if e >= 0 {
		row.seed.Text = seedText(e)
	}
	row.seed.Alignment = fyne.TextAlignTrailing
	row.name.TextSize, row.pts.TextSize = r.textSize(), r.textSize()
	row.name.TextStyle.Bold = st == rowAdvanced
	row.pts.TextStyle.Bold = st == rowAdvanced
	row.pts.Alignment = fyne.TextAlignTrailing
	row.pts.Text = pts
	if st == rowBye {
		name = "bye"
	}
	row.name.Text = name
	if row.name.MinSize().Width > g.nameW {
		row.name.Text = paint.ClipText(name, row.name, g.nameW)
	}
	c := fg
	switch st {
	case rowOut:
		c = paint.WithAlpha(fg, 0x98)
	case rowEmpty, rowBye:
		c = paint.WithAlpha(fg, 0x80)
	}
	row.name.Color, row.pts.Color = c, c
	row.hl.FillColor, row.accent.FillColor = color.Transparent, color.Transparent
	if st == rowAdvanced {
		row.hl.FillColor = paint.WithAlpha(primary, 0x38)
		row.accent.FillColor = primary
	}
}

// fillMatch sets up the box of a match or heat and returns its index.
func (r *bracketRenderer) fillMatch(m *event.Match, final, two bool, g bracketGeom) int {
	box := r.box(len(m.Entries), g)
	slots := m.Entries
	if !two {
		slots = heatRows(m)
	}
	for k, e := range slots {
		st := rowPending
		switch {
		case e < 0 && m.Bye:
			st = rowBye
		case e < 0:
			st = rowEmpty
		case m.Decided && slices.Contains(m.Advance, e):
			st = rowAdvanced
		case m.Decided:
			st = rowOut
		}
		pts := ""
		if j := slices.Index(m.Entries, e); e >= 0 && m.Played > 0 && j < len(m.Points) {
			pts = pointsText(m.Points[j], two)
		}
		r.setRow(box, k, e, pts, st, g)
	}
	box.footer.Text = matchFooter(m, final)
	return r.nBoxes - 1
}

// heatRows is the order a heat's entries are listed in: best first once
// it is decided, by slot before.
func heatRows(m *event.Match) []int {
	if m.Decided && len(m.Order) == len(m.Entries) {
		return m.Order
	}
	return m.Entries
}

// fillByes sets up the box of a multi-seat bracket's first-round byes.
func (r *bracketRenderer) fillByes(byes []int, g bracketGeom) int {
	box := r.box(len(byes), g)
	for k, e := range byes {
		r.setRow(box, k, e, "", rowAdvanced, g)
	}
	box.footer.Text = "byes: through to round 2"
	return r.nBoxes - 1
}

// fillChampion sets up the champion's box.
func (r *bracketRenderer) fillChampion(e int, g bracketGeom) int {
	box := r.box(1, g)
	st := rowEmpty
	if e >= 0 {
		st = rowAdvanced
	}
	r.setRow(box, 0, e, "", st, g)
	box.noSeed = true
	if e >= 0 {
		// The champion's place is the header's; the number a viewer
		// could take for a rank ("1", "1=") is its seed, so it says so.
		box.footer.Text = "wins the event · " + seedText(e)
		box.bg.StrokeColor = theme.Color(theme.ColorNamePrimary)
	} else {
		box.footer.Text = "to be decided"
	}
	// Wide enough for the footer too: a short name must not leave
	// "wins the event · seed 6" sticking out of its box.
	foot := fyne.MeasureText(box.footer.Text, box.footer.TextSize, box.footer.TextStyle).Width
	box.size.Width = r.px(bracketAccentW+2*bracketInset) + max(g.nameW, foot)
	return r.nBoxes - 1
}

// seedText labels entry e's seed: entries are seeded in their order, and
// a bare number beside a name reads as a place.
func seedText(e int) string { return "seed " + strconv.Itoa(e+1) }

// seedSize is the text size of seed labels: smaller than the names, as
// the seed matters less than who goes through.
func seedSize() float32 { return theme.CaptionTextSize() }

// matchFooter says where a match stands.
func matchFooter(m *event.Match, final bool) string {
	games := len(m.Games)
	switch {
	case m.Bye:
		return "no game"
	case games == 0:
		return "waiting"
	case !m.Decided && m.Played == games && len(m.Entries) == 2:
		return fmt.Sprintf("level after %d games: tie-break", games)
	case !m.Decided:
		return fmt.Sprintf("%d of %d games", m.Played, games)
	}
	s := fmt.Sprintf("%d games", games)
	switch m.Rule {
	case "tiebreak":
		s += fmt.Sprintf(", %d tie-break", m.Tiebreaks)
	case "seed":
		s = "level: higher seed"
	}
	if final && len(m.Entries) > 2 {
		s += ", podium"
	}
	return s
}

// pointsText writes match points: with a ½ rather than .5 in two-seat
// matches, to one decimal in heats, whose points come in thirds and such.
func pointsText(p float64, two bool) string {
	if !two {
		return noMinusZero(strconv.FormatFloat(p, 'f', 1, 64))
	}
	half := int(math.Round(p * 2))
	switch {
	case half%2 == 0:
		return strconv.Itoa(half / 2)
	case half == 1:
		return "½"
	}
	return strconv.Itoa(half/2) + "½"
}

// linkHeats connects each decided heat (and the first round's byes) to
// the heats of the next round its entrants went to: one line per pair of
// boxes, from the middle of the rows going through to the middle of
// their rows in the next heat. Lines into one heat turn at different
// places in the gap, so they can be told apart.
func (r *bracketRenderer) linkHeats(tree event.BracketTree, where map[[2]int]int, byesBox int, c color.Color, g bracketGeom) {
	type link struct {
		from, to *bracketBox
		fy, ty   float32
	}
	into := map[*bracketBox][]link{}
	var order []*bracketBox
	connect := func(from *bracketBox, rows, advance []int, ri int) {
		if ri+1 >= len(tree.Rounds) {
			return
		}
		for mi := range tree.Rounds[ri+1].Matches {
			next := &tree.Rounds[ri+1].Matches[mi]
			to := r.boxes[where[[2]int{ri + 1, mi}]]
			var fy, ty float32
			n := 0
			for k, e := range heatRows(next) {
				if e >= 0 && slices.Contains(advance, e) {
					fy += r.rowMid(from, slices.Index(rows, e), g)
					ty += r.rowMid(to, k, g)
					n++
				}
			}
			if n == 0 {
				continue
			}
			if into[to] == nil {
				order = append(order, to)
			}
			into[to] = append(into[to], link{from, to, fy / float32(n), ty / float32(n)})
		}
	}
	for ri, round := range tree.Rounds {
		if ri == 0 && byesBox >= 0 {
			connect(r.boxes[byesBox], round.Byes, round.Byes, ri)
		}
		for mi := range round.Matches {
			if m := &round.Matches[mi]; m.Decided {
				connect(r.boxes[where[[2]int{ri, mi}]], heatRows(m), m.Advance, ri)
			}
		}
	}
	for _, to := range order {
		links := into[to]
		for k, l := range links {
			r.elbow(l.from, l.fy, l.to, l.ty, float32(k+1)/float32(len(links)+1), c)
		}
	}
}

// rowMid is the y, within box, of the middle of row k.
func (r *bracketRenderer) rowMid(box *bracketBox, k int, g bracketGeom) float32 {
	return r.px(2) + (float32(max(k, 0))+0.5)*g.rowH
}

// elbow connects from's right edge at height fy (within from) to to's
// left edge at height ty (within to) with three pooled lines: across to
// the fraction at of the gap, up or down, and across.
func (r *bracketRenderer) elbow(from *bracketBox, fy float32, to *bracketBox, ty float32, at float32, c color.Color) {
	x0, y0 := from.pos.X+from.size.Width, from.pos.Y+fy
	x2, y2 := to.pos.X, to.pos.Y+ty
	mid := x0 + (x2-x0)*at
	for _, seg := range [][2]fyne.Position{
		{{X: x0, Y: y0}, {X: mid, Y: y0}},
		{{X: mid, Y: y0}, {X: mid, Y: y2}},
		{{X: mid, Y: y2}, {X: x2, Y: y2}},
	} {
		if r.nLines == len(r.lines) {
			l := canvas.NewLine(c)
			l.StrokeWidth = chartAxisW
			r.lines = append(r.lines, l)
		}
		l := r.lines[r.nLines]
		r.nLines++
		l.Position1, l.Position2, l.StrokeColor = seg[0], seg[1], c
	}
}

// collect lists the objects in use, lines first so boxes cover their
// ends.
func (r *bracketRenderer) collect() {
	objs := []fyne.CanvasObject{r.empty}
	for _, l := range r.lines[:r.nLines] {
		objs = append(objs, l)
	}
	for _, t := range r.headers[:r.nHeaders] {
		objs = append(objs, t)
	}
	for _, box := range r.boxes[:r.nBoxes] {
		objs = append(objs, box.bg)
		for _, row := range box.rows[:box.used] {
			objs = append(objs, row.hl, row.accent, row.seed, row.name, row.pts)
		}
		objs = append(objs, box.footer)
	}
	r.objects = objs
}

// Layout places the boxes where update put them; the tree does not
// stretch with the widget, but with MinScale it shrinks to fit it.
func (r *bracketRenderer) Layout(size fyne.Size) {
	if r.fit(size) {
		defer func() {
			for _, o := range r.objects {
				o.Refresh()
			}
		}()
	}
	pad := r.px(chartPad())
	paint.PlaceText(r.empty, pad, pad)
	paint.SetVisible(r.empty, len(r.b.tree.Rounds) == 0)
	g := r.geometry()
	for _, box := range r.boxes[:r.nBoxes] {
		x, y := box.pos.X, box.pos.Y
		paint.Place(box.bg, x, y, box.size.Width, box.size.Height)
		for k, row := range box.rows[:box.used] {
			ry := y + r.px(2) + float32(k)*g.rowH
			paint.Place(row.hl, x+chartAxisW, ry, box.size.Width-2*chartAxisW, g.rowH)
			paint.Place(row.accent, x+chartAxisW, ry, r.px(bracketAccentW), g.rowH)
			tx := x + r.px(bracketAccentW+bracketInset)
			s := row.seed.MinSize()
			paint.Place(row.seed, tx+g.seedW-r.px(bracketInset)-s.Width, ry+(g.rowH-s.Height)/2, s.Width, s.Height)
			paint.SetVisible(row.seed, !box.noSeed)
			if !box.noSeed {
				tx += g.seedW
			}
			s = row.name.MinSize()
			paint.Place(row.name, tx, ry+(g.rowH-s.Height)/2, s.Width, s.Height)
			s = row.pts.MinSize()
			paint.Place(row.pts, x+box.size.Width-r.px(bracketInset)-s.Width, ry+(g.rowH-s.Height)/2, s.Width, s.Height)
		}
		fs := box.footer.MinSize()
		paint.Place(box.footer, x+r.px(bracketAccentW+bracketInset), y+r.px(2)+float32(box.used)*g.rowH+(g.footH-fs.Height)/2, fs.Width, fs.Height)
	}
}

// MinSize is the tree's size, at MinScale when it may shrink.
func (r *bracketRenderer) MinSize() fyne.Size {
	if k := r.b.MinScale; k > 0 && k < 1 {
		return r.least
	}
	return r.min
}

// Refresh takes a new tree or theme.
func (r *bracketRenderer) Refresh() {
	r.redraw(r.update, r.Layout, r.b.Size())
}
