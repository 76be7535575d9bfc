package paint

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

func TestColours(t *testing.T) {
	red, blue := color.NRGBA{0xff, 0, 0, 0xff}, color.NRGBA{0, 0, 0xff, 0xff}
	for _, tc := range []struct {
		name string
		got  color.NRGBA
		want color.NRGBA
	}{
		{"nil is transparent", NRGBA(nil), color.NRGBA{}},
		{"premultiplied half white", NRGBA(color.RGBA{0x80, 0x80, 0x80, 0x80}), color.NRGBA{0xff, 0xff, 0xff, 0x80}},
		{"mix at 0", Mix(red, blue, 0), red},
		{"mix at 1", Mix(red, blue, 1), blue},
		{"mix halfway", Mix(red, blue, 0.5), color.NRGBA{0x80, 0, 0x80, 0xff}},
		{"with alpha", WithAlpha(red, 0x40), color.NRGBA{0xff, 0, 0, 0x40}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if l := Luminance(color.White); l < 0.999 || l > 1.001 {
		t.Errorf("luminance of white = %v, want 1", l)
	}
	if l := Luminance(color.Black); l != 0 {
		t.Errorf("luminance of black = %v, want 0", l)
	}
}

func TestClipText(t *testing.T) {
	test.NewTempApp(t)
	txt := canvas.NewText("", color.Black)
	txt.TextSize = 14
	long := "minimax-depth-4-with-alpha-beta-pruning"
	full := fyne.MeasureText(long, txt.TextSize, txt.TextStyle).Width
	if got := ClipText(long, txt, full+1); got != long {
		t.Errorf("text that fits was clipped to %q", got)
	}
	for _, width := range []float32{full / 2, full / 5} {
		got := ClipText(long, txt, width)
		if !strings.HasSuffix(got, "…") || len([]rune(got)) >= len([]rune(long)) {
			t.Errorf("width %v: %q is not a clipped %q", width, got, long)
		}
		if w := fyne.MeasureText(got, txt.TextSize, txt.TextStyle).Width; w > width {
			t.Errorf("width %v: %q is %v wide", width, got, w)
		}
	}
}

func TestPlaceAndSetVisible(t *testing.T) {
	test.NewTempApp(t)
	r := canvas.NewRectangle(color.Black)
	Place(r, 3, 4, 50, 60)
	if r.Position() != fyne.NewPos(3, 4) || r.Size() != fyne.NewSize(50, 60) {
		t.Errorf("placed at %v size %v", r.Position(), r.Size())
	}
	SetVisible(r, false)
	if r.Visible() {
		t.Error("still visible after SetVisible(false)")
	}
	SetVisible(r, true)
	if !r.Visible() {
		t.Error("hidden after SetVisible(true)")
	}
	txt := NewText("hello", 14, true)
	PlaceText(txt, 7, 8)
	if txt.Position() != fyne.NewPos(7, 8) || txt.Size() != txt.MinSize() || !txt.TextStyle.Bold {
		t.Errorf("text at %v size %v (min %v) bold %v", txt.Position(), txt.Size(), txt.MinSize(), txt.TextStyle.Bold)
	}
}

func TestShadeOn(t *testing.T) {
	s := Shade{Light: color.NRGBA{1, 2, 3, 255}, Dark: color.NRGBA{4, 5, 6, 255}}
	if s.On(false) != s.Light || s.On(true) != s.Dark {
		t.Errorf("On(false) = %v, On(true) = %v; want %v and %v", s.On(false), s.On(true), s.Light, s.Dark)
	}
}

// TestVariant: each variant theme draws its own palette whatever the
// variant Fyne asks for, and DarkTheme tells them apart once applied.
func TestVariant(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		name    string
		variant fyne.ThemeVariant
		dark    bool
	}{{"light", theme.VariantLight, false}, {"dark", theme.VariantDark, true}} {
		t.Run(tc.name, func(t *testing.T) {
			th := Variant(tc.variant)
			other := theme.VariantDark
			if tc.dark {
				other = theme.VariantLight
			}
			bg := th.Color(theme.ColorNameBackground, other)
			if (Luminance(bg) < 0.5) != tc.dark {
				t.Errorf("background %v asked in the other variant: luminance %.2f, want dark %v", bg, Luminance(bg), tc.dark)
			}
			test.ApplyTheme(t, th)
			if DarkTheme() != tc.dark {
				t.Errorf("DarkTheme() = %v with the %s theme applied", DarkTheme(), tc.name)
			}
		})
	}
}
