package app

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// aiRow is one line of the AIs list, read off the UI thread.
type aiRow = service.AIView

// aisColumns are the AIs list's columns and their widths.
var aisColumns = []column{
	{"Name", 150}, {"Game", 96}, {"Language", 90}, {"Revision", 150}, {"Last build", 170},
	{"Watched", 80}, {"Source folder", 200},
}

// aisScreen lists the registered AIs (contestants' programs) and builds,
// checks, watches and edits them. The database and every build run off the
// UI thread; a watcher rebuilds watched AIs on save while the screen lives.
type aisScreen struct {
	u   *UI
	obj fyne.CanvasObject

	list     *widget.List
	fillRow  func(i int) // fills one row again (newColumnList)
	empty    fyne.CanvasObject
	rows     []aiRow
	selected int64 // AI ID, 0 for none
	listed   int64 // the AI selected when the list was last filled

	// What this screen is doing, by AI ID. UI thread only.
	building map[int64]bool
	checking map[int64]bool

	title      *widget.Label
	info       *widget.Label // game, language, commands
	folder     *widget.Label
	current    *widget.Label
	message    *widget.Label
	busy       *widget.ProgressBarInfinite
	busyText   *widget.Label
	busyRow    fyne.CanvasObject
	watchState *widget.Label
	detail     fyne.CanvasObject

	add, fromTemplate                          *widget.Button
	buildNow, buildLog, revisions, check, edit *widget.Button
	files                                      *widget.Button
	remove                                     *widget.Button
	watch                                      *widget.Check
	showing                                    bool // the detail is being filled: watch's OnChanged is not the user

	// The dialogs last opened, so tests can fill them in.
	form     *aiForm
	tmplForm *templateForm
	checkDlg *checkDialog
	revsView *revisionsView
	filesDlg *filesDialog

	// reloading is set while a read of the AIs is under way, and again
	// when reload was called during it: a burst of a class's builds costs
	// two reads of every AI, not one each.
	reloadMu           sync.Mutex
	reloading, reAgain bool
}

// newAIsScreen builds the AIs screen, loads the AIs and starts watching
// the watched ones; the window's closing stops the watcher.
func newAIsScreen(u *UI) *aisScreen {
	s := &aisScreen{u: u, building: map[int64]bool{}, checking: map[int64]bool{}}

	// A list rather than a table: a click selects the whole row, which is
	// what the buttons below act on.
	header, rows, refreshRow := newColumnList(aisColumns, func() int { return len(s.rows) }, func(i int, cells []*widget.Label) {
		r := s.rows[i]
		for c, l := range cells {
			l.TextStyle = fyne.TextStyle{Bold: c == 0}
			l.Importance = s.cellImportance(r, c)
			l.Text = s.cellText(r, c)
		}
	})
	s.list, s.fillRow = rows, refreshRow
	s.list.OnSelected = func(i widget.ListItemID) {
		if i >= 0 && i < len(s.rows) {
			s.selected = s.rows[i].AI.ID
			s.showSelected()
		}
	}
	emptyMsg := widget.NewLabel("No AIs yet. Add one from the folder that holds its source files,\n" +
		"or start from a small working bot with \"New from template\".")
	emptyMsg.Alignment = fyne.TextAlignCenter
	s.empty = container.NewCenter(emptyMsg)

	s.add = widget.NewButtonWithIcon("Add AI", theme.ContentAddIcon(), s.onAdd)
	s.add.Importance = widget.HighImportance
	s.fromTemplate = widget.NewButtonWithIcon("New from template", theme.DocumentCreateIcon(), s.onTemplate)
	heading := newHeading("AIs", theme.SizeNameHeadingText)
	s.watchState = newLineLabel("Starting the watcher…")
	s.watchState.Alignment = fyne.TextAlignTrailing
	top := container.NewBorder(nil, nil, container.NewHBox(heading, s.add, s.fromTemplate), nil, s.watchState)

	s.title = newHeading("", theme.SizeNameSubHeadingText)
	s.title.Truncation = fyne.TextTruncateEllipsis
	// The detail line wraps: at 1024 px a long build or run command would
	// otherwise end in "…" with no way to read the rest.
	s.info = widget.NewLabel("")
	s.info.Wrapping = fyne.TextWrapWord
	s.folder = newLineLabel("")
	s.current = newLineLabel("")
	s.message = newLineLabel("")
	s.buildNow = widget.NewButtonWithIcon("Build now", theme.MediaPlayIcon(), s.onBuild)
	s.buildNow.Importance = widget.HighImportance
	s.buildLog = widget.NewButtonWithIcon("Build log", theme.DocumentIcon(), s.onBuildLog)
	s.revisions = widget.NewButtonWithIcon("Revisions", theme.HistoryIcon(), s.onRevisions)
	s.files = widget.NewButtonWithIcon("Files", theme.FolderOpenIcon(), s.onFiles)
	s.check = widget.NewButtonWithIcon("Check", theme.ConfirmIcon(), s.onCheck)
	s.edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), s.onEdit)
	s.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), s.onRemove)
	s.watch = widget.NewCheck("Watch: rebuild on every save", s.onWatch)
	s.busy = widget.NewProgressBarInfinite()
	s.busyText = widget.NewLabel("")
	// In a stack with a blank of the same height, so showing and hiding it
	// never moves the rest.
	s.busyRow = container.NewBorder(nil, nil, s.busyText, nil, s.busy)
	s.busyRow.Hide()
	s.busy.Stop()
	busyArea := container.NewStack(widget.NewLabel(""), s.busyRow)
	buttons := container.NewHBox(s.buildNow, s.buildLog, s.revisions, s.files, s.check, s.edit, s.remove, widget.NewSeparator(), s.watch)
	s.detail = container.NewVBox(widget.NewSeparator(), s.title, s.info, s.folder, s.current, buttons, busyArea, s.message)

	list := container.NewBorder(header, nil, nil, nil, container.NewStack(s.list, s.empty))
	s.obj = container.NewBorder(container.NewPadded(top), container.NewPadded(s.detail), nil, nil, list)
	s.enableButtons()
	s.startWatcher()
	s.reload()
	return s
}

func (s *aisScreen) object() fyne.CanvasObject { return s.obj }

// startWatcher runs one watcher for the window's lifetime.
func (s *aisScreen) startWatcher() {
	w, err := s.u.Svc.NewWatcher(service.DefaultDebounce, service.DefaultBuildTimeout)
	if err != nil {
		s.watchState.SetText("Watching is off: " + err.Error())
		return
	}
	w.OnWatch = func(names []string) {
		text := "No AI is watched: tick \"Watch\" to rebuild one on every save."
		switch len(names) {
		case 0:
		case 1:
			text = "Watching " + names[0] + ": saving a file rebuilds it."
		default:
			text = fmt.Sprintf("Watching %d AIs: saving a file rebuilds its AI.", len(names))
		}
		uiDo(func() { s.watchState.SetText(text) })
	}
	w.OnStart = func(ai service.AIInfo, saved time.Time) {
		uiDo(func() {
			s.building[ai.ID] = true
			s.refreshRow(ai.ID)
			what := ": a file was saved; building it…"
			if ai.Current == 0 {
				// Nothing built yet: the watcher builds it the first time,
				// whatever was saved.
				what = ": first build…"
			}
			s.say(time.Now().Format("15:04:05 ") + ai.Name + what)
		})
	}
	w.OnBuild = func(ev service.BuildEvent) {
		text := ev.Describe()
		if ev.Err == nil && !ev.Out.Unchanged && ev.Out.Failed() {
			text = fmt.Sprintf("%s: the build after a save failed, the current revision still plays: %s (Build log shows all)",
				ev.AI.Name, service.FirstError(ev.Out.Rev.BuildLog))
		}
		uiDo(func() {
			delete(s.building, ev.AI.ID)
			s.refreshRow(ev.AI.ID)
			s.say(time.Now().Format("15:04:05 ") + text)
		})
		s.reload()
	}
	w.OnMissing = func(name, dir string) {
		uiDo(func() {
			s.say(fmt.Sprintf("%s: its folder %s is gone; put it back, or Edit the AI to choose where it is now", name, dir))
		})
		s.reload()
	}
	w.OnFound = func(name string) {
		uiDo(func() { s.say(name + ": its folder is back; watching it again") })
		s.reload()
	}
	w.OnError = func(err error) { uiDo(func() { s.say("Watcher problem: " + err.Error()) }) }
	s.u.goWork(func() {
		if err := w.Run(s.u.ctx); err != nil {
			uiDo(func() { s.watchState.SetText("Watching stopped: " + err.Error()) })
		}
	})
}

// say shows the latest thing that happened under the buttons.
func (s *aisScreen) say(text string) {
	s.message.SetText(service.Visible(text)) // names in it shown as they are
}

// reload reads the AIs and their builds off the UI thread. It may be
// called from any goroutine; a call while a read is under way makes one
// more read after it.
func (s *aisScreen) reload() {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	if s.reloading {
		s.reAgain = true
		return
	}
	s.reloading = true
	s.u.goWork(s.readRows)
}

// readRows reads the AIs until no reload came in meanwhile, and shows
// each read in turn.
func (s *aisScreen) readRows() {
	for {
		rows, err := s.u.Svc.AIViews()
		if s.u.ctx.Err() != nil {
			return // the window is closing
		}
		uiDo(func() {
			if err != nil {
				s.u.showError("Cannot read the AIs", err)
				return
			}
			s.setRows(rows)
		})
		s.reloadMu.Lock()
		if !s.reAgain {
			s.reloading = false
			s.reloadMu.Unlock()
			return
		}
		s.reAgain = false
		s.reloadMu.Unlock()
	}
}

func (s *aisScreen) setRows(rows []aiRow) {
	s.rows = rows
	if len(rows) > 0 {
		s.empty.Hide()
	} else {
		s.empty.Show()
	}
	s.list.Refresh()
	row := s.rowIndex(s.selected)
	if row < 0 && len(rows) > 0 {
		row = 0
	}
	if row >= 0 {
		s.selected = rows[row].AI.ID
		s.list.Select(row)
		if s.selected != s.listed {
			// Select does nothing when the row number is already selected
			// (a new AI sorted into the old one's row), so a newly chosen AI
			// is scrolled to here; a mere reload leaves the scroll alone.
			s.list.ScrollTo(row)
		}
	} else {
		s.selected = 0
		s.list.UnselectAll()
	}
	s.listed = s.selected
	s.showSelected()
}

func (s *aisScreen) rowIndex(id int64) int {
	for i, r := range s.rows {
		if r.AI.ID == id {
			return i
		}
	}
	return -1
}

func (s *aisScreen) selectedRow() (aiRow, bool) {
	if i := s.rowIndex(s.selected); i >= 0 {
		return s.rows[i], true
	}
	return aiRow{}, false
}

// selectAI selects the AI with id once the list has it.
func (s *aisScreen) selectAI(id int64) {
	s.selected = id
	if i := s.rowIndex(id); i >= 0 {
		s.list.Select(i)
	}
	s.showSelected()
}

// cellText is what the list shows in column col of r.
func (s *aisScreen) cellText(r aiRow, col int) string {
	switch col {
	case 0:
		return service.Visible(r.AI.Name)
	case 1:
		// The game's display name, as the Add form and the detail line spell it.
		return gameNameOf(r.AI.Game)
	case 2:
		return orDash(r.AI.Language)
	case 3:
		if r.Pinned != nil {
			return fmt.Sprintf("r%d · pinned", r.Pinned.Number)
		}
		if r.Current == nil {
			return "none yet"
		}
		return fmt.Sprintf("r%d · %s", r.Current.Number, service.ShortHash(r.Current.Hash))
	case 4:
		return s.lastBuildText(r)
	case 5:
		if r.AI.Watch {
			return "yes"
		}
		return "no"
	case 6:
		if r.Missing {
			return "MISSING: " + homeShort(r.AI.SourceDir)
		}
		return homeShort(r.AI.SourceDir)
	}
	return ""
}

func (s *aisScreen) lastBuildText(r aiRow) string {
	switch {
	case s.building[r.AI.ID]:
		return "building…"
	case s.checking[r.AI.ID]:
		return "checking…"
	case r.Last == nil:
		return "never built"
	case r.Current != nil && r.Current.ID != r.Last.ID && !r.LastFailed():
		// A change undone: the sources are an earlier revision's again.
		return fmt.Sprintf("ok · %s (as r%d)", service.WhenText(r.AI.CurrentSince), r.Current.Number)
	}
	return fmt.Sprintf("%s · %s", r.Last.Status, service.WhenText(r.Last.Created))
}

func (s *aisScreen) cellImportance(r aiRow, col int) widget.Importance {
	switch {
	case col == 6 && r.Missing:
		return widget.DangerImportance
	case col == 4 && !s.building[r.AI.ID] && !s.checking[r.AI.ID] && r.LastFailed():
		return widget.DangerImportance
	case col == 4 && (s.building[r.AI.ID] || s.checking[r.AI.ID]):
		return widget.HighImportance
	case col == 3 && r.Current == nil:
		return widget.WarningImportance
	case col == 3 && r.Pinned != nil:
		return widget.HighImportance
	}
	return widget.MediumImportance
}

// homeShort writes a path in the home folder as ~/….
func homeShort(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	if rel, ok := strings.CutPrefix(p, home+string(os.PathSeparator)); ok {
		return "~" + string(os.PathSeparator) + rel
	}
	return p
}

// showSelected fills the detail under the list with the selected AI.
func (s *aisScreen) showSelected() {
	r, ok := s.selectedRow()
	if !ok {
		s.title.SetText("No AI chosen")
		s.info.SetText("Choose an AI in the list to build, check or edit it.")
		s.folder.SetText("")
		s.current.SetText("")
		s.setBusy("")
		s.enableButtons()
		return
	}
	ai := r.AI
	s.title.SetText(service.Visible(ai.Name))
	build := strings.Trim(ai.BuildText, "()")
	s.info.SetText(fmt.Sprintf("Plays %s · %s · build: %s · run: %s\nSandbox: %s · game options: %s", gameNameOf(ai.Game), orDash(ai.Language),
		build, ai.RunCmd, ai.SandboxText, service.AIOptionsShown(ai.Options)))
	s.folder.Importance = widget.MediumImportance
	s.folder.SetText("Source folder: " + ai.SourceDir)
	if r.Missing {
		s.folder.Importance = widget.DangerImportance
		s.folder.SetText("Source folder MISSING: " + ai.SourceDir + " — put it back, or Edit the AI to choose where it is now.")
	}
	s.current.SetText(currentText(r))
	s.showing = true
	s.watch.SetChecked(ai.Watch)
	s.showing = false
	switch {
	case s.building[ai.ID]:
		s.setBusy("Building " + ai.Name + "…")
	case s.checking[ai.ID]:
		s.setBusy("Checking " + ai.Name + ": building if needed, then short games against built-in bots until it has answered 120 times…")
	default:
		s.setBusy("")
	}
	s.enableButtons()
}

// currentText says which revision plays and how the last build went.
func currentText(r aiRow) string {
	var b strings.Builder
	switch {
	case r.Pinned != nil:
		fmt.Fprintf(&b, "Pinned to r%d (%s, built %s): events play it. ", r.Pinned.Number, service.ShortHash(r.Pinned.Hash),
			service.WhenText(r.Pinned.Created))
		if r.Current != nil {
			fmt.Fprintf(&b, "The current revision, r%d, plays again once it is unpinned (Revisions).", r.Current.Number)
		}
	case r.Current == nil:
		b.WriteString("No successful build yet: it cannot play until one succeeds.")
	default:
		fmt.Fprintf(&b, "Current revision r%d (%s, built %s) plays in events; %d build(s) so far.", r.Current.Number,
			service.ShortHash(r.Current.Hash), service.WhenText(r.Current.Created), len(r.Revisions))
	}
	if r.LastFailed() {
		fmt.Fprintf(&b, " The last build (%s) failed: %s", service.WhenText(r.Last.Created), service.FirstError(r.Last.BuildLog))
	}
	return b.String()
}

func (s *aisScreen) setBusy(text string) {
	if text == "" {
		s.busy.Stop()
		s.busyRow.Hide()
		return
	}
	s.busyText.SetText(service.Visible(text))
	s.busyRow.Show()
	s.busy.Start()
}

func (s *aisScreen) enableButtons() {
	r, ok := s.selectedRow()
	busy := ok && (s.building[r.AI.ID] || s.checking[r.AI.ID])
	for _, b := range []*widget.Button{s.edit, s.remove, s.revisions, s.files} {
		setEnabled(b, ok)
	}
	setEnabled(s.buildNow, ok && !busy)
	setEnabled(s.check, ok && !busy)
	setEnabled(s.buildLog, ok && r.Last != nil)
	if ok {
		s.watch.Enable()
	} else {
		s.watch.Disable()
	}
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// refreshRow redraws a row after the screen's own state of it changed.
func (s *aisScreen) refreshRow(id int64) {
	s.fillRow(s.rowIndex(id))
	if id == s.selected {
		s.showSelected()
	}
}

// ---- actions ----

func (s *aisScreen) onAdd() {
	s.form = newAIForm(s, nil)
	s.form.show()
}

func (s *aisScreen) onEdit() {
	r, ok := s.selectedRow()
	if !ok {
		return
	}
	ai := r.AI
	s.form = newAIForm(s, &ai)
	s.form.show()
}

func (s *aisScreen) onTemplate() {
	s.tmplForm = newTemplateForm(s)
	s.tmplForm.show()
}

func (s *aisScreen) onBuild() {
	if r, ok := s.selectedRow(); ok {
		s.startBuild(r.AI.ID, "")
	}
}

// startBuild builds AI id off the UI thread and says how it went. first,
// when set, introduces a failed first build ("alice is added, but…").
func (s *aisScreen) startBuild(id int64, first string) {
	if s.building[id] {
		return
	}
	s.building[id] = true
	s.refreshRow(id)
	s.u.goWork(func() {
		out, err := s.u.Svc.Build(s.u.ctx, id, service.BuildOptions{})
		if s.u.ctx.Err() != nil {
			return // the window is closing
		}
		uiDo(func() {
			delete(s.building, id)
			s.refreshRow(id)
			s.buildDone(out, err, first)
		})
		s.reload()
	})
}

// buildDone says how a build went: a line for a success, the compiler's
// output for a failure.
func (s *aisScreen) buildDone(out service.BuildOutcome, err error, first string) {
	now := time.Now().Format("15:04:05 ")
	ai := out.AI
	switch {
	case err != nil:
		s.say(now + "cannot build: " + err.Error())
		s.u.showError("Cannot build", err)
	case out.Failed():
		head := fmt.Sprintf("The build of %s failed; its current revision, if any, still plays. "+
			"Fix the first error below, save, and press Build now again.", ai.Name)
		if out.Unchanged {
			head = fmt.Sprintf("The sources of %s are as they were when the build of %s failed. "+
				"Fix the first error below, save, and press Build now again.", ai.Name, service.WhenText(out.Rev.Created))
		}
		if first != "" {
			head = first + " " + head
		}
		s.say(now + ai.Name + ": the build failed: " + service.FirstError(out.Rev.BuildLog))
		showLogDialog(s.u, ai.Name+": the build failed", head, out.Rev.BuildLog)
	case out.Unchanged:
		s.say(fmt.Sprintf("%s%s: unchanged since revision %d (%s), which plays", now, ai.Name, out.Rev.Number, service.ShortHash(out.Rev.Hash)))
	default:
		took := ""
		if ai.BuildCmd != "" {
			took = fmt.Sprintf(" in %v", out.Result.Took.Round(10*time.Millisecond))
		}
		s.say(fmt.Sprintf("%s%s: revision %d (%s) is ready%s and plays from now on", now, ai.Name, out.Rev.Number, service.ShortHash(out.Rev.Hash), took))
	}
}

func (s *aisScreen) onBuildLog() {
	r, ok := s.selectedRow()
	if !ok || r.Last == nil {
		return
	}
	last := *r.Last
	head := fmt.Sprintf("Build of %s, %s: %s.", service.WhenText(last.Created), service.ShortHash(last.Hash), last.Status)
	if last.Status == service.BuildOK {
		head = fmt.Sprintf("Revision %d (%s), built %s: ok.", last.Number, service.ShortHash(last.Hash), service.WhenText(last.Created))
	}
	showLogDialog(s.u, r.AI.Name+": last build", head, last.BuildLog)
}

func (s *aisScreen) onRevisions() {
	if r, ok := s.selectedRow(); ok {
		showRevisionsDialog(s, r.AI)
	}
}

func (s *aisScreen) onFiles() {
	r, ok := s.selectedRow()
	if !ok {
		return
	}
	ai := r.AI
	s.u.goWork(func() {
		src := s.u.Svc.SourcesOf(ai)
		uiDo(func() { s.filesDlg = showFilesDialog(s.u, r, src) })
	})
}

func (s *aisScreen) onCheck() {
	r, ok := s.selectedRow()
	if !ok {
		return
	}
	id := r.AI.ID
	s.checking[id] = true
	s.refreshRow(id)
	s.u.goWork(func() {
		res, err := s.u.Svc.Check(s.u.ctx, id, service.CheckOptions{})
		if s.u.ctx.Err() != nil {
			return
		}
		uiDo(func() {
			delete(s.checking, id)
			s.refreshRow(id)
			if err != nil {
				s.u.showError("Cannot check "+r.AI.Name, err)
				return
			}
			s.say(time.Now().Format("15:04:05 ") + checkTitle(res))
			s.checkDlg = showCheckDialog(s.u, res)
		})
		s.reload()
	})
}

func (s *aisScreen) onWatch(on bool) {
	if s.showing {
		return
	}
	r, ok := s.selectedRow()
	if !ok {
		return
	}
	id := r.AI.ID
	s.u.goWork(func() {
		ed, err := s.u.Svc.EditAI(id, service.AIEdit{Watch: &on})
		ai := ed.AI
		uiDo(func() {
			switch {
			case err != nil:
				s.u.showError("Cannot change watching of "+r.AI.Name, err)
			case on:
				s.say(ai.Name + " is watched: within a few seconds, every save in its folder rebuilds it")
			default:
				s.say(ai.Name + " is no longer watched: press Build now after a change")
			}
		})
		s.reload()
	})
}

func (s *aisScreen) onRemove() {
	r, ok := s.selectedRow()
	if !ok {
		return
	}
	ai := r.AI
	revDir := ai.RevisionsDir
	text := widget.NewLabel(wrapText(fmt.Sprintf("Remove %s and its %d build(s)? Results of events it played stay. "+
		"Its source folder is not touched.", ai.Name, len(r.Revisions)), 70))
	files := widget.NewCheck("Also delete its built revisions in "+revDir, nil)
	d := dialog.NewCustomConfirm("Remove "+ai.Name+"?", "Remove", "Cancel", container.NewVBox(text, files), func(ok bool) {
		if !ok {
			return
		}
		alsoFiles := files.Checked
		s.u.goWork(func() {
			rm, err := s.u.Svc.RemoveAI(ai.ID, alsoFiles)
			msg := "removed " + ai.Name
			if err == nil && alsoFiles {
				msg += " and its built revisions"
				if len(rm.Kept) > 0 {
					msg += fmt.Sprintf(" (%d folder(s) from an older Ringside, which other databases may share, were kept)", len(rm.Kept))
				}
			}
			uiDo(func() {
				if err != nil {
					s.u.showError("Cannot remove "+ai.Name, err)
					return
				}
				s.say(time.Now().Format("15:04:05 ") + msg)
			})
			s.reload()
		})
	}, s.u.Win)
	d.Show()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
