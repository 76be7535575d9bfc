// Command ringside is a tournament manager for AI programming contests.
// With no arguments it opens the desktop app; with a subcommand it is the
// headless command line ("ringside help").
package main

import (
	"fmt"
	"os"

	fyneapp "fyne.io/fyne/v2/app"

	"ringside/app"
)

func main() {
	dbPath := ""
	args := os.Args[1:]
	if len(args) == 2 && args[0] == "--db" {
		// "ringside --db FILE" opens the desktop app on another database.
		dbPath, args = args[1], nil
	}
	if len(args) > 0 {
		os.Exit(app.RunCLI(args, os.Stdin, os.Stdout, os.Stderr))
	}
	a := fyneapp.NewWithID("io.ringside.app")
	w := app.NewMainWindow(a, dbPath)
	if w == nil {
		fmt.Fprintln(os.Stderr, "ringside: cannot open the window")
		os.Exit(1)
	}
	w.ShowAndRun()
}
