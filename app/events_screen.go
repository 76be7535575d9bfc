package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
)

// eventRow is one line of the events list.
type eventRow struct {
	ev        service.EventInfo
	done, all int
	running   bool
	paused    bool
	// interrupted: marked running, played by no process (see
	// service.EventSummary).
	interrupted bool
}

// eventsScreen lists the events and shows the selected one: its controls,
// progress, standings, games and charts.
type eventsScreen struct {
	u   *UI
	obj fyne.CanvasObject

	list *widget.List
	rows []eventRow

	selected int64
	selRow   int // the row the list highlights (it selects by position)
	detail   *eventView
}

func newEventsScreen(u *UI) *eventsScreen {
	s := &eventsScreen{u: u, selRow: -1}
	s.list = widget.NewList(
		func() int { return len(s.rows) },
		func() fyne.CanvasObject {
			name := newLineLabel("event name that is long enough")
			name.TextStyle = fyne.TextStyle{Bold: true}
			sub := newLineLabel("league · 10/20 games · running")
			return container.NewVBox(name, sub)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(s.rows) {
				return
			}
			r := s.rows[i]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(r.ev.Name)
			box.Objects[1].(*widget.Label).SetText(s.rowText(r))
		})
	s.list.OnSelected = func(i widget.ListItemID) {
		if i >= len(s.rows) {
			return
		}
		id := s.rows[i].ev.ID
		s.selRow = i
		if id == s.selected && s.detail.currentID() == id {
			return // the list catching up with the event already shown
		}
		s.selected = id
		s.detail.show(id)
	}
	newBtn := widget.NewButtonWithIcon("New event", theme.ContentAddIcon(), func() { showCreateEvent(u) })
	newBtn.Importance = widget.HighImportance
	s.detail = newEventView(u)
	left := container.NewBorder(newBtn, nil, nil, nil, s.list)
	split := container.NewHSplit(left, s.detail.object())
	split.Offset = 0.24
	s.obj = split
	s.reload()
	u.goWork(s.poll)
	return s
}

func (s *eventsScreen) object() fyne.CanvasObject { return s.obj }

// interruptedWords is the state of an event marked running that no
// process plays (the app was killed): "running" would be a lie until
// Resume, which the words name.
const interruptedWords = "interrupted — Resume"

// rowText is an event's second line in the list: "Grip league · 10/20
// games · running", the game by the name a person reads.
func (s *eventsScreen) rowText(r eventRow) string {
	return fmt.Sprintf("%s %s · %d/%d games · %s", gameNameOf(r.ev.Game), formatWord(r.ev.Config.Format), r.done, r.all, s.statusText(r))
}

// formatWord names an event's format in the list. A head-to-head test is
// what the Compare screen files among the events: "compare" marks it so a
// teacher does not take it for a tournament of the class.
func formatWord(f event.Format) string {
	if f == event.SPRT {
		return "compare"
	}
	return string(f)
}

func (s *eventsScreen) statusText(r eventRow) string {
	switch {
	case r.running && r.paused:
		return "paused"
	case r.running:
		return "running"
	case r.interrupted:
		return interruptedWords
	}
	return string(r.ev.Status)
}

// reload reads the list of events from the database, off the UI thread.
func (s *eventsScreen) reload() {
	s.u.goWork(func() {
		evs, err := s.u.Svc.EventList()
		if err != nil {
			uiDo(func() { s.u.showError("Cannot list events", err) })
			return
		}
		rows := make([]eventRow, len(evs))
		for i, e := range evs {
			rows[i] = eventRow{ev: e.Event, done: e.Done, all: e.All, running: s.u.Jobs.Running(e.Event.ID), paused: s.u.Jobs.Paused(e.Event.ID),
				interrupted: e.Interrupted}
		}
		uiDo(func() {
			// The shown event changed under another process's hands
			// (ringside event run): show its progress too.
			for _, r := range rows {
				if r.ev.ID == s.selected && !r.running {
					for _, old := range s.rows {
						if old.ev.ID == r.ev.ID && (old.done != r.done || old.ev.Status != r.ev.Status) {
							s.detail.refreshSoon()
						}
					}
				}
			}
			s.rows = rows
			s.list.Refresh()
			if s.selected == 0 && len(rows) > 0 {
				s.list.Select(0)
			}
			// The list selects by position: a new event above the
			// shown one moves it, so move the highlight with it.
			for i, r := range rows {
				if r.ev.ID == s.selected && i != s.selRow {
					s.list.Select(i)
				}
			}
		})
	})
}

// forget shows no event after the shown one was deleted.
func (s *eventsScreen) forget(id int64) {
	if s.selected == id {
		s.selected, s.selRow = 0, -1
		s.list.UnselectAll()
		s.detail.hide()
	}
	s.reload()
}

// poll reloads the list every few seconds while the window is open, so
// events created or run by another process ("ringside event create", a
// second window) show without a click.
func (s *eventsScreen) poll() {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.u.ctx.Done():
			return
		case <-t.C:
			s.reload()
		}
	}
}

// selectEvent shows event id, reloading the list if it is new.
func (s *eventsScreen) selectEvent(id int64) {
	// Shown here, not through the list: selecting the row the list
	// already highlights (the rows moved since) would not call
	// OnSelected.
	s.selected = id
	s.detail.show(id)
	for i, r := range s.rows {
		if r.ev.ID == id {
			s.list.Select(i)
			return
		}
	}
	s.u.goWork(func() {
		time.Sleep(200 * time.Millisecond)
		uiDo(func() {
			if s.selected != id {
				return // another event was chosen meanwhile
			}
			for i, r := range s.rows {
				if r.ev.ID == id {
					s.list.Select(i)
				}
			}
		})
	})
}

// progress comes from a job's goroutine.
func (s *eventsScreen) progress(id int64, p service.Progress) {
	uiDo(func() {
		for i := range s.rows {
			if s.rows[i].ev.ID == id {
				s.rows[i].done, s.rows[i].all = p.Done, max(p.Scheduled, s.rows[i].all)
				s.rows[i].running, s.rows[i].paused = !p.Finished, p.Paused
				s.list.RefreshItem(i)
			}
		}
		if s.detail.id == id {
			s.detail.setProgress(p)
		}
	})
}

// gamesChanged comes from a job's goroutine when a game starts or its
// result was stored: the games list shows which are being played.
func (s *eventsScreen) gamesChanged(id int64) {
	if s.detail.currentID() == id {
		s.detail.refreshSoon()
	}
}

// stopped comes from a job's goroutine when a run ends.
func (s *eventsScreen) stopped(id int64, err error) {
	uiDo(func() {
		if err != nil {
			s.u.showError("The event stopped", fmt.Errorf("%w\n\nFix the problem, then press Resume: finished games are kept", err))
		}
		s.reload()
		if s.detail.id == id {
			s.detail.refreshSoon()
		}
	})
}

// eventView is the right-hand side of the events screen.
type eventView struct {
	u  *UI
	id int64
	mu sync.Mutex

	obj          fyne.CanvasObject
	empty        fyne.CanvasObject
	body         *fyne.Container
	title        *widget.Label
	info         *widget.Label
	progress     *widget.ProgressBar
	progressText *widget.Label
	run, pause   *widget.Button
	stop, export *widget.Button
	rename       *widget.Button
	remove       *widget.Button
	// shards says how an exported event's games are: out in bundles,
	// back, missing; importResults merges result files of shard runs.
	shards        *widget.Label
	importResults *widget.Button
	project       *widget.Button
	// knockout opens New event for a bracket seeded from a finished
	// league's standings (event_seeding.go).
	knockout *widget.Button

	standings *standingsTable
	games     *gamesList
	extra     *eventCharts
	tabs      *container.AppTabs

	pending  bool
	dirty    bool
	lastLoad time.Time
	// loads counts the loads started and shown the newest one applied:
	// two loads can be under way at once (refreshNow does not wait), and
	// one that read the database earlier must not overwrite a later one.
	loads, shown int
	loaded       *eventData
}

// eventData is everything the view shows, loaded off the UI thread: the
// service's view of the event and the charts drawn from it.
type eventData struct {
	*service.EventView
	charts *chartData
}

func newEventView(u *UI) *eventView {
	v := &eventView{u: u}
	v.title = newHeading("", theme.SizeNameHeadingText)
	v.title.Truncation = fyne.TextTruncateEllipsis
	// The line wraps: its end says how bots are contained, which on
	// Windows (and for a long list of trusted entries) is longer than a
	// projector's width and must not be cut.
	v.info = widget.NewLabel("")
	v.info.Wrapping = fyne.TextWrapWord
	v.progress = widget.NewProgressBar()
	v.progressText = widget.NewLabel("")
	v.run = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), v.onRun)
	v.run.Importance = widget.HighImportance
	v.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), v.onPause)
	v.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), v.onStop)
	v.export = widget.NewButtonWithIcon("Export standings", theme.DocumentSaveIcon(), v.onExport)
	v.rename = widget.NewButtonWithIcon("Rename", theme.DocumentCreateIcon(), v.onRename)
	v.remove = widget.NewButtonWithIcon("Delete", theme.DeleteIcon(), v.onDelete)
	v.importResults = widget.NewButtonWithIcon("Import results", theme.DownloadIcon(), v.onImportResults)
	v.shards = widget.NewLabel("")
	v.shards.Hide()
	v.project = widget.NewButtonWithIcon("Projector", theme.ViewFullScreenIcon(), v.onProjector)
	v.knockout = widget.NewButtonWithIcon("Knockout from these standings", theme.ContentAddIcon(), func() {
		if v.loaded != nil {
			showKnockoutFrom(u, v.loaded.Event)
		}
	})
	v.knockout.Hide()
	v.standings = newStandingsTable()
	v.games = newGamesList(u)
	v.extra = newEventCharts()
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Standings", v.standings.object()),
		container.NewTabItem("Games", v.games.object()),
	)
	for _, t := range v.extra.tabs() {
		v.tabs.Append(t)
	}
	// Rename and Delete beside the title, and Import results only for an
	// exported event: one row of buttons must fit a 1024-pixel projector.
	v.importResults.Hide()
	title := container.NewBorder(nil, nil, nil, container.NewHBox(v.rename, v.remove), v.title)
	buttons := container.NewHBox(v.run, v.pause, v.stop, v.knockout, v.export, v.importResults, v.project)
	head := container.NewVBox(title, v.info, buttons, container.NewBorder(nil, nil, nil, v.progressText, v.progress), v.shards)
	v.body = container.NewBorder(head, nil, nil, nil, v.tabs)
	msg := widget.NewLabel("Choose an event on the left, create one with \"New event\",\nor run a demo from the Home screen.")
	msg.Alignment = fyne.TextAlignCenter
	v.empty = container.NewCenter(msg)
	v.obj = container.NewStack(v.empty, v.body)
	v.body.Hide()
	return v
}

func (v *eventView) object() fyne.CanvasObject { return v.obj }

// onProjector opens the shown event full screen for a room: standings,
// bracket and a game playing live.
func (v *eventView) onProjector() {
	if v.loaded == nil {
		return
	}
	openProjector(v.u, v.loaded.Event.ID, v.loaded.Event.Config.Format == event.Bracket)
}

func (v *eventView) currentID() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.id
}

// hide shows the "choose an event" message instead of an event.
func (v *eventView) hide() {
	v.mu.Lock()
	v.id = 0
	v.mu.Unlock()
	v.loaded = nil
	v.games.clear()
	v.body.Hide()
	v.empty.Show()
}

// show switches the view to event id.
func (v *eventView) show(id int64) {
	v.mu.Lock()
	v.id = id
	v.mu.Unlock()
	v.empty.Hide()
	v.body.Show()
	v.title.SetText("Loading…")
	v.games.clear()
	v.refreshNow()
}

// refreshSoon reloads the view at most a few times a second however fast
// games finish, so a 5 000-game event keeps the UI responsive.
func (v *eventView) refreshSoon() {
	v.mu.Lock()
	if v.pending {
		v.dirty = true
		v.mu.Unlock()
		return
	}
	v.pending = true
	wait := time.Until(v.lastLoad.Add(300 * time.Millisecond))
	v.mu.Unlock()
	v.u.goWork(func() {
		if wait > 0 {
			time.Sleep(wait)
		}
		v.load()
	})
}

func (v *eventView) refreshNow() {
	v.mu.Lock()
	v.pending = true
	v.mu.Unlock()
	go v.load()
}

// loadEventData reads an event's view from the service (standings
// included) and computes its charts; it runs off the UI thread.
func loadEventData(svc *service.Service, charts *eventCharts, id int64) (*eventData, error) {
	view, err := svc.EventView(id)
	if err != nil {
		return nil, err
	}
	d := &eventData{EventView: view}
	charts.prepare(d)
	return d, nil
}

// load refreshes the view from the database, off the UI thread.
func (v *eventView) load() {
	v.mu.Lock()
	id := v.id
	v.loads++
	n := v.loads
	v.mu.Unlock()
	d, err := loadEventData(v.u.Svc, v.extra, id)
	uiDo(func() {
		v.mu.Lock()
		v.pending = false
		v.lastLoad = time.Now()
		again := v.dirty
		v.dirty = false
		current := v.id == id && n > v.shown
		if current {
			v.shown = n
		}
		v.mu.Unlock()
		if again {
			v.refreshSoon()
		}
		if !current {
			return
		}
		if err != nil {
			v.title.SetText("This event cannot be shown")
			v.info.SetText(err.Error())
			return
		}
		v.apply(d)
	})
}

func (v *eventView) apply(d *eventData) {
	v.loaded = d
	ev := d.Event
	v.title.SetText(ev.Name)
	conc := ev.Concurrency
	at := fmt.Sprintf("%d games at once", conc)
	if conc == 1 {
		at = "one game at a time"
	}
	v.info.SetText(fmt.Sprintf("%s · %s · %d entries · %s · time ×%g · seed %d · %s",
		gameNameOf(ev.Game), ev.Config.Format, len(ev.Entries), at, ev.TimeScale, ev.Config.Seed, ev.SandboxText))
	done := len(d.Outcomes)
	if !v.u.Jobs.Running(ev.ID) {
		if len(d.Games) > 0 {
			v.progress.SetValue(float64(done) / float64(len(d.Games)))
		} else {
			v.progress.SetValue(0)
		}
		status := string(ev.Status)
		if d.Interrupted() {
			status = interruptedWords
		}
		v.progressText.SetText(fmt.Sprintf("%d/%d games · %s", done, len(d.Games), status))
	}
	if c := d.Shards; c.Shards > 0 {
		v.shards.SetText(shardText(c, d.OutShards, ev.ID))
		v.shards.Show()
		v.importResults.Show()
	} else {
		v.shards.Hide()
		v.importResults.Hide()
	}
	if h := d.Elsewhere; h != nil {
		v.info.SetText(fmt.Sprintf("Being played by %s: another Ringside window or \"ringside event run\". Its games show here as they finish.", h))
	}
	v.updateButtons()
	seedKnockout(v, d.Event)
	if d.TableErr == nil {
		v.standings.set(d.Event, d.Table, d.Problems)
	}
	v.games.set(d)
	v.extra.apply(d)
}

func (v *eventView) setProgress(p service.Progress) {
	if p.Scheduled > 0 {
		v.progress.SetValue(float64(p.Done) / float64(p.Scheduled))
	}
	text := strings.Join(p.Words(), " · ")
	v.progressText.SetText(text)
	v.updateButtons()
}

func (v *eventView) updateButtons() {
	running := v.u.Jobs.Running(v.id)
	paused := running && v.u.Jobs.Paused(v.id)
	if v.loaded != nil && v.loaded.Elsewhere != nil {
		// One runner per event: the other process has it.
		v.run.SetText("Played elsewhere")
		for _, b := range []*widget.Button{v.run, v.pause, v.stop, v.remove, v.importResults} {
			b.Disable()
		}
		return
	}
	finished := v.loaded != nil && v.loaded.Event.Status == service.EventFinished && !running
	exported := v.loaded != nil && len(v.loaded.OutShards) > 0 && !running
	switch {
	case finished:
		v.run.SetText("Finished")
		v.run.Disable()
	case exported:
		// Played here too, the bundles' later import would be dropped;
		// the shard line says why and how to take them back.
		v.run.SetText("Exported")
		v.run.Disable()
	case running && !paused:
		v.run.SetText("Running")
		v.run.Disable()
	case paused:
		v.run.SetText("Resume")
		v.run.Enable()
	case v.loaded != nil && v.loaded.Event.Status == service.EventCreated:
		v.run.SetText("Run")
		v.run.Enable()
	default:
		v.run.SetText("Resume")
		v.run.Enable()
	}
	if running && !paused {
		v.pause.Enable()
	} else {
		v.pause.Disable()
	}
	if running {
		v.stop.Enable()
		v.remove.Disable()
		v.importResults.Disable() // an import waits for the event's lock
	} else {
		v.stop.Disable()
		v.remove.Enable()
		v.importResults.Enable()
	}
}

// shardText is the shard line of an exported event; while bundles are
// out it says why Run is disabled and how to take them back.
func shardText(c service.ShardCounts, out []service.OutShard, id int64) string {
	text := fmt.Sprintf("Shards: %d bundle(s) · %d games out · %d back · %d missing", c.Shards, c.Out, c.Back, c.Missing)
	if len(out) > 0 {
		games := 0
		for _, sh := range out {
			games += sh.Missing
		}
		text += fmt.Sprintf("\nRun is locked: %d game(s) are out in %d bundle(s). Import their results, or take them back with \"ringside event unexport %d\".", games, len(out), id)
	}
	return text
}

// onImportResults asks for the result files of shard runs ("ringside
// shard run BUNDLE --out RESULT"), one file or a whole folder of them,
// and merges them into the event.
func (v *eventView) onImportResults() {
	id := v.id
	var d *dialog.CustomDialog
	file := widget.NewButtonWithIcon("One result file…", theme.FileIcon(), func() {
		d.Hide()
		pickFile(v.u, exportFolder(), nil, "Cannot import", func(path string) { v.importFiles(id, []string{path}) })
	})
	folder := widget.NewButtonWithIcon("A folder of results…", theme.FolderOpenIcon(), func() {
		d.Hide()
		fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
			if err != nil {
				v.u.showError("Cannot import", err)
				return
			}
			if uri == nil {
				return
			}
			files, err := service.ResultFiles([]string{uri.Path()})
			if err != nil {
				v.u.showError("Results not imported", err)
				return
			}
			v.importFiles(id, files)
		}, v.u.Win)
		showFileDialog(v.u, fd, exportFolder())
	})
	d = dialog.NewCustom("Import results", "Cancel", container.NewVBox(
		widget.NewLabel("Import one result file, or every result file (*.result, *.jsonl) of a folder at once."),
		file, folder), v.u.Win)
	d.Show()
}

// importFiles imports result files into event id off the UI thread and
// says what came of it.
func (v *eventView) importFiles(id int64, paths []string) {
	v.importResults.Disable()
	v.u.goWork(func() {
		rep, err := v.u.Svc.Import(id, paths)
		uiDo(func() {
			v.importResults.Enable()
			if err != nil {
				v.u.showError("Results not imported", err)
				return
			}
			msg := fmt.Sprintf("%d file(s), %d games read: %d imported, %d already there.", rep.Files, rep.Games, rep.Imported, rep.Kept)
			if rep.Differ > 0 {
				msg += fmt.Sprintf("\n%d of them were played to another result elsewhere; the first result is kept.", rep.Differ)
			}
			switch {
			case rep.Finished:
				msg += "\nThe event is finished."
			case rep.Next > 0:
				msg += fmt.Sprintf("\nThe next round's %d games are scheduled: run them here, or export them with \"ringside event export\".", rep.Next)
			default:
				msg += fmt.Sprintf("\n%d games still to play.", rep.Left)
			}
			if len(rep.Machines) > 0 {
				msg += "\nPlayed on: " + strings.Join(rep.Machines, ", ")
			}
			dialog.ShowInformation("Results imported", msg, v.u.Win)
			v.u.events.reload()
			v.refreshNow()
		})
	})
}

func (v *eventView) onRun() {
	id := v.id
	if v.u.Jobs.Running(id) {
		if err := v.u.Jobs.Resume(id); err != nil {
			v.u.showError("Cannot resume", err)
		}
		v.updateButtons()
		return
	}
	if err := v.u.Jobs.Start(id); err != nil {
		v.u.showErrorThen("Cannot run the event", err, v.onRun)
		return
	}
	v.run.Disable()
	v.u.events.reload()
}

func (v *eventView) onPause() {
	if err := v.u.Jobs.Pause(v.id); err != nil {
		v.u.showError("Cannot pause", err)
	}
	v.updateButtons()
}

func (v *eventView) onStop() {
	id := v.id
	dialog.ShowConfirm("Stop the event?", "Games being played now are abandoned and played again from their seeds when you resume. Finished games are kept.",
		func(ok bool) {
			if !ok {
				return
			}
			v.stop.Disable()
			v.u.goWork(func() {
				v.u.Jobs.Stop(id)
				uiDo(func() { v.refreshNow() })
			})
		}, v.u.Win)
}

func (v *eventView) onRename() {
	if v.loaded == nil {
		return
	}
	id := v.loaded.Event.ID
	name := widget.NewEntry()
	name.SetText(v.loaded.Event.Name)
	dialog.ShowForm("Rename the event", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name)}, func(ok bool) {
		if !ok {
			return
		}
		v.u.goWork(func() {
			err := v.u.Svc.RenameEvent(id, name.Text)
			uiDo(func() {
				if err != nil {
					v.u.showError("The event was not renamed", err)
					return
				}
				v.u.events.reload()
				v.refreshNow()
			})
		})
	}, v.u.Win)
}

func (v *eventView) onDelete() {
	if v.loaded == nil {
		return
	}
	ev := v.loaded.Event
	msg := fmt.Sprintf("Delete %q with its %d games, their replays and its standings? This cannot be undone. "+
		"The AIs and their revisions stay.", ev.Name, len(v.loaded.Games))
	d := dialog.NewConfirm("Delete the event?", wrapText(msg, 70), func(ok bool) {
		if !ok {
			return
		}
		v.deleteEvent(ev.ID, len(v.loaded.Games))
	}, v.u.Win)
	d.SetConfirmText("Delete")
	d.Show()
}

// deleteEvent deletes event id with a progress dialog (a 100k-game event
// takes seconds), then compacts the database when more than a quarter of
// it is free pages, so the space goes back to the disk.
func (v *eventView) deleteEvent(id int64, games int) {
	bar := widget.NewProgressBar()
	label := widget.NewLabel(fmt.Sprintf("Deleting %d games and their replays…", games))
	d := dialog.NewCustomWithoutButtons("Deleting the event", container.NewVBox(label, bar), v.u.Win)
	d.Show()
	v.u.goWork(func() {
		shown := -1
		rep, err := v.u.Svc.DeleteEventProgress(id, func(done, total int) {
			if pct := done * 100 / total; pct != shown {
				shown = pct
				uiDo(func() { bar.SetValue(float64(done) / float64(total)) })
			}
		})
		uiDo(func() {
			d.Hide()
			if err != nil {
				v.u.showError("The event was not deleted", err)
				return
			}
			v.u.events.forget(id)
			if rep.Space.MostlyFree() && v.u.Jobs.Count() == 0 {
				compactDatabase(v.u, nil)
			}
		})
	})
}

// resultsSheet is the export of the results sheet: one page for pupils
// and parents that opens and prints without a network.
const resultsSheet = "Results sheet (a page to print or share)"

// writeExport writes view's standings as kind ("csv", "md") or its
// results sheet ("sheet").
func writeExport(w io.Writer, view *service.EventView, kind string) error {
	if kind == "sheet" {
		return service.WriteSheet(w, view)
	}
	return view.WriteStandings(w, kind)
}

func (v *eventView) onExport() {
	if v.loaded == nil || v.loaded.TableErr != nil {
		return
	}
	view := v.loaded.EventView
	name := view.Event.Name
	format := widget.NewRadioGroup([]string{"CSV", "Markdown", resultsSheet}, nil)
	format.SetSelected("CSV")
	dialog.ShowCustomConfirm("Export standings", "Choose file…", "Cancel", format, func(ok bool) {
		if !ok {
			return
		}
		kind, ext := "csv", ".csv"
		switch format.Selected {
		case "Markdown":
			kind, ext = "md", ".md"
		case resultsSheet:
			kind, ext = "sheet", ".html"
		}
		save := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				v.u.showError("Cannot export", err)
				return
			}
			if w == nil {
				return
			}
			err = writeExport(w, view, kind)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				v.u.showError("Cannot export", err)
				return
			}
			dialog.ShowInformation("Standings saved", "Saved to "+w.URI().Path(), v.u.Win)
		}, v.u.Win)
		save.SetFileName(fileName(name) + ext)
		// Not the folder used last: that may be a student's watched
		// source folder, where a new file would make a new revision.
		showFileDialog(v.u, save, exportFolder())
	}, v.u.Win)
}

// exportFolder is where exports are offered first: the user's Documents
// folder, or home.
func exportFolder() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	if docs := filepath.Join(home, "Documents"); folderExists(docs) {
		return docs
	}
	return home
}

// fileName makes a safe file name from an event name.
func fileName(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			out = append(out, r)
		default:
			if len(out) > 0 && out[len(out)-1] != '-' {
				out = append(out, '-')
			}
		}
	}
	if len(out) == 0 {
		return "standings"
	}
	return string(out)
}
