package runner

import (
	"os"

	"ringside/runner/sandbox"
)

// sweepScratch removes the bots' scratch folders in dir that Ringside
// processes which no longer run left behind: one killed in the middle of
// a game cannot remove its own, and a term of classes would pile them up
// in /tmp. The owner is the pid in the folder's name (scratchPattern).
func sweepScratch(dir string) {
	for _, d := range sandbox.Orphans(dir, scratchPrefix) {
		_ = os.RemoveAll(d)
	}
}
