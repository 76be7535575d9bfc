package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// databaseButtons are "Open another database…" and "New database…": one
// file per class or contest, chosen from the app; and "Compact database",
// which gives the space of deleted events back to the disk.
func databaseButtons(u *UI) fyne.CanvasObject {
	open := widget.NewButtonWithIcon("Open another database…", theme.FolderOpenIcon(), func() { chooseDatabase(u, false) })
	create := widget.NewButtonWithIcon("New database…", theme.ContentAddIcon(), func() { chooseDatabase(u, true) })
	if u.Svc == nil {
		// The screen of a database that cannot be opened: nothing to compact.
		return container.NewHBox(open, create)
	}
	compact := widget.NewButtonWithIcon("Compact database", theme.StorageIcon(), func() { compactDatabase(u, nil) })
	return container.NewHBox(open, create, compact)
}

// compactDatabase runs "ringside db vacuum" with a progress dialog: SQLite
// reports no progress while it copies the live data into a new file, so
// the bar only shows that it works, and the dialog then says the sizes
// before and after. done (may be nil) is called on the UI thread after.
// Running events are refused: VACUUM holds the write lock throughout and
// their results could not be saved meanwhile.
func compactDatabase(u *UI, done func()) {
	if u.Svc == nil {
		return
	}
	if n := u.Jobs.Count(); n > 0 {
		u.showError("Cannot compact the database", fmt.Errorf("%d event(s) are being played: stop them first, since compacting holds the database for its whole run", n))
		return
	}
	sp, err := u.Svc.Space()
	if err != nil {
		u.showError("Cannot compact the database", err)
		return
	}
	label := widget.NewLabel(wrapText(fmt.Sprintf("Compacting %s (%s, of which %s free): copying the live data into a new file. SQLite reports no progress meanwhile.",
		u.Svc.Path(), service.Size(u.Svc.FileSize()), service.Size(sp.FreeBytes())), 70))
	d := dialog.NewCustomWithoutButtons("Compacting the database", container.NewVBox(label, widget.NewProgressBarInfinite()), u.Win)
	d.Show()
	u.goWork(func() {
		rep, err := u.Svc.Vacuum()
		uiDo(func() {
			d.Hide()
			if err != nil {
				u.showError("The database was not compacted", err)
			} else {
				dialog.ShowInformation("Database compacted", fmt.Sprintf("%s → %s", service.Size(rep.Before), service.Size(rep.After)), u.Win)
			}
			if done != nil {
				done()
			}
		})
	})
}

// chooseDatabase asks for a database file to open (or, with create, where
// to make a new one) and switches the window to it.
func chooseDatabase(u *UI, create bool) {
	start := ""
	if u.Svc != nil {
		start = filepath.Dir(u.Svc.Path())
	}
	if create {
		newDatabaseDialog(u, start)
		return
	}
	pickFile(u, start, []string{".db"}, "Cannot open the database", func(path string) { switchDatabase(u, path) })
}

// newDatabaseDialog asks for a folder and a file name for a new database.
// It never offers an existing file: a file dialog's "overwrite?" would
// empty a class's database.
func newDatabaseDialog(u *UI, start string) {
	folder := widget.NewEntry()
	folder.SetText(start)
	name := widget.NewEntry()
	name.SetText("class.db")
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	var d *dialog.CustomDialog
	create := widget.NewButton("Create", func() {
		n := strings.TrimSpace(name.Text)
		if filepath.Ext(n) == "" {
			n += ".db"
		}
		path := filepath.Join(strings.TrimSpace(folder.Text), n)
		switch {
		case strings.TrimSpace(folder.Text) == "" || n == ".db":
			problem.SetText("Choose a folder and a file name.")
			return
		case !folderExists(filepath.Dir(path)):
			problem.SetText("There is no folder " + filepath.Dir(path) + ".")
			return
		}
		if _, err := os.Stat(path); err == nil {
			problem.SetText(path + " exists already: open it with \"Open another database…\", or choose another name.")
			return
		}
		d.Hide()
		switchDatabase(u, path)
	})
	create.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem("Folder", folderPicker(u, folder, folder.SetText)),
		widget.NewFormItem("File name", name))
	d = dialog.NewCustomWithoutButtons("New database", container.NewVBox(form, problem), u.Win)
	d.SetButtons([]fyne.CanvasObject{widget.NewButton("Cancel", func() { d.Hide() }), create})
	d.Resize(dialogSize(u, 700, 260))
	d.Show()
}

// switchDatabase shows the app on the database at path in the same
// window, after the current one's events, builds and watcher have
// stopped. A file that cannot be opened leaves everything as it was and
// says why.
func switchDatabase(u *UI, path string) {
	go func() {
		svc, err := service.Open(path)
		if err != nil {
			uiDo(func() { u.showError("Ringside cannot open that database", err) })
			return
		}
		svc.Close() // it opens; the new window state opens it again
		uiDo(func() {
			if u.Jobs != nil && u.Jobs.Count() > 0 {
				dialog.ShowConfirm("Switch while games are played?",
					wrapText("Events are being played on this database. Switching stops them: the games in play are "+
						"abandoned and played again when you resume; finished games are kept.", 70),
					func(ok bool) {
						if ok {
							reattach(u, path)
						}
					}, u.Win)
				return
			}
			reattach(u, path)
		})
	}()
}

// reattach replaces u in its window with the app on path.
func reattach(u *UI, path string) {
	w, a := u.Win, u.App
	w.SetContent(widget.NewLabel("Opening " + path + "…"))
	go func() {
		if u.Svc != nil {
			u.close() // off the UI thread: it waits for work that may wait for it
		}
		uiDo(func() {
			n := attach(a, w, path)
			if n.Svc != nil {
				a.Preferences().SetString(prefDatabase, n.Svc.Path())
			}
		})
	}()
}

// newDBErrorScreen replaces the app when its database cannot be opened:
// what is wrong, that the file was left as it was, and a way on.
func newDBErrorScreen(u *UI, err error) fyne.CanvasObject {
	title := newHeading("Ringside cannot open its database", theme.SizeNameHeadingText)
	msg := widget.NewLabel(err.Error())
	msg.Wrapping = fyne.TextWrapWord
	hint := widget.NewLabel("The file was left as it was. Open another database, or make a new one (one file per class " +
		"is a good habit). Ringside's own database is " + defaultDBText() + ".")
	hint.Wrapping = fyne.TextWrapWord
	useDefault := widget.NewButtonWithIcon("Open Ringside's own database", theme.HomeIcon(), func() {
		if p := defaultDBText(); filepath.IsAbs(p) {
			switchDatabase(u, p)
		}
	})
	return container.NewPadded(container.NewVBox(title, msg, hint, container.NewHBox(databaseButtons(u), useDefault)))
}
