// Package app is everything a person touches: the Fyne desktop UI (screens,
// widgets, board renderers) and the headless command line. It composes the
// services of runner and storage; the rules live in engine.
package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one CLI subcommand.
type command struct {
	name    string
	usage   string // arguments after the name
	summary string // one line for the command list
	help    string // the full text for "ringside help NAME"
	run     func(c *cli, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// cli carries the streams a command uses, so tests can run commands in
// process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// usageError is bad input on the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// RunCLI runs one subcommand and returns the process exit status: 0 done,
// 1 failed, 2 bad usage.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		return c.fail(usagef("no command given; try \"ringside help\""))
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	}
	cmd, ok := commands[name]
	if !ok {
		return c.fail(usagef("unknown command %q; try \"ringside help\"", name))
	}
	return c.fail(cmd.run(c, args[1:]))
}

func (c *cli) fail(err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(c.stderr, "ringside: %s\n", oneLine(err.Error()))
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

// flags makes a flag set for cmd whose errors come back as usage errors
// instead of exiting the process.
func (c *cli) flags(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args and turns flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usagef("see \"ringside help %s\"", fs.Name())
		}
		return usagef("%s: %v (see \"ringside help %s\")", fs.Name(), err, fs.Name())
	}
	return nil
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func init() {
	register(&command{
		name: "help", usage: "[COMMAND]", summary: "show help for Ringside or one command",
		run: func(c *cli, args []string) error {
			if len(args) == 0 {
				c.printOverview()
				return nil
			}
			cmd, ok := commands[args[0]]
			if !ok {
				return usagef("no help for %q: unknown command", args[0])
			}
			fmt.Fprintf(c.stdout, "usage: ringside %s %s\n\n%s\n", cmd.name, cmd.usage, strings.TrimSpace(cmd.help))
			return nil
		},
	})
}

func (c *cli) printOverview() {
	fmt.Fprint(c.stdout, `Ringside runs tournaments between programs that play games.

usage: ringside                 open the desktop app
       ringside --db FILE       open the desktop app on another database
       ringside view FILE       watch a replay file (from play --replay or replay export)
       ringside COMMAND [ARGS]  run a command without the window

commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(c.stdout, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(c.stdout, "\n\"ringside help COMMAND\" tells more about one command.\n")
}
