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
	"syscall"
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

	// readOnly, when set, says why writes are refused (OpenReadOnly).
	readOnly string
	// unwritable: the file or its folder cannot be written, so Close has
	// no journal to write back.
	unwritable bool
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
// ~/.local/share/ringside/ringside.db on Linux and other Unix systems;
// %LOCALAPPDATA%\Ringside\ringside.db on Windows and
// ~/Library/Application Support/Ringside/ringside.db on macOS.
func DefaultPath() (string, error) {
	return defaultPathFor(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

// defaultPathFor is DefaultPath with goos's rules, the environment read
// through getenv and the home folder found by home, so that every OS's rule
// is tested on any system.
func defaultPathFor(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("find the folder for Ringside's database: %w; pass --db", err)
	}
	switch goos {
	case "windows":
		// Local, not Roaming, AppData: a database of replays that grows by
		// megabytes must not be copied to a school's server at each logon.
		if dir := getenv("LOCALAPPDATA"); dir != "" {
			return filepath.Join(dir, "Ringside", "ringside.db"), nil
		}
		return fail(errors.New("%LOCALAPPDATA% is not set"))
	case "darwin", "ios":
		h, err := home()
		if err != nil {
			return fail(err)
		}
		return filepath.Join(h, "Library", "Application Support", "Ringside", "ringside.db"), nil
	case "plan9":
		h, err := home()
		if err != nil {
			return fail(err)
		}
		return filepath.Join(h, "lib", "Ringside", "ringside.db"), nil
	}
	// The XDG spec says relative values are invalid and must be ignored.
	if dir := getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "ringside", "ringside.db"), nil
	}
	h, err := home()
	if err != nil {
		return fail(err)
	}
	return filepath.Join(h, ".local", "share", "ringside", "ringside.db"), nil
}

// Open opens the database at path for reading and writing, creating it
// and its folder if needed, and brings its schema up to date.
//
// A file that is not a Ringside database, or that SQLite reports as
// damaged, is refused with a *DamagedError and left untouched; so is a
// database from a newer Ringside (*NewerSchemaError). A zero-length file
// counts as a new, empty database: that is how SQLite itself treats it, and
// it is what an interrupted first start leaves behind. A path that is not
// a regular file (a folder, a named pipe, a device) is refused before
// anything opens it, and a file or folder that cannot be written gives a
// *ReadOnlyError before SQLite leaves any -wal or -shm file beside it.
//
// Open does not run an integrity check: even PRAGMA quick_check reads the
// whole file (about 0.13 s per 100 MB here, and replays make the file grow
// by about 4.4 KB per game), so start-up would slow down as the history
// grows. SQLite still reports damage in any page it reads (Explain turns
// such an error into a *CorruptError), and IntegrityCheck runs the full
// check on request.
func Open(path string) (*DB, error) {
	return openPath(path, false)
}

// OpenReadOnly opens an existing database for commands that only read.
// A missing file is a *NoDatabaseError: a mistyped path must not turn into
// a new, empty database. Every write through the returned DB fails with a
// *ReadOnlyError.
//
// When the file and its folder can be written, the database is opened as
// by Open (so an older schema is brought up to date) with every connection
// query-only, and closing it removes the -wal and -shm files as usual.
// When they cannot (read-only media, a folder without write permission),
// it is opened immutable: SQLite then reads the file as it is, without
// the -shm file it would otherwise need to create, and leaves nothing
// beside it; a database that would need a schema upgrade is refused then.
func OpenReadOnly(path string) (*DB, error) {
	return openPath(path, true)
}

func openPath(path string, readOnly bool) (*DB, error) {
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
	dir := filepath.Dir(abs)
	exists, err := checkKind(abs)
	if err != nil {
		return nil, err
	}
	if !exists {
		if readOnly {
			return nil, &NoDatabaseError{Path: abs}
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create the folder for database %s: %w", abs, err)
		}
	}
	fresh, err := checkHeader(abs)
	if err != nil {
		return nil, err
	}
	if readOnly && fresh {
		return nil, &NoDatabaseError{Path: abs, Empty: true}
	}
	writable, why := canWrite(abs, dir, exists)
	if !writable && !readOnly {
		return nil, &ReadOnlyError{Path: abs, Reason: why}
	}
	// An unwritable file is read immutable, which needs no -shm file;
	// only a -wal left by a writer that crashed would be missed, so such
	// a file is read through SQLite's usual read-only mode instead.
	immutable := !writable
	if immutable {
		if st, err := os.Stat(abs + "-wal"); err == nil && st.Size() > 0 {
			immutable = false
		}
	}
	if !fresh {
		// Look before touching: switching to WAL or migrating would write
		// to a file that may be someone else's.
		version, err := probe(abs, len(migs), readOnlyParams(writable, immutable)...)
		if err != nil {
			return nil, err
		}
		if !writable && version < len(migs) {
			return nil, &ReadOnlyError{Path: abs, Reason: fmt.Sprintf("%s, and it was written by an older Ringside (schema %d, this build reads %d) so it must be upgraded first",
				why, version, len(migs))}
		}
	}
	if !writable {
		return openUnwritable(abs, immutable)
	}
	db, err := open(abs, migs)
	if err != nil {
		return nil, err
	}
	if readOnly {
		db.readOnly = "it was opened for a command that only reads"
		if _, err := db.w.Exec("PRAGMA query_only = 1"); err != nil {
			db.Close()
			return nil, fmt.Errorf("open database %s: %w", abs, err)
		}
	}
	return db, nil
}

// readOnlyParams are the connection parameters for reading a file that
// cannot be written (none when it can).
func readOnlyParams(writable, immutable bool) []string {
	switch {
	case writable:
		return nil
	case immutable:
		return []string{"mode=ro", "immutable=1"}
	}
	return []string{"mode=ro"}
}

// openUnwritable opens a database on read-only media or in a read-only
// folder: both handles read only, and nothing is created beside it.
func openUnwritable(abs string, immutable bool) (*DB, error) {
	params := append([]string{"_pragma=busy_timeout(" + ms(busyTimeout) + ")", "_pragma=query_only(1)"},
		readOnlyParams(false, immutable)...)
	r, err := sql.Open(driverName, dsn(abs, params...))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	n := max(4, runtime.NumCPU())
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	w, err := sql.Open(driverName, dsn(abs, params...))
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	w.SetMaxOpenConns(1)
	return &DB{path: abs, w: w, r: r, now: time.Now, readOnly: "it cannot be written", unwritable: true}, nil
}

// NoDatabaseError says that a command that only reads was given a path
// where there is no database.
type NoDatabaseError struct {
	Path  string
	Empty bool // the file exists but is empty
}

func (e *NoDatabaseError) Error() string {
	what := "no database at " + e.Path
	if e.Empty {
		what = e.Path + " is empty: there is no database in it yet"
	}
	return fmt.Sprintf("%s; check the --db path, or create a database there with \"ringside event create --db %s ...\" or \"ringside ai add --db %s ...\"",
		what, shellQuote(e.Path), shellQuote(e.Path))
}

// ReadOnlyError says that a database cannot be written, or was opened for
// reading only, and a command wanted to change it.
type ReadOnlyError struct {
	Path   string
	Reason string
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("database %s cannot be changed: %s; nothing was written. Copy it to a folder you can write and give the copy with --db (commands that only read, such as event list, show and standings, work on it as it is)",
		e.Path, e.Reason)
}

// CorruptError says that SQLite found damage while reading or writing a
// database that opened fine (a damaged page in the middle of the file).
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("database %s is damaged (%v); Ringside did not change it. Restore it from a backup, or save what SQLite can still read with: sqlite3 %s .recover | sqlite3 recovered.db, and use --db recovered.db",
		e.Path, e.Err, shellQuote(e.Path))
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Explain turns an error of a DB method caused by damage in the file into
// a *CorruptError naming the file and saying what to do; other errors come
// back unchanged.
func (db *DB) Explain(err error) error {
	var ce *CorruptError
	var de *DamagedError
	if err == nil || errors.As(err, &ce) || errors.As(err, &de) || !isDamage(err) {
		return err
	}
	return &CorruptError{Path: db.path, Err: err}
}

// checkKind reports whether abs exists, and refuses anything but a regular
// file without opening it: opening a named pipe waits for a writer
// forever, and SQLite would put a -journal beside a device.
func checkKind(abs string) (bool, error) {
	st, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// Missing (ENOTDIR: a file stands where a folder should); Open
		// says so when it tries to create the folder.
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open database %s: %w", abs, err)
	}
	m := st.Mode()
	var kind string
	switch {
	case m.IsRegular():
		return true, nil
	case m.IsDir():
		return false, fmt.Errorf("open database %s: it is a folder; give the path of a file inside it (e.g. %s)",
			abs, filepath.Join(abs, "ringside.db"))
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m&os.ModeDevice != 0:
		kind = "a device"
	default:
		kind = "not a regular file"
	}
	return false, fmt.Errorf("open database %s: it is %s, not a database file; give the path of a database file (a new name creates one)", abs, kind)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// open opens abs and applies migs; tests use it to build older schemas.
func open(abs string, migs []migration) (*DB, error) {
	w, err := sql.Open(driverName, dsn(abs,
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
	db := &DB{path: abs, w: w, now: time.Now}
	if err := migrate(context.Background(), w, abs, migs); err != nil {
		w.Close()
		return nil, err
	}
	db.r, err = sql.Open(driverName, dsn(abs,
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
// checkpoints the WAL into the main file and removes it. A failure to
// write the WAL back (a full disk, a file size limit) is returned: the
// data is still safe in the -wal file, and the next open retries.
func (db *DB) Close() error {
	err := db.r.Close()
	if !db.unwritable {
		// SQLite checkpoints when its last connection closes but cannot
		// report a failure there; a passive checkpoint first (it never
		// waits for another process) does the work and reports it.
		if _, cerr := db.w.Exec("PRAGMA wal_checkpoint(PASSIVE)"); cerr != nil && err == nil {
			err = fmt.Errorf("write the journal %s-wal back into the database: %w; the data is safe in the journal, and the next command that opens the database tries again", db.path, cerr)
		}
	}
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
func probe(abs string, known int, extra ...string) (version int, err error) {
	params := append([]string{"_pragma=busy_timeout(" + ms(busyTimeout) + ")", "_pragma=query_only(1)"}, extra...)
	p, err := sql.Open(driverName, dsn(abs, params...))
	if err != nil {
		return 0, fmt.Errorf("open database %s: %w", abs, err)
	}
	defer p.Close()
	var appID, objects int
	err = p.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &objects)
	if err != nil {
		if isDamage(err) {
			return 0, &DamagedError{Path: abs, Reason: "SQLite says: " + err.Error(), Err: err}
		}
		return 0, fmt.Errorf("open database %s: %w", abs, err)
	}
	switch {
	case appID == ringsideAppID:
	case appID == 0 && version == 0 && objects == 0:
		// An empty SQLite database, e.g. made by "sqlite3 x.db vacuum".
	case appID != 0:
		return 0, &DamagedError{Path: abs, Reason: fmt.Sprintf("it is an SQLite database of another program (application id %#x)", appID)}
	default:
		return 0, &DamagedError{Path: abs, Reason: fmt.Sprintf("it is an SQLite database of another program (%d tables and indexes, schema version %d)", objects, version)}
	}
	if version > known {
		return 0, &NewerSchemaError{Path: abs, Schema: version, Known: known}
	}
	return version, nil
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
	if db.readOnly != "" {
		return &ReadOnlyError{Path: db.path, Reason: db.readOnly}
	}
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

// exec runs one writing statement on the writer.
func (db *DB) exec(query string, args ...any) (sql.Result, error) {
	if db.readOnly != "" {
		return nil, &ReadOnlyError{Path: db.path, Reason: db.readOnly}
	}
	return db.w.Exec(query, args...)
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
