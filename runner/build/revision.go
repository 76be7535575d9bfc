package build

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// A revision folder, once built, is read-only (files 0444 or 0555,
// folders 0555) and its digest is stored with it; before it plays,
// VerifyRevision compares the folder with the digest, so a revision
// changed since it was built (by anything running as the teacher) is
// refused rather than played.

// Seal makes a revision folder read-only and returns its digest.
func Seal(dir string) (string, error) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // a link's mode is not its own
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o444)
		if d.IsDir() || info.Mode().Perm()&0o100 != 0 {
			mode = 0o555
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		return "", fmt.Errorf("make %s read-only: %w", dir, err)
	}
	return Digest(dir)
}

// Unseal makes a sealed folder writable again so it can be deleted
// (removing a file needs its folder writable, even for its owner).
// Folders only: files' modes do not matter for deleting them.
func Unseal(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrPermission) && d != nil && d.IsDir() {
				// Not readable: chmod it, then the walk can go on.
				if cerr := os.Chmod(p, 0o755); cerr == nil {
					return nil
				}
			}
			return nil // what cannot be opened, RemoveAll will report
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return nil
	})
}

// RemoveRevision deletes a (possibly sealed) revision folder.
func RemoveRevision(dir string) error {
	if err := Unseal(dir); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// Digest is the SHA-256 of a whole revision folder: every path, kind,
// permission bits, file contents and link targets, build outputs
// included. Only regular files are opened.
func Digest(dir string) (string, error) {
	type entry struct {
		rel  string
		mode fs.FileMode
	}
	var all []entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		all = append(all, entry{filepath.ToSlash(rel), info.Mode()})
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("digest %s: %w", dir, err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].rel < all[j].rel })
	h := sha256.New()
	io.WriteString(h, "ringside-revision/1\x00")
	for _, e := range all {
		p := filepath.Join(dir, filepath.FromSlash(e.rel))
		fmt.Fprintf(h, "%s\x00%o\x00", e.rel, uint32(e.mode))
		switch {
		case e.mode&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return "", fmt.Errorf("digest %s: %w", p, err)
			}
			io.WriteString(h, t)
		case e.mode.IsRegular():
			f, _, err := openRegular(p)
			if err != nil {
				return "", fmt.Errorf("digest %s: %w", p, err)
			}
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return "", fmt.Errorf("digest %s: %w", p, err)
			}
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ErrTampered is a revision folder that no longer matches its digest.
var ErrTampered = errors.New("changed since it was built")

// VerifyRevision checks a revision folder against its digest; an error
// wrapping ErrTampered when they differ.
func VerifyRevision(dir, digest string) error {
	got, err := Digest(dir)
	if err != nil {
		return err
	}
	if got != digest {
		return fmt.Errorf("revision folder %s: %w", dir, ErrTampered)
	}
	return nil
}
