//go:build unix

package storage

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Paths that are not regular files are refused before anything opens
// them: a named pipe would block the open forever, and SQLite would put a
// -journal file beside a device.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{fifo, "it is a named pipe (FIFO), not a database file"},
		{"/dev/zero", "it is a device, not a database file"},
	}
	for _, tt := range tests {
		for name, open := range map[string]func(string) (*DB, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
			done := make(chan error, 1)
			go func() {
				db, err := open(tt.path)
				if err == nil {
					db.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
					t.Errorf("%s(%s) = %v, want %q", name, tt.path, err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s(%s) hangs", name, tt.path)
			}
			if s := sidecars(tt.path); len(s) > 0 {
				t.Errorf("%s(%s) left %v", name, tt.path, s)
			}
		}
	}
}
