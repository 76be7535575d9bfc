package build

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LimitError is a source folder over one of the caps (MaxSourceFile…):
// Error says which file, which cap, and what to do.
type LimitError struct {
	Path string // relative, slashes
	Msg  string
}

func (e *LimitError) Error() string { return e.Msg }

// sizeText writes a size as people read it: 2.0 GiB, 64 MiB, 12 KiB.
func sizeText(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f, u = f/1024, u+1
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d %s", int64(f), units[u])
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

const leaveOut = "leave it out with a line in " + IgnoreFile

// budget counts what a walk of a source folder has seen against the caps.
type budget struct {
	total int64
}

// file checks one regular file of size bytes (its apparent size: a sparse
// file counts whole).
func (b *budget) file(rel string, size int64) error {
	if size > MaxSourceFile {
		return &LimitError{rel, fmt.Sprintf("%s is %s, over the %s a source file may be: %s", rel, sizeText(size), sizeText(MaxSourceFile), leaveOut)}
	}
	b.total += size
	if b.total > MaxSourceTotal {
		return &LimitError{rel, fmt.Sprintf("the sources add up to more than %s (at %s, %s): leave out data and large files with lines in %s",
			sizeText(MaxSourceTotal), rel, sizeText(size), IgnoreFile)}
	}
	return nil
}

// kindText names a file that is not a regular file, folder or link.
func kindText(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Special says why a file of a source folder is left out for its kind
// (pipes, sockets, devices are never opened), "" for files, folders and
// symbolic links.
func Special(m fs.FileMode) string {
	if m.IsRegular() || m.IsDir() || m&fs.ModeSymlink != 0 {
		return ""
	}
	return kindText(m) + ": not a source file, never opened"
}

// errNotRegular is what openRegular says of anything but a regular file.
var errNotRegular = errors.New("not a regular file")

// openRegular opens a regular file for reading and nothing else: never
// following a symbolic link, never waiting on a FIFO (O_NONBLOCK), and
// checking the kind on the opened file itself, so a file swapped for a
// pipe between a look and the open is refused too.
func openRegular(p string) (*os.File, fs.FileInfo, error) {
	f, err := openNoFollow(p)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%w (%s)", errNotRegular, kindText(info.Mode()))}
	}
	return f, info, nil
}

// readSource reads a regular file of a student's folder to guess its
// commands: never a FIFO, a device or a link (a FIFO named main.py would
// block "ai add" for ever), and at most guessReadMax bytes of it.
func readSource(p string) ([]byte, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, guessReadMax))
}

// guessReadMax is as much of one file as guessing reads: entry points
// and build names are found near the top of any real source file.
const guessReadMax = 4 << 20

// readCapped copies a regular file to w, refusing one that is (or grows)
// over the caps while it is read.
func readCapped(b *budget, rel string, f *os.File, info fs.FileInfo, w io.Writer) error {
	if err := b.file(rel, info.Size()); err != nil {
		return err
	}
	n, err := io.Copy(w, io.LimitReader(f, MaxSourceFile+1))
	if err != nil {
		return err
	}
	if n > info.Size() {
		// Grew while read: count what was read.
		if err := b.file(rel, n-info.Size()); err != nil {
			return err
		}
		if n > MaxSourceFile {
			return b.file(rel, n)
		}
	}
	return nil
}

// walkTree calls visit for every file and folder below dir, by its
// relative slash path, leaving out what skip says (a folder with
// everything in it). It stops with a LimitError at MaxSourceFiles entries
// or folders deeper than MaxSourceDepth, before looking at the rest.
func walkTree(dir string, skip func(rel string, isDir bool) bool, visit func(rel string, d fs.DirEntry) error) error {
	seen := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if skip(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if seen++; seen > MaxSourceFiles {
			return &LimitError{rel, fmt.Sprintf("the folder holds more than %d files and folders (stopped counting at %s): leave out what the bot does not need with lines in %s",
				MaxSourceFiles, rel, IgnoreFile)}
		}
		if d.IsDir() && strings.Count(rel, "/")+1 > MaxSourceDepth {
			return &LimitError{rel, fmt.Sprintf("%s is nested %d folders deep, deeper than the %d a source folder may be: %s",
				rel, strings.Count(rel, "/")+1, MaxSourceDepth, leaveOut)}
		}
		return visit(rel, d)
	})
}
