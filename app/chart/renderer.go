package chart

import "fyne.io/fyne/v2"

// renderer is what the charts' renderers share: the canvas objects they
// draw and how they redraw them.
type renderer struct {
	objects []fyne.CanvasObject
}

// Objects implements fyne.WidgetRenderer.
func (r *renderer) Objects() []fyne.CanvasObject { return r.objects }

// Destroy implements fyne.WidgetRenderer.
func (r *renderer) Destroy() {}

// redraw takes new data or a new theme: update sets texts and colours,
// layout moves the objects for the widget's size, and all are redrawn.
func (r *renderer) redraw(update func(), layout func(fyne.Size), size fyne.Size) {
	update()
	layout(size)
	for _, o := range r.objects {
		o.Refresh()
	}
}

// hideFrom hides pool's objects from index n on. The renderers keep the
// objects that more data needed before, to reuse them, and hide those the
// data shown now leaves over.
func hideFrom[T fyne.CanvasObject](pool []T, n int) {
	for _, o := range pool[min(n, len(pool)):] {
		o.Hide()
	}
}
