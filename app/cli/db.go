package cli

import (
	"flag"
	"fmt"
	"runtime"
	"strings"

	"ringside/app/service"
	"ringside/storage"
)

// dbOption is the --db flag every database command takes.
func dbOption(path *string) option {
	return stringOption(path, "db", "PATH", "", "the database file", "`ringside help db`")
}

// dbFlag adds the --db flag every database command takes.
func dbFlag(fs *flag.FlagSet) *string {
	path := new(string)
	declare(fs, []option{dbOption(path)})
	return path
}

// dbFlags starts the flags of a database command with its --db flag.
func (c *cli) dbFlags(cmd string) (*flag.FlagSet, *string) {
	fs := c.flags(cmd)
	return fs, dbFlag(fs)
}

// dbHelp() is the --db line of every database command's help.
func dbHelp() string { return optionsHelp(2, 18, []option{dbOption(new(string))}) }

// withService opens the database at path (the default one when empty),
// runs fn with the service on it and closes it again. Commands check their
// arguments before calling it, so a usage error never creates a database
// file.
func withService(path string, fn func(s *service.Service) error) error {
	s, err := service.Open(path)
	if err != nil {
		return err
	}
	return runWith(s, fn)
}

// withReadService is withService for commands that only read: a file on
// read-only media or in a read-only folder can be read, and a mistyped
// --db says there is no database there instead of creating an empty one.
func withReadService(path string, fn func(s *service.Service) error) error {
	s, err := service.OpenReadOnly(path)
	if err != nil {
		return err
	}
	return runWith(s, fn)
}

// runWith runs fn, says damage SQLite found meanwhile with the file's name
// and what to do, and returns an error closing the database (its journal
// could not be written back) rather than dropping it.
func runWith(s *service.Service, fn func(s *service.Service) error) error {
	err := s.DB().Explain(fn(s))
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// dbArg is " --db PATH" for commands printed as advice, or "" for the
// default database.
func dbArg(p string) string {
	if p == "" {
		return ""
	}
	return " --db " + shellQuote(p)
}

// shellQuote quotes s for the shell a teacher types advice into: a POSIX
// shell, or cmd.exe on Windows, which reads no single quotes.
func shellQuote(s string) string { return shellQuoteFor(s, runtime.GOOS) }

func shellQuoteFor(s, goos string) string {
	if goos == "windows" {
		if s != "" && !strings.ContainsAny(s, " \t\n\"&|<>^()%!;,=") {
			return s
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func init() {
	register(&command{
		name: "db", usage: "[vacuum [--db PATH]]", summary: "say where the database is; compact it",
		help: func() string {
			return `Prints the path of the default database. Every command that reads or
writes events, AIs or replays takes --db PATH to use another file (one file per
class or per contest is a good habit). The default is
$XDG_DATA_HOME/ringside/ringside.db (~/.local/share/ringside/ringside.db) on
Linux, %LOCALAPPDATA%\Ringside\ringside.db on Windows and
~/Library/Application Support/Ringside/ringside.db on macOS.
Built revisions of AIs are kept beside the database file, in a folder named
after it (ringside.db → ringside-data, class.db → class-data), so two
databases in one folder never share them.

  ringside db vacuum [--db PATH]
      Compacts the database file: deleting an event leaves its space in the
      file as free pages, and this gives it back to the disk (SQLite's
      VACUUM: it copies the live data into a new file, so it needs that much
      free disk meanwhile and reports no progress; other Ringside processes
      wait for it). Prints the sizes before and after on stderr.
      "ringside event delete" compacts by itself when more than a quarter
      of the file is free.`
		},
		run: runDB,
	})
}

func runDB(c *cli, args []string) error {
	if len(args) == 0 {
		p, err := storage.DefaultPath()
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, p)
		return nil
	}
	if args[0] != "vacuum" {
		return usagef("db: unknown subcommand %q (vacuum; or no argument to print the default database's path)", args[0])
	}
	fs, dbPath := c.dbFlags("db vacuum")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("db vacuum takes no arguments besides --db PATH")
	}
	return withService(*dbPath, func(s *service.Service) error {
		sp, err := s.Space()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "vacuum: %s: %s, of which %s free pages; copying the live data into a new file (SQLite's VACUUM reports no progress)...\n",
			s.DB().Path(), service.Size(s.DB().FileSize()), service.Size(sp.FreeBytes()))
		rep, err := s.Vacuum()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "vacuum: %s → %s\n", service.Size(rep.Before), service.Size(rep.After))
		return nil
	})
}
