package service

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"ringside/app/internal/textdiff"
	"ringside/runner/build"
	"ringside/storage"
)

// FileChange is how one file differs between two revisions.
type FileChange struct {
	Path string
	// Kind is "added", "removed" or "changed".
	Kind string
	// Added and Removed count lines of a text file.
	Added, Removed int
	// Binary is set when either side is not text; then Size is the new
	// size (the old one for a removed file) and there is no Unified.
	Binary bool
	Size   int64
	// Unified is the unified diff of a text file (3 lines of context).
	Unified string
}

// RevisionDiff is what changed from one revision of an AI to another:
// the files that make a revision, as the build copied them.
type RevisionDiff struct {
	AI       storage.AI
	From, To storage.Revision
	Files    []FileChange // changed files, by path
	Same     int          // files the same in both
}

// diffMaxBytes is the largest file the diff reads as text; beyond it a
// changed file is shown like a binary one.
const diffMaxBytes = 4 << 20

// DiffRevisions compares revisions from and to (numbers, as in r3) of an
// AI: which of the files that make a revision were added, removed or
// changed, with line counts and the unified diff of text files.
func (s *Service) DiffRevisions(id int64, from, to int) (RevisionDiff, error) {
	st, err := s.AIByID(id)
	if err != nil {
		return RevisionDiff{}, err
	}
	find := func(n int) (storage.Revision, error) {
		for _, r := range st.Revisions {
			if r.Number == n && r.Status == storage.BuildOK {
				if !folderExists(r.ArtifactDir) {
					return r, Errorf(Failed, "revision %d of %s: its folder %s is gone, so its files cannot be compared", n, st.AI.Name, r.ArtifactDir)
				}
				return r, nil
			}
		}
		return storage.Revision{}, (Errorf(Invalid, "AI %s has no revision %d", st.AI.Name, n)).withFix(FixRevisions, st.AI.Name)
	}
	d := RevisionDiff{AI: st.AI}
	if d.From, err = find(from); err != nil {
		return d, err
	}
	if d.To, err = find(to); err != nil {
		return d, err
	}
	list := func(r storage.Revision) (map[string]bool, error) {
		files, _, err := build.SourceFiles(r.ArtifactDir, st.AI.BuildCmd, r.RunCmd)
		if err != nil {
			return nil, wrap(Failed, err, "files of revision %d", r.Number)
		}
		set := make(map[string]bool, len(files))
		for _, f := range files {
			set[f] = true
		}
		return set, nil
	}
	a, err := list(d.From)
	if err != nil {
		return d, err
	}
	b, err := list(d.To)
	if err != nil {
		return d, err
	}
	var paths []string
	for p := range a {
		paths = append(paths, p)
	}
	for p := range b {
		if !a[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := d.compareFile(p, a[p], b[p]); err != nil {
			return d, err
		}
	}
	return d, nil
}

// compareFile compares file p (a slash path) of the two revisions, in
// the older one if inFrom and in the newer if inTo: the same, or a change.
func (d *RevisionDiff) compareFile(p string, inFrom, inTo bool) error {
	var old, cur []byte
	var err error
	if inFrom {
		if old, err = os.ReadFile(filepath.Join(d.From.ArtifactDir, filepath.FromSlash(p))); err != nil {
			return wrap(Failed, err, "revision %d", d.From.Number)
		}
	}
	if inTo {
		if cur, err = os.ReadFile(filepath.Join(d.To.ArtifactDir, filepath.FromSlash(p))); err != nil {
			return wrap(Failed, err, "revision %d", d.To.Number)
		}
	}
	if inFrom && inTo && bytes.Equal(old, cur) {
		d.Same++
		return nil
	}
	fc := FileChange{Path: p, Kind: "changed", Size: int64(len(cur))}
	switch {
	case !inFrom:
		fc.Kind = "added"
	case !inTo:
		fc.Kind, fc.Size = "removed", int64(len(old))
	}
	fc.Binary = !isText(old) || !isText(cur)
	if !fc.Binary {
		from, to := d.From.Number, d.To.Number
		fc.Unified = textdiff.Unified(fmt.Sprintf("r%d/%s", from, p), fmt.Sprintf("r%d/%s", to, p), string(old), string(cur), 3)
		fc.Removed, fc.Added = textdiff.Stat(string(old), string(cur))
	}
	d.Files = append(d.Files, fc)
	return nil
}

// isText reports whether a file reads as text: UTF-8 without NUL bytes,
// and small enough to compare line by line.
func isText(b []byte) bool {
	return len(b) <= diffMaxBytes && bytes.IndexByte(b, 0) < 0 && utf8.Valid(b)
}

// ChangeText is a file change's size in words: "+3 −1 lines" or
// "binary, 1204 bytes".
func ChangeText(f FileChange) string {
	if f.Binary {
		return fmt.Sprintf("binary, %d bytes", f.Size)
	}
	return fmt.Sprintf("+%d -%d lines", f.Added, f.Removed)
}
