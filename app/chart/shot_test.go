package chart

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
)

// shotTolerance is how far (per channel, 0–255) a captured pixel may be
// from a colour the chart drew and still count as that colour: the
// software painter blends edges, but the inside of a bar, cell, marker or
// accent is the colour itself, give or take rounding.
const shotTolerance = 3

// shotMinPixels is how many pixels of a drawn colour a capture must hold:
// a marker of a line series is about 50, a bar or a cell thousands; a
// colour that was not drawn at all has none (a hue of the other theme's
// palette is never within shotTolerance of this one's).
const shotMinPixels = 20

// shotMarks are the colours a chart must show in the current theme, each
// in at least shotMinPixels pixels of its capture.
type shotMarks func() []color.NRGBA

// shotThemes renders w in the dark theme, then the light one, and checks
// each capture (checkShot); with RINGSIDE_SHOTS=1 it also writes them to
// /tmp/chart_NAME_{dark,light}.png so a person can look at a chart
// without a display.
func shotThemes(t *testing.T, w fyne.Window, name string, marks shotMarks) {
	t.Helper()
	for _, v := range []struct {
		name string
		th   fyne.Theme
		dark bool
	}{{"dark", paint.Variant(theme.VariantDark), true}, {"light", paint.Variant(theme.VariantLight), false}} {
		test.ApplyTheme(t, v.th)
		img := w.Canvas().Capture()
		checkShot(t, name+"_"+v.name, w, img, v.dark, marks())
		if os.Getenv("RINGSIDE_SHOTS") == "1" {
			writeShot(t, img, name+"_"+v.name)
		}
	}
}

// checkShot holds a capture to what a person looking at it would see: it
// is the window's size, its commonest colour (the background) is dark in
// the dark theme and light in the light one, the theme's text colour is
// there (titles, ticks, names), and so is every colour in marks.
func checkShot(t reporter, name string, w fyne.Window, img image.Image, dark bool, marks []color.NRGBA) {
	t.Helper()
	size := w.Canvas().Size()
	scale := w.Canvas().Scale()
	b := img.Bounds()
	if wantW, wantH := int(size.Width*scale), int(size.Height*scale); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s: capture of %d×%d pixels, want the window's %d×%d", name, b.Dx(), b.Dy(), wantW, wantH)
		return
	}
	counts := map[color.NRGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[paint.NRGBA(img.At(x, y))]++
		}
	}
	var bg color.NRGBA
	for c, n := range counts {
		if n > counts[bg] {
			bg = c
		}
	}
	if l := paint.Luminance(bg); dark != (l < 0.5) {
		t.Errorf("%s: background %v (luminance %.2f) in the %s theme", name, bg, l, map[bool]string{true: "dark", false: "light"}[dark])
	}
	if counts[bg] == b.Dx()*b.Dy() {
		t.Errorf("%s: the capture is all background %v: nothing was drawn", name, bg)
		return
	}
	want := append([]color.NRGBA{paint.NRGBA(theme.Color(theme.ColorNameForeground))}, marks...)
	for _, c := range want {
		if n := pixelsNear(counts, c); n < shotMinPixels {
			t.Errorf("%s: %d pixels of %v, want at least %d", name, n, c, shotMinPixels)
		}
	}
}

// reporter is what checkShot reports through: a *testing.T, or a
// recorder in the check's own test.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// recorder keeps what a check reported, so a test can want it to fail.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// pixelsNear counts the pixels within shotTolerance of c in every channel.
func pixelsNear(counts map[color.NRGBA]int, c color.NRGBA) int {
	near := func(a, b uint8) bool { return max(a, b)-min(a, b) <= shotTolerance }
	n := 0
	for p, k := range counts {
		if near(p.R, c.R) && near(p.G, c.G) && near(p.B, c.B) && p.A == 0xff {
			n += k
		}
	}
	return n
}

// writeShot writes img to /tmp/chart_NAME.png.
func writeShot(t *testing.T, img image.Image, name string) {
	t.Helper()
	f, err := os.Create("/tmp/chart_" + name + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// TestShotCheckFails is the check's own test: a blank window and a
// chart asked for a colour it does not draw must both fail it.
func TestShotCheckFails(t *testing.T) {
	test.NewTempApp(t)
	h := NewHistogram("Game length", "turns")
	h.SetData([]float64{0, 20, 40}, []int{3, 12})
	w := chartWindow(t, h, 400, 300)
	test.ApplyTheme(t, paint.Variant(theme.VariantDark))
	img := w.Canvas().Capture()
	for _, tc := range []struct {
		name  string
		img   image.Image
		dark  bool
		marks []color.NRGBA
	}{
		{"blank", image.NewNRGBA(img.Bounds()), true, nil},
		{"wrong theme", img, false, nil},
		{"colour not drawn", img, true, []color.NRGBA{{0x12, 0xfe, 0x34, 0xff}}},
		{"wrong size", image.NewNRGBA(image.Rect(0, 0, 10, 10)), true, nil},
	} {
		var r recorder
		checkShot(&r, tc.name, w, tc.img, tc.dark, tc.marks)
		if len(r.errs) == 0 {
			t.Errorf("%s: the check passed, want it to fail", tc.name)
		}
	}
	var r recorder
	checkShot(&r, "histogram", w, img, true, []color.NRGBA{seriesColour(0)})
	if len(r.errs) > 0 {
		t.Errorf("the dark histogram with its bar colour failed the check: %v", r.errs)
	}
}
