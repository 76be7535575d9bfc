package cli

import (
	"fmt"

	"ringside/app/service"
)

func init() {
	register(&command{
		name: "sandbox", usage: "[allow-partial] [--db PATH]",
		summary: "say how bots are contained here; accept a partial sandbox",
		help: func() string {
			return `Without a subcommand, prints the sandbox's status on this machine: what is in
force and what is missing, and whether you accepted what is missing.

Where the kernel has no Landlock, or one older than Linux 6.2 (Landlock ABI
below 3, which cannot stop a bot from emptying a file with truncate), the
sandbox cannot protect your files from students' bots. Then "event run",
"event resume", "compare" and "play" refuse to run bots that are not trusted
until you accept that, once, for this machine and database:

  ringside sandbox allow-partial

stores your consent with the status it was given for, beside the database;
if the status changes (a new kernel), you are asked again. The app asks the
same question in a dialog. Ringside's built-in bots and trusted AIs need no
consent.`
		},
		run: runSandbox,
	})
}

func runSandbox(c *cli, args []string) error {
	sub := ""
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		sub, args = args[0], args[1:]
	}
	fs, dbPath := c.dbFlags("sandbox")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch sub {
	case "", "status":
		return withService(*dbPath, func(s *service.Service) error {
			weak, missing, status, allowed := s.PartialSandbox()
			fmt.Fprintln(c.stdout, status)
			switch {
			case !weak:
			case allowed:
				fmt.Fprintf(c.stdout, "accepted: untrusted bots run here although %s\n", missing)
			default:
				fmt.Fprintf(c.stdout, "not accepted: untrusted bots do not run here until you run \"ringside sandbox allow-partial%s\"\n", dbArg(*dbPath))
			}
			return nil
		})
	case "allow-partial":
		return withService(*dbPath, func(s *service.Service) error {
			weak, missing, status, _ := s.PartialSandbox()
			if !weak {
				fmt.Fprintf(c.stdout, "%s\nnothing to accept: bots are contained here\n", status)
				return nil
			}
			if err := s.AllowPartialSandbox(status); err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "%s\naccepted: bots that are not trusted will run here although %s\n", status, missing)
			return nil
		})
	}
	return usagef("sandbox: unknown subcommand %q: allow-partial, or nothing for the status", sub)
}
