// Command ringside is a tournament manager for AI programming contests.
// With no arguments it opens the desktop app; with a subcommand it is the
// headless command line ("ringside help").
package main

import (
	"fmt"
	"os"
	"runtime"

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
	default:
		os.Exit(cli.Run(args, os.Stdin, os.Stdout, os.Stderr))
	}
}

func runApp(dbPath string) {
	needDisplay()
	a := fyneapp.NewWithID("io.ringside.app")
	app.NewUI(a, dbPath).Win.ShowAndRun()
}

// needDisplay stops with one line, instead of a driver's stack trace, when
// there is no graphical session to open a window in.
func needDisplay() {
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "android", "js":
		return
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(os.Stderr, `ringside: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); every command works without one: try "ringside help"`)
		os.Exit(1)
	}
}
