package runner

import (
	"time"

	"ringside/runner/sandbox"
)

// Every duration and size cap of the runner is named here, so that what
// a bot may cost Ringside can be read in one place.

// Caps of a bot program inside the sandbox (docs/sandbox.md). Events and
// AIs may override them (Match.Limits, Bot.Limits).
var DefaultLimits = sandbox.Limits{
	Memory:     1 << 30,         // 1 GiB: a BFS over a big board, with room for the JVM
	Processes:  128,             // processes and threads together: a JVM runs about 20
	CPU:        5 * time.Minute, // CPU time per game, all processes of the bot together
	FileSize:   64 << 20,        // one file in the scratch folder
	Scratch:    64 << 20,        // the whole scratch folder (a tmpfs: it is memory)
	OpenFiles:  256,
	WatchEvery: 20 * time.Millisecond, // the launcher's watchdog of memory, processes and CPU
}

// Output of a bot.
const (
	// MaxLine is the longest reply line kept; longer lines are cut there
	// and marked, and the rest up to the line end is discarded.
	MaxLine = 64 << 10
	// maxQueued and maxQueuedBytes bound the lines waiting to be taken,
	// so a bot that floods its output costs CPU but never memory; when
	// they are reached, new lines are counted and dropped.
	maxQueued      = 256
	maxQueuedBytes = 1 << 20
	// NoiseLinesKept and NoiseBytesKept bound the unasked lines ("noise")
	// kept in the replay per seat and game; what is beyond is counted,
	// and the cut is noted in the replay. Everything is still read.
	NoiseLinesKept = 1000
	NoiseBytesKept = 64 << 10
	// StderrKept is how much of a bot's stderr is kept per game (the
	// end); excerptMax is the stderr kept with one reply in the replay
	// and replayStderrMax all of one seat's stderr in the replay.
	StderrKept      = 64 << 10
	excerptMax      = 2 << 10
	replayStderrMax = 64 << 10
	// readBuffer is the size of one read of a bot's output or socket.
	readBuffer = 32 << 10
)

// exitGrace is how long the last lines of a bot that exited may take to
// arrive. A variable only so that a test can play turns shorter than it
// at a time scale that a busy machine cannot break.
var exitGrace = 100 * time.Millisecond

// Time.
const (
	// sendTimeout bounds a write of game messages a bot did not ask for.
	sendTimeout = 250 * time.Millisecond
	// reapWait bounds the wait for a bot whose output ended to be reaped,
	// so that its verdict's note can say how it ended ("memory limit
	// 1 GiB"): a bot killed at a cap with a gigabyte to give back may take
	// most of a second to go on a loaded machine. Only a bot that closes
	// its output and lives on waits it out, once, in its own last turn.
	reapWait = 2 * time.Second
	// readyStretch bounds how much longer than its window an ask that
	// writes nothing (READY) may wait for a bot that was kept from the
	// CPU by a busy machine. Only a starved bot gets it: a bot that sleeps,
	// or that loops on a free CPU, waits for none.
	readyStretch = 5
	// pipeGrace is how long the pipe readers may take to finish after a
	// bot was killed before its pipes are closed under them.
	pipeGrace = 200 * time.Millisecond
	// launchReport bounds the wait for a sandbox launcher's report of
	// what it put in force (it comes within milliseconds).
	launchReport = 2 * time.Second
)

// LoginTimeout is how long bots have to connect and log in before the
// game starts without them (they may still join later).
const LoginTimeout = 5 * time.Second
