package runner

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// protected are the paths no bot may be granted, whatever its command
// line names or PATH holds: the databases this process has opened, their
// journals and their data folders (Protect).
var protected struct {
	sync.Mutex
	paths []string
}

// Protect keeps paths out of every sandboxed bot's reach from now on: a
// path of its Read list that is one of them, lies inside one or holds one
// is dropped. The service calls it when it opens a database, with the
// file, its -wal, -shm and -journal and its data folder (where the
// revisions are: a bot's own revision folder is granted by itself, not
// through this list). Relative paths are made absolute; symbolic links
// are resolved as well, so a link to a protected path is refused too.
func Protect(paths ...string) {
	protected.Lock()
	defer protected.Unlock()
	for _, p := range paths {
		for _, q := range pathForms(p) {
			if !slices.Contains(protected.paths, q) {
				protected.paths = append(protected.paths, q)
			}
		}
	}
}

// Protected is a copy of the protected paths (Protect).
func Protected() []string {
	protected.Lock()
	defer protected.Unlock()
	return append([]string(nil), protected.paths...)
}

// pathForms are p made absolute and clean, and, where it differs, what
// its symbolic links resolve to (of p, or of its folder when p itself does
// not exist yet, as a -wal file before the first write).
func pathForms(p string) []string {
	if p == "" {
		return nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil
	}
	forms := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		if real != abs {
			forms = append(forms, real)
		}
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		if real := filepath.Join(dir, filepath.Base(abs)); real != abs {
			forms = append(forms, real)
		}
	}
	return forms
}

// unprotected is paths without those that are, lie inside or hold a
// protected path, as written or once their links are resolved.
func unprotected(paths []string) []string {
	prot := Protected()
	if len(prot) == 0 {
		return paths
	}
	var out []string
	for _, p := range paths {
		ok := true
		for _, form := range pathForms(p) {
			if touchesAny(form, prot) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// touchesAny tells whether p is one of dirs, lies inside one or holds one.
func touchesAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) || within(d, p) {
			return true
		}
	}
	return false
}

// within tells whether p is dir or lies inside it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
