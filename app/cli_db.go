package app

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"ringside/storage"
)

// dbFlag adds the --db flag every database command takes.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "")
}

// dbHelp is the --db line of every database command's help.
const dbHelp = `  --db PATH         the database file (default: ` + "`ringside help db`" + `)`

// openDB opens the database at path, or the default one. Errors say what
// to do: a newer schema or a damaged file is never touched. Every error
// of storage.Open names the file.
func openDB(path string) (*storage.DB, error) {
	path, err := dbPath(path)
	if err != nil {
		return nil, err
	}
	return storage.Open(path)
}

func dbPath(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	p, err := storage.DefaultPath()
	if err != nil {
		return "", fmt.Errorf("find the default database: %w; give one with --db PATH", err)
	}
	return p, nil
}

// withDB opens the database at path (see openDB), runs fn with it and
// closes it again. Commands check their arguments before calling it, so a
// usage error never creates a database file. Damage SQLite finds while fn
// runs is reported with the file's name and what to do, and an error
// closing the database (its journal could not be written back) is
// returned, not dropped.
func withDB(path string, fn func(db *storage.DB) error) error {
	db, err := openDB(path)
	if err != nil {
		return err
	}
	return runWith(db, fn)
}

// withReadDB is withDB for commands that only read: the database is
// opened with storage.OpenReadOnly, so a file on read-only media or in a
// read-only folder can be read, and a mistyped --db says that there is no
// database there instead of creating an empty one. Without --db, a
// missing default database is created as by withDB (a first start).
func withReadDB(path string, fn func(db *storage.DB) error) error {
	p, err := dbPath(path)
	if err != nil {
		return err
	}
	db, err := storage.OpenReadOnly(p)
	var none *storage.NoDatabaseError
	if path == "" && errors.As(err, &none) {
		return withDB(path, fn)
	}
	if err != nil {
		return err
	}
	return runWith(db, fn)
}

func runWith(db *storage.DB, fn func(db *storage.DB) error) error {
	err := db.Explain(fn(db))
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// dataDir is where Ringside keeps files beside its database (built
// revisions of AIs).
func dataDir(dbPath string) (string, error) {
	if dbPath == "" {
		p, err := storage.DefaultPath()
		if err != nil {
			return "", err
		}
		dbPath = p
	}
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		return "", err
	}
	return filepath.Dir(abs), nil
}

func init() {
	register(&command{
		name: "db", usage: "", summary: "say where the database is",
		help: `Prints the path of the default database. Every command that reads or
writes events, AIs or replays takes --db PATH to use another file (one file per
class or per contest is a good habit). The default is
$XDG_DATA_HOME/ringside/ringside.db (~/.local/share/ringside/ringside.db).
Built revisions of AIs are kept in a folder beside the database file.`,
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
