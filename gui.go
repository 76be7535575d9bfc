//go:build !nogui

package main

import (
	"fmt"
	"os"

	fyneapp "fyne.io/fyne/v2/app"

	"ringside/app"
)

// openDesktop opens the window args ask for (desktopCall) and reports
// whether they asked for one; the command line takes the others.
func openDesktop(args []string) bool {
	if !desktopCall(args) {
		return false
	}
	switch {
	case len(args) == 0:
		runApp("")
	case args[0] == "--db":
		// "ringside --db FILE" opens the desktop app on another database.
		runApp(args[1])
	case args[0] == "view" && len(args) == 2:
		// "ringside view FILE" opens a replay file in the viewer.
		needDisplay()
		a := fyneapp.NewWithID("io.ringside.app")
		w, err := app.NewReplayFileWindow(a, args[1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "ringside: %v\n", err)
			os.Exit(1)
		}
		w.SetMaster()
		a.Run()
	case args[0] == "view":
		// "ringside view BRANCH ORIGINAL" shows a branch beside its
		// original.
		needDisplay()
		a := fyneapp.NewWithID("io.ringside.app")
		w, err := app.NewBranchFilesWindow(a, args[1], args[2])
		if err != nil {
			fmt.Fprintf(os.Stderr, "ringside: %v\n", err)
			os.Exit(1)
		}
		w.SetMaster()
		a.Run()
	default:
		// "ringside projector ID [--db FILE]": the app with the event
		// on the projector.
		id, db, _ := projectorArgs(args[1:])
		needDisplay()
		a := fyneapp.NewWithID("io.ringside.app")
		u := app.NewUI(a, db)
		// The main window first, so the projector opens over it.
		u.Win.Show()
		if err := app.OpenProjector(u, id); err != nil {
			fmt.Fprintf(os.Stderr, "ringside: %v\n", err)
			os.Exit(1)
		}
		a.Run()
	}
	return true
}

func runApp(dbPath string) {
	needDisplay()
	a := fyneapp.NewWithID("io.ringside.app")
	app.NewUI(a, dbPath).Win.ShowAndRun()
}

// needDisplay stops with one line, instead of a driver's stack trace, when
// there is no graphical session to open a window in: none named, or one
// named that nothing answers on (a DISPLAY left over from another login, an
// ssh session without X forwarding).
func needDisplay() {
	if why := app.DisplayMissing(os.Getenv("DISPLAY"), os.Getenv("WAYLAND_DISPLAY")); why != "" {
		fmt.Fprintf(os.Stderr, "ringside: no display to open the window on (%s); every command works without one: try \"ringside help\"\n", why)
		os.Exit(1)
	}
}
