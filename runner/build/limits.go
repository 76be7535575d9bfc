package build

import "time"

// Every duration and size cap of builds and watching, in one place (the
// runner's own are in runner/limits.go).

// Builds and source folders.
const (
	// DefaultBuildTimeout bounds a build whose spec gives no timeout.
	DefaultBuildTimeout = 2 * time.Minute
	// BuildLogMax is how much of a build's output is kept: the end of
	// it, where compilers put the summary.
	BuildLogMax = 256 << 10
	// buildWaitDelay is how long a build's output may stay open after
	// its process ended (a child that escaped the group may hold it).
	buildWaitDelay = 2 * time.Second
	// DefaultDebounce is how long a folder must be quiet after a change
	// before it counts: an editor's save is often several writes and
	// renames.
	DefaultDebounce = 300 * time.Millisecond
)

// missingPoll is how often a missing folder is looked for again. inotify
// cannot watch a path that does not exist, and the parent may be gone
// too. A variable so tests can shorten it.
var missingPoll = 500 * time.Millisecond
