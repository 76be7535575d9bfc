package app

import (
	"fmt"
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
)

// The standings table's columns, in order: indexes into standingsColumns,
// so that code names the column it means instead of counting.
const (
	colPlace = iota
	colName
	colGames
	colScore
	colPoints
	colResults // "Won / drawn / lost", or the count of each place
	colStrength
	colSurelyAhead
	colProblems
)

// standingsColumns are the standings table's columns and their widths, in
// the order of the col… constants. colResults is "Won / drawn / lost" for
// two-player games and the count of each place for more. The last,
// Problems, takes the width left over.
var standingsColumns = []column{
	colPlace: {"Place", 60}, colName: {"Name", 170}, colGames: {"Games", 64}, colScore: {"Score", 70},
	colPoints: {"Points", 66}, colResults: {"Won / drawn / lost", 140}, colStrength: {"Strength", 110},
	colSurelyAhead: {"Surely ahead", 100}, colProblems: {"Problems", 220},
}

// standingsDrop lists the columns a narrow window leaves out of the
// table, first to last, so that place, name, score, strength and problems
// stay in view on a 1024-pixel projector. What they say is never lost: a
// line under the table names them and shows them for the row selected.
var standingsDrop = []int{colPoints, colResults}

// problemsMin is the narrowest the Problems column gets before a column
// is dropped; its text is cut with "…" below its full width.
const problemsMin = 110

// revisionName matches an AI's revision as entries name it: "alice r3".
var revisionName = regexp.MustCompile(` r[0-9]+$`)

// standingsTable shows an event's standings; rows whose order the games do
// not establish yet are marked "=".
type standingsTable struct {
	table   *widget.Table
	note    *widget.Label
	cols    []int   // the columns shown, indexes into standingsColumns
	dropped []int   // the columns left out at this width (standingsDrop)
	width   float32 // the width cols were chosen for
	// detail shows the dropped columns of the row selected (sel), or
	// says that they are there to be seen.
	detail   *widget.Label
	sel      int // the row selected, -1 for none
	seats    int
	rows     []event.Standing
	problems map[int]service.Problems // by entry
	trusted  map[int]bool             // entries that ran without the sandbox
	obj      fyne.CanvasObject
}

func newStandingsTable() *standingsTable {
	s := &standingsTable{sel: -1}
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(s.rows), len(s.cols) },
		func() fyne.CanvasObject { return widget.NewLabel("standing") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			text, bold := "", false
			col := -1
			if id.Col < len(s.cols) {
				col = s.cols[id.Col]
			}
			if id.Row < len(s.rows) && col >= 0 {
				text = s.cell(id.Row, col)
				bold = col == colName && s.rows[id.Row].Rank == 1
			}
			align, trunc := fyne.TextAlignTrailing, fyne.TextTruncateOff
			switch col {
			case colName, colProblems:
				align, trunc = fyne.TextAlignLeading, fyne.TextTruncateEllipsis
			}
			// Live standings refresh often: touch a cell only when it
			// changes, and then with one refresh.
			if l.Text == text && l.TextStyle.Bold == bold && l.Alignment == align && l.Truncation == trunc {
				return
			}
			l.TextStyle = fyne.TextStyle{Bold: bold}
			l.Alignment, l.Truncation = align, trunc
			l.Text = text
			l.Refresh()
		})
	s.table.ShowHeaderColumn = false
	s.table.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabel("header")
		l.TextStyle = fyne.TextStyle{Bold: true}
		return l
	}
	s.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < len(s.cols) {
			o.(*widget.Label).SetText(s.title(s.cols[id.Col]))
		}
	}
	s.table.OnSelected = func(id widget.TableCellID) {
		s.sel = id.Row
		s.showDetail()
	}
	s.detail = widget.NewLabel("")
	s.detail.Wrapping = fyne.TextWrapWord
	s.detail.Importance = widget.HighImportance
	s.detail.Hide()
	s.fit(0)
	s.note = widget.NewLabel("")
	s.note.Wrapping = fyne.TextWrapWord
	s.obj = container.NewBorder(nil, container.NewVBox(s.detail, s.note), nil, nil, container.New(fitLayout{s.fit}, s.table))
	return s
}

// fit chooses the columns shown in a table width wide (0: all) and their
// widths: the columns of standingsDrop go first, and Problems takes the
// rest of the width.
func (s *standingsTable) fit(width float32) {
	if s.cols != nil && width == s.width {
		return
	}
	s.width = width
	dropped := map[int]bool{}
	need := func() float32 {
		w := float32(problemsMin)
		for i, c := range standingsColumns[:len(standingsColumns)-1] {
			if !dropped[i] {
				w += c.width
			}
		}
		return w
	}
	s.dropped = s.dropped[:0]
	for _, d := range standingsDrop {
		if width == 0 || need() <= width {
			break
		}
		dropped[d] = true
		s.dropped = append(s.dropped, d)
	}
	s.cols = s.cols[:0]
	used := float32(0)
	for i, c := range standingsColumns {
		if dropped[i] {
			continue
		}
		w := c.width
		if i == len(standingsColumns)-1 {
			w = max(problemsMin, width-used)
			if width == 0 {
				w = c.width
			}
		}
		s.table.SetColumnWidth(len(s.cols), w)
		s.cols = append(s.cols, i)
		used += w
	}
	s.showDetail()
	s.table.Refresh()
}

// showDetail shows the columns the width left out: for the row selected
// ("carol · Points 12 · 1st · 2nd · 3rd · 4th: 3 · 2 · 1 · 0"), else
// which they are and how to see them. Hidden when every column fits.
func (s *standingsTable) showDetail() {
	if len(s.dropped) == 0 {
		s.detail.Hide()
		return
	}
	var titles, values []string
	for _, c := range s.dropped {
		titles = append(titles, s.title(c))
		if s.sel >= 0 && s.sel < len(s.rows) {
			values = append(values, s.title(c)+": "+s.cell(s.sel, c))
		}
	}
	text := strings.Join(titles, " and ") + " do not fit this width: select a row to see them here."
	if values != nil {
		text = s.cell(s.sel, colName) + " · " + strings.Join(values, " · ")
	}
	if s.detail.Text != text {
		s.detail.SetText(text)
	}
	s.detail.Show()
}

// fitLayout gives its one object all the room and tells fit the width
// first, so a table can choose its columns for the width it gets.
type fitLayout struct{ fit func(width float32) }

// Layout implements fyne.Layout.
func (l fitLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	// The table's own scroll bar takes a sliver of the width.
	l.fit(size.Width - theme.ScrollBarSize())
	for _, o := range objects {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

// MinSize implements fyne.Layout.
func (fitLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	for _, o := range objects {
		size = size.Max(o.MinSize())
	}
	return size
}

func (s *standingsTable) object() fyne.CanvasObject { return s.obj }

// title is column col's header: the places of a game with more than two
// players instead of won, drawn and lost.
func (s *standingsTable) title(col int) string {
	if col == colResults && s.seats > 2 {
		return service.PlacesHeader(s.seats)
	}
	return standingsColumns[col].title
}

func (s *standingsTable) cell(row, col int) string {
	r := s.rows[row]
	switch col {
	case colPlace:
		return service.PlaceText(s.rows, row)
	case colName:
		if s.trusted[r.Entry] {
			return displayName(r.Name) + " (trusted)"
		}
		return displayName(r.Name)
	case colGames:
		return fmt.Sprint(r.Games)
	case colScore:
		if r.Games == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f %%", 100*r.Score)
	case colPoints:
		return service.Points(r.Points)
	case colResults:
		if r.Places != nil {
			return service.PlacesText(r.Places, " · ")
		}
		return fmt.Sprintf("%d / %d / %d", r.Wins, r.Draws, r.Losses)
	case colStrength:
		return service.RatingText(r)
	case colSurelyAhead:
		if r.LOS == 0 {
			return ""
		}
		return fmt.Sprintf("%.0f %%", 100*r.LOS)
	case colProblems:
		return service.ProblemsText(s.problems[r.Entry])
	}
	return ""
}

// set shows a new table of ev; the widget keeps its scroll position.
func (s *standingsTable) set(ev service.EventInfo, t event.Table, problems map[int]service.Problems) {
	s.rows, s.seats, s.problems = t.Rows, t.Seats, problems
	s.trusted = map[int]bool{}
	for _, e := range ev.Entries {
		if e.Trusted {
			s.trusted[e.Index] = true
		}
	}
	note := service.StandingsNote(t) + " Problems counts a bot's crashes, answers too late and answers the game could not take."
	if len(s.trusted) > 0 {
		note += " (trusted) marks a bot that ran without the sandbox, with the teacher's rights and files."
	}
	for _, r := range t.Rows {
		if revisionName.MatchString(r.Name) {
			note += " \"r3\" after a name is the revision that plays: its 3rd successful build."
			break
		}
	}
	s.note.SetText(note)
	s.showDetail()
	s.table.Refresh()
}
