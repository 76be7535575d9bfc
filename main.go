// Command ringside is a tournament manager for AI programming contests.
// With no arguments it opens the desktop app; with a subcommand it is the
// headless command line ("ringside help").
package main

import (
	"os"
	"strconv"
	"strings"

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
	if openDesktop(args) {
		return
	}
	os.Exit(cli.Run(args, os.Stdin, os.Stdout, os.Stderr))
}

// desktopCall says whether args open a window: none (the app), "--db
// FILE", "view FILE [ORIGINAL]" or "projector ID [--db FILE]".
func desktopCall(args []string) bool {
	switch {
	case len(args) == 0:
		return true
	case len(args) == 2 && args[0] == "--db":
		return true
	case (len(args) == 2 || len(args) == 3) && args[0] == "view":
		return true
	case len(args) >= 2 && args[0] == "projector":
		_, _, ok := projectorArgs(args[1:])
		return ok
	}
	return false
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
