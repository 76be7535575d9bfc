//go:build nogui

package main

import (
	"fmt"
	"os"
)

// openDesktop, in a build without the desktop app (-tags nogui: the
// command line without cgo, as for macOS), says so where a window was
// asked for.
func openDesktop(args []string) bool {
	if !desktopCall(args) {
		return false
	}
	fmt.Fprintln(os.Stderr, "ringside: this build has no desktop app (it was built with -tags nogui, the command line alone); every command works: try \"ringside help\"")
	os.Exit(2)
	return true
}
