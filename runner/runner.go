// Package runner owns processes and time: it launches bots, talks to them
// over pipes or sockets with a deadline on every read, kills whole process
// groups, and drives the engine's games to a result and a replay. Nothing
// a bot does can stall or crash the runner: every misbehaviour becomes a
// verdict on that bot's seat.
package runner

import (
	"fmt"
	"os"
	"strings"

	"ringside/engine"
	"ringside/runner/sandbox"
)

// Bot is one seat's program.
type Bot struct {
	// Name is shown in results and replays; unique within a match (Play
	// adds "#2", "#3" to repeats).
	Name string
	// Command is the command line, split like a shell splits words but
	// never run through a shell. "builtin:GAME/NAME" runs one of
	// Ringside's own bots.
	Command string
	Dir     string // working directory; "" is Ringside's own
	// ShownDir, when set, is the folder the bot's stderr names in place of
	// Dir: the AI's source folder for a revision (a copy of it), so that a
	// traceback names the student's own file, not the copy's.
	ShownDir string
	Env      []string // extra KEY=VALUE pairs
	// Trusted runs this bot without the sandbox (docs/sandbox.md).
	Trusted bool
	// Limits overrides the match's caps for this bot; nil keeps them.
	Limits *sandbox.Limits
	// Options are game options for this bot's seat alone (Grip's
	// coords=xy for a bot written for the 2015 arena); only options the
	// game marks PerSeat may be set. They win over the match's options.
	Options engine.Options
	// Deterministic marks a bot that decides from its input and the game's
	// seed alone (a built-in, an AI its teacher marked so); the match's log
	// records it per seat (engine.Log.Deterministic) so that a replay diff
	// can tell a real difference from expected noise.
	Deterministic bool
	// maxReply is the game's longest valid reply (engine.Info.MaxReply):
	// the runner keeps no more of a line (connect sets it).
	maxReply int
	// caps are the limits a bot that runs outside the sandbox still gets
	// where the OS can hold them (a Job Object's on Windows); zero for a
	// trusted bot (connect sets it).
	caps sandbox.Limits
}

// Executable is the Ringside binary. Tests that are not the ringside
// binary point it at one.
var Executable = func() (string, error) { return os.Executable() }

// BotsEnv names another build of Ringside to start bots through: the
// sandbox's launcher, and the host of the built-in bots ("ringside bot
// GAME/NAME"). Unset, it is Executable. The tests set it to the command
// line build (-tags nogui): the launcher and the built-ins are the same
// code there, but the process starts in a third of the time, without
// the desktop's packages to set up (fonts, translations), and a test run
// starts bots some ten thousand times.
const BotsEnv = "RINGSIDE_BOTS_BINARY"

// botsBinary is the binary that starts bots: BotsEnv's, or Executable.
func botsBinary() (string, error) {
	if exe := os.Getenv(BotsEnv); exe != "" {
		return exe, nil
	}
	return Executable()
}

// BuiltinPrefix starts the command of a built-in bot.
const BuiltinPrefix = "builtin:"

// Argv turns a bot command into the program and arguments to start. seed
// seeds a built-in bot's random choices.
func Argv(command string, seed int64) ([]string, error) {
	if name, ok := strings.CutPrefix(strings.TrimSpace(command), BuiltinPrefix); ok {
		name = strings.TrimSpace(name)
		if !strings.Contains(name, "/") {
			return nil, fmt.Errorf("built-in bot %q: write builtin:GAME/NAME, e.g. builtin:grip/greedy", name)
		}
		exe, err := botsBinary()
		if err != nil {
			return nil, fmt.Errorf("find the ringside binary for %s: %w", command, err)
		}
		return []string{exe, "bot", name, "--seed", fmt.Sprint(seed)}, nil
	}
	return Split(command)
}
