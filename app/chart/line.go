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

// Point is one point of a chart series. Low and High bound its error
// band when the series has one.
type Point struct {
	X, Y      float64
	Low, High float64
}

// Series is one named line of a LineChart.
type Series struct {
	Name   string
	Points []Point // in increasing X
	// Band draws the area between the points' Low and High, translucent.
	Band bool
	// Colour overrides the palette colour of the series' position, so an
	// entry can keep its colour across charts; nil uses the palette.
	Colour color.Color
}

// LineChart draws named series of points as lines, with optional error
// bands, x and y axes with round tick values, axis titles, a legend and
// an optional horizontal reference line. New data reuses the drawn
// objects, so it can be updated after every game of a running event.
// Call its methods on the UI goroutine (fyne.Do from elsewhere).
type LineChart struct {
	widget.BaseWidget

	title, xLabel, yLabel string
	series                []Series
	refY                  float64 // NaN: no reference line
	refLabel              string
	r                     *lineRenderer
}

// Line chart geometry, in Fyne units.
const (
	lineMarkerMax = 16 // series with more points than this get no markers
	lineMarkerD   = 7
	lineSwatchW   = 22
	lineBandAlpha = 0x28
)

// NewLineChart makes an empty line chart.
func NewLineChart(title, xLabel, yLabel string) *LineChart {
	c := &LineChart{title: title, xLabel: xLabel, yLabel: yLabel, refY: math.NaN()}
	c.ExtendBaseWidget(c)
	return c
}

// SetSeries replaces the chart's data. The chart keeps the slice; do not
// change it afterwards.
func (c *LineChart) SetSeries(series []Series) {
	c.series = series
	c.Refresh()
}

// SetReference draws a horizontal line at y with a label at its right
// end (rating 0, the average, for instance); NaN removes it.
func (c *LineChart) SetReference(y float64, label string) {
	c.refY, c.refLabel = y, label
	c.Refresh()
}

// HistorySeries turns a rating history into one series per entry, with
// the 95 % interval as its band. names are by entry index.
func HistorySeries(hist []event.HistoryPoint, names []string) []Series {
	var out []Series
	at := map[int]int{} // entry → series
	for _, hp := range hist {
		for _, er := range hp.Ratings {
			i, ok := at[er.Entry]
			if !ok {
				i = len(out)
				at[er.Entry] = i
				out = append(out, Series{Name: entryName(names, er.Entry), Band: true})
			}
			out[i].Points = append(out[i].Points, Point{X: float64(hp.Games), Y: er.Rating, Low: er.Low, High: er.High})
		}
	}
	return out
}

// entryName is names[e], or "#e" when names does not have it.
func entryName(names []string, e int) string {
	if e >= 0 && e < len(names) && names[e] != "" {
		return names[e]
	}
	return "#" + strconv.Itoa(e)
}

// CreateRenderer is part of fyne.Widget.
func (c *LineChart) CreateRenderer() fyne.WidgetRenderer {
	r := &lineRenderer{c: c, frame: newChartFrame(c.title, c.xLabel, c.yLabel)}
	r.band = canvas.NewRaster(r.drawBands)
	r.ref = canvas.NewLine(color.Transparent)
	r.ref.StrokeWidth = chartAxisW
	r.refText = paint.NewText("", theme.TextSize(), false)
	c.r = r
	r.update()
	return r
}

type lineRenderer struct {
	c       *LineChart
	frame   *chartFrame
	band    *canvas.Raster
	ref     *canvas.Line
	refText *canvas.Text
	// Pools, one entry per series (lines and markers per point).
	lines    [][]*canvas.Line
	markers  [][]*canvas.Circle
	swatches []*canvas.Line
	names    []*canvas.Text
	renderer
	// bands is what drawBands paints, set by Layout: per banded series
	// its colour and its points in plot units.
	bands []bandPath
}

type bandPath struct {
	colour       color.NRGBA
	x, low, high []float32
}

// update sets the ticks, pools, texts and colours from the data and the
// theme; Layout then only moves things.
func (r *lineRenderer) update() {
	c := r.c
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	blo, bhi := math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for _, p := range s.Points {
			xlo, xhi = min(xlo, p.X), max(xhi, p.X)
			ylo, yhi = min(ylo, p.Y), max(yhi, p.Y)
			if s.Band {
				blo, bhi = min(blo, p.Low), max(bhi, p.High)
			}
		}
	}
	hasRef := !math.IsNaN(c.refY)
	if hasRef && ylo <= yhi {
		ylo, yhi = min(ylo, c.refY), max(yhi, c.refY)
	}
	if ylo <= yhi && blo <= bhi {
		// Bands widen the range by at most a quarter of the lines' span
		// (or 50 when the lines are flat): the first games' intervals are
		// huge and would flatten every line. Bands are cut at the plot.
		room := max((yhi-ylo)/4, 50)
		ylo, yhi = max(min(ylo, blo), ylo-room), min(max(yhi, bhi), yhi+room)
	}
	if xlo > xhi {
		xlo, xhi, ylo, yhi = 0, 1, 0, 1
		if hasRef {
			ylo, yhi = c.refY-1, c.refY+1
		}
	}
	r.frame.setTicks(niceTicks(xlo, xhi, 8, 0), niceTicks(ylo, yhi, 6, 0))

	fg := theme.Color(theme.ColorNameForeground)
	r.frame.applyTheme()
	r.ref.StrokeColor = paint.WithAlpha(fg, 0x90)
	r.refText.Text, r.refText.Color, r.refText.TextSize = c.refLabel, fg, theme.TextSize()

	for len(r.lines) < len(c.series) {
		sw := canvas.NewLine(color.Transparent)
		sw.StrokeWidth = 4
		r.swatches = append(r.swatches, sw)
		r.names = append(r.names, paint.NewText("", theme.TextSize(), false))
		r.lines = append(r.lines, nil)
		r.markers = append(r.markers, nil)
	}
	for i := range r.lines {
		var s Series
		if i < len(c.series) {
			s = c.series[i]
		}
		col := r.colour(i)
		n := len(s.Points)
		for len(r.lines[i]) < n-1 {
			l := canvas.NewLine(col)
			l.StrokeWidth = chartLineW
			r.lines[i] = append(r.lines[i], l)
		}
		for _, l := range r.lines[i] {
			l.StrokeColor = col
		}
		want := 0
		if n <= lineMarkerMax {
			want = n
		}
		for len(r.markers[i]) < want {
			r.markers[i] = append(r.markers[i], canvas.NewCircle(col))
		}
		for _, m := range r.markers[i] {
			m.FillColor = col
		}
		r.swatches[i].StrokeColor = col
		r.names[i].Text, r.names[i].Color, r.names[i].TextSize = s.Name, fg, theme.TextSize()
	}
	r.collect()
}

// colour is series i's colour in the current theme.
func (r *lineRenderer) colour(i int) color.NRGBA {
	if i < len(r.c.series) && r.c.series[i].Colour != nil {
		return paint.NRGBA(r.c.series[i].Colour)
	}
	return seriesColour(i)
}

// collect lists the objects in drawing order: frame, bands, reference,
// lines, markers, legend.
func (r *lineRenderer) collect() {
	objs := append(r.frame.objects(), r.band, r.ref, r.refText)
	for i := range r.lines {
		for _, l := range r.lines[i] {
			objs = append(objs, l)
		}
	}
	for i := range r.markers {
		for _, m := range r.markers[i] {
			objs = append(objs, m)
		}
	}
	for i := range r.swatches {
		objs = append(objs, r.swatches[i], r.names[i])
	}
	r.objects = append(objs, r.frame.empty)
}

func (r *lineRenderer) Layout(size fyne.Size) {
	c := r.c
	f := r.frame
	top := f.layoutTop(size)
	top = r.layoutLegend(size, top)
	hasRef := !math.IsNaN(c.refY)
	var room float32
	if hasRef && c.refLabel != "" {
		room = r.refText.MinSize().Width + 2*chartGap
	}
	pos, ps := f.layout(size, top, room)
	xOf := func(v float64) float32 { return pos.X + ps.Width*f.x.frac(v) }
	yOf := func(v float64) float32 { return pos.Y + ps.Height*(1-f.y.frac(v)) }

	points := 0
	r.bands = r.bands[:0]
	for i := range r.lines {
		var pts []Point
		if i < len(c.series) {
			pts = c.series[i].Points
		}
		points += len(pts)
		for k, l := range r.lines[i] {
			if k+1 >= len(pts) {
				l.Hide()
				continue
			}
			l.Position1 = fyne.NewPos(xOf(pts[k].X), yOf(pts[k].Y))
			l.Position2 = fyne.NewPos(xOf(pts[k+1].X), yOf(pts[k+1].Y))
			l.Show()
		}
		for k, m := range r.markers[i] {
			if k >= len(pts) || len(pts) > lineMarkerMax {
				m.Hide()
				continue
			}
			paint.Place(m, xOf(pts[k].X)-lineMarkerD/2, yOf(pts[k].Y)-lineMarkerD/2, lineMarkerD, lineMarkerD)
			m.Show()
		}
		if i < len(c.series) && c.series[i].Band && len(pts) > 0 {
			b := bandPath{colour: r.colour(i)}
			for _, p := range pts {
				b.x = append(b.x, xOf(p.X)-pos.X)
				b.low = append(b.low, yOf(p.Low)-pos.Y)
				b.high = append(b.high, yOf(p.High)-pos.Y)
			}
			r.bands = append(r.bands, b)
		}
	}
	paint.Place(r.band, pos.X, pos.Y, ps.Width, ps.Height)
	paint.SetVisible(f.empty, points == 0)

	if hasRef {
		// The label goes right of the plot, where no data can cover it.
		y := yOf(c.refY)
		r.ref.Position1, r.ref.Position2 = fyne.NewPos(pos.X, y), fyne.NewPos(pos.X+ps.Width, y)
		s := r.refText.MinSize()
		paint.PlaceText(r.refText, pos.X+ps.Width+chartGap, y-s.Height/2)
		r.ref.Show()
		paint.SetVisible(r.refText, c.refLabel != "")
	} else {
		r.ref.Hide()
		r.refText.Hide()
	}
}

// layoutLegend flows the legend's items in rows from top and returns the
// y below them.
func (r *lineRenderer) layoutLegend(size fyne.Size, top float32) float32 {
	pad := chartPad()
	x, y := pad, top
	var rowH float32
	n := min(len(r.c.series), len(r.swatches))
	hideFrom(r.swatches, n)
	hideFrom(r.names, n)
	for i := range n {
		sw, t := r.swatches[i], r.names[i]
		t.Text = r.c.series[i].Name // a narrower layout may have cut it
		s := t.MinSize()
		// Long names are cut so one item never needs more than a row.
		maxW := max(size.Width-2*pad-lineSwatchW-chartGap, 20)
		if s.Width > maxW {
			t.Text = paint.ClipText(r.c.series[i].Name, t, maxW)
			s = t.MinSize()
		}
		w := lineSwatchW + chartGap + s.Width
		if x > pad && x+w > size.Width-pad {
			x, y = pad, y+rowH
		}
		rowH = max(rowH, s.Height)
		cy := y + s.Height/2
		sw.Position1, sw.Position2 = fyne.NewPos(x, cy), fyne.NewPos(x+lineSwatchW, cy)
		paint.PlaceText(t, x+lineSwatchW+chartGap, y)
		sw.Show()
		t.Show()
		x += w + 3*chartGap
	}
	if n == 0 {
		return top
	}
	return y + rowH + chartGap
}

// drawBands paints every band into an image of the plot's size in
// pixels: per pixel column, the span between the band's interpolated
// high and low, translucent, so overlapping bands stay visible.
func (r *lineRenderer) drawBands(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	ps := r.frame.plotSize
	if len(r.bands) == 0 || ps.Width <= 0 || ps.Height <= 0 {
		return img
	}
	sx, sy := float32(w)/ps.Width, float32(h)/ps.Height
	for _, b := range r.bands {
		src := b.colour
		src.A = lineBandAlpha
		n := len(b.x)
		if n == 1 {
			// A lone point gets a short bar, as wide as its marker.
			x0 := int((b.x[0] - lineMarkerD/2) * sx)
			for px := max(x0, 0); px < min(x0+int(lineMarkerD*sx), w); px++ {
				fillSpan(img, px, b.high[0]*sy, b.low[0]*sy, src)
			}
			continue
		}
		k := 0
		for px := max(int(b.x[0]*sx), 0); px < w; px++ {
			x := (float32(px) + 0.5) / sx
			if x > b.x[n-1] {
				break
			}
			for k+2 < n && x > b.x[k+1] {
				k++
			}
			t := float32(0)
			if d := b.x[k+1] - b.x[k]; d > 0 {
				t = (x - b.x[k]) / d
			}
			hi := b.high[k] + t*(b.high[k+1]-b.high[k])
			lo := b.low[k] + t*(b.low[k+1]-b.low[k])
			fillSpan(img, px, hi*sy, lo*sy, src)
		}
	}
	return img
}

// fillSpan blends c over the pixels of column x from y0 to y1.
func fillSpan(img *image.NRGBA, x int, y0, y1 float32, c color.NRGBA) {
	h := img.Rect.Dy()
	a := float32(c.A) / 255
	for y := max(int(y0), 0); y < min(int(math.Ceil(float64(y1))), h); y++ {
		i := img.PixOffset(x, y)
		p := img.Pix[i : i+4 : i+4]
		da := float32(p[3]) / 255
		oa := a + da*(1-a)
		if oa == 0 {
			continue
		}
		blend := func(s, d uint8) uint8 {
			return uint8((float32(s)*a + float32(d)*da*(1-a)) / oa)
		}
		p[0], p[1], p[2], p[3] = blend(c.R, p[0]), blend(c.G, p[1]), blend(c.B, p[2]), uint8(oa*255+0.5)
	}
}

func (r *lineRenderer) MinSize() fyne.Size { return minChartSize() }

// Refresh takes new data or a new theme: texts and colours are set, the
// objects moved, and everything redrawn.
func (r *lineRenderer) Refresh() {
	r.redraw(r.update, r.Layout, r.c.Size())
}
