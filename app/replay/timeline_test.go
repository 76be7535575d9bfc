package replay

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"ringside/engine"
	"ringside/engine/grip"
)

func TestTimelineSeeks(t *testing.T) {
	test.NewTempApp(t)
	log := gripLog(t)
	v, w := newTestViewer(t, grip.New(), log)
	tl := v.timeline
	width := tl.Size().Width
	if width < 500 {
		t.Fatalf("timeline is only %v wide", width)
	}
	n := v.Steps()
	// Tapping the track seeks to the step under the pointer.
	for _, step := range []int{0, n / 3, n / 2, n - 1} {
		test.TapAt(tl, fyne.NewPos(tl.xOf(step, width), tlTrackH/2))
		if v.Step() != step {
			t.Errorf("tap at step %d's x: viewer at %d", step, v.Step())
		}
	}
	// Dragging seeks as the pointer moves.
	for _, step := range []int{n / 4, n / 5, n - 2} {
		tl.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tl.xOf(step, width), 4)}, Dragged: fyne.NewDelta(3, 0)})
		if v.Step() != step {
			t.Errorf("drag to step %d: viewer at %d", step, v.Step())
		}
	}
	tl.DragEnd()
	// test.Drag goes through the canvas to the timeline.
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(tl)
	test.Drag(w.Canvas(), pos.Add(fyne.NewPos(tl.xOf(n/3, width), tlTrackH/2)), 40, 0)
	if v.Step() != n/3 {
		t.Errorf("test.Drag from step %d: viewer at %d", n/3, v.Step())
	}
	// Tapping a few units beside a marker snaps to its event's step.
	if len(tl.marks) == 0 {
		t.Fatal("a Grip game with falls has no markers")
	}
	for _, m := range tl.marks {
		v.Seek(0)
		x := tl.xOf(m.step, width)
		test.TapAt(tl, fyne.NewPos(x+tlMarkHit-1, tlTrackH/2))
		if i := tl.markAt(x+tlMarkHit-1, tlTrackH/2, width); tl.marks[i].step != m.step {
			continue // another marker is nearer there
		}
		if v.Step() != m.step {
			t.Errorf("tap beside the %s marker of step %d: viewer at %d", m.kind, m.step, v.Step())
		}
	}
	// Hovering a marker shows its text; leaving clears it.
	m := tl.marks[0]
	tl.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tl.xOf(m.step, width), tlTrackH/2)}})
	if !strings.Contains(tl.hover, m.text) {
		t.Errorf("hover text %q, want it to contain %q", tl.hover, m.text)
	}
	tl.MouseOut()
	if tl.hover != "" {
		t.Errorf("hover text %q after MouseOut", tl.hover)
	}
}

func TestTimelineMarkers(t *testing.T) {
	test.NewTempApp(t)
	events := []engine.Event{
		{Step: 3, Kind: engine.EventFall, Text: "a fell"},
		{Step: 3, Kind: engine.EventFall, Text: "b fell"},
		{Step: 3, Kind: engine.EventInvalid, Text: "c: bad"},
		{Step: 9, Kind: engine.EventEnd, Text: "d wins"},
		{Step: 40, Kind: engine.EventKill, Text: "out of range"},
		{Step: 5, Kind: "custom", Text: "something"},
	}
	var sought []int
	tl := newTimeline(10, nil, events, func(s int) { sought = append(sought, s) })
	if len(tl.marks) != 4 {
		t.Fatalf("%d markers, want 4 (one per step and kind, none out of range): %+v", len(tl.marks), tl.marks)
	}
	if last := tl.marks[len(tl.marks)-1]; last.kind != engine.EventEnd {
		t.Errorf("end marker is not drawn last: %+v", tl.marks)
	}
	for _, m := range tl.marks {
		if m.step == 3 && m.kind == engine.EventFall && m.text != "a fell; b fell" {
			t.Errorf("two falls at one step: text %q", m.text)
		}
	}
	var legend []string
	for _, k := range tl.kinds {
		legend = append(legend, fmt.Sprintf("%s:%d", k.kind, k.n))
	}
	if got := strings.Join(legend, " "); got != "fall:2 invalid:1 end:1 custom:1" {
		t.Errorf("legend %q", got)
	}
	w := test.NewTempWindow(t, tl)
	w.Resize(fyne.NewSize(400, 80))
	test.AssertRendersToMarkup(t, "timeline.xml", w.Canvas())
	// The hit area of a marker is at least 8 units wide.
	width := tl.Size().Width
	x := tl.xOf(9, width)
	for _, dx := range []float32{-4, 4} {
		if i := tl.markAt(x+dx, tlTrackH/2, width); i < 0 || tl.marks[i].step != 9 {
			t.Errorf("tap %v from the end marker misses it", dx)
		}
	}
	if len(sought) != 0 {
		t.Errorf("OnSeek called without a tap: %v", sought)
	}
	tl.Tapped(&fyne.PointEvent{Position: fyne.NewPos(x+3, 10)})
	if fmt.Sprint(sought) != "[9]" {
		t.Errorf("sought %v, want [9]", sought)
	}
}
