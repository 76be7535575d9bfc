// Package storage keeps Ringside's AIs, revisions, events, schedules,
// results, replays and rating history in one SQLite file (modernc.org/sqlite,
// pure Go). It knows engine's plain data types and nothing of the runner or
// the UI.
//
// The file is opened in WAL mode with a busy timeout and foreign keys on.
// Writes go through a single connection: SQLite allows one writer at a
// time anyway, and funnelling every write through one connection in this
// process turns lock contention between our own goroutines into a plain Go
// wait, instead of SQLITE_BUSY retries or the deadlock of two deferred
// transactions that both want to upgrade to writing. Reads use a separate
// pool of read-only connections, so standings and the replay viewer never
// queue behind a long write (WAL lets readers see the last commit while a
// writer works).
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DB is an open Ringside database. It is safe for concurrent use by many
// goroutines.
type DB struct {
	path string
	w    *sql.DB // exactly one connection: the writer
	r    *sql.DB // read-only connections
	now  func() time.Time

	heldMu sync.Mutex
	held   map[int64]bool // events whose lock this process holds
}

// busyTimeout is how long a statement waits for another process's lock
// (a second Ringside, the sqlite3 shell) before it fails.
const busyTimeout = 5 * time.Second

// ringsideAppID is stored in the file header (PRAGMA application_id) so
// Open can tell a Ringside database from another program's. It is "RING".
const ringsideAppID = 0x52494E47

// NewerSchemaError reports a database written by a newer Ringside.
type NewerSchemaError struct {
	Path   string
	Schema int // the file's schema version
	Known  int // the newest version this build knows
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("database %s was written by a newer Ringside (schema %d, this build knows %d): upgrade Ringside or use another --db",
		e.Path, e.Schema, e.Known)
}

// DamagedError reports a file that is not a Ringside database or that
// SQLite cannot read. Open never writes to such a file.
type DamagedError struct {
	Path   string
	Reason string
	Err    error // the underlying SQLite error, if any
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is not a Ringside database or is damaged: %s; it was left untouched", e.Path, e.Reason)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// ErrNotFound is wrapped by errors about rows that do not exist.
var ErrNotFound = errors.New("not found")

// DefaultPath returns where Ringside keeps its database when no --db is
// given: $XDG_DATA_HOME/ringside/ringside.db, else
// ~/.local/share/ringside/ringside.db on Linux and other Unix systems, and
// <user config dir>/Ringside/ringside.db on Windows and macOS.
func DefaultPath() (string, error) {
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "plan9":
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("find the folder for Ringside's database: %w; pass --db", err)
		}
		return filepath.Join(dir, "Ringside", "ringside.db"), nil
	}
	// The XDG spec says relative values are invalid and must be ignored.
	if dir := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "ringside", "ringside.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the folder for Ringside's database: %w; pass --db", err)
	}
	return filepath.Join(home, ".local", "share", "ringside", "ringside.db"), nil
}

// Open opens the database at path, creating it and its folder if needed,
// and brings its schema up to date.
//
// A file that is not a Ringside database, or that SQLite reports as
// damaged, is refused with a *DamagedError and left untouched; so is a
// database from a newer Ringside (*NewerSchemaError). A zero-length file
// counts as a new, empty database: that is how SQLite itself treats it, and
// it is what an interrupted first start leaves behind.
//
// Open does not run an integrity check: even PRAGMA quick_check reads the
// whole file (about 0.13 s per 100 MB here, and replays make the file grow
// by about 4.4 KB per game), so start-up would slow down as the history
// grows. SQLite still reports damage in any page it reads, and
// IntegrityCheck runs the full check on request.
func Open(path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("open database: no file name given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("create the folder for database %s: %w", abs, err)
	}
	fresh, err := checkHeader(abs)
	if err != nil {
		return nil, err
	}
	if !fresh {
		// Look before touching: switching to WAL or migrating would write
		// to a file that may be someone else's.
		if err := probe(abs, len(migs)); err != nil {
			return nil, err
		}
	}
	return open(abs, migs)
}

// open opens abs and applies migs; tests use it to build older schemas.
func open(abs string, migs []migration) (*DB, error) {
	w, err := sql.Open("sqlite", dsn(abs,
		"_pragma=busy_timeout("+ms(busyTimeout)+")",
		"_pragma=foreign_keys(1)",
		"_pragma=journal_mode(WAL)",
		"_pragma=synchronous(NORMAL)",
		// BEGIN IMMEDIATE takes the write lock up front, so a transaction
		// never fails half-way because another process started writing.
		"_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	db := &DB{path: abs, w: w, now: time.Now, held: map[int64]bool{}}
	if err := migrate(context.Background(), w, abs, migs); err != nil {
		w.Close()
		return nil, err
	}
	db.r, err = sql.Open("sqlite", dsn(abs,
		"_pragma=busy_timeout("+ms(busyTimeout)+")",
		"_pragma=query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	n := max(4, runtime.NumCPU())
	db.r.SetMaxOpenConns(n)
	db.r.SetMaxIdleConns(n)
	return db, nil
}

// Path returns the database file's absolute path.
func (db *DB) Path() string { return db.path }

// Close closes the database. The writer closes last so that SQLite
// checkpoints the WAL into the main file and removes it.
func (db *DB) Close() error {
	err := db.r.Close()
	if werr := db.w.Close(); err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("close database %s: %w", db.path, err)
	}
	return nil
}

// IntegrityCheck runs SQLite's full integrity check and a foreign key
// check. It returns "ok" when both pass, else one problem per line. It
// reads the whole file, so it takes a while on a large database.
func (db *DB) IntegrityCheck() (string, error) {
	var lines []string
	rows, err := db.r.Query("PRAGMA integrity_check")
	if err != nil {
		return "", fmt.Errorf("integrity check of %s: %w", db.path, err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return "", fmt.Errorf("integrity check of %s: %w", db.path, err)
		}
		if s != "ok" {
			lines = append(lines, s)
		}
	}
	if err := closeRows(rows); err != nil {
		return "", fmt.Errorf("integrity check of %s: %w", db.path, err)
	}
	rows, err = db.r.Query("PRAGMA foreign_key_check")
	if err != nil {
		return "", fmt.Errorf("foreign key check of %s: %w", db.path, err)
	}
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			rows.Close()
			return "", fmt.Errorf("foreign key check of %s: %w", db.path, err)
		}
		lines = append(lines, fmt.Sprintf("%s row %d refers to a missing %s row", table, rowid.Int64, parent))
	}
	if err := closeRows(rows); err != nil {
		return "", fmt.Errorf("foreign key check of %s: %w", db.path, err)
	}
	if len(lines) == 0 {
		return "ok", nil
	}
	return strings.Join(lines, "\n"), nil
}

// sqliteHeader starts every SQLite 3 database file.
const sqliteHeader = "SQLite format 3\x00"

// checkHeader reports whether abs is a new database (missing or empty),
// and refuses files that do not start like an SQLite database, before
// SQLite gets a chance to touch them.
func checkHeader(abs string) (fresh bool, err error) {
	f, err := os.Open(abs)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("open database %s: %w", abs, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("open database %s: %w", abs, err)
	}
	if st.IsDir() {
		return false, fmt.Errorf("open database %s: it is a folder; give the path of a file inside it (e.g. %s)",
			abs, filepath.Join(abs, "ringside.db"))
	}
	if st.Size() == 0 {
		return true, nil
	}
	head := make([]byte, 100) // the SQLite header is 100 bytes
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false, fmt.Errorf("open database %s: %w", abs, err)
	}
	if n < len(sqliteHeader) || string(head[:len(sqliteHeader)]) != sqliteHeader {
		return false, &DamagedError{Path: abs, Reason: "it does not start with the SQLite file header"}
	}
	if n < len(head) {
		return false, &DamagedError{Path: abs, Reason: fmt.Sprintf("it is cut short (%d bytes, less than a database header)", n)}
	}
	return false, nil
}

// probe reads the identity and schema version of an existing file through
// a query-only connection, without changing its journal mode.
func probe(abs string, known int) error {
	p, err := sql.Open("sqlite", dsn(abs,
		"_pragma=busy_timeout("+ms(busyTimeout)+")",
		"_pragma=query_only(1)"))
	if err != nil {
		return fmt.Errorf("open database %s: %w", abs, err)
	}
	defer p.Close()
	var appID, version, objects int
	err = p.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &objects)
	if err != nil {
		if isDamage(err) {
			return &DamagedError{Path: abs, Reason: "SQLite says: " + err.Error(), Err: err}
		}
		return fmt.Errorf("open database %s: %w", abs, err)
	}
	switch {
	case appID == ringsideAppID:
	case appID == 0 && version == 0 && objects == 0:
		// An empty SQLite database, e.g. made by "sqlite3 x.db vacuum".
	case appID != 0:
		return &DamagedError{Path: abs, Reason: fmt.Sprintf("it is an SQLite database of another program (application id %#x)", appID)}
	default:
		return &DamagedError{Path: abs, Reason: fmt.Sprintf("it is an SQLite database of another program (%d tables and indexes, schema version %d)", objects, version)}
	}
	if version > known {
		return &NewerSchemaError{Path: abs, Schema: version, Known: known}
	}
	return nil
}

// isDamage reports SQLite errors that mean the file is not a readable
// database.
func isDamage(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT:
		return true
	}
	return false
}

// isConstraint reports a constraint violation of the given extended code
// (sqlite3.SQLITE_CONSTRAINT_UNIQUE …).
func isConstraint(err error, code int) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == code
}

// dsn builds a modernc.org/sqlite data source name. The path goes in a
// file: URI so that '?' or '#' in a folder name cannot be taken for
// parameters.
func dsn(abs string, params ...string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: file:/C:/…
	}
	u := url.URL{Path: p}
	return "file:" + u.EscapedPath() + "?" + strings.Join(params, "&")
}

func ms(d time.Duration) string { return fmt.Sprint(d.Milliseconds()) }

// closeRows closes rows and returns the iteration error, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// write runs fn in a write transaction (BEGIN IMMEDIATE on the writer).
func (db *DB) write(fn func(tx *sql.Tx) error) error {
	tx, err := db.w.Begin()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// millis turns a time into the stored Unix milliseconds; the zero time is
// stored as NULL.
func millis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

// fromMillis is the inverse of millis.
func fromMillis(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64)
}
