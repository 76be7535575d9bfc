// Package cli is Ringside's headless command line ("ringside COMMAND"):
// one file per command, each parsing its flags, calling the service layer
// (app/service) and printing what came back. It knows no Fyne, and no
// other package of the app imports it.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"ringside/app/service"
)

// command is one CLI subcommand.
type command struct {
	name    string
	usage   string        // arguments after the name
	summary string        // one line for the command list
	help    func() string // the full text for "ringside help NAME", made when asked for
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

// exitStatus ends a command with a status and nothing more to say: what
// there was to say is on stdout ("replay diff" exits 1 when the games
// differ, as diff(1) does).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Run runs one subcommand and returns the process exit status: 0 done,
// 1 failed, 2 bad usage.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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

// fail prints err on one line, with the command that would fix it, and
// returns the exit status: 2 for bad usage and invalid requests, 1 for
// anything else.
func (c *cli) fail(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var quiet exitStatus
	if errors.As(err, &quiet) {
		return int(quiet)
	}
	fmt.Fprintf(c.stderr, "ringside: %s%s\n", oneLine(err.Error()), service.Visible(advice(err)))
	var u usageError
	if errors.As(err, &u) || service.ErrorCode(err) == service.Invalid {
		return 2
	}
	return 1
}

// fixCommands word a service error's fix as the command to type; %s is
// the AI or bot the fix is about.
var fixCommands = map[service.Fix]string{
	service.FixBuild:      `: run "ringside ai build %s"`,
	service.FixListAIs:    ` ("ringside ai list" shows the AIs)`,
	service.FixRevisions:  ` ("ringside ai revisions %s" lists them)`,
	service.FixEdit:       ` ("ringside ai edit %s" changes its folder, commands or options)`,
	service.FixFiller:     ` (--filler %s)`,
	service.FixListGames:  ` ("ringside games" lists the games, their options and bots)`,
	service.FixListEvents: ` ("ringside event list" shows the events)`,
	service.FixAllowPartial: `. If you accept that for this machine, say so once with "ringside sandbox allow-partial%s" ` +
		`("ringside sandbox" shows what it lacks), or mark the AIs you trust with "ringside ai edit NAME --trusted"`,
}

// advice is the command that would fix err, or "".
func advice(err error) string {
	fix, subject := service.ErrorFix(err)
	words, ok := fixCommands[fix]
	if !ok {
		return ""
	}
	if fix == service.FixAllowPartial {
		subject = dbArg(subject) // the consent is kept beside this database
	}
	if strings.Contains(words, "%s") {
		return fmt.Sprintf(words, subject)
	}
	return words
}

// oneLine puts a message on one line, the names in it made visible
// (service.Visible: an escape sequence or a newline in a file name is
// shown as \x1b or \n, never acted on by the terminal).
func oneLine(s string) string {
	return service.Visible(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; "))
}

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

// parseInterleaved parses flags that may come before or after positional
// arguments ("event run 3 --db x" and "event run --db x 3").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%s: %v (see \"ringside help %s\")", fs.Name(), err, strings.Fields(fs.Name())[0])
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func init() {
	register(&command{
		name: "help", usage: "[COMMAND]", summary: "show help for Ringside or one command",
		help: func() string {
			return `"ringside help" lists the commands; "ringside help COMMAND" tells all about one.`
		},
		run: func(c *cli, args []string) error {
			if len(args) == 0 {
				c.printOverview()
				return nil
			}
			cmd, ok := commands[args[0]]
			if !ok {
				return usagef("no help for %q: unknown command", args[0])
			}
			fmt.Fprintf(c.stdout, "usage: ringside %s %s\n\n%s\n", cmd.name, cmd.usage, strings.TrimSpace(cmd.help()))
			return nil
		},
	})
	register(&command{
		name: "view", usage: "FILE | BRANCH ORIGINAL", summary: "watch a replay file in a window",
		help: func() string {
			return `Opens a replay file (from "ringside play --replay FILE" or "ringside replay
export") in the replay viewer: the board, the timeline with its markers, and
for every seat the exact input, reply, verdict, time and stderr of each turn.
With two files, a branch (from "ringside replay branch --replay BRANCH") and
the replay it was branched from ("ringside replay export"), shows the two side
by side, their timelines marking where the branch starts and where the games
part. It needs a display; every other command works without one.`
		},
		run: func(c *cli, args []string) error {
			return usagef("view: give one replay file (ringside view FILE), or a branch and its original (ringside view BRANCH ORIGINAL)")
		},
	})
	register(&command{
		name: "projector", usage: "EVENT_ID [--db PATH]", summary: "show an event full screen for a room, its games playing live",
		help: func() string {
			return `Opens the desktop app with event EVENT_ID on the projector: full screen, large
type, the standings in plain words, the bracket of a knockout, and a featured
game playing live (the latest bracket round, else the leaders' game; the
teacher can pin another). The event is played by this window unless it is
finished or another process plays it ("ringside event run"): then its games
are followed through the turns that process saves about once a second. Give the event a pace (event create
--pace N, or event run --pace N elsewhere) so fast bots can be followed.
Esc leaves full screen, F11 enters it again. It needs a display.`
		},
		run: func(c *cli, args []string) error {
			return usagef("projector: give one event id: ringside projector EVENT_ID [--db PATH]")
		},
	})
}

func (c *cli) printOverview() {
	fmt.Fprint(c.stdout, `Ringside runs tournaments between programs that play games.

usage: ringside                 open the desktop app
       ringside --db FILE       open the desktop app on another database
       ringside view FILE       watch a replay file (from play --replay or replay export)
       ringside projector ID    show event ID full screen, its games playing live
       ringside COMMAND [ARGS]  run a command without the window

commands:
`)
	names := make([]string, 0, len(commands))
	width := 0
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(c.stdout, "  %-*s %s\n", width, n, commands[n].summary)
	}
	fmt.Fprint(c.stdout, "\n\"ringside help COMMAND\" tells more about one command.\n")
}

// printTable prints rows in aligned columns under a header of
// tab-separated titles, or empty when there are none.
func (c *cli) printTable(header string, rows [][]string, empty string) error {
	if len(rows) == 0 && empty != "" {
		fmt.Fprintln(c.stdout, empty)
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, cell := range r {
			cells[i] = service.Visible(cell) // a tab in a name must not make a column
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}
