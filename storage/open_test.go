package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sidecars lists the files SQLite keeps beside a database.
func sidecars(path string) []string {
	var out []string
	for _, s := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + s); err == nil {
			out = append(out, filepath.Base(path+s))
		}
	}
	return out
}

func TestOpenReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.db")
	_, err := OpenReadOnly(missing)
	var none *NoDatabaseError
	if !errors.As(err, &none) || !strings.Contains(err.Error(), "no database at "+missing) ||
		!strings.Contains(err.Error(), "ringside event create --db") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read-only open created %s", missing)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	if _, err := OpenReadOnly(empty); !errors.As(err, &none) || !strings.Contains(err.Error(), "is empty") {
		t.Fatalf("empty file: %v", err)
	}

	path := filepath.Join(dir, "r.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ev := mkEvent(t, db, 3, 2)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ro.Event(ev.ID); err != nil || got.Name != ev.Name {
		t.Fatalf("read: %+v, %v", got, err)
	}
	writes := map[string]func() error{
		"SetEventStatus": func() error { return ro.SetEventStatus(ev.ID, EventPaused) },
		"AddMatches":     func() error { return ro.AddMatches(ev.ID, schedule(2)) },
		"LockEvent":      func() error { _, err := ro.LockEvent(ev.ID); return err },
	}
	for name, w := range writes {
		var re *ReadOnlyError
		if err := w(); !errors.As(err, &re) || !strings.Contains(err.Error(), "cannot be changed") {
			t.Errorf("%s on a read-only database: %v", name, err)
		}
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if s := sidecars(path); len(s) > 0 {
		t.Errorf("read-only use left %v", s)
	}
	if db, err := Open(path); err != nil {
		t.Fatal(err)
	} else if got, _ := db.Event(ev.ID); got.Status != EventCreated {
		t.Errorf("status changed to %s", got.Status)
	} else {
		db.Close()
	}
}

// A page damaged in the middle of the file opens fine (Open reads only
// the header and the schema) and fails the first query that reads it;
// Explain names the file and says what to do.
func TestExplainCorruption(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ev := mkEvent(t, db, 3, 2)
	if err := db.AddMatches(ev.ID, schedule(400)); err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	if err := db.r.QueryRow(`SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_schema WHERE name = 'matches'`).Scan(&root, &pageSize); err != nil {
		t.Fatal(err)
	}
	db.Close()
	damagePage(t, path, root, pageSize)
	db = openAt(t, path)
	_, err = db.Matches(ev.ID)
	err = db.Explain(err)
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "database "+path+" is damaged") ||
		!strings.Contains(err.Error(), "malformed") || !strings.Contains(err.Error(), ".recover") {
		t.Fatalf("err = %v", err)
	}
	if db.Explain(ErrNotFound) != ErrNotFound || db.Explain(nil) != nil {
		t.Error("Explain changed an error that is not damage")
	}
}

// damagePage overwrites page n (1-based) of a database file with garbage.
func damagePage(t *testing.T, path string, n, pageSize int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, pageSize)
	for i := range junk {
		junk[i] = byte(i*7 + 3)
	}
	if _, err := f.WriteAt(junk, (n-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
