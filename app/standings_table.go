package app

import (
	"fmt"
	"regexp"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
	"ringside/storage"
)

// standingsColumns are the standings table's columns and their widths,
// narrow enough for a 1024-pixel screen. Column 5 is "Won / drawn / lost"
// for two-player games and the count of each place for more.
var standingsColumns = []column{
	{"Place", 60}, {"Name", 170}, {"Games", 64}, {"Score", 70}, {"Points", 66}, {"Won / drawn / lost", 140},
	{"Strength", 110}, {"Surely ahead", 100}, {"Problems", 220},
}

// revisionName matches an AI's revision as entries name it: "alice r3".
var revisionName = regexp.MustCompile(` r[0-9]+$`)

// standingsTable shows an event's standings; rows whose order the games do
// not establish yet are marked "=".
type standingsTable struct {
	table    *widget.Table
	note     *widget.Label
	seats    int
	rows     []event.Standing
	problems map[int]storage.Problems // by entry
	trusted  map[int]bool             // entries that ran without the sandbox
	obj      fyne.CanvasObject
}

func newStandingsTable() *standingsTable {
	s := &standingsTable{}
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(s.rows), len(standingsColumns) },
		func() fyne.CanvasObject { return widget.NewLabel("standing") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			text, bold := "", false
			if id.Row < len(s.rows) {
				text = s.cell(id.Row, id.Col)
				bold = id.Col == 1 && s.rows[id.Row].Rank == 1
			}
			align, trunc := fyne.TextAlignTrailing, fyne.TextTruncateOff
			if id.Col == 1 {
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
		if id.Col >= 0 && id.Col < len(standingsColumns) {
			o.(*widget.Label).SetText(s.title(id.Col))
		}
	}
	for i, c := range standingsColumns {
		s.table.SetColumnWidth(i, c.width)
	}
	s.note = widget.NewLabel("")
	s.note.Wrapping = fyne.TextWrapWord
	s.obj = container.NewBorder(nil, s.note, nil, nil, s.table)
	return s
}

func (s *standingsTable) object() fyne.CanvasObject { return s.obj }

// title is column col's header: the places of a game with more than two
// players instead of won, drawn and lost.
func (s *standingsTable) title(col int) string {
	if col == 5 && s.seats > 2 {
		return service.PlacesHeader(s.seats)
	}
	return standingsColumns[col].title
}

func (s *standingsTable) cell(row, col int) string {
	r := s.rows[row]
	switch col {
	case 0:
		return service.RankText(s.rows, row)
	case 1:
		if s.trusted[r.Entry] {
			return displayName(r.Name) + " (trusted)"
		}
		return displayName(r.Name)
	case 2:
		return fmt.Sprint(r.Games)
	case 3:
		if r.Games == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f %%", 100*r.Score)
	case 4:
		return service.Points(r.Points)
	case 5:
		if r.Places != nil {
			return service.PlacesText(r.Places, " · ")
		}
		return fmt.Sprintf("%d / %d / %d", r.Wins, r.Draws, r.Losses)
	case 6:
		return service.RatingText(r)
	case 7:
		if r.LOS == 0 {
			return ""
		}
		return fmt.Sprintf("%.0f %%", 100*r.LOS)
	case 8:
		return service.ProblemsText(s.problems[r.Entry])
	}
	return ""
}

// set shows a new table of ev; the widget keeps its scroll position.
func (s *standingsTable) set(ev storage.Event, t event.Table, problems map[int]storage.Problems) {
	s.rows, s.seats, s.problems = t.Rows, t.Seats, problems
	s.trusted = map[int]bool{}
	for _, e := range ev.Entries {
		if service.EntryTrusted(ev, e) {
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
	s.table.Refresh()
}
