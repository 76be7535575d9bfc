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
// to do: a newer schema or a damaged file is never touched.
func openDB(path string) (*storage.DB, error) {
	if path == "" {
		p, err := storage.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("find the default database: %w; give one with --db PATH", err)
		}
		path = p
	}
	db, err := storage.Open(path)
	if err != nil {
		var newer *storage.NewerSchemaError
		var damaged *storage.DamagedError
		switch {
		case errors.As(err, &newer), errors.As(err, &damaged):
			return nil, err
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// withDB opens the database at path (see openDB), runs fn with it and
// closes it again. Commands check their arguments before calling it, so a
// usage error never creates a database file.
func withDB(path string, fn func(db *storage.DB) error) error {
	db, err := openDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
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
