//go:build !unix

package storage

import (
	"fmt"
	"os"
)

// canWrite reports whether this process may write the database file abs
// (when it exists); a folder's permissions are left to SQLite here.
func canWrite(abs, dir string, exists bool) (bool, string) {
	if exists {
		f, err := os.OpenFile(abs, os.O_WRONLY, 0)
		if err != nil {
			return false, fmt.Sprintf("the file %s cannot be opened for writing (%v)", abs, err)
		}
		f.Close()
	}
	return true, ""
}
