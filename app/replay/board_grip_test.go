package replay

import (
	"image/color"
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine"
	"ringside/engine/grip"
)

// interestingGripStep is two steps after the first fall of a real game:
// blocks scheduled, blocks fallen, a fallen player and a waiting one.
func interestingGripStep(t *testing.T, d *replayData) int {
	t.Helper()
	for _, e := range d.events {
		if e.Kind == engine.EventFall {
			return e.Step + 2
		}
	}
	t.Fatal("no fall in the Grip game")
	return 0
}

// boardWindow shows a fresh board of the replay at step in its own window.
func boardWindow(t *testing.T, d *replayData, step int, size fyne.Size) (board, fyne.Window) {
	t.Helper()
	b := newBoard(d.log.Game, d.log.Players)
	w := test.NewTempWindow(t, b.Object())
	w.SetPadded(false)
	w.Resize(size)
	b.Show(d.states[step], &d.steps[step])
	return b, w
}

func TestGripBoardGolden(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, grip.New(), gripLog(t))
	step := interestingGripStep(t, d)
	_, w := boardWindow(t, d, step, fyne.NewSize(520, 580))
	test.AssertRendersToMarkup(t, "grip_board.xml", w.Canvas())
	test.AssertImageMatches(t, "grip_board.png", w.Canvas().Capture())
}

func TestGripBoardDraws(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, grip.New(), gripLog(t))
	step := interestingGripStep(t, d)
	b, _ := boardWindow(t, d, step, fyne.NewSize(520, 580))
	g := b.(*gripBoard)
	s := d.states[step].(*grip.State)
	for r, row := range s.Blocks() {
		for c, v := range row {
			fill, _ := gripBlockColour(v, paint.DarkTheme()) // the test theme is dark
			if paint.NRGBA(g.blocks[r][c].FillColor) != paint.NRGBA(fill) {
				t.Errorf("block %d,%d (timer %d): fill %v, want %v", r, c, v, g.blocks[r][c].FillColor, fill)
			}
			want := ""
			if v != 0 {
				want = strconv.Itoa(v)
			}
			if g.timers[r][c].Text != want {
				t.Errorf("block %d,%d: text %q, want %q", r, c, g.timers[r][c].Text, want)
			}
		}
	}
	fallen := 0
	for i, p := range s.Players() {
		pc := g.pieces[i]
		cx, cy := g.squareCentre(p.Row, p.Col)
		pos, size := pc.body.Position(), pc.body.Size()
		if d := pos.X + size.Width/2 - cx; d > 0.5 || d < -0.5 {
			t.Errorf("player %d drawn at x %v, want %v", i, pos.X+size.Width/2, cx)
		}
		if d := pos.Y + size.Height/2 - cy; d > 0.5 || d < -0.5 {
			t.Errorf("player %d drawn at y %v, want %v", i, pos.Y+size.Height/2, cy)
		}
		if p.Fallen {
			fallen++
			if pc.note.Text != "fell t"+strconv.Itoa(p.FellAt) {
				t.Errorf("fallen player %d: note %q", i, pc.note.Text)
			}
		}
	}
	if fallen == 0 {
		t.Error("the interesting step has no fallen player")
	}
	// The same board in the dark theme keeps its objects and changes colours.
	objs := len(g.w.objects)
	test.ApplyTheme(t, paint.Variant(theme.VariantDark))
	if len(g.w.objects) != objs {
		t.Errorf("theme change rebuilt the board: %d objects, was %d", len(g.w.objects), objs)
	}
	if paint.NRGBA(g.frame.FillColor) != gripFrame.Dark {
		t.Errorf("dark theme: frame %v, want %v", g.frame.FillColor, gripFrame.Dark)
	}
}

func TestGripBlockColours(t *testing.T) {
	stable, _ := gripBlockColour(0, false)
	near, _ := gripBlockColour(1, false)
	far, _ := gripBlockColour(20, false)
	hole, _ := gripBlockColour(-19, false)
	restoring, _ := gripBlockColour(-2, false)
	seen := map[[4]uint8]string{}
	for name, c := range map[string]color.Color{"stable": stable, "near": near, "far": far, "hole": hole, "restoring": restoring} {
		n := paint.NRGBA(c)
		k := [4]uint8{n.R, n.G, n.B, n.A}
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share a colour", name, other)
		}
		seen[k] = name
	}
	// Warmer as the fall nears: more red, less green.
	prev := paint.NRGBA(far)
	for v := 12; v >= 1; v-- {
		c, _ := gripBlockColour(v, false)
		n := paint.NRGBA(c)
		if n.G > prev.G {
			t.Errorf("timer %d is less warm than timer %d", v, v+1)
		}
		prev = n
	}
}

// TestGripViewerShots renders the whole viewer at an interesting step in
// the test, dark and light themes (PNGs only with RINGSIDE_SHOTS=1).
func TestGripViewerShots(t *testing.T) {
	test.NewTempApp(t)
	v, w := newTestViewer(t, grip.New(), gripLog(t))
	v.Seek(interestingGripStep(t, v.data))
	shot(t, w, "grip")
	test.ApplyTheme(t, paint.Variant(theme.VariantDark))
	shot(t, w, "grip_dark")
	test.ApplyTheme(t, paint.Variant(theme.VariantLight))
	shot(t, w, "grip_light")
	if got := v.board.(*gripBoard).frame.FillColor; paint.NRGBA(got) != gripFrame.Light {
		t.Errorf("light theme: frame %v, want %v", got, gripFrame.Light)
	}
}

// TestGripCaptionFits: at every step, on a board as narrow as a branch's
// viewer gives it, the caption ("Turn 0 of 970 · hugo: crashed (the
// bot's output closed), does nothing") ends within the board instead of
// running over the seat panel and the viewer beside it.
func TestGripCaptionFits(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, grip.New(), gripLog(t))
	for _, width := range []float32{300, 420} {
		b, _ := boardWindow(t, d, 0, fyne.NewSize(width, 420))
		gb := b.(*gripBoard)
		for step := range d.steps {
			b.Show(d.states[step], &d.steps[step])
			if c := rectOf(gb.caption); c.x+c.w > width {
				t.Fatalf("width %v, step %d: caption %q ends at %v", width, step, gb.caption.Text, c.x+c.w)
			}
		}
	}
}
