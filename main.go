// Command ringside is a tournament manager for AI programming contests.
// With no arguments it opens the desktop app; with a subcommand it is the
// headless command line ("ringside help").
package main

import (
	"os"

	fyneapp "fyne.io/fyne/v2/app"

	"ringside/app"
)

func main() {
	if len(os.Args) > 1 {
		os.Exit(app.RunCLI(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	a := fyneapp.NewWithID("io.ringside.app")
	app.NewMainWindow(a).ShowAndRun()
}
