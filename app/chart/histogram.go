package chart

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
)

// Histogram draws counts in bins as bars over a value axis, with the
// count above each bar when it fits: game lengths, score distributions.
// Bin the values with event.Bin or event.BinInts. Call its methods on
// the UI goroutine (fyne.Do from elsewhere).
type Histogram struct {
	widget.BaseWidget

	title, xLabel, yLabel string
	edges                 []float64
	counts                []int
	r                     *histRenderer
}

// histBarGap is the background left between neighbouring bars.
const histBarGap = 2

// NewHistogram makes an empty histogram; its y axis is titled "games"
// until SetYLabel says otherwise.
func NewHistogram(title, xLabel string) *Histogram {
	h := &Histogram{title: title, xLabel: xLabel, yLabel: "games"}
	h.ExtendBaseWidget(h)
	return h
}

// SetYLabel sets the y axis title.
func (h *Histogram) SetYLabel(s string) {
	h.yLabel = s
	if h.r != nil {
		h.r.frame.yTitle.Text = s
	}
	h.Refresh()
}

// SetData replaces the bins: counts[i] values fell in edges[i] up to
// edges[i+1], so edges has one more element than counts (otherwise the
// histogram shows no data). The histogram keeps the slices.
func (h *Histogram) SetData(edges []float64, counts []int) {
	if len(edges) != len(counts)+1 {
		edges, counts = nil, nil
	}
	h.edges, h.counts = edges, counts
	h.Refresh()
}

// CreateRenderer is part of fyne.Widget.
func (h *Histogram) CreateRenderer() fyne.WidgetRenderer {
	r := &histRenderer{h: h, frame: newChartFrame(h.title, h.xLabel, h.yLabel)}
	h.r = r
	r.update()
	return r
}

type histRenderer struct {
	h      *Histogram
	frame  *chartFrame
	bars   []*canvas.Rectangle
	labels []*canvas.Text
	renderer
}

// update sets ticks, bars and labels from the data and the theme.
func (r *histRenderer) update() {
	h := r.h
	top := 0
	for _, c := range h.counts {
		top = max(top, c)
	}
	x := niceTicks(0, 1, 8, 0)
	if len(h.edges) > 1 {
		x = niceTicks(h.edges[0], h.edges[len(h.edges)-1], 8, 0)
	}
	// Counts are whole: never a tick at 2.5 games. A tenth more room
	// keeps the tallest bar's count below the y title.
	r.frame.setTicks(x, niceTicks(0, float64(max(top, 1))*1.1, 5, 1))
	r.frame.applyTheme()
	for len(r.bars) < len(h.counts) {
		r.bars = append(r.bars, canvas.NewRectangle(nil))
		t := paint.NewText("", theme.TextSize(), false)
		t.Alignment = fyne.TextAlignCenter
		r.labels = append(r.labels, t)
	}
	fill := seriesColour(0)
	fg := theme.Color(theme.ColorNameForeground)
	for i, b := range r.bars {
		b.FillColor = fill
		t := r.labels[i]
		t.Color, t.TextSize = fg, theme.TextSize()
		if i < len(h.counts) {
			t.Text = strconv.Itoa(h.counts[i])
		}
	}
	objs := r.frame.objects()
	for i := range r.bars {
		objs = append(objs, r.bars[i], r.labels[i])
	}
	r.objects = append(objs, r.frame.empty)
}

func (r *histRenderer) Layout(size fyne.Size) {
	h := r.h
	f := r.frame
	top := f.layoutTop(size)
	pos, ps := f.layout(size, top, 0)
	n := len(h.counts)
	paint.SetVisible(f.empty, n == 0)
	// Counts go above the bars only when every one fits its bar's width,
	// so either all bars are labelled or none.
	show := true
	for i := range n {
		x0 := ps.Width * f.x.frac(h.edges[i])
		x1 := ps.Width * f.x.frac(h.edges[i+1])
		if r.labels[i].MinSize().Width > x1-x0-histBarGap {
			show = false
			break
		}
	}
	hideFrom(r.bars, n)
	hideFrom(r.labels, n)
	for i := range n {
		b, t := r.bars[i], r.labels[i]
		x0 := pos.X + ps.Width*f.x.frac(h.edges[i])
		x1 := pos.X + ps.Width*f.x.frac(h.edges[i+1])
		y := pos.Y + ps.Height*(1-f.y.frac(float64(h.counts[i])))
		// Bars start just above the axis line, so it stays whole.
		paint.Place(b, x0+histBarGap/2, y, max(x1-x0-histBarGap, 1), pos.Y+ps.Height-chartAxisW/2-y)
		paint.SetVisible(b, h.counts[i] > 0)
		s := t.MinSize()
		paint.Place(t, (x0+x1-s.Width)/2, y-s.Height, s.Width, s.Height)
		paint.SetVisible(t, show && h.counts[i] > 0)
	}
}

func (r *histRenderer) MinSize() fyne.Size { return minChartSize() }

// Refresh takes new data or a new theme.
func (r *histRenderer) Refresh() {
	r.redraw(r.update, r.Layout, r.h.Size())
}
