package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"ringside/app/service"
	"ringside/runner/build"
)

func init() {
	register(&command{
		name: "watch", usage: "[--db PATH] [--debounce DURATION] [--timeout DURATION]",
		summary: "rebuild watched AIs whenever their source folders change",
		help: func() string {
			return `Watches the source folder of every watched AI (see "ringside ai add") and
builds a new revision whenever one changes: one line per build, with the time
from the save to the revision being ready. It first builds every watched AI
whose sources changed since its last revision. AIs added, removed or changed
while it runs are picked up within a few seconds. Stop it with Ctrl-C.

A change counts once the folder has been quiet for the debounce time, so a
burst of writes (an editor's save, a git checkout) makes one build. Changes to
.git, build outputs (bot, out/, target/, *.class, *.o) and editor temporary
files (*~, .*.swp, .#*, 4913, *.tmp) are ignored. A failed build keeps the
previous revision playing; "ringside ai show NAME" prints its output. A folder
that is deleted or renamed marks the AI missing until it is back. Other
watchers on the same database (another "ringside watch", the desktop app) share
the work: one builds an AI at a time, and the same sources make one revision.

` + optionsHelp(2, 21, watchOptions(new(time.Duration), new(time.Duration))) + "\n" + dbHelp()
		},
		run: runWatch,
	})
}

// watchOptions are the flags of "watch" besides --db, declared into
// debounce and timeout and written in its help.
func watchOptions(debounce, timeout *time.Duration) []option {
	return []option{
		durationOption(debounce, "debounce", "DURATION", build.DefaultDebounce, "quiet time before building"),
		durationOption(timeout, "timeout", "DURATION", build.DefaultBuildTimeout, "longest a build may take"),
	}
}

func runWatch(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("watch")
	debounce, timeout := new(time.Duration), new(time.Duration)
	declare(fs, watchOptions(debounce, timeout))
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *debounce <= 0 || *timeout <= 0 {
		return usagef("watch: --debounce and --timeout must be above 0")
	}
	return withService(*dbPath, func(svc *service.Service) error {
		s, err := svc.NewWatcher(*debounce, *timeout)
		if err != nil {
			return err
		}
		var outMu sync.Mutex
		say := func(format string, args ...any) {
			outMu.Lock()
			defer outMu.Unlock()
			// One line each, whatever the names and errors in it hold.
			fmt.Fprintln(c.stdout, time.Now().Format("15:04:05")+" "+service.Visible(fmt.Sprintf(format, args...)))
		}
		s.OnWatch = func(names []string) {
			if len(names) == 0 {
				say("no AI is watched yet; AIs added with \"ringside ai add\" are picked up (Ctrl-C stops)")
				return
			}
			say("watching %d AI(s): %s (Ctrl-C stops)", len(names), strings.Join(names, ", "))
		}
		s.OnBuild = func(ev service.BuildEvent) {
			line := ev.Describe()
			if ev.Err == nil && !ev.Out.Unchanged && ev.Out.Failed() {
				line += fmt.Sprintf(" (\"ringside ai show %s\" has the output)", ev.AI.Name)
			}
			say("%s", line)
		}
		s.OnMissing = func(name, dir string) {
			say("%s: folder %s is gone; the AI is marked missing until it is back", name, dir)
		}
		s.OnFound = func(name string) { say("%s: folder is back, watching again", name) }
		s.OnError = func(err error) { say("problem: %v", err) }
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return s.Run(ctx)
	})
}
