package replay

import (
	"encoding/json"
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"

	"ringside/engine"
	"ringside/engine/battle2048"
	"ringside/engine/grip"
)

// TestFramesMatchTheViewer draws a step off screen from the replay file's
// JSON and the desktop viewer's own board at the same step: the pixels
// must be the same, and another step must differ.
func TestFramesMatchTheViewer(t *testing.T) {
	size := fyne.NewSize(480, 480)
	for _, tc := range []struct {
		name string
		game engine.Game
		log  func(testing.TB) *engine.Log
		step int
	}{
		{"grip", grip.New(), gripLog, 50},
		{"battle2048", battle2048.New(), battleLog, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := tc.log(t)
			rp, err := engine.Expand(tc.game, log)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(rp)
			if err != nil {
				t.Fatal(err)
			}
			f, err := NewFrames(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Steps() != len(log.Steps) {
				t.Fatalf("frames have %d steps, the log %d", f.Steps(), len(log.Steps))
			}
			got := f.Render(tc.step, size)
			other := f.Render(tc.step+5, size)

			v, _ := newTestViewer(t, tc.game, log)
			c := software.NewCanvas()
			c.SetPadded(false)
			v.mu.Lock()
			obj := v.board.Object()
			v.mu.Unlock()
			c.SetContent(obj)
			c.Resize(size)
			// The board sizes its texts from its last layout: show the
			// step once it is laid out at the frame's size.
			v.Seek(tc.step)
			want := c.Capture()

			if d := diffPixels(got, want); d != 0 {
				t.Errorf("step %d: %d pixels differ from the desktop viewer's board", tc.step, d)
			}
			if diffPixels(got, other) == 0 {
				t.Errorf("steps %d and %d draw the same frame", tc.step, tc.step+5)
			}
			if len(f.Markers()) == 0 && len(rp.Events) > 0 {
				t.Errorf("%d events but no markers", len(rp.Events))
			}
		})
	}
}

// diffPixels counts the pixels that differ between a and b (all of them
// when the sizes differ).
func diffPixels(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			if ar != br || ag != bg || ab != bb || aa != ba {
				n++
			}
		}
	}
	return n
}
