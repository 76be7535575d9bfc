//go:build !windows

package cli

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// leftovers lists what SQLite may leave beside a database file.
func leftovers(path string) []string {
	var out []string
	for _, s := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + s); err == nil {
			out = append(out, path+s)
		}
	}
	return out
}

// makeDB stores an event with n played two-seat games at path.
func makeDB(t *testing.T, path string, games int) {
	t.Helper()
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := event.Config{Format: event.League, Seats: 2, Games: games, Seed: 5,
		Entries: []event.Entry{{Name: "a"}, {Name: "b"}}}
	ev, err := db.CreateEvent(storage.Event{Name: "stored", Game: "battle2048", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	gs, _, err := event.Schedule(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddMatches(ev.ID, gs); err != nil {
		t.Fatal(err)
	}
	ms, _ := db.Matches(ev.ID)
	for i, m := range ms {
		if err := db.FinishMatch(m.ID, engine.Result{Ranks: []int{1 + i%2, 2 - i%2}}, nil, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// A --db that is not a regular file is refused at once, naming the file:
// a named pipe must not hang, a device must not get a -journal beside it.
func TestDBNotAFile(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	fifo := filepath.Join(t.TempDir(), "pipe.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	create := []string{"event", "create", "--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--db"}
	tests := []struct {
		path, want string
	}{
		{fifo, "open database " + fifo + ": it is a named pipe (FIFO), not a database file; give the path of a database file"},
		{"/dev/zero", "open database /dev/zero: it is a device, not a database file"},
	}
	for _, tt := range tests {
		for _, args := range [][]string{{"event", "list", "--db"}, create} {
			code, _, errs := ringsideAs(t, exe, nil, append(args, tt.path)...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("%v %s: exit %d, %q; want 1 and %q", args[:2], tt.path, code, errs, tt.want)
			}
			if l := leftovers(tt.path); len(l) > 0 {
				t.Errorf("%v %s left %v", args[:2], tt.path, l)
				for _, f := range l {
					os.Remove(f)
				}
			}
		}
	}
}

// A mistyped --db for a command that only reads says there is no database
// there, and creates none.
func TestDBMistyped(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	typo := filepath.Join(t.TempDir(), "ringsde.db")
	for _, args := range [][]string{{"event", "list"}, {"event", "show", "1"}, {"event", "standings", "1"}, {"replay", "export", "1"}} {
		code, _, errs := ringsideAs(t, exe, nil, append(args, "--db", typo)...)
		want := "no database at " + typo + "; check the --db path, or create a database there with \"ringside event create --db " + typo
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, %q; want 1 and %q", args, code, errs, want)
		}
		if _, err := os.Stat(typo); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v created %s", args, typo)
		}
	}
}

// A database in a folder this user cannot write is read by the reading
// commands, which leave nothing beside it; the writing ones refuse with
// a clear word, before SQLite creates a -wal or -shm file.
func TestDBReadOnlyFolder(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	dir := t.TempDir()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// Root writes anywhere; run as nobody, with the path and the
		// binary open to it.
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		exe = copyExe(t, exe, filepath.Join(dir, "bin"))
	}
	folder := filepath.Join(dir, "ro")
	os.Mkdir(folder, 0o755)
	path := filepath.Join(folder, "class.db")
	makeDB(t, path, 2)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(folder, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(folder, 0o755)
	reads := []struct {
		args []string
		want string
	}{
		{[]string{"event", "list"}, "stored"},
		{[]string{"event", "show", "1"}, "done"},
		{[]string{"event", "standings", "1"}, "PLACE"},
	}
	for _, r := range reads {
		code, out, errs := ringsideAs(t, exe, cred, append(r.args, "--db", path)...)
		if code != 0 || !strings.Contains(out, r.want) {
			t.Errorf("%v: exit %d, %q %q", r.args, code, out, errs)
		}
		if l := leftovers(path); len(l) > 0 {
			t.Fatalf("%v left %v", r.args, l)
		}
	}
	writes := [][]string{
		{"event", "run", "1"},
		{"event", "create", "--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random"},
	}
	for _, args := range writes {
		code, _, errs := ringsideAs(t, exe, cred, append(args, "--db", path)...)
		want := "database " + path + " cannot be changed: the file " + path + " is read-only"
		if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "Copy it to a folder you can write") {
			t.Errorf("%v: exit %d, %q; want 1 and %q", args, code, errs, want)
		}
		if l := leftovers(path); len(l) > 0 {
			t.Fatalf("%v left %v", args, l)
		}
	}
	// A writable file in a read-only folder: SQLite could not create its
	// -wal there, so writing is refused for the folder.
	if cred == nil {
		return
	}
	os.Chmod(folder, 0o755)
	os.Chmod(path, 0o666)
	os.Chmod(folder, 0o555)
	code, _, errs := ringsideAs(t, exe, cred, append(writes[1], "--db", path)...)
	if want := "its folder " + folder + " is read-only"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("writable file in a read-only folder: exit %d, %q; want %q", code, errs, want)
	}
	if code, out, _ := ringsideAs(t, exe, cred, "event", "list", "--db", path); code != 0 || !strings.Contains(out, "stored") || len(leftovers(path)) > 0 {
		t.Errorf("list in a read-only folder: exit %d, %q, left %v", code, out, leftovers(path))
	}
}

// copyExe copies the binary into dir, readable and runnable by anyone.
func copyExe(t *testing.T, exe, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := filepath.Join(dir, filepath.Base(exe))
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, src); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// A page damaged in the middle of the file: the command that reads it
// names the file and says how to recover.
func TestDBDamagedPage(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	path := filepath.Join(t.TempDir(), "damaged.db")
	makeDB(t, path, 150)
	// Find the matches table's first page and overwrite it.
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	root, pageSize := tablePage(t, path, "matches")
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, pageSize), int64(root-1)*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, errs := ringsideAs(t, exe, nil, "event", "show", "1", "--db", path)
	for _, want := range []string{"database " + path + " is damaged", "malformed", "Restore it from a backup", "sqlite3 " + path + " .recover"} {
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("event show: exit %d, %q; want 1 and %q", code, errs, want)
		}
	}
}

// tablePage reads a table's root page and the page size from the file's
// schema with the sqlite3-free storage package's own driver.
func tablePage(t *testing.T, path, table string) (root, pageSize int) {
	t.Helper()
	raw, err := sqlOpen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if err := raw.QueryRow(`SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_schema WHERE name = ?`, table).Scan(&root, &pageSize); err != nil {
		t.Fatal(err)
	}
	return root, pageSize
}

// A journal that cannot be written back at close (here: a file size limit
// below what the database grows to) makes the command fail with the
// file's name, not exit 0; the data stays in the -wal and the next
// command finds it.
func TestDBCloseErrorIsReported(t *testing.T) {
	t.Parallel()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("needs prlimit to set a file size limit")
	}
	exe, _ := runner.Executable()
	path := filepath.Join(t.TempDir(), "full.db")
	makeDB(t, path, 400)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// A long name needs new pages at the end of the file; the journal
	// gets them (it is far smaller than the file), the file cannot.
	name := strings.Repeat("n", 40_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, fmt.Sprintf("--fsize=%d", st.Size()), exe, "event", "create", "--db", path, "--name", name,
		"--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random")
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("create under a file size limit: %v; stdout %q stderr %q", err, out.String(), errs.String())
	}
	want := "close database " + path + ": write the journal " + path + "-wal back into the database"
	if !strings.Contains(errs.String(), want) || !strings.Contains(errs.String(), "the data is safe in the journal") {
		t.Errorf("stderr %q, want %q", errs.String(), want)
	}
	code, list, lerrs := ringsideAs(t, exe, nil, "event", "list", "--db", path)
	if code != 0 || !strings.Contains(list, "nnnnnnnn") {
		t.Errorf("the event was lost: exit %d, %q %q", code, list, lerrs)
	}
}

func sqlOpen(path string) (*sql.DB, error) {
	return sql.Open("sqlite", "file:"+path+"?mode=ro")
}
