package storage

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"ringside/engine/event"
)

func pragma(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	var v string
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestOpenCreatesFolderAndSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a", "b c?#", "ringside.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"journal_mode":   "wal",
		"foreign_keys":   "1",
		"synchronous":    "1", // NORMAL
		"busy_timeout":   "5000",
		"application_id": "1380535879",
		"user_version":   strconv.Itoa(len(migs)),
	}
	for name, v := range want {
		if got := pragma(t, db.w, name); got != v {
			t.Errorf("PRAGMA %s = %s, want %s", name, got, v)
		}
	}
	if got := pragma(t, db.r, "query_only"); got != "1" {
		t.Errorf("reader connections are not query_only")
	}
	if _, err := db.r.Exec("DELETE FROM ais"); err == nil {
		t.Errorf("a write through the reader pool succeeded")
	}
	if s, err := db.IntegrityCheck(); err != nil || s != "ok" {
		t.Errorf("IntegrityCheck = %q, %v", s, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database file not at %s: %v", path, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening again is a no-op for the schema and keeps the data.
	db = openAt(t, path)
	if got := pragma(t, db.w, "user_version"); got != want["user_version"] {
		t.Errorf("user_version after reopen = %s", got)
	}
}

func TestLoadMigrations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files []string
		want  int
		err   string
	}{
		{"ordered", []string{"0002_more.sql", "0001_init.sql"}, 2, ""},
		{"gap", []string{"0001_init.sql", "0003_skip.sql"}, 0, "0003_skip.sql: want the name 0002_"},
		{"no number", []string{"init.sql"}, 0, "init.sql: want the name 0001_"},
		{"none", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tt.files {
				fsys["migrations/"+f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
			}
			migs, err := loadMigrations(fsys)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.err)
				}
				return
			}
			if err != nil || len(migs) != tt.want {
				t.Fatalf("got %d migrations, %v; want %d", len(migs), err, tt.want)
			}
			for i, m := range migs {
				if m.version != i+1 {
					t.Errorf("migration %d has version %d", i, m.version)
				}
			}
		})
	}
	if _, err := loadMigrations(migrationFiles); err != nil {
		t.Errorf("embedded migrations: %v", err)
	}
}

// seeders put a row into a database at a given schema version, and check
// it survived the upgrade. Index n is for a database at version n.
var seeders = map[int]struct {
	put   func(t *testing.T, db *DB)
	check func(t *testing.T, db *DB)
}{
	1: {
		put: func(t *testing.T, db *DB) {
			if _, err := db.w.Exec(`INSERT INTO ais (name, game, run_cmd, created) VALUES ('old', 'grip', './old', 1)`); err != nil {
				t.Fatal(err)
			}
		},
		check: func(t *testing.T, db *DB) {
			a, err := db.AIByName("old")
			if err != nil || a.RunCmd != "./old" {
				t.Errorf("AI from schema 1 after upgrade: %+v, %v", a, err)
			}
		},
	},
	2: {
		// Multi-seat leagues from before balanced seat orders keep their
		// rotations; two-seat leagues have nothing to keep.
		put: func(t *testing.T, db *DB) {
			oldEvent(t, db, 5, 4)
			oldEvent(t, db, 3, 2)
		},
		check: func(t *testing.T, db *DB) {
			for id, want := range map[int64]string{1: event.OrdersRotations, 2: event.OrdersBalanced} {
				ev, err := db.Event(id)
				if err != nil || ev.Config.Orders != want {
					t.Errorf("event %d after upgrade: orders %q, %v; want %q", id, ev.Config.Orders, err, want)
				}
			}
			fresh := mkEvent(t, db, 5, 4)
			if fresh.Config.Orders != event.OrdersBalanced {
				t.Errorf("a new league has orders %q", fresh.Config.Orders)
			}
		},
	},
}

// oldEvent stores a league of n entries with the columns every schema has,
// as a database of an older version holds it.
func oldEvent(t *testing.T, db *DB, n, seats int) {
	t.Helper()
	cfg := event.Config{Format: event.League, Seats: seats, Games: 1, Seed: 42}
	for i := range n {
		cfg.Entries = append(cfg.Entries, event.Entry{Name: fmt.Sprintf("bot%d", i)})
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.w.Exec(`INSERT INTO events (name, game, format, config, created) VALUES ('old league', 'grip', 'league', ?, 1)`, string(js))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := res.LastInsertId()
	for i, e := range cfg.Entries {
		if _, err := db.w.Exec(`INSERT INTO entries (event_id, idx, name) VALUES (?, ?, ?)`, id, i, e.Name); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrateFromEachVersion(t *testing.T) {
	t.Parallel()
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= len(migs); n++ {
		t.Run("schema"+strconv.Itoa(n), func(t *testing.T) {
			abs := filepath.Join(t.TempDir(), "old.db")
			old, err := open(abs, migs[:n])
			if err != nil {
				t.Fatal(err)
			}
			if got := pragma(t, old.w, "user_version"); got != strconv.Itoa(n) {
				t.Fatalf("built database at version %s, want %d", got, n)
			}
			s, seeded := seeders[n]
			if seeded {
				s.put(t, old)
			}
			if err := old.Close(); err != nil {
				t.Fatal(err)
			}
			db := openAt(t, abs)
			if got := pragma(t, db.w, "user_version"); got != strconv.Itoa(len(migs)) {
				t.Errorf("user_version after upgrade = %s, want %d", got, len(migs))
			}
			if seeded {
				s.check(t, db)
			}
			if s, err := db.IntegrityCheck(); err != nil || s != "ok" {
				t.Errorf("IntegrityCheck = %q, %v", s, err)
			}
		})
	}
}

func TestMigrationFailureRollsBack(t *testing.T) {
	t.Parallel()
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	bad := append(migs[:len(migs):len(migs)], migration{version: len(migs) + 1, name: "9999_bad.sql",
		sql: "CREATE TABLE half (a INTEGER); INSERT INTO nosuch VALUES (1);"})
	abs := filepath.Join(t.TempDir(), "r.db")
	_, err = open(abs, bad)
	if err == nil || !strings.Contains(err.Error(), "9999_bad.sql") || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("err = %v, want a failure naming the migration and its cause", err)
	}
	db := openAt(t, abs)
	if got := pragma(t, db.w, "user_version"); got != strconv.Itoa(len(migs)) {
		t.Errorf("user_version = %s, want %d: the failed step must not count", got, len(migs))
	}
	var n int
	if err := db.r.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'half'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("table of the failed migration exists (%d, %v)", n, err)
	}
}

// ringsideFile makes a closed Ringside database and returns its path.
func ringsideFile(t *testing.T, dir string) string {
	path := filepath.Join(dir, "ringside.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddAI(AI{Name: "x", Game: "grip"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// knownSchema is the newest schema version this build knows.
func knownSchema(t *testing.T) int {
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	return len(migs)
}

// plainSQLite makes an SQLite file of another program.
func plainSQLite(t *testing.T, dir string, stmts ...string) string {
	path := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenRefusesAndLeavesFileUntouched(t *testing.T) {
	t.Parallel()
	write := func(data []byte) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "x.db")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	random := make([]byte, 8192)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name string
		make func(t *testing.T, dir string) string
		want string
		as   any
	}{
		{"text file", write([]byte("name,score\nalice,3\n")),
			"is not a Ringside database or is damaged: it does not start with the SQLite file header; it was left untouched", &DamagedError{}},
		{"random bytes", write(random), "does not start with the SQLite file header", &DamagedError{}},
		{"header only", write([]byte(sqliteHeader + "\x10\x00")), "it is cut short (18 bytes", &DamagedError{}},
		{"garbage after header", func(t *testing.T, dir string) string {
			path := ringsideFile(t, dir)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := 100; i < 4096 && i < len(b); i++ {
				b[i] = 0xA5 // page 1 holds the schema; wreck it
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}, "is not a Ringside database or is damaged: ", &DamagedError{}},
		{"other program", func(t *testing.T, dir string) string {
			return plainSQLite(t, dir, "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep me')")
		}, "SQLite database of another program (1 tables and indexes, schema version 0)", &DamagedError{}},
		{"other program with an id", func(t *testing.T, dir string) string {
			return plainSQLite(t, dir, "PRAGMA application_id = 1234", "CREATE TABLE notes (body TEXT)")
		}, "another program (application id 0x4d2)", &DamagedError{}},
		{"newer schema", func(t *testing.T, dir string) string {
			path := ringsideFile(t, dir)
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", knownSchema(t)+1)); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			return path
		}, fmt.Sprintf("was written by a newer Ringside (schema %d, this build knows %d): upgrade Ringside or use another --db", knownSchema(t)+1, knownSchema(t)), &NewerSchemaError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.make(t, dir)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			db, err := Open(path)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v\nwant it to name the file and say %q", err, tt.want)
			}
			switch tt.as.(type) {
			case *DamagedError:
				var de *DamagedError
				if !errors.As(err, &de) {
					t.Errorf("err is %T, not a *DamagedError", err)
				}
			case *NewerSchemaError:
				var ne *NewerSchemaError
				if !errors.As(err, &ne) || ne.Schema != knownSchema(t)+1 {
					t.Errorf("err is %T %v, not a *NewerSchemaError for schema %d", err, ne, knownSchema(t)+1)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("Open changed the refused file")
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != filepath.Base(path) {
					t.Errorf("Open left %s behind", e.Name())
				}
			}
		})
	}
}

func TestOpenAcceptsEmptyFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		make func(t *testing.T, dir string) string
	}{
		{"zero-length file", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "empty.db")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}},
		{"empty SQLite database", func(t *testing.T, dir string) string {
			return plainSQLite(t, dir, "VACUUM")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.make(t, t.TempDir())
			db := openAt(t, path)
			if _, err := db.AddAI(AI{Name: "a", Game: "grip"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "it is a folder") {
		t.Errorf("Open(folder) = %v, want a folder error", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(file, "x.db")); err == nil || !strings.Contains(err.Error(), "create the folder") {
		t.Errorf("Open under a file = %v, want a folder error", err)
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG layout is for Linux")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct {
		xdg, want string
	}{
		{"/data/x", "/data/x/ringside/ringside.db"},
		{"", filepath.Join(home, ".local/share/ringside/ringside.db")},
		{"relative/dir", filepath.Join(home, ".local/share/ringside/ringside.db")},
	}
	for _, tt := range tests {
		t.Setenv("XDG_DATA_HOME", tt.xdg)
		got, err := DefaultPath()
		if err != nil || got != tt.want {
			t.Errorf("XDG_DATA_HOME=%q: DefaultPath() = %q, %v; want %q", tt.xdg, got, err, tt.want)
		}
	}
}

func TestIntegrityCheckFindsDamage(t *testing.T) {
	t.Parallel()
	db, ev := openWithEvent(t, 2, 2)
	if err := db.AddMatches(ev.ID, schedule(4)); err != nil {
		t.Fatal(err)
	}
	// Break a foreign key behind SQLite's back.
	if _, err := db.w.Exec(`PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.Exec(`UPDATE matches SET event_id = 999 WHERE idx = 0`); err != nil {
		t.Fatal(err)
	}
	s, err := db.IntegrityCheck()
	if err != nil || !strings.Contains(s, "matches row") || !strings.Contains(s, "missing events row") {
		t.Errorf("IntegrityCheck = %q, %v; want the broken reference", s, err)
	}
}
