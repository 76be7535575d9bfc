//go:build unix

package storage

import (
	"errors"
	"fmt"
	"syscall"
)

// canWrite reports whether this process may write the database file abs
// (when it exists) and create files in its folder dir, as SQLite must for
// its -wal and -shm files; else it says why not.
func canWrite(abs, dir string, exists bool) (bool, string) {
	const wOK = 2
	if exists {
		if err := syscall.Access(abs, wOK); err != nil {
			return false, why("the file", abs, err)
		}
	}
	if err := syscall.Access(dir, wOK); err != nil {
		return false, why("its folder", dir, err) + " (SQLite keeps its -wal and -shm files beside the database)"
	}
	return true, ""
}

func why(what, path string, err error) string {
	if errors.Is(err, syscall.EROFS) {
		return fmt.Sprintf("%s %s is on a read-only file system", what, path)
	}
	return fmt.Sprintf("%s %s is read-only for this user (%v)", what, path, err)
}
