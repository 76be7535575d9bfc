//go:build unix

package build

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens p for reading, never following a symbolic link
// (refused as errNotRegular) and never waiting on a FIFO.
func openNoFollow(p string) (*os.File, error) {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &fs.PathError{Op: "open", Path: p, Err: errNotRegular}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// allocated is the space a file's blocks take on disk.
func allocated(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return 0
}
