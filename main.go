// Command ringside is a tournament manager for AI programming contests.
// With no arguments it opens the desktop app; with a subcommand it is the
// headless command line ("ringside help").
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	fyneapp "fyne.io/fyne/v2/app"

	"ringside/app"
	"ringside/app/cli"
	"ringside/runner/sandbox"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		// Ringside starting one of its bots: contain it and run it;
		// nothing of the app is wanted here.
		sandbox.Main()
	}
	args := os.Args[1:]
	switch {
	case len(args) == 0:
		runApp("")
	case len(args) == 2 && args[0] == "--db":
		// "ringside --db FILE" opens the desktop app on another database.
		runApp(args[1])
	case len(args) == 2 && args[0] == "view":
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
	case len(args) == 3 && args[0] == "view":
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
	case len(args) >= 2 && args[0] == "projector":
		// "ringside projector ID [--db FILE]": the app with the event
		// on the projector.
		id, db, ok := projectorArgs(args[1:])
		if !ok {
			os.Exit(cli.Run(args, os.Stdin, os.Stdout, os.Stderr)) // says how to call it
		}
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
	default:
		os.Exit(cli.Run(args, os.Stdin, os.Stdout, os.Stderr))
	}
}

// projectorArgs reads "ID [--db FILE]" in either order.
func projectorArgs(args []string) (id int64, db string, ok bool) {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--db" && i+1 < len(args):
			db = args[i+1]
			i++
		case strings.HasPrefix(args[i], "--db="):
			db = strings.TrimPrefix(args[i], "--db=")
		case id == 0:
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil || n <= 0 {
				return 0, "", false
			}
			id = n
		default:
			return 0, "", false
		}
	}
	return id, db, id != 0
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
