package app

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/storage"
)

// Preference keys.
const (
	prefWidth  = "window.width"
	prefHeight = "window.height"
	prefScreen = "window.screen"
)

// UI is Ringside's desktop app: one main window with a screen per tab. It
// holds the services the screens share; all database and game work runs
// off the UI thread and comes back through fyne.Do.
type UI struct {
	App  fyne.App
	Win  fyne.Window
	DB   *storage.DB
	Jobs *Jobs

	tabs    *container.AppTabs
	home    *homeScreen
	events  *eventsScreen
	compare *compareScreen
	ais     *aisScreen
}

// NewMainWindow opens the database (the default one unless dbPath is set)
// and builds Ringside's main window. If the database cannot be opened the
// window says why and what to do instead of failing silently.
func NewMainWindow(a fyne.App, dbPath string) fyne.Window {
	a.SetIcon(Icon)
	w := a.NewWindow("Ringside")
	w.SetIcon(Icon)
	prefs := a.Preferences()
	w.Resize(fyne.NewSize(float32(prefs.FloatWithFallback(prefWidth, 1200)), float32(prefs.FloatWithFallback(prefHeight, 780))))
	db, err := openDB(dbPath)
	if err != nil {
		w.SetContent(newDBErrorScreen(err))
		return w
	}
	u := &UI{App: a, Win: w, DB: db, Jobs: NewJobs(db)}
	u.build()
	registerTestUI(w, u)
	w.SetOnClosed(func() {
		size := w.Canvas().Size()
		prefs.SetFloat(prefWidth, float64(size.Width))
		prefs.SetFloat(prefHeight, float64(size.Height))
		u.Jobs.StopAll()
		if u.ais != nil {
			u.ais.close()
		}
		db.Close()
	})
	return w
}

func (u *UI) build() {
	u.home = newHomeScreen(u)
	u.events = newEventsScreen(u)
	u.compare = newCompareScreen(u)
	u.ais = newAIsScreen(u)
	u.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Home", theme.HomeIcon(), u.home.object()),
		container.NewTabItemWithIcon("Events", theme.ListIcon(), u.events.object()),
		container.NewTabItemWithIcon("AIs", theme.ComputerIcon(), u.ais.object()),
		container.NewTabItemWithIcon("Compare", theme.ViewRefreshIcon(), u.compare.object()),
		container.NewTabItemWithIcon("Games", theme.InfoIcon(), newGamesScreen()),
	)
	u.tabs.SetTabLocation(container.TabLocationLeading)
	prefs := u.App.Preferences()
	if i := prefs.IntWithFallback(prefScreen, 0); i >= 0 && i < len(u.tabs.Items) {
		u.tabs.SelectIndex(i)
	}
	// A database without events is a first run (or a fresh --db): start
	// on Home with its demos, whatever screen was open last time. One
	// small query before the window is shown.
	if evs, err := u.DB.ListEvents(); err == nil && len(evs) == 0 {
		u.tabs.SelectIndex(0)
	}
	u.tabs.OnSelected = func(t *container.TabItem) {
		prefs.SetInt(prefScreen, u.tabs.SelectedIndex())
		switch t.Content {
		case u.compare.object():
			u.compare.reload()
		case u.ais.object():
			u.ais.reload()
		}
	}
	u.compare.reload()
	u.Jobs.OnProgress = u.events.progress
	u.Jobs.OnGameDone = func(id int64) {
		u.events.gameDone(id)
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

// showError shows err in plain words. Usage errors are the user's input;
// anything else gets a hint that nothing saved was lost.
func (u *UI) showError(title string, err error) {
	msg := err.Error()
	var ue usageError
	if !errors.As(err, &ue) {
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

// newDBErrorScreen replaces the app when its database cannot be opened.
func newDBErrorScreen(err error) fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Ringside cannot open its database", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	msg := widget.NewLabel(err.Error())
	msg.Wrapping = fyne.TextWrapWord
	hint := widget.NewLabel(fmt.Sprintf("The file was not changed. Start Ringside with another database: ringside --db PATH, or move the file away. The default database is %s.", defaultDBText()))
	hint.Wrapping = fyne.TextWrapWord
	return container.NewPadded(container.NewVBox(title, msg, hint))
}

func defaultDBText() string {
	p, err := storage.DefaultPath()
	if err != nil {
		return "in your data folder"
	}
	return p
}

// testUIs lets tests reach the UI behind a window.
var (
	testUIs   = map[fyne.Window]*UI{}
	testUIsMu sync.Mutex
)

func registerTestUI(w fyne.Window, u *UI) {
	testUIsMu.Lock()
	testUIs[w] = u
	testUIsMu.Unlock()
}

// uiDo runs f on the UI thread. Tests replace it with a lock: Fyne's test
// driver runs fyne.Do's function at once on the calling goroutine, so
// without it background updates would race with the test's own taps.
var uiDo = fyne.Do
