// Package paint holds the small canvas helpers that the drawing widgets
// (app/chart, app/replay) and the screens of app share: colour arithmetic,
// the theme's lightness, and placing, showing and clipping canvas objects.
// It knows nothing of games, events or storage.
package paint

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// NRGBA converts any colour to non-premultiplied RGBA; nil is transparent.
func NRGBA(c color.Color) color.NRGBA {
	if c == nil {
		return color.NRGBA{}
	}
	if n, ok := c.(color.NRGBA); ok {
		return n
	}
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}

// Mix blends a toward b by t (0..1).
func Mix(a, b color.Color, t float64) color.NRGBA {
	x, y := NRGBA(a), NRGBA(b)
	f := func(p, q uint8) uint8 { return uint8(float64(p) + (float64(q)-float64(p))*t + 0.5) }
	return color.NRGBA{f(x.R, y.R), f(x.G, y.G), f(x.B, y.B), f(x.A, y.A)}
}

// WithAlpha returns c with alpha a.
func WithAlpha(c color.Color, a uint8) color.NRGBA {
	n := NRGBA(c)
	n.A = a
	return n
}

// Luminance is the relative luminance of c, 0 (black) to 1 (white).
func Luminance(c color.Color) float64 {
	n := NRGBA(c)
	return (0.2126*float64(n.R) + 0.7152*float64(n.G) + 0.0722*float64(n.B)) / 255
}

// DarkTheme reports whether the current theme draws light on dark.
func DarkTheme() bool { return Luminance(theme.Color(theme.ColorNameBackground)) < 0.5 }

// Variant is Fyne's default theme held to one variant (theme.VariantLight
// or theme.VariantDark) whatever the user prefers: what the widgets' tests
// and screenshots apply to draw both. It replaces theme.LightTheme and
// theme.DarkTheme, which Fyne deprecated in favour of such a theme.
func Variant(v fyne.ThemeVariant) fyne.Theme { return variantTheme{theme.DefaultTheme(), v} }

type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// Shade is a colour as it is drawn on a light theme and on a dark one.
type Shade struct{ Light, Dark color.NRGBA }

// On is the shade's colour on a dark theme (dark) or a light one.
func (s Shade) On(dark bool) color.NRGBA {
	if dark {
		return s.Dark
	}
	return s.Light
}

// SetVisible shows or hides o when that changes.
func SetVisible(o fyne.CanvasObject, v bool) {
	if o.Visible() == v {
		return
	}
	if v {
		o.Show()
	} else {
		o.Hide()
	}
}

// Place moves and resizes o.
func Place(o fyne.CanvasObject, x, y, w, h float32) {
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, h))
}

// NewText is a canvas text in the theme's foreground colour.
func NewText(s string, size float32, bold bool) *canvas.Text {
	t := canvas.NewText(s, theme.Color(theme.ColorNameForeground))
	t.TextSize = size
	t.TextStyle.Bold = bold
	return t
}

// PlaceText sizes t to its text at the top left (x, y); the text renders
// within its box.
func PlaceText(t *canvas.Text, x, y float32) {
	t.Move(fyne.NewPos(x, y))
	t.Resize(t.MinSize())
}

// ClipText shortens s with an ellipsis until it fits width in t's style.
func ClipText(s string, t *canvas.Text, width float32) string {
	runes := []rune(s)
	cand := s
	for n := len(runes); n > 1; n = n * 9 / 10 {
		if n < len(runes) {
			cand = strings.TrimSpace(string(runes[:n])) + "…"
		}
		if fyne.MeasureText(cand, t.TextSize, t.TextStyle).Width <= width {
			return cand
		}
	}
	return cand
}
