package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// Preference keys.
const (
	prefWidth  = "window.width"
	prefHeight = "window.height"
	prefScreen = "window.screen"
	// prefDatabase is the database last opened from the app (Open another
	// database…); "ringside" without --db opens it again.
	prefDatabase = "database"
)

// UI is Ringside's desktop app: one main window with a screen per tab. It
// holds the services the screens share; all database and game work runs
// off the UI thread, in goroutines started by goWork, and comes back
// through fyne.Do.
type UI struct {
	App  fyne.App
	Win  fyne.Window
	Svc  *service.Service
	Jobs *service.Jobs
	// session tells other apps on the database that this one has it
	// open; nil if it could not be recorded.
	session io.Closer

	// ctx ends when the window closes; work counts the goroutines that
	// use the database, waited for before it is closed.
	ctx    context.Context
	cancel context.CancelFunc
	workMu sync.Mutex
	closed bool
	work   sync.WaitGroup

	tabs    *container.AppTabs
	home    *homeScreen
	events  *eventsScreen
	compare *compareScreen
	ais     *aisScreen
	class   *classScreen
}

// NewUI opens the database (the default one unless dbPath is set) and
// builds Ringside's main window, u.Win. If the database cannot be opened
// the window says why and what to do instead of failing silently, and
// u.Svc is nil.
func NewUI(a fyne.App, dbPath string) *UI {
	a.SetIcon(Icon)
	w := a.NewWindow("Ringside")
	w.SetIcon(Icon)
	prefs := a.Preferences()
	// The first window fits a 1024×768 projector; later ones open at the
	// size the user left.
	w.Resize(fyne.NewSize(float32(prefs.FloatWithFallback(prefWidth, 1000)), float32(prefs.FloatWithFallback(prefHeight, 700))))
	if dbPath == "" {
		// The database chosen in the app last time, while it is there.
		if last := prefs.String(prefDatabase); last != "" {
			if st, err := os.Stat(last); err == nil && st.Mode().IsRegular() {
				dbPath = last
			}
		}
	}
	return attach(a, w, dbPath)
}

// attach opens the database at dbPath and shows the app on it in w, or,
// when it cannot be opened, a screen that says why and offers another.
func attach(a fyne.App, w fyne.Window, dbPath string) *UI {
	prefs := a.Preferences()
	svc, err := service.Open(dbPath)
	if err != nil {
		u := &UI{App: a, Win: w}
		w.SetCloseIntercept(nil)
		w.SetOnClosed(nil)
		w.SetContent(newDBErrorScreen(u, err))
		return u
	}
	u := newUI(a, w, svc)
	// Only a courtesy to other windows: the app works without it.
	u.session, _ = svc.OpenApp()
	u.build()
	w.SetTitle("Ringside · " + filepath.Base(svc.Path()))
	w.SetCloseIntercept(u.confirmClose)
	w.SetOnClosed(func() {
		size := w.Canvas().Size()
		prefs.SetFloat(prefWidth, float64(size.Width))
		prefs.SetFloat(prefHeight, float64(size.Height))
		u.close()
	})
	return u
}

// confirmClose closes the window, asking first while events are played:
// their games in play would be abandoned (and played again on resume).
func (u *UI) confirmClose() {
	n := u.Jobs.Count()
	if n == 0 {
		u.Win.Close()
		return
	}
	what := "An event is"
	if n > 1 {
		what = fmt.Sprintf("%d events are", n)
	}
	d := dialog.NewConfirm("Quit while games are played?",
		wrapText(what+" being played. Quitting stops it: the games being played now are abandoned and played again "+
			"from their seeds when you resume; every finished game is kept.", 70),
		func(quit bool) {
			if quit {
				u.Win.Close()
			}
		}, u.Win)
	d.SetConfirmText("Quit")
	d.SetDismissText("Keep playing")
	d.Show()
}

// newUI is the UI's state over svc, before any screen is built.
func newUI(a fyne.App, w fyne.Window, svc *service.Service) *UI {
	u := &UI{App: a, Win: w, Svc: svc, Jobs: service.NewJobs(svc)}
	u.ctx, u.cancel = context.WithCancel(context.Background())
	return u
}

// close stops every event run, build, check and watcher and waits for
// them, then closes the database.
func (u *UI) close() {
	u.workMu.Lock()
	u.closed = true
	u.workMu.Unlock()
	u.cancel()
	u.Jobs.StopAll()
	u.work.Wait()
	if u.session != nil {
		u.session.Close()
	}
	u.Svc.Close()
}

// goWork runs f in a goroutine that closing the window waits for; once
// the window is closing it does nothing. f should watch u.ctx.
func (u *UI) goWork(f func()) {
	u.workMu.Lock()
	defer u.workMu.Unlock()
	if u.closed {
		return
	}
	u.work.Add(1)
	go func() {
		defer u.work.Done()
		f()
	}()
}

func (u *UI) build() {
	u.home = newHomeScreen(u)
	u.events = newEventsScreen(u)
	u.compare = newCompareScreen(u)
	u.ais = newAIsScreen(u)
	u.class = newClassScreen(u)
	u.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Home", theme.HomeIcon(), newTabContent(u.home.object())),
		container.NewTabItemWithIcon("Events", theme.ListIcon(), newTabContent(u.events.object())),
		container.NewTabItemWithIcon("AIs", theme.ComputerIcon(), newTabContent(u.ais.object())),
		container.NewTabItemWithIcon("Compare", theme.ViewRefreshIcon(), newTabContent(u.compare.object())),
		container.NewTabItemWithIcon("Games", theme.InfoIcon(), newTabContent(newGamesScreen())),
		container.NewTabItemWithIcon("Class", theme.AccountIcon(), newTabContent(u.class.object())),
	)
	u.tabs.SetTabLocation(container.TabLocationLeading)
	prefs := u.App.Preferences()
	if i := prefs.IntWithFallback(prefScreen, 0); i >= 0 && i < len(u.tabs.Items) {
		u.tabs.SelectIndex(i)
	}
	// A database without events is a first run (or a fresh --db): start
	// on Home with its demos, whatever screen was open last time. One
	// small query before the window is shown.
	if some, err := u.Svc.HasEvents(); err == nil && !some {
		u.tabs.SelectIndex(0)
	}
	// A second window on the database starts on Home too: its line about
	// the other window is the first thing seen, not a surprise later.
	if text, err := u.Svc.OtherAppsText(); err == nil && text != "" {
		u.tabs.SelectIndex(0)
	}
	u.tabs.OnSelected = func(t *container.TabItem) {
		prefs.SetInt(prefScreen, u.tabs.SelectedIndex())
		switch t.Content.(*tabContent).screen {
		case u.compare.object():
			u.compare.reload()
		case u.ais.object():
			u.ais.reload()
		}
	}
	u.compare.reload()
	u.Jobs.OnProgress = u.events.progress
	u.Jobs.OnGameStarted = u.events.gamesChanged
	u.Jobs.OnGameDone = func(id int64) {
		u.events.gamesChanged(id)
		u.compare.gameDone(id)
	}
	u.Jobs.OnStopped = u.events.stopped
	u.Win.SetContent(u.tabs)
}

// showEvents switches to the events screen with event id selected.
func (u *UI) showEvents(id int64) {
	u.tabs.SelectIndex(1)
	u.events.selectEvent(id)
}

// showError shows err in plain words, with what would fix it. Invalid
// requests are the user's input; anything else gets a hint that nothing
// saved was lost.
func (u *UI) showError(title string, err error) { u.showErrorThen(title, err, nil) }

// showErrorThen is showError, except for a refusal to run students' bots
// on a partial sandbox the teacher has not accepted: then it asks, in
// words (askPartialSandbox), and runs retry once the teacher accepts.
func (u *UI) showErrorThen(title string, err error, retry func()) {
	if fix, _ := service.ErrorFix(err); fix == service.FixAllowPartial {
		u.askPartialSandbox(retry)
		return
	}
	msg := sentence(err)
	if service.ErrorCode(err) != service.Invalid {
		msg += "\n\nNothing already saved was lost."
	}
	label := widget.NewLabel(wrapText(msg, 70))
	d := dialog.NewCustom(title, "Close", label, u.Win)
	d.Show()
}

// wrapText breaks long messages for dialogs, which do not wrap by
// themselves without a fixed width.
func wrapText(s string, width int) string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > width {
				out = append(out, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func defaultDBText() string {
	p, err := service.DefaultPath()
	if err != nil {
		return "in your data folder"
	}
	return p
}

// uiDo runs f on the UI thread. Tests replace it with a lock: Fyne's test
// driver runs fyne.Do's function at once on the calling goroutine, so
// without it background updates would race with the test's own taps.
var uiDo = fyne.Do

// advice words a service error's fix for someone using the app.
func advice(err error) string {
	fix, subject := service.ErrorFix(err)
	switch fix {
	case service.FixBuild:
		return fmt.Sprintf("\n\nBuild it first: on the AIs screen, choose %s and press Build now.", subject)
	case service.FixListAIs:
		return "\n\nThe AIs screen lists the registered AIs."
	case service.FixRevisions:
		return fmt.Sprintf("\n\nOn the AIs screen, choose %s and press Revisions to see its builds.", subject)
	case service.FixEdit:
		return fmt.Sprintf("\n\nOn the AIs screen, choose %s and press Edit to change its folder, commands or options.", subject)
	case service.FixFiller:
		return "\n\nChoose a bot under \"Filler for empty seats\", such as " + subject + "."
	case service.FixListGames:
		return "\n\nThe Games screen lists every game with its options and built-in bots."
	case service.FixListEvents:
		return "\n\nThe Events screen lists the events."
	}
	return ""
}

// invalidf is an error in what the user typed into a form.
func invalidf(format string, args ...any) error {
	return service.Errorf(service.Invalid, format, args...)
}

// newEntry is a one-line entry showing placeholder while empty.
func newEntry(placeholder string) *widget.Entry {
	e := widget.NewEntry()
	e.SetPlaceHolder(placeholder)
	return e
}

// newHeading is a bold label in a heading size (theme.SizeNameHeadingText,
// theme.SizeNameSubHeadingText).
func newHeading(text string, size fyne.ThemeSizeName) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.SizeName = size
	return l
}

// newLineLabel is a label kept to one line: text too long for its place
// ends in "…" instead of widening the screen.
func newLineLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func folderExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// displayName is an entry's name as the app shows it (service.DisplayName:
// "greedy (built-in)", not "builtin:grip/greedy"); the class server's
// pages show the same.
func displayName(name string) string { return service.DisplayName(name) }

// entryLabels shows entry specs by their displayName, for a list to pick
// from ("greedy (built-in)", not "builtin:grip/greedy"), with the spec
// each label stands for.
func entryLabels(specs []string) (labels []string, specOf map[string]string) {
	specOf = make(map[string]string, len(specs))
	for _, spec := range specs {
		label := displayName(spec)
		labels = append(labels, label)
		specOf[label] = spec
	}
	return labels, specOf
}

// askPartialSandbox asks the teacher, once for this machine and database,
// whether students' bots may run on a sandbox that cannot protect their
// files (no Landlock, or one that cannot stop truncate), with the status
// in full; the answer is stored with that status
// (service.AllowPartialSandbox), and retry runs after a yes. With nothing
// to accept it runs retry at once.
func (u *UI) askPartialSandbox(retry func()) {
	u.goWork(func() {
		weak, missing, status, allowed := u.Svc.PartialSandbox()
		uiDo(func() {
			if !weak || allowed {
				if retry != nil {
					retry()
				}
				return
			}
			text := partialSandboxQuestion(missing, status)
			d := dialog.NewCustomConfirm("Run students' bots without full protection?", "Run them anyway", "Cancel",
				widget.NewLabel(wrapText(text, 80)), func(ok bool) {
					if !ok {
						return
					}
					u.goWork(func() {
						err := u.Svc.AllowPartialSandbox(status)
						uiDo(func() {
							switch {
							case err != nil:
								u.showError("Cannot store your answer", err)
							case retry != nil:
								retry()
							default:
								dialog.NewInformation("Accepted", "Students' bots will run on this machine. Start again.", u.Win).Show()
							}
						})
					})
				}, u.Win)
			d.Show()
		})
	})
}

// partialSandboxQuestion is the question askPartialSandbox asks, word for
// word.
func partialSandboxQuestion(missing, status string) string {
	return "On this machine " + strings.TrimPrefix(missing, "this machine ") + ".\n\n" +
		"A student's bot could then read or damage your files, the class's database included. " +
		"Run students' bots here anyway? You are asked once for this machine; " +
		"if its sandbox changes (a new kernel), you are asked again. " +
		"Trusted AIs and Ringside's built-in bots are not affected.\n\n" + status
}
