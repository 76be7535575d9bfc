package app

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"ringside/app/class"
	"ringside/app/service"
)

// classScreen opens the class to the network: the address to serve on,
// the address and QR code students type or scan, the roster with its
// tokens, slips, the deadline and late policy, and the log of requests
// and hand-ins. The server stops with the app (its context is the
// window's).
type classScreen struct {
	u    *UI
	root fyne.CanvasObject

	addr     *widget.Select
	port     *widget.Entry
	insecure *widget.Check
	toggle   *widget.Button
	url      *widget.Label
	qr       *canvas.Image
	deadline *widget.Entry
	late     *widget.Select

	roster   *widget.List
	students []service.ClassStudent
	selected int

	logList *widget.List
	logMu   sync.Mutex
	lines   []string

	stop context.CancelFunc
	srv  *class.Server
}

// maxLogLines is how much of the request log the screen keeps; the file
// beside the database has all of it.
const maxLogLines = 500

// lanAddresses are this machine's IPv4 addresses, loopback first: the
// teacher picks the classroom network's.
func lanAddresses() []string {
	out := []string{"127.0.0.1"}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return out
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			out = append(out, n.IP.String())
		}
	}
	return out
}

func newClassScreen(u *UI) *classScreen {
	s := &classScreen{u: u, selected: -1}
	s.addr = widget.NewSelect(lanAddresses(), nil)
	s.addr.SetSelectedIndex(0)
	s.port = widget.NewEntry()
	s.port.SetText("8443")
	s.insecure = widget.NewCheck("Plain HTTP (tokens travel in clear: only for a trusted network)", nil)
	s.toggle = widget.NewButton("Open the class to the network", s.toggleServe)
	s.toggle.Importance = widget.HighImportance
	s.url = widget.NewLabel("Closed: students cannot reach this machine.")
	s.url.Wrapping = fyne.TextWrapWord
	s.qr = canvas.NewImageFromResource(nil)
	s.qr.FillMode = canvas.ImageFillContain
	s.qr.SetMinSize(fyne.NewSize(150, 150))
	s.deadline = widget.NewEntry()
	s.deadline.SetPlaceHolder("14:30, or 2026-11-29 14:30 (empty: no deadline)")
	s.late = widget.NewSelect([]string{service.LateRefuse, service.LateKeep}, nil)
	if cs, err := u.Svc.ClassSettings(); err == nil {
		s.late.SetSelected(cs.Late)
		if !cs.Deadline.IsZero() {
			s.deadline.SetText(cs.Deadline.Local().Format(time.RFC3339))
		}
	}
	save := widget.NewButton("Save deadline", s.saveSettings)
	settings := container.NewBorder(nil, nil, widget.NewLabel("Deadline, late hand-ins:"), save, container.NewBorder(nil, nil, nil, s.late, s.deadline))

	serve := container.NewVBox(
		widget.NewLabelWithStyle("Hand-ins over the classroom network", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewBorder(nil, nil, widget.NewLabel("Address:"), nil, container.NewGridWithColumns(2, s.addr, s.port)),
		s.insecure, s.toggle, settings,
	)
	top := container.NewBorder(nil, nil, nil, s.qr, container.NewVBox(serve, s.url))

	s.roster = widget.NewList(func() int { return len(s.students) },
		func() fyne.CanvasObject { return widget.NewLabel("student name and state") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(s.studentLine(i)) })
	s.roster.OnSelected = func(i widget.ListItemID) { s.selected = i }
	// A class list is typed or pasted whole: the field has the roster's
	// full width and a few lines, names separated by spaces or new lines.
	names := widget.NewMultiLineEntry()
	names.Wrapping = fyne.TextWrapWord
	names.SetMinRowsVisible(3)
	names.SetPlaceHolder("names, separated by spaces or new lines")
	game := widget.NewSelect(gameNameList(), nil)
	game.SetSelectedIndex(0)
	add := widget.NewButton("Add students", func() { s.addStudents(gameIDOf(game.Selected), names) })
	revoke := widget.NewButton("Revoke token", s.revoke)
	reissue := widget.NewButton("Reissue token", s.reissue)
	slips := widget.NewButton("Export slips…", s.exportSlips)
	rosterBox := container.NewBorder(
		container.NewVBox(widget.NewLabelWithStyle("Roster", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			names, container.NewBorder(nil, nil, nil, add, game)),
		container.NewHBox(revoke, reissue, slips), nil, nil, s.roster)

	s.logList = widget.NewList(func() int { s.logMu.Lock(); defer s.logMu.Unlock(); return len(s.lines) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("log line")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			s.logMu.Lock()
			defer s.logMu.Unlock()
			if i < len(s.lines) {
				o.(*widget.Label).SetText(s.lines[len(s.lines)-1-i])
			}
		})
	// A line is cut to the list's width; choosing it shows it whole.
	s.logList.OnSelected = func(i widget.ListItemID) {
		s.logList.Unselect(i)
		s.logMu.Lock()
		line := ""
		if i < len(s.lines) {
			line = s.lines[len(s.lines)-1-i]
		}
		s.logMu.Unlock()
		if line != "" {
			s.showLogLine(line)
		}
	}
	logBox := container.NewBorder(widget.NewLabelWithStyle("Requests and hand-ins, newest first (choose a line to read it whole)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, s.logList)
	split := container.NewHSplit(rosterBox, logBox)
	split.Offset = 0.45
	s.root = container.NewBorder(top, nil, nil, nil, split)
	u.Svc.OnHandIn(func(h service.HandInView) {
		s.addLine(fmt.Sprintf("%s hand-in %d of %s: %s", h.Time.Format("15:04:05"), h.ID, h.Student, h.State))
		uiDo(s.reload)
	})
	s.reload()
	return s
}

func (s *classScreen) object() fyne.CanvasObject { return s.root }

func (s *classScreen) studentLine(i int) string {
	if i >= len(s.students) {
		return ""
	}
	st := s.students[i]
	line := st.Name + " (" + gameNameOf(st.Game) + ")"
	if st.Revoked {
		line += " · token revoked"
	}
	if st.Last != nil {
		line += fmt.Sprintf(" · hand-in %d %s", st.Last.ID, st.Last.State)
	} else {
		line += " · no hand-in yet"
	}
	return line
}

func (s *classScreen) reload() {
	st, err := s.u.Svc.ClassRoster()
	if err != nil {
		s.u.showError("Could not read the roster", err)
		return
	}
	s.students = st
	s.roster.Refresh()
}

func (s *classScreen) addLine(line string) {
	s.logMu.Lock()
	s.lines = append(s.lines, line)
	if len(s.lines) > maxLogLines {
		s.lines = s.lines[len(s.lines)-maxLogLines:]
	}
	s.logMu.Unlock()
	uiDo(s.logList.Refresh)
}

// showTokens shows new tokens once: they are stored only hashed.
func (s *classScreen) showTokens(toks []service.IssuedToken) {
	_, fp, _ := class.Certificate(s.u.Svc)
	var b strings.Builder
	for _, t := range toks {
		fmt.Fprintf(&b, "%s\t%s\n", t.Student.Name, t.Token)
	}
	fmt.Fprintf(&b, "\nCertificate fingerprint:\n%s\n", fp)
	text := widget.NewMultiLineEntry()
	text.SetText(b.String())
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("New tokens: shown only now (export slips to print them)", "Close", text, s.u.Win)
	d.Resize(dialogSize(s.u, 700, 450))
	d.Show()
}

// showLogLine shows one line of the request log whole, wrapped, in a
// selectable label the teacher can copy from.
func (s *classScreen) showLogLine(line string) {
	text := widget.NewLabel(line)
	text.Wrapping = fyne.TextWrapBreak // a URL or token has no spaces to wrap at
	text.Selectable = true
	d := dialog.NewCustom("Log line", "Close", container.NewVScroll(text), s.u.Win)
	d.Resize(fyne.NewSize(640, 260))
	d.Show()
}

func (s *classScreen) addStudents(game string, names *widget.Entry) {
	toks, err := s.u.Svc.ClassAdd(game, strings.Fields(names.Text))
	s.reload()
	if len(toks) > 0 {
		s.showTokens(toks)
		names.SetText("")
	}
	if err != nil {
		s.u.showError("Could not add the students", err)
	}
}

func (s *classScreen) chosen() (service.ClassStudent, bool) {
	if s.selected < 0 || s.selected >= len(s.students) {
		dialog.ShowInformation("Choose a student", "Choose a student in the roster first.", s.u.Win)
		return service.ClassStudent{}, false
	}
	return s.students[s.selected], true
}

func (s *classScreen) revoke() {
	st, ok := s.chosen()
	if !ok {
		return
	}
	if err := s.u.Svc.RevokeToken(st.AIID); err != nil {
		s.u.showError("Could not revoke the token", err)
	}
	s.reload()
}

func (s *classScreen) reissue() {
	st, ok := s.chosen()
	if !ok {
		return
	}
	t, err := s.u.Svc.IssueToken(st.AIID)
	if err != nil {
		s.u.showError("Could not reissue the token", err)
		return
	}
	s.reload()
	s.showTokens([]service.IssuedToken{t})
}

func (s *classScreen) address() string {
	return net.JoinHostPort(s.addr.Selected, strings.TrimSpace(s.port.Text))
}

func (s *classScreen) exportSlips() {
	url := "https://" + s.address()
	if s.insecure.Checked {
		url = "http://" + s.address()
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			s.u.showError("Could not export the slips", err)
			return
		}
		if w == nil {
			return
		}
		var b bytes.Buffer
		n, err := class.WriteSlips(s.u.Svc, url, &b)
		if err == nil {
			_, err = w.Write(b.Bytes())
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			s.u.showError("Could not export the slips", err)
			return
		}
		s.reload()
		dialog.ShowInformation("Slips written", fmt.Sprintf("%d slips with new tokens in %s: print it; earlier slips no longer work.", n, w.URI().Path()), s.u.Win)
	}, s.u.Win)
	d.SetFileName("slips.html")
	home, _ := os.UserHomeDir()
	showFileDialog(s.u, d, home)
}

func (s *classScreen) saveSettings() {
	cs := service.ClassSettings{Late: s.late.Selected}
	if cs.Late == "" {
		cs.Late = service.LateRefuse
	}
	if text := strings.TrimSpace(s.deadline.Text); text != "" {
		t, err := service.ParseDeadline(text, time.Now())
		if err != nil {
			s.u.showError("Deadline", err)
			return
		}
		cs.Deadline = t
		s.deadline.SetText(t.Format(time.RFC3339))
	}
	if err := s.u.Svc.SetClassSettings(cs); err != nil {
		s.u.showError("Could not save the deadline", err)
	}
}

// toggleServe opens the class to the network or closes it.
func (s *classScreen) toggleServe() {
	if s.stop != nil {
		s.stop()
		return
	}
	srv, err := class.New(s.u.Svc, class.Options{Addr: s.address(), Insecure: s.insecure.Checked,
		OnLog: func(line string) { s.addLine(line) }})
	if err == nil {
		err = srv.Listen()
	}
	if err != nil {
		s.u.showError("Could not open the class", err)
		return
	}
	ctx, stop := context.WithCancel(s.u.ctx)
	s.stop, s.srv = stop, srv
	s.toggle.SetText("Close the class")
	if srv.Insecure() {
		// Plain HTTP has no certificate to check: the teacher is told
		// what it costs instead.
		s.url.SetText(fmt.Sprintf("Students type %s\nPlain HTTP: anyone on this network can read tokens and programs.", srv.URL()))
	} else {
		s.url.SetText(fmt.Sprintf("Students type %s\nCertificate fingerprint: %s", srv.URL(), srv.Fingerprint()))
	}
	if png, err := class.QR(srv.URL(), 256); err == nil {
		s.qr.Resource = fyne.NewStaticResource("class-address.png", png)
		s.qr.Refresh()
	}
	s.u.goWork(func() {
		err := srv.Serve(ctx)
		uiDo(func() {
			s.stop, s.srv = nil, nil
			s.toggle.SetText("Open the class to the network")
			s.url.SetText("Closed: students cannot reach this machine.")
			s.qr.Resource = nil
			s.qr.Refresh()
			if err != nil {
				s.u.showError("The class server stopped", err)
			}
		})
	})
}
