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

// Caps on what one AI's source folder may hold: a folder over any of them
// fails that AI's build with a message naming the file and the cap, and
// costs no other AI anything. Sizes are apparent sizes, so a sparse file
// counts (and would be copied) at its full length.
const (
	// MaxSourceFile is the largest file a source folder may hold.
	MaxSourceFile = 64 << 20
	// MaxSourceTotal is the most all of an AI's files may add up to.
	MaxSourceTotal = 256 << 20
	// MaxSourceFiles is the most files and folders an AI's folder may
	// hold; walking stops at it, so a folder of millions fails fast.
	MaxSourceFiles = 20000
	// MaxSourceDepth is how deep folders may nest.
	MaxSourceDepth = 32
	// MaxWatchedFolders is how many folders of one AI the watcher
	// watches; more would exhaust the user's inotify watches.
	MaxWatchedFolders = 2000
	// maxIgnoreFile is the most of a .gitignore or .ringsideignore read.
	maxIgnoreFile = 1 << 20
)
