package storage

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// migrationFiles holds the schema, one file per version: NNNN_name.sql
// brings the database from version NNNN-1 to NNNN. Files are never edited
// once released; a change is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads and orders the migration files, checking that the
// versions run 1, 2, 3… without gaps.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	sort.Strings(names)
	migs := make([]migration, 0, len(names))
	for i, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v != i+1 {
			return nil, fmt.Errorf("migration %s: want the name %04d_<what>.sql (versions run 1, 2, 3… without gaps)", base, i+1)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", base, err)
		}
		migs = append(migs, migration{version: v, name: base, sql: string(b)})
	}
	return migs, nil
}

// migrate applies the migrations the database has not seen yet, in order,
// each in its own transaction together with its user_version bump, so a
// failure leaves the database at the last complete version.
func migrate(ctx context.Context, w *sql.DB, abs string, migs []migration) error {
	// A database at the newest schema, as at every open but its first,
	// needs no write lock: one read instead of a transaction a step. Any
	// other answer, errors included, goes through the steps, which say
	// what is wrong.
	var v int
	if err := w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err == nil && v == len(migs) {
		return nil
	}
	for _, m := range migs {
		if err := applyMigration(ctx, w, abs, m, len(migs)); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, w *sql.DB, abs string, m migration, known int) error {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("open database %s: %w", abs, err)
	}
	defer tx.Rollback()
	// Read the version inside the write transaction: another Ringside
	// process may have migrated the file since we looked.
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		if isDamage(err) {
			return &DamagedError{Path: abs, Reason: "SQLite says: " + err.Error(), Err: err}
		}
		return fmt.Errorf("read the schema version of %s: %w", abs, err)
	}
	if v > known {
		return &NewerSchemaError{Path: abs, Schema: v, Known: known}
	}
	if v >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("upgrade database %s to schema %d (%s): %w", abs, m.version, m.name, err)
	}
	// PRAGMA takes no parameters; the version is our own integer.
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version)); err != nil {
		return fmt.Errorf("upgrade database %s to schema %d: %w", abs, m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("upgrade database %s to schema %d: %w", abs, m.version, err)
	}
	return nil
}
