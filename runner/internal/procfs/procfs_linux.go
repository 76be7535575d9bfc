package procfs

import (
	"os"

	"golang.org/x/sys/unix"
)

// ReadFile reads the whole file at path.
func ReadFile(path string) ([]byte, error) {
	fd, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// Open opens path for reading, close-on-exec, as a plain descriptor for
// ReadAt and unix.Close.
func Open(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// ReadAt reads the file open as fd from its start into buf, again and
// again as the kernel updates it.
func ReadAt(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Pread(fd, buf, 0)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// List lists the names in the folder at path.
func List(path string) ([]string, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.Getdents(fd, buf)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "getdents", Path: path, Err: err}
		case n <= 0:
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}
