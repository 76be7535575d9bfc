package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// column is one column of a columnList: its title and width.
type column struct {
	title string
	width float32
}

// newColumnList makes a list whose rows are one label per column, under a
// header of the columns' titles. A list rather than a table: a click
// selects the whole row. fill sets the labels of row i; it is only called
// for rows below length().
func newColumnList(cols []column, length func() int, fill func(i int, cells []*widget.Label)) (header fyne.CanvasObject, list *widget.List) {
	widths := make(columnsLayout, len(cols))
	head := container.New(widths)
	for i, c := range cols {
		widths[i] = c.width
		head.Add(widget.NewLabelWithStyle(c.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	cells := make([]*widget.Label, len(cols))
	list = widget.NewList(length,
		func() fyne.CanvasObject {
			row := container.New(widths)
			for range cols {
				l := newLineLabel("cell text")
				row.Add(l)
			}
			return row
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= length() {
				return
			}
			for c, cell := range o.(*fyne.Container).Objects {
				cells[c] = cell.(*widget.Label)
			}
			fill(i, cells)
		})
	return head, list
}

// columnsLayout puts objects side by side at the given widths; the last
// one takes what is left.
type columnsLayout []float32

// Layout implements fyne.Layout.
func (l columnsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objects {
		w := float32(0)
		if i < len(l) {
			w = l[i]
		}
		if i == len(objects)-1 {
			w = max(size.Width-x, w/2)
		}
		o.Resize(fyne.NewSize(w, size.Height))
		o.Move(fyne.NewPos(x, 0))
		x += w
	}
}

// MinSize implements fyne.Layout.
func (l columnsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	for i, o := range objects {
		size.Height = max(size.Height, o.MinSize().Height)
		if i < len(l) {
			size.Width += l[i]
		}
	}
	if n := len(objects); n > 0 && n <= len(l) {
		size.Width -= l[n-1] / 2
	}
	return size
}
