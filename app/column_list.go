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
// selects the whole row. fill sets the labels' fields (Text, TextStyle,
// Importance) of row i, without refreshing them: a label is refreshed
// only when fill changed it, since each refresh shapes its text again.
// fill is only called for rows below length().
//
// refreshRow fills row i's labels again where it is on screen. A list's
// Refresh (and, in Fyne 2.7, its RefreshItem) sets up every visible row,
// which costs a text shaping per cell: with a class of thirty watched
// AIs, each build's two row updates redrew all thirty rows.
func newColumnList(cols []column, length func() int, fill func(i int, cells []*widget.Label)) (header fyne.CanvasObject, list *widget.List, refreshRow func(i int)) {
	widths := make(columnsLayout, len(cols))
	head := container.New(widths)
	for i, c := range cols {
		widths[i] = c.width
		head.Add(widget.NewLabelWithStyle(c.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	cells := make([]*widget.Label, len(cols))
	// shown maps each row object the list has filled to the row it shows
	// (objects back in the list's pool keep a stale row: filling them
	// again is harmless). Only the UI thread touches it.
	shown := map[*fyne.Container]int{}
	type look struct {
		text       string
		style      fyne.TextStyle
		importance widget.Importance
	}
	before := make([]look, len(cols))
	fillRow := func(i int, row *fyne.Container) {
		for c, cell := range row.Objects {
			l := cell.(*widget.Label)
			cells[c] = l
			before[c] = look{l.Text, l.TextStyle, l.Importance}
		}
		fill(i, cells)
		for c, l := range cells {
			if (look{l.Text, l.TextStyle, l.Importance}) != before[c] {
				l.Refresh()
			}
		}
	}
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
			row := o.(*fyne.Container)
			shown[row] = i
			fillRow(i, row)
		})
	refreshRow = func(i int) {
		if i < 0 || i >= length() {
			return
		}
		for row, at := range shown {
			if at == i {
				fillRow(i, row)
			}
		}
	}
	return head, list, refreshRow
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
