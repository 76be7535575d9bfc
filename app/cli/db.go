package cli

import (
	"flag"
	"fmt"
	"strings"

	"ringside/app/service"
	"ringside/storage"
)

// dbFlag adds the --db flag every database command takes.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "")
}

// dbFlags starts the flags of a database command with its --db flag.
func (c *cli) dbFlags(cmd string) (*flag.FlagSet, *string) {
	fs := c.flags(cmd)
	return fs, dbFlag(fs)
}

// dbHelp is the --db line of every database command's help.
const dbHelp = `  --db PATH         the database file (default: ` + "`ringside help db`" + `)`

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

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func init() {
	register(&command{
		name: "db", usage: "", summary: "say where the database is",
		help: `Prints the path of the default database. Every command that reads or
writes events, AIs or replays takes --db PATH to use another file (one file per
class or per contest is a good habit). The default is
$XDG_DATA_HOME/ringside/ringside.db (~/.local/share/ringside/ringside.db).
Built revisions of AIs are kept beside the database file, in a folder named
after it (ringside.db → ringside-data, class.db → class-data), so two
databases in one folder never share them.`,
		run: func(c *cli, args []string) error {
			p, err := storage.DefaultPath()
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, p)
			return nil
		},
	})
}
