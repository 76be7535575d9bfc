package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// newFormScroll is a vertical scroll for a form of entries that the mouse
// wheel scrolls wherever the pointer is. Fyne gives a wheel event to the
// innermost scrollable under the pointer, and every entry holds a scroll
// of its own that does nothing with it: a form scrolled a step or two,
// until an entry came under the pointer, and stopped. A transparent
// catcher over the form takes the wheel for the form's scroll; taps,
// typing and hovering still reach the fields beneath.
func newFormScroll(content fyne.CanvasObject) (*container.Scroll, fyne.CanvasObject) {
	s := container.NewVScroll(content)
	c := &wheelCatcher{target: s}
	c.ExtendBaseWidget(c)
	return s, container.NewStack(s, c)
}

// wheelCatcher hands the mouse wheel to target.
type wheelCatcher struct {
	widget.BaseWidget
	target *container.Scroll
}

// Scrolled implements fyne.Scrollable.
func (c *wheelCatcher) Scrolled(ev *fyne.ScrollEvent) { c.target.Scrolled(ev) }

// CreateRenderer implements fyne.Widget: nothing to draw.
func (c *wheelCatcher) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}
