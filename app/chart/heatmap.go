package chart

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/engine/event"
)

// HeatMap draws a pairwise score matrix: the cell in row a and column b
// is a's score against b, 0 to 1, coloured on a diverging scale from red
// (a lost) through neutral (even) to blue (a won), with the percentage
// printed when it fits. Pairs that never met are left blank. Columns are
// headed by the entries' names when they fit, else by their row numbers.
// Call its methods on the UI goroutine (fyne.Do from elsewhere).
type HeatMap struct {
	widget.BaseWidget

	title  string
	labels []string
	cells  [][]*float64
	r      *heatRenderer
}

// Heat map geometry, in Fyne units.
const (
	heatMaxCell   = 72  // cells grow no taller than this, nor wider than twice it
	heatCellGap   = 2   // background between cells, so neighbours stay apart
	heatLegendW   = 240 // the colour bar
	heatLegendH   = 14
	heatLabelFrac = 0.3 // row labels take at most this share of the width
)

// NewHeatMap makes an empty heat map.
func NewHeatMap(title string) *HeatMap {
	h := &HeatMap{title: title}
	h.ExtendBaseWidget(h)
	return h
}

// SetData replaces the matrix: labels name the rows (and, in the same
// order, the columns); cells[a][b] is row a's score against column b,
// nil when they never met. Missing cells count as nil. The heat map keeps
// the slices; do not change them afterwards.
func (h *HeatMap) SetData(labels []string, cells [][]*float64) {
	h.labels, h.cells = labels, cells
	h.Refresh()
}

// cell is the value in row a, column b, or nil.
func (h *HeatMap) cell(a, b int) *float64 {
	if a < len(h.cells) && b < len(h.cells[a]) {
		return h.cells[a][b]
	}
	return nil
}

// CrossFractions turns a crosstable into the scores a heat map shows, for
// the entries in order (e.g. the standings' order, fillers left out):
// the share of points row a took from column b, nil when they have not
// met (and on the diagonal).
func CrossFractions(cross event.Crosstable, order []int) [][]*float64 {
	out := make([][]*float64, len(order))
	vals := make([]float64, len(order)*len(order))
	for i, a := range order {
		out[i] = make([]*float64, len(order))
		for j, b := range order {
			if a == b || a < 0 || b < 0 || a >= len(cross.Cells) || b >= len(cross.Cells[a]) {
				continue
			}
			c := cross.Cells[a][b]
			if c.Games == 0 {
				continue
			}
			v := &vals[i*len(order)+j]
			*v = c.Points / float64(c.Games)
			out[i][j] = v
		}
	}
	return out
}

// heatStops are the diverging scale's colours at 0, ¼, ½, ¾ and 1: the
// ColorBrewer RdBu scheme, which colour-blind viewers can still read as
// two sides, with a neutral middle that stands apart from the background
// (light grey on light themes, dark grey with brighter ends on dark ones).
var (
	heatStopsLight = [5]color.NRGBA{
		{0xb2, 0x18, 0x2b, 0xff}, {0xef, 0x8a, 0x62, 0xff}, {0xee, 0xee, 0xee, 0xff},
		{0x67, 0xa9, 0xcf, 0xff}, {0x21, 0x66, 0xac, 0xff},
	}
	heatStopsDark = [5]color.NRGBA{
		{0xf0, 0x5a, 0x4f, 0xff}, {0xa3, 0x3f, 0x38, 0xff}, {0x3c, 0x3c, 0x40, 0xff},
		{0x2f, 0x6a, 0x9e, 0xff}, {0x5a, 0xae, 0xeb, 0xff},
	}
)

// scoreColour is the heat map's colour for a score in the current theme;
// scores outside 0..1 are clamped.
func scoreColour(v float64) color.NRGBA {
	stops := heatStopsLight
	if paint.DarkTheme() {
		stops = heatStopsDark
	}
	return scaleColour(stops, v)
}

// scaleColour interpolates linearly between evenly spaced stops.
func scaleColour(stops [5]color.NRGBA, v float64) color.NRGBA {
	if math.IsNaN(v) {
		v = 0.5
	}
	v = max(0, min(v, 1)) * 4
	i := min(int(v), 3)
	return paint.Mix(stops[i], stops[i+1], v-float64(i))
}

// cellText is black or white, whichever contrasts more with fill; one of
// them always reaches 4.5:1.
func cellText(fill color.Color) color.Color {
	if contrastRatio(fill, color.Black) >= contrastRatio(fill, color.White) {
		return color.Black
	}
	return color.White
}

// percent writes a score as a whole percentage, with the sign or without
// (where room is short).
func scorePercent(v float64, sign bool) string {
	s := strconv.Itoa(int(math.Round(v * 100)))
	if sign {
		s += "%"
	}
	return s
}

// CreateRenderer is part of fyne.Widget.
func (h *HeatMap) CreateRenderer() fyne.WidgetRenderer {
	r := &heatRenderer{h: h}
	r.title = paint.NewText(h.title, theme.TextSubHeadingSize(), true)
	r.caption = paint.NewText("Score of row against column", theme.TextSize(), false)
	r.legend = canvas.NewRaster(func(w, _ int) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, w, 1))
		for x := range w {
			img.SetNRGBA(x, 0, scoreColour((float64(x)+0.5)/float64(w)))
		}
		return img
	})
	r.legend.ScaleMode = canvas.ImageScaleSmooth
	for _, s := range []string{"0%", "50%", "100%"} {
		r.legendTicks = append(r.legendTicks, paint.NewText(s, theme.TextSize(), false))
	}
	r.empty = paint.NewText("No games yet", theme.TextSize(), false)
	h.r = r
	r.update()
	return r
}

type heatRenderer struct {
	h           *HeatMap
	title       *canvas.Text
	caption     *canvas.Text
	legend      *canvas.Raster
	legendTicks []*canvas.Text
	empty       *canvas.Text
	rowLabels   []*canvas.Text
	rowNums     []*canvas.Text
	colLabels   []*canvas.Text
	rects       []*canvas.Rectangle // n×n, by row
	texts       []*canvas.Text
	renderer
	// nameW is the widest label at the text size, measured in update.
	nameW float32
	// numbered is whether the last layout headed columns by number.
	numbered bool
}

// update rebuilds the cells when the size changed, and sets colours and
// texts from the data and the theme.
func (r *heatRenderer) update() {
	h := r.h
	n := len(h.labels)
	fg := theme.Color(theme.ColorNameForeground)
	if len(r.rowLabels) != n {
		r.rowLabels, r.rowNums, r.colLabels, r.rects, r.texts = nil, nil, nil, nil, nil
		for i := range n {
			r.rowLabels = append(r.rowLabels, paint.NewText("", theme.TextSize(), false))
			r.rowNums = append(r.rowNums, paint.NewText(strconv.Itoa(i+1), theme.TextSize(), false))
			c := paint.NewText("", theme.TextSize(), false)
			c.Alignment = fyne.TextAlignCenter
			r.colLabels = append(r.colLabels, c)
		}
		for range n * n {
			r.rects = append(r.rects, canvas.NewRectangle(color.Transparent))
			t := paint.NewText("", theme.TextSize(), false)
			t.Alignment = fyne.TextAlignCenter
			r.texts = append(r.texts, t)
		}
		r.collect()
	}
	for _, t := range []*canvas.Text{r.title, r.caption, r.empty} {
		t.Color, t.TextSize = fg, theme.TextSize()
	}
	r.title.TextSize = theme.TextSubHeadingSize()
	r.empty.Color = paint.WithAlpha(fg, 0xb0)
	for _, t := range r.legendTicks {
		t.Color, t.TextSize = fg, theme.TextSize()
	}
	r.nameW = 0
	for i, l := range h.labels {
		for _, t := range []*canvas.Text{r.rowLabels[i], r.colLabels[i]} {
			t.Color, t.TextSize, t.Text = fg, theme.TextSize(), l
		}
		r.rowNums[i].Color, r.rowNums[i].TextSize = paint.WithAlpha(fg, 0xc0), theme.TextSize()
		r.nameW = max(r.nameW, r.colLabels[i].MinSize().Width)
	}
	// Pairs that never met are outlined, not filled, so they cannot be
	// mistaken for the neutral fill of an even score.
	outline := paint.WithAlpha(fg, 0x40)
	for a := range n {
		for b := range n {
			rect, t := r.rects[a*n+b], r.texts[a*n+b]
			t.TextSize = theme.TextSize()
			v := h.cell(a, b)
			if v == nil {
				rect.FillColor, rect.StrokeColor, rect.StrokeWidth, t.Text = color.Transparent, outline, chartAxisW, ""
				continue
			}
			fill := scoreColour(*v)
			rect.FillColor, rect.StrokeWidth, t.Text, t.Color = fill, 0, scorePercent(*v, true), cellText(fill)
		}
	}
}

func (r *heatRenderer) collect() {
	objs := []fyne.CanvasObject{r.title, r.caption, r.legend}
	for _, t := range r.legendTicks {
		objs = append(objs, t)
	}
	for i := range r.rowLabels {
		objs = append(objs, r.rowLabels[i], r.rowNums[i], r.colLabels[i])
	}
	for i := range r.rects {
		objs = append(objs, r.rects[i], r.texts[i])
	}
	r.objects = append(objs, r.empty)
}

func (r *heatRenderer) Layout(size fyne.Size) {
	h := r.h
	n := len(h.labels)
	pad := chartPad()
	paint.PlaceText(r.title, pad, pad)
	top := pad + r.title.MinSize().Height + chartGap
	lineH := r.caption.MinSize().Height
	legendH := heatLegendH + 2 + lineH

	es := r.empty.MinSize()
	paint.PlaceText(r.empty, (size.Width-es.Width)/2, top+(size.Height-top-es.Height)/2)
	paint.SetVisible(r.empty, n == 0)
	if n == 0 {
		r.layoutLegend(size, pad, size.Height-pad-legendH)
		return
	}

	// Cells are at most heatMaxCell high but may be wider, up to the
	// widest name, so a few entries get named columns. Rows are numbered
	// when the names do not fit over the columns anyway.
	numW := r.rowNums[0].MinSize().Height * 1.4 // room for "12"
	labelW := min(r.nameW+numW+chartGap, max(size.Width*heatLabelFrac, 60))
	gridTop := top + lineH + chartGap
	availW := (size.Width - 2*pad - labelW - chartGap) / float32(n)
	availH := (size.Height - pad - legendH - 2*chartGap - gridTop) / float32(n)
	ch := floorUnit(max(min(availH, heatMaxCell), 4))
	cw := floorUnit(max(min(availW, max(ch, min(r.nameW+12, 2*heatMaxCell))), 4))
	r.numbered = r.nameW > cw-8
	if !r.numbered {
		labelW = min(r.nameW, labelW)
	}
	// The block of labels and grid is centred.
	blockW := labelW + chartGap + float32(n)*cw
	x0 := max(pad, (size.Width-blockW)/2)
	left := x0 + labelW + chartGap

	for i := range n {
		row, num, col := r.rowLabels[i], r.rowNums[i], r.colLabels[i]
		name := h.labels[i]
		nameX, nameW := x0, labelW
		if r.numbered {
			col.Text = strconv.Itoa(i + 1)
			nameX, nameW = x0+numW+chartGap, labelW-numW-chartGap
		} else {
			col.Text = name
		}
		row.Text = name
		if row.MinSize().Width > nameW {
			row.Text = paint.ClipText(name, row, nameW)
		}
		y := gridTop + float32(i)*ch
		rs := row.MinSize()
		paint.PlaceText(row, nameX, y+(ch-rs.Height)/2)
		ns := num.MinSize()
		paint.Place(num, x0+numW-ns.Width, y+(ch-ns.Height)/2, ns.Width, ns.Height)
		s := col.MinSize()
		paint.Place(col, left+float32(i)*cw+(cw-s.Width)/2, top, s.Width, s.Height)
		// Labels taller or wider than their cells are thinned out rather
		// than left to overlap.
		every := int(math.Ceil(float64(rs.Height / ch)))
		paint.SetVisible(row, i%max(every, 1) == 0)
		paint.SetVisible(num, r.numbered && i%max(every, 1) == 0)
		cols := int(math.Ceil(float64(s.Width / (cw - 2))))
		paint.SetVisible(col, i%max(cols, 1) == 0)
	}
	// Percent signs only when "100%" fits, so all cells read alike.
	sign := fyne.MeasureText("100%", theme.TextSize(), fyne.TextStyle{}).Width <= cw-6
	for a := range n {
		for b := range n {
			rect, t := r.rects[a*n+b], r.texts[a*n+b]
			if v := h.cell(a, b); v != nil {
				t.Text = scorePercent(*v, sign)
			}
			x, y := left+float32(b)*cw, gridTop+float32(a)*ch
			paint.Place(rect, x+heatCellGap/2, y+heatCellGap/2, cw-heatCellGap, ch-heatCellGap)
			s := t.MinSize()
			paint.Place(t, x+(cw-s.Width)/2, y+(ch-s.Height)/2, s.Width, s.Height)
			paint.SetVisible(t, t.Text != "" && s.Width <= cw-6 && s.Height <= ch-2)
		}
	}
	r.layoutLegend(size, x0, gridTop+float32(n)*ch+2*chartGap)
}

// layoutLegend places the caption and the colour bar with its ticks
// below it, from (x, y).
func (r *heatRenderer) layoutLegend(size fyne.Size, x, y float32) {
	pad := chartPad()
	cs := r.caption.MinSize()
	paint.PlaceText(r.caption, x, y+(heatLegendH-cs.Height)/2)
	lx := x + cs.Width + 2*chartGap
	lw := float32(heatLegendW)
	if lx+lw+pad > size.Width {
		lw = max(size.Width-pad-lx, 40)
	}
	paint.Place(r.legend, lx, y, lw, heatLegendH)
	for i, t := range r.legendTicks {
		s := t.MinSize()
		tx := lx + lw*float32(i)/float32(len(r.legendTicks)-1) - s.Width/2
		tx = max(lx, min(tx, lx+lw-s.Width))
		paint.PlaceText(t, tx, y+heatLegendH+2)
	}
}

// floorUnit rounds a length down to whole units, so cell edges are crisp.
func floorUnit(v float32) float32 { return float32(math.Floor(float64(v))) }

func (r *heatRenderer) MinSize() fyne.Size { return minChartSize() }

// Refresh takes new data or a new theme.
func (r *heatRenderer) Refresh() {
	r.redraw(r.update, r.Layout, r.h.Size())
}
