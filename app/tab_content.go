package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tabContent holds one screen in the window's tabs. Fyne's AppTabs
// refreshes every tab's content each time a tab is selected (to apply the
// theme again), and a screen's refresh measures all of its text: each
// switch re-measured all five screens. tabContent passes a refresh on to
// its screen when the screen comes into view, as a switch did before, and
// when the theme has changed; a hidden screen, or one in view all along,
// refreshes what it changes itself.
type tabContent struct {
	widget.BaseWidget
	screen fyne.CanvasObject
	drawn  themeMark
	inView bool // visible at the last refresh
}

// themeMark is what a theme change alters: the variant, and the theme's
// colours and text size as the screens use them.
type themeMark struct {
	variant    fyne.ThemeVariant
	background [4]uint32
	foreground [4]uint32
	text       float32
}

func newTabContent(screen fyne.CanvasObject) *tabContent {
	t := &tabContent{screen: screen}
	t.ExtendBaseWidget(t)
	return t
}

func currentThemeMark(o fyne.CanvasObject) themeMark {
	th := theme.CurrentForWidget(o)
	v := fyne.CurrentApp().Settings().ThemeVariant()
	return themeMark{variant: v, background: rgba(th.Color(theme.ColorNameBackground, v)),
		foreground: rgba(th.Color(theme.ColorNameForeground, v)), text: th.Size(theme.SizeNameText)}
}

func rgba(c color.Color) [4]uint32 {
	r, g, b, a := c.RGBA()
	return [4]uint32{r, g, b, a}
}

// CreateRenderer implements fyne.Widget.
func (t *tabContent) CreateRenderer() fyne.WidgetRenderer {
	t.drawn = currentThemeMark(t)
	// The screen was just built: nothing in it is stale. Without this,
	// the tabs' first theme pass refreshed (measured) all six screens,
	// a fifth of the window's cost to open.
	t.inView = t.Visible()
	return &tabContentRenderer{t: t}
}

// Hide implements fyne.CanvasObject: a hidden screen is out of view, so
// it is refreshed when it comes back (Show refreshes it).
func (t *tabContent) Hide() {
	t.inView = false
	t.BaseWidget.Hide()
}

type tabContentRenderer struct{ t *tabContent }

func (r *tabContentRenderer) Layout(size fyne.Size) {
	r.t.screen.Move(fyne.NewPos(0, 0))
	r.t.screen.Resize(size)
}

func (r *tabContentRenderer) MinSize() fyne.Size { return r.t.screen.MinSize() }

func (r *tabContentRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.screen} }

func (r *tabContentRenderer) Destroy() {}

func (r *tabContentRenderer) Refresh() {
	mark, visible := currentThemeMark(r.t), r.t.Visible()
	comesIntoView := visible && !r.t.inView
	r.t.inView = visible
	if mark == r.t.drawn && !comesIntoView {
		return
	}
	r.t.drawn = mark
	r.t.screen.Refresh()
}
