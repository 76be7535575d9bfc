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
	// DefaultDebounce is how long a folder must be quiet after a change
	// before it counts: an editor's save is often several writes and
	// renames.
	DefaultDebounce = 300 * time.Millisecond
)

// Caps of one build step: a build runs contained like a bot (a launcher,
// Landlock, namespaces), with these caps and DefaultBuildTimeout as its
// wall and CPU time.
const (
	buildMemory    = 2 << 30   // each process's private memory and their resident total
	buildProcesses = 256       // processes and threads together
	buildFileSize  = 512 << 20 // one file written
	buildScratch   = 1 << 30   // HOME and TMPDIR (Go's work folder): a tmpfs
	buildOpenFiles = 4096
	buildNice      = 10 // builds yield the CPU to the games being played
	buildGoProcs   = 4  // GOMAXPROCS of a build: its compilers in parallel
	// BuildFolderMax bounds what a build leaves in its folder (sources
	// and outputs): more fails the build, so a student's folder cannot
	// fill the teacher's disk one revision at a time.
	BuildFolderMax = 1 << 30
	// buildCacheMax bounds an AI's build cache (Go's build and module
	// caches, Gradle's); over it, the cache is emptied before the next
	// build.
	buildCacheMax = 2 << 30
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
