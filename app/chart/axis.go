package chart

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
)

// This file holds what the charts share: "nice" axis ticks, the series
// palette, and the frame of a chart with x and y axes (title, axis
// titles, tick labels, grid), drawn with canvas primitives.

// Chart geometry, in Fyne units. Every drawn line is at least 2 wide so it
// survives a projector.
const (
	chartLineW   = 2.5 // data lines
	chartAxisW   = 2   // axes, ticks and grid
	chartTickLen = 5
	chartGap     = 6 // between a label and what it labels
)

// seriesLight and seriesDark are the series colours for light and dark
// themes: the same hue order (based on Okabe–Ito, which stays apart for
// colour-blind viewers), each shade chosen for a contrast of at least 3:1
// with the theme's background and to stay apart from the others (see
// TestSeriesPaletteContrast). Past seven series, telling lines apart
// leans on the legend order as much as on colour.
var (
	seriesLight = []color.NRGBA{
		{0x00, 0x72, 0xb2, 0xff}, // blue
		{0xd5, 0x5e, 0x00, 0xff}, // vermillion
		{0x00, 0x9e, 0x73, 0xff}, // bluish green
		{0xaa, 0x33, 0x77, 0xff}, // purple-pink
		{0xa6, 0x76, 0x1d, 0xff}, // ochre
		{0x75, 0x70, 0xb3, 0xff}, // violet
		{0x66, 0x66, 0x66, 0xff}, // grey
		{0xd6, 0x27, 0x28, 0xff}, // red
		{0x33, 0x22, 0x88, 0xff}, // indigo
		{0x11, 0x77, 0x33, 0xff}, // dark green
	}
	seriesDark = []color.NRGBA{
		{0x56, 0xb4, 0xe9, 0xff}, // sky blue
		{0xe6, 0x7e, 0x22, 0xff}, // orange
		{0x00, 0xb3, 0x84, 0xff}, // bluish green
		{0xe3, 0x77, 0xc2, 0xff}, // pink
		{0xf0, 0xe4, 0x42, 0xff}, // yellow
		{0xa9, 0x9b, 0xe6, 0xff}, // lavender
		{0xd9, 0xd9, 0xd9, 0xff}, // light grey
		{0xf1, 0x58, 0x54, 0xff}, // coral
		{0x9a, 0xcd, 0x32, 0xff}, // yellow-green
		{0xde, 0xb8, 0x87, 0xff}, // tan
	}
)

// seriesColour is the colour of the i-th series in the current theme;
// colours repeat after the palette's ten.
func seriesColour(i int) color.NRGBA {
	p := seriesLight
	if paint.DarkTheme() {
		p = seriesDark
	}
	return p[((i%len(p))+len(p))%len(p)]
}

// contrast is the WCAG contrast ratio of two opaque colours, 1 to 21.
func contrastRatio(a, b color.Color) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// relLuminance is the WCAG relative luminance (linear light) of c.
func relLuminance(c color.Color) float64 {
	n := paint.NRGBA(c)
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
}

// axisTicks is an axis's range and its tick values, which are multiples
// of step. The range starts and ends on a tick.
type axisTicks struct {
	lo, hi, step float64
	values       []float64
}

// niceStep is the smallest 1, 2 or 5 times a power of ten that is at
// least x (x > 0).
func niceStep(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5} {
		// The tolerance keeps 0.3/3 from becoming 0.2.
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceTicks spreads at most target+1 ticks (target ≥ 2) with a 1-2-5 step over a range
// that covers lo..hi, widening an empty range around its value. minStep
// (0 for none) keeps steps from getting finer, e.g. 1 for counts.
func niceTicks(lo, hi float64, target int, minStep float64) axisTicks {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = 0, 1
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		d := math.Max(math.Abs(lo)*0.1, 1)
		if minStep > 0 {
			d = math.Max(d, minStep)
		}
		lo, hi = lo-d, hi+d
	}
	// One interval cannot cover a range around 0 with a tick at 0.
	target = max(target, 2)
	step := math.Max(niceStep((hi-lo)/float64(target)), minStep)
	for {
		first, last := math.Floor(lo/step+1e-9), math.Ceil(hi/step-1e-9)
		if int(last-first) <= target {
			t := axisTicks{lo: first * step, hi: last * step, step: step}
			for k := first; k <= last; k++ {
				// k·step rather than a running sum: no drift, and -0
				// becomes 0.
				t.values = append(t.values, k*step+0)
			}
			return t
		}
		// The range straddles more step boundaries than the ratio said.
		step = niceStep(step * 1.5)
	}
}

// frac is where v lies on the axis, 0 at lo and 1 at hi.
func (a axisTicks) frac(v float64) float32 {
	if a.hi == a.lo {
		return 0.5
	}
	return float32((v - a.lo) / (a.hi - a.lo))
}

// tickLabel writes v with as many decimals as step needs, a real minus
// sign, and k or M for large round values.
func tickLabel(v, step float64) string {
	if math.Abs(v) < step*1e-6 {
		v = 0
	}
	var s string
	switch {
	case math.Abs(v) >= 1e6 && step >= 1e5:
		s = trimZeros(strconv.FormatFloat(v/1e6, 'f', tickDecimals(step/1e6), 64)) + "M"
	case math.Abs(v) >= 1e4 && step >= 1e3:
		s = trimZeros(strconv.FormatFloat(v/1e3, 'f', tickDecimals(step/1e3), 64)) + "k"
	default:
		s = strconv.FormatFloat(v, 'f', tickDecimals(step), 64)
	}
	return strings.Replace(noMinusZero(s), "-", "−", 1)
}

// noMinusZero drops the sign of a number written as zero: a value that
// rounds to nothing is 0, never "-0" or "-0.0".
func noMinusZero(s string) string {
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.kM") == "" {
		return s[1:]
	}
	return s
}

// decimals is how many digits after the point a multiple of step needs.
func tickDecimals(step float64) int {
	if step <= 0 || step >= 1 {
		return 0
	}
	return min(int(math.Ceil(-math.Log10(step)-1e-9)), 10)
}

// trimZeros drops trailing zeros after a decimal point (2.50 → 2.5).
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// chartFrame is the part of a chart around its plot: the title, both axes
// with tick labels and grid lines, and the axis titles. The y title sits
// above the y axis, since canvas text cannot be turned on its side.
// Tick objects are pooled: new data reuses them.
type chartFrame struct {
	titleText             string // the title before clipping to the width
	title, xTitle, yTitle *canvas.Text
	xAxis, yAxis          *canvas.Line
	x, y                  axisTicks
	xLabels, yLabels      []*canvas.Text
	xMarks                []*canvas.Line
	grid                  []*canvas.Line
	// empty is shown in the middle of the plot when there is no data.
	empty *canvas.Text
	// plot is the data area of the last layout, in the chart's units.
	plot     fyne.Position
	plotSize fyne.Size
}

func newChartFrame(title, xTitle, yTitle string) *chartFrame {
	f := &chartFrame{
		titleText: title,
		title:     paint.NewText(title, theme.TextSubHeadingSize(), true),
		xTitle:    paint.NewText(xTitle, theme.TextSize(), true),
		yTitle:    paint.NewText(yTitle, theme.TextSize(), true),
		xAxis:     canvas.NewLine(color.Transparent),
		yAxis:     canvas.NewLine(color.Transparent),
		empty:     paint.NewText("No data yet", theme.TextSize(), false),
	}
	f.xAxis.StrokeWidth, f.yAxis.StrokeWidth = chartAxisW, chartAxisW
	f.setTicks(niceTicks(0, 1, 5, 0), niceTicks(0, 1, 5, 0))
	return f
}

// setTicks sets both axes' ticks, growing the pools of labels and lines
// as needed and hiding what is left over.
func (f *chartFrame) setTicks(x, y axisTicks) {
	f.x, f.y = x, y
	for len(f.xLabels) < len(x.values) {
		f.xLabels = append(f.xLabels, paint.NewText("", theme.TextSize(), false))
		m := canvas.NewLine(color.Transparent)
		m.StrokeWidth = chartAxisW
		f.xMarks = append(f.xMarks, m)
	}
	for len(f.yLabels) < len(y.values) {
		f.yLabels = append(f.yLabels, paint.NewText("", theme.TextSize(), false))
		g := canvas.NewLine(color.Transparent)
		g.StrokeWidth = chartAxisW
		f.grid = append(f.grid, g)
	}
	for i, t := range f.xLabels {
		if i < len(x.values) {
			t.Text = tickLabel(x.values[i], x.step)
		}
		t.Alignment = fyne.TextAlignCenter
	}
	for i, t := range f.yLabels {
		if i < len(y.values) {
			t.Text = tickLabel(y.values[i], y.step)
		}
		t.Alignment = fyne.TextAlignTrailing
	}
}

// objects lists the frame's objects in drawing order: grid first, so data
// drawn after it covers it.
func (f *chartFrame) objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{f.title, f.xTitle, f.yTitle}
	for _, g := range f.grid {
		objs = append(objs, g)
	}
	for _, m := range f.xMarks {
		objs = append(objs, m)
	}
	for _, t := range f.xLabels {
		objs = append(objs, t)
	}
	for _, t := range f.yLabels {
		objs = append(objs, t)
	}
	return append(objs, f.xAxis, f.yAxis)
}

// applyTheme takes colours and text sizes from the current theme.
func (f *chartFrame) applyTheme() {
	fg := theme.Color(theme.ColorNameForeground)
	grid := paint.WithAlpha(fg, 0x24)
	for _, t := range []*canvas.Text{f.title, f.xTitle, f.yTitle, f.empty} {
		t.Color = fg
		t.TextSize = theme.TextSize()
	}
	f.title.TextSize = theme.TextSubHeadingSize()
	f.empty.Color = paint.WithAlpha(fg, 0xb0)
	for _, ts := range [][]*canvas.Text{f.xLabels, f.yLabels} {
		for _, t := range ts {
			t.Color = fg
			t.TextSize = theme.TextSize()
		}
	}
	f.xAxis.StrokeColor, f.yAxis.StrokeColor = fg, fg
	for _, m := range f.xMarks {
		m.StrokeColor = fg
	}
	for _, g := range f.grid {
		g.StrokeColor = grid
	}
}

// chartPad is the space around a chart's contents.
func chartPad() float32 { return 2 * theme.Padding() }

// layoutTop places the title and returns the y below it.
func (f *chartFrame) layoutTop(size fyne.Size) float32 {
	pad := chartPad()
	f.title.Text = f.titleText
	if f.title.MinSize().Width > size.Width-2*pad {
		f.title.Text = paint.ClipText(f.titleText, f.title, max(size.Width-2*pad, 10))
	}
	paint.PlaceText(f.title, pad, pad)
	return pad + f.title.MinSize().Height + chartGap
}

// layout places the axes, ticks, grid and axis titles in the area from
// top down, and returns the plot area it leaves for the data. rightRoom
// is kept free right of the plot (for labels at the end of lines).
func (f *chartFrame) layout(size fyne.Size, top, rightRoom float32) (fyne.Position, fyne.Size) {
	pad := chartPad()
	labelH := f.yTitle.MinSize().Height
	paint.PlaceText(f.yTitle, pad, top)
	top += labelH + chartGap

	var yw float32
	for i := range f.y.values {
		yw = max(yw, f.yLabels[i].MinSize().Width)
	}
	var lastW float32
	if n := len(f.x.values); n > 0 {
		lastW = f.xLabels[n-1].MinSize().Width
	}
	left := pad + yw + chartGap + chartTickLen
	// Half a label height above the plot, so the top tick label is whole.
	plotTop := top + labelH/2
	bottom := size.Height - pad - labelH - chartGap - labelH - chartTickLen
	right := size.Width - pad - max(lastW/2, rightRoom)
	pw, ph := max(right-left, 10), max(bottom-plotTop, 10)
	f.plot, f.plotSize = fyne.NewPos(left, plotTop), fyne.NewSize(pw, ph)

	f.yAxis.Position1, f.yAxis.Position2 = fyne.NewPos(left, plotTop), fyne.NewPos(left, plotTop+ph+chartAxisW/2)
	f.xAxis.Position1, f.xAxis.Position2 = fyne.NewPos(left-chartAxisW/2, plotTop+ph), fyne.NewPos(left+pw, plotTop+ph)

	// Every k-th label, so labels never touch: on the y axis by height,
	// on the x axis by the widest label.
	ny := len(f.y.values)
	yStride := strideFor(ph, ny, labelH*1.2)
	hideFrom(f.yLabels, ny)
	hideFrom(f.grid, ny)
	for i := range ny {
		t, g := f.yLabels[i], f.grid[i]
		y := plotTop + ph*(1-f.y.frac(f.y.values[i]))
		g.Position1, g.Position2 = fyne.NewPos(left, y), fyne.NewPos(left+pw, y)
		paint.SetVisible(g, i > 0 || f.y.values[i] != f.y.lo)
		s := t.MinSize()
		paint.Place(t, left-chartTickLen-chartGap-s.Width, y-s.Height/2, s.Width, s.Height)
		paint.SetVisible(t, i%yStride == 0)
	}
	nx := len(f.x.values)
	var xw float32
	for i := range nx {
		xw = max(xw, f.xLabels[i].MinSize().Width)
	}
	xStride := strideFor(pw, nx, xw+2*chartGap)
	ly := plotTop + ph + chartTickLen + 2
	hideFrom(f.xLabels, nx)
	hideFrom(f.xMarks, nx)
	for i := range nx {
		t, m := f.xLabels[i], f.xMarks[i]
		x := left + pw*f.x.frac(f.x.values[i])
		shown := i%xStride == 0
		m.Position1, m.Position2 = fyne.NewPos(x, plotTop+ph), fyne.NewPos(x, plotTop+ph+chartTickLen)
		paint.SetVisible(m, shown)
		s := t.MinSize()
		paint.Place(t, x-s.Width/2, ly, s.Width, s.Height)
		paint.SetVisible(t, shown)
	}
	xs := f.xTitle.MinSize()
	paint.PlaceText(f.xTitle, left+(pw-xs.Width)/2, size.Height-pad-xs.Height)
	es := f.empty.MinSize()
	paint.PlaceText(f.empty, left+(pw-es.Width)/2, plotTop+(ph-es.Height)/2)
	return f.plot, f.plotSize
}

// strideFor is the smallest k such that every k-th of n evenly spread
// labels, each needing room, fits in length.
func strideFor(length float32, n int, room float32) int {
	if n <= 1 || room <= 0 {
		return 1
	}
	gap := length / float32(n-1)
	k := 1
	for float32(k)*gap < room && k < n {
		k++
	}
	return k
}

// minChartSize is the smallest useful chart: room for a few ticks.
func minChartSize() fyne.Size {
	return fyne.NewSize(20*theme.TextSize(), 14*theme.TextSize())
}
