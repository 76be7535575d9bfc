package replay

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/engine"
)

// timeline is a replay's scrubber: a track over all steps with a
// draggable thumb at the current step and a marker per step and kind of
// timeline event. Tapping the track seeks there, tapping near a marker
// seeks to its event's step exactly, dragging seeks as the pointer moves.
// Hovering a marker shows its events' texts beside the legend.
type timeline struct {
	widget.BaseWidget

	// OnSeek is called with the step the user chose.
	OnSeek func(step int)

	steps int
	turns []int // the game's turn of each step, for the hover text
	value int
	marks []timelineMark
	kinds []kindCount
	hover string
	r     *timelineRenderer
}

// timelineMark is every event of one kind at one step, or, in a long
// replay, in a group of neighbouring steps.
type timelineMark struct {
	step int // the first step with such an event: where a tap seeks
	at   int // the step the marker is drawn at: a group's middle
	last int // the last step with such an event in the group
	kind string
	text string
	n    int // events in the marker
	// frac of the band's height the marker fills: every marker of a
	// single step fills it; a group's marker grows with its count, so a
	// long game's timeline reads as where things happen most.
	frac float32
	// slot of slots: markers of several kinds at one step share the
	// marker's height, stacked, so none hides another.
	slot, slots int
}

type kindCount struct {
	kind string
	n    int
}

// Timeline geometry, in Fyne units. A marker is drawn markW wide but
// answers taps within markHit of its centre on either side, so the hit
// area is 12 wide: big enough to hit on a projector with a touchpad.
const (
	tlPad     = 12 // the thumb's radius: steps 0 and last keep it whole
	tlTrackH  = 34 // the row of the track, markers and thumb
	tlBarH    = 8
	tlMarkW   = 4
	tlMarkH   = 26
	tlMarkHit = 6
	tlThumb   = 22
	tlLegendH = 22
)

// maxMarks is the most steps a timeline gives markers of their own; a
// replay with events in more steps groups its steps so it has at most
// maxMarks groups, well apart even on a projector's 1024 pixels.
const maxMarks = 60

// maxMarkTexts is the most event texts a grouped marker's hover shows.
const maxMarkTexts = 3

// eventColours give each event kind its colour (Okabe–Ito based, readable
// on light and dark backgrounds). The end marker takes the theme's
// foreground instead, so it is always the most contrasting.
var eventColours = map[string]color.NRGBA{
	engine.EventFall:    {0x00, 0x72, 0xb2, 0xff}, // blue
	engine.EventKill:    {0xd5, 0x5e, 0x00, 0xff}, // vermillion
	engine.EventTimeout: {0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	engine.EventInvalid: {0xe6, 0x9f, 0x00, 0xff}, // orange
	engine.EventCrash:   {0xd6, 0x27, 0x28, 0xff}, // red
	"attack":            {0x56, 0xb4, 0xe9, 0xff}, // sky blue (Battle 2048)
	"stuck":             {0x8c, 0x56, 0x4b, 0xff}, // brown (Battle 2048)
	"respawn":           {0x00, 0x9e, 0x73, 0xff}, // bluish green (Cloud)
	EventBranch:         {0x6a, 0x3d, 0x9a, 0xff}, // purple
}

// EventBranch marks, on the timelines of a branched game and its
// original, where the branch starts and where the two games part.
const EventBranch = "branch"

// eventOrder is the legend's order; other kinds follow by name.
var eventOrder = []string{engine.EventFall, engine.EventKill, engine.EventTimeout, engine.EventInvalid,
	engine.EventCrash, engine.EventEnd, "attack", "stuck", "respawn", EventBranch}

// eventColour is kind's marker colour.
func eventColour(kind string) color.Color {
	if kind == engine.EventEnd {
		return theme.Color(theme.ColorNameForeground)
	}
	if c, ok := eventColours[kind]; ok {
		return c
	}
	return color.NRGBA{0x99, 0x99, 0x99, 0xff}
}

// newTimeline makes a timeline over steps steps. turns gives the game's
// turn for each step (may be nil); events are placed by their Step.
func newTimeline(steps int, turns []int, events []engine.Event, onSeek func(step int)) *timeline {
	t := &timeline{OnSeek: onSeek}
	t.compute(steps, turns, events)
	t.ExtendBaseWidget(t)
	return t
}

// setData changes what the timeline shows, as a live game grows.
func (t *timeline) setData(steps int, turns []int, events []engine.Event) {
	t.compute(steps, turns, events)
	t.value = max(0, min(t.value, steps-1))
	if t.r != nil {
		t.r.makeMarks()
		t.r.Refresh()
	}
}

// compute works out the markers and the legend.
func (t *timeline) compute(steps int, turns []int, events []engine.Event) {
	t.steps, t.turns, t.marks, t.kinds = steps, turns, nil, nil
	// A marker per step would make a 300-turn Cloud game, with kills and
	// respawns in most turns, one solid wall: when more than maxMarks
	// steps have events, the events of each run of group steps share one
	// marker per kind.
	group := 1
	busy := map[int]bool{}
	for _, e := range events {
		busy[e.Step] = true
	}
	if len(busy) > maxMarks {
		group = (steps + maxMarks - 1) / maxMarks
	}
	type key struct {
		bin  int
		kind string
	}
	byKey := map[key]int{}
	counts := map[string]int{}
	for _, e := range events {
		if e.Step < 0 || e.Step >= steps {
			continue
		}
		counts[e.Kind]++
		k := key{e.Step / group, e.Kind}
		if i, ok := byKey[k]; ok {
			m := &t.marks[i]
			m.n++
			m.step, m.last = min(m.step, e.Step), max(m.last, e.Step)
			switch {
			case m.n <= maxMarkTexts:
				m.text += "; " + e.Text
			case m.n == maxMarkTexts+1:
				m.text += "; …"
			}
			continue
		}
		byKey[k] = len(t.marks)
		at := e.Step
		if group > 1 {
			// Groups are drawn evenly spaced, wherever their events fall.
			at = min(e.Step/group*group+group/2, steps-1)
		}
		t.marks = append(t.marks, timelineMark{step: e.Step, at: at, last: e.Step, kind: e.Kind, text: e.Text, n: 1})
	}
	perBin := map[int]int{}
	most := map[string]int{}
	for i := range t.marks {
		m := &t.marks[i]
		m.slot = perBin[m.step/group]
		perBin[m.step/group]++
		most[m.kind] = max(most[m.kind], m.n)
	}
	for i := range t.marks {
		m := &t.marks[i]
		m.slots = perBin[m.step/group]
		m.frac = 1
		if group > 1 {
			m.frac = 0.35 + 0.65*float32(m.n)/float32(most[m.kind])
		}
	}
	// End markers are drawn last, so a neighbour never covers them.
	sort.SliceStable(t.marks, func(i, j int) bool {
		return t.marks[i].kind != engine.EventEnd && t.marks[j].kind == engine.EventEnd
	})
	for _, k := range eventOrder {
		if counts[k] > 0 {
			t.kinds = append(t.kinds, kindCount{k, counts[k]})
			delete(counts, k)
		}
	}
	var rest []string
	for k := range counts {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		t.kinds = append(t.kinds, kindCount{k, counts[k]})
	}
}

// Value is the step the thumb is at.
func (t *timeline) Value() int { return t.value }

// SetValue moves the thumb to step without calling OnSeek. It only moves
// the thumb and the progress bar, so playback redraws little.
func (t *timeline) SetValue(step int) {
	step = max(0, min(step, t.steps-1))
	if step == t.value {
		return
	}
	t.value = step
	if t.r != nil {
		t.r.placeThumb(t.Size())
		t.r.thumb.Refresh()
		t.r.done.Refresh()
	}
}

// xOf is the x coordinate of step on a timeline of width w.
func (t *timeline) xOf(step int, w float32) float32 {
	if t.steps <= 1 {
		return tlPad
	}
	return tlPad + (w-2*tlPad)*float32(step)/float32(t.steps-1)
}

// stepAt is the step nearest x.
func (t *timeline) stepAt(x, w float32) int {
	if t.steps <= 1 || w <= 2*tlPad {
		return 0
	}
	f := (x - tlPad) / (w - 2*tlPad) * float32(t.steps-1)
	return max(0, min(int(math.Round(float64(f))), t.steps-1))
}

// markAt returns the index of the marker whose hit area holds (x, y),
// the nearest when several do, or -1. Stacked markers of one step are
// told apart by y.
func (t *timeline) markAt(x, y, w float32) int {
	best, bestD := -1, float32(tlMarkHit)+0.01
	for i, m := range t.marks {
		d := t.xOf(m.at, w) - x
		if d < 0 {
			d = -d
		}
		if d < bestD || (d == bestD && best >= 0 && t.marks[best].at == m.at && m.inBand(y)) {
			best, bestD = i, d
		}
	}
	return best
}

// band is the vertical extent of the marker within the track row.
func (m timelineMark) band() (top, height float32) {
	h := float32(tlMarkH) / float32(max(1, m.slots))
	return (tlTrackH-tlMarkH)/2 + float32(m.slot)*h, h
}

func (m timelineMark) inBand(y float32) bool {
	top, h := m.band()
	return y >= top && y < top+h
}

func (t *timeline) seek(step int) {
	if t.steps == 0 {
		return
	}
	t.SetValue(step)
	if t.OnSeek != nil {
		t.OnSeek(step)
	}
}

// Tapped seeks to the marker under the pointer, or to the step there.
func (t *timeline) Tapped(ev *fyne.PointEvent) {
	w := t.Size().Width
	if i := t.markAt(ev.Position.X, ev.Position.Y, w); i >= 0 && ev.Position.Y <= tlTrackH {
		t.seek(t.marks[i].step)
		return
	}
	t.seek(t.stepAt(ev.Position.X, w))
}

// Dragged seeks to the step under the pointer.
func (t *timeline) Dragged(ev *fyne.DragEvent) {
	t.seek(t.stepAt(ev.Position.X, t.Size().Width))
}

// DragEnd is part of fyne.Draggable; a drag has already seeked.
func (t *timeline) DragEnd() {}

// MouseIn is part of desktop.Hoverable.
func (t *timeline) MouseIn(ev *desktop.MouseEvent) { t.MouseMoved(ev) }

// MouseMoved shows the texts of the marker under the pointer.
func (t *timeline) MouseMoved(ev *desktop.MouseEvent) {
	text := ""
	if i := t.markAt(ev.Position.X, ev.Position.Y, t.Size().Width); i >= 0 && ev.Position.Y <= tlTrackH {
		text = t.describe(t.marks[i])
	}
	t.setHover(text)
}

// MouseOut clears the hover text.
func (t *timeline) MouseOut() { t.setHover("") }

// Cursor is a pointer over the timeline.
func (t *timeline) Cursor() desktop.Cursor { return desktop.PointerCursor }

// describe is a marker's hover text. Its turn and step are counted as the
// viewer's counter counts them ("turn 40 / 367 · step 41 / 370"), so the
// marker and the counter name the same step.
func (t *timeline) describe(m timelineMark) string {
	where := fmt.Sprintf("step %d", m.step+1)
	if m.last > m.step {
		where = fmt.Sprintf("steps %d–%d", m.step+1, m.last+1)
	}
	if m.last < len(t.turns) {
		if a, b := t.turns[m.step], t.turns[m.last]; a == b {
			where = fmt.Sprintf("turn %d, %s", a, where)
		} else {
			where = fmt.Sprintf("turns %d–%d, %s", a, b, where)
		}
	}
	kind := m.kind
	if m.n > 1 {
		kind = fmt.Sprintf("%s ×%d", m.kind, m.n)
	}
	return fmt.Sprintf("%s · %s: %s", where, kind, m.text)
}

func (t *timeline) setHover(s string) {
	if s == t.hover {
		return
	}
	t.hover = s
	if t.r != nil {
		t.r.placeHover(t.Size())
	}
}

// CreateRenderer is part of fyne.Widget.
func (t *timeline) CreateRenderer() fyne.WidgetRenderer {
	r := &timelineRenderer{t: t}
	r.track = canvas.NewRectangle(color.Transparent)
	r.track.CornerRadius = tlBarH / 2
	r.done = canvas.NewRectangle(color.Transparent)
	r.done.CornerRadius = tlBarH / 2
	r.thumb = canvas.NewCircle(color.Transparent)
	r.thumb.StrokeWidth = 3
	r.hover = paint.NewText("", 13, true)
	r.makeMarks()
	r.applyTheme()
	t.r = r
	return r
}

// makeMarks makes the canvas objects of the markers and the legend.
func (r *timelineRenderer) makeMarks() {
	t := r.t
	r.marks, r.swatches, r.labels = nil, nil, nil
	r.objects = []fyne.CanvasObject{r.track, r.done}
	for _, m := range t.marks {
		rect := canvas.NewRectangle(eventColour(m.kind))
		rect.CornerRadius = 1
		r.marks = append(r.marks, rect)
		r.objects = append(r.objects, rect)
	}
	r.objects = append(r.objects, r.thumb)
	for _, k := range t.kinds {
		sw := canvas.NewRectangle(eventColour(k.kind))
		sw.CornerRadius = 2
		txt := paint.NewText(fmt.Sprintf("%s ×%d", k.kind, k.n), 13, false)
		r.swatches = append(r.swatches, sw)
		r.labels = append(r.labels, txt)
		r.objects = append(r.objects, sw, txt)
	}
	r.objects = append(r.objects, r.hover)
}

type timelineRenderer struct {
	t        *timeline
	track    *canvas.Rectangle
	done     *canvas.Rectangle
	marks    []*canvas.Rectangle
	thumb    *canvas.Circle
	swatches []*canvas.Rectangle
	labels   []*canvas.Text
	hover    *canvas.Text
	objects  []fyne.CanvasObject
	// legendEnd is where the legend row ends, for the hover text.
	legendEnd float32
}

func (r *timelineRenderer) applyTheme() {
	fg := theme.Color(theme.ColorNameForeground)
	// Neutral greys for the track, so every marker colour shows on both
	// the played and the unplayed part.
	r.track.FillColor = paint.WithAlpha(fg, 0x38)
	r.done.FillColor = paint.WithAlpha(fg, 0x90)
	r.thumb.FillColor = theme.Color(theme.ColorNamePrimary)
	r.thumb.StrokeColor = fg
	for i, m := range r.t.marks {
		r.marks[i].FillColor = eventColour(m.kind)
	}
	for i, k := range r.t.kinds {
		r.swatches[i].FillColor = eventColour(k.kind)
		r.labels[i].Color = fg
	}
	r.hover.Color = fg
}

func (r *timelineRenderer) Layout(size fyne.Size) {
	cy := float32(tlTrackH) / 2
	paint.Place(r.track, tlPad, cy-tlBarH/2, max(0, size.Width-2*tlPad), tlBarH)
	for i, m := range r.t.marks {
		x := r.t.xOf(m.at, size.Width)
		top, h := m.band()
		grown := h * m.frac
		paint.Place(r.marks[i], x-tlMarkW/2, top+h-grown, tlMarkW, grown)
	}
	r.placeThumb(size)
	x := float32(tlPad)
	ly := float32(tlTrackH) + 3
	for i := range r.swatches {
		paint.Place(r.swatches[i], x, ly+4, 12, 12)
		paint.PlaceText(r.labels[i], x+16, ly)
		x += 16 + r.labels[i].MinSize().Width + 14
	}
	r.legendEnd = x
	r.placeHover(size)
}

func (r *timelineRenderer) placeThumb(size fyne.Size) {
	cy := float32(tlTrackH) / 2
	x := r.t.xOf(r.t.value, size.Width)
	if r.t.steps == 0 {
		x = tlPad
	}
	paint.Place(r.done, tlPad, cy-tlBarH/2, max(0, x-tlPad), tlBarH)
	paint.Place(r.thumb, x-tlThumb/2, cy-tlThumb/2, tlThumb, tlThumb)
}

// placeHover puts the hover text after the legend, or right-aligned when
// it does not fit there.
func (r *timelineRenderer) placeHover(size fyne.Size) {
	r.hover.Text = r.t.hover
	ly := float32(tlTrackH) + 3
	s := r.hover.MinSize()
	x := max(r.legendEnd, size.Width-tlPad-s.Width)
	if x+s.Width > size.Width-tlPad {
		// Too long for the row: cut it so it stays readable.
		x = r.legendEnd
		r.hover.Text = paint.ClipText(r.t.hover, r.hover, size.Width-tlPad-x)
		s = r.hover.MinSize()
	}
	paint.PlaceText(r.hover, x, ly)
	r.hover.Refresh()
}

func (r *timelineRenderer) MinSize() fyne.Size {
	return fyne.NewSize(2*tlPad+120, tlTrackH+tlLegendH+4)
}

func (r *timelineRenderer) Refresh() {
	r.applyTheme()
	r.Layout(r.t.Size())
	for _, o := range r.objects {
		o.Refresh()
	}
}

func (r *timelineRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *timelineRenderer) Destroy()                     {}
