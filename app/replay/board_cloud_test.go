package replay

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine/cloud"
)

// busyCloudStep is the step with the most hits.
func busyCloudStep(d *replayData) int {
	best, bestHits := 0, -1
	for i, st := range d.states {
		hits := 0
		for _, sh := range st.(*cloud.State).Shots() {
			if sh.Hit() {
				hits++
			}
		}
		if hits > bestHits {
			best, bestHits = i, hits
		}
	}
	return best
}

func TestCloudBoardDraws(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, cloud.New(), cloudLog(t))
	step := busyCloudStep(d)
	b, w := boardWindow(t, d, step, fyne.NewSize(700, 700))
	cb := b.(*cloudBoard)
	s := d.states[step].(*cloud.State)
	width, height := s.Size()
	if got := cb.pix.Bounds().Size(); got.X != width || got.Y != height {
		t.Fatalf("field image %v, want %d×%d", got, width, height)
	}
	floor, wall := cloudFloor.Light, cloudWall.Light
	if paint.DarkTheme() { // the test theme is dark
		floor, wall = cloudFloor.Dark, cloudWall.Dark
	}
	for y := range height {
		for x := range width {
			want := floor
			if s.IsWall(cloud.Point{X: x, Y: y}) {
				want = wall
			}
			if got := cb.pix.NRGBAAt(x, y); got != want {
				t.Fatalf("cell %d,%d: %v, want %v", x, y, got, want)
			}
		}
	}
	bots := s.Bots()
	for i, bi := range bots {
		body := cb.bots[i].body
		cx, cy := cb.centre(bi.Pos)
		if p := body.Position(); p.X+body.Size().Width/2-cx > 0.5 || p.Y+body.Size().Height/2-cy > 0.5 {
			t.Errorf("bot %s drawn at %v, want centre %v,%v", bi.ID, p, cx, cy)
		}
		alive := paint.NRGBA(body.FillColor).A == 0xff
		if alive != bi.Alive() {
			t.Errorf("bot %s: drawn opaque=%v, alive=%v", bi.ID, alive, bi.Alive())
		}
		full := 0
		for _, p := range cb.bots[i].pips {
			if p.Visible() && paint.NRGBA(p.FillColor) == pipFull {
				full++
			}
		}
		if bi.Alive() && full != bi.Health {
			t.Errorf("bot %s: %d full pips, health %d", bi.ID, full, bi.Health)
		}
	}
	shots := s.Shots()
	shown, rings := 0, 0
	for i, l := range cb.shots {
		if l.Visible() {
			shown++
		}
		if cb.targets[i].Visible() {
			rings++
		}
	}
	hits := 0
	for _, sh := range shots {
		if sh.Hit() {
			hits++
		}
	}
	if shown != len(shots) || rings != hits {
		t.Errorf("%d shot lines and %d hit rings, want %d and %d", shown, rings, len(shots), hits)
	}
	if hits == 0 {
		t.Error("the busiest step has no hit")
	}
	shot(t, w, "cloud_board")

	// Fog: choosing a player darkens exactly the cells it cannot see.
	cb.SetFog(1)
	seen := cb.visible(s, 1)
	dark := 0
	for y := range height {
		for x := range width {
			c := cb.pix.NRGBAAt(x, y)
			bright := c == floor || c == wall
			if bright != seen[y*width+x] {
				t.Fatalf("fog of seat 1, cell %d,%d: bright=%v, seen=%v", x, y, bright, seen[y*width+x])
			}
			if !bright {
				dark++
			}
		}
	}
	if dark == 0 {
		t.Error("seat 1 sees the whole field; the fog test proves nothing")
	}
	shot(t, w, "cloud_board_fog")
	cb.SetFog(-1)
	if c := cb.pix.NRGBAAt(0, 0); c != floor && c != wall {
		t.Errorf("after All the field is still fogged: %v", c)
	}
}

func TestCloudViewer(t *testing.T) {
	test.NewTempApp(t)
	v, w := newTestViewer(t, cloud.New(), cloudLog(t))
	v.Seek(busyCloudStep(v.data))
	shot(t, w, "cloud")
	test.ApplyTheme(t, paint.Variant(theme.VariantLight))
	shot(t, w, "cloud_light")
	test.ApplyTheme(t, test.Theme())
	cb := v.board.(*cloudBoard)
	cb.SetFog(0)
	shot(t, w, "cloud_fog")
	// Every seat is asked in every Cloud step.
	for seat, c := range v.panel.cards {
		if c.inputText == "" || c.copyBtn.Disabled() {
			t.Errorf("seat %d has no input to copy", seat)
		}
	}
	v.Play()
	waitFor(t, "playback", func() bool { return v.Step() != busyCloudStep(v.data) })
	v.Pause()
}
