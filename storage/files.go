package storage

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DataDir is the folder of files that belong to this database alone: the
// built revisions of its AIs and the locks of their builds. It sits beside
// the database file and is named after it (class.db → class-data), so two
// databases in one folder never share a revision folder.
func (db *DB) DataDir() string {
	base := filepath.Base(db.path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "" {
		stem = base
	}
	return filepath.Join(filepath.Dir(db.path), stem+"-data")
}

// RevisionsDir is where the builds of ai are kept: one folder per AI in
// DataDir, named after the AI and its ID so that a removed AI and a new
// one of the same name never mix.
func (db *DB) RevisionsDir(ai AI) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, ai.Name)
	if strings.Trim(safe, "._") == "" {
		safe = "ai"
	}
	return filepath.Join(db.DataDir(), "revisions", fmt.Sprintf("%s-%d", safe, ai.ID))
}

// Owns reports whether path lies inside DataDir: only such files are this
// database's to delete. Revisions built before schema 2 live in a folder
// that two databases in one folder shared.
func (db *DB) Owns(path string) bool {
	rel, err := filepath.Rel(db.DataDir(), path)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel)
}

// LockAI takes the build lock of an AI: an advisory lock on a file in
// DataDir, held across processes (two "ringside watch", or a watch and the
// desktop app) and dropped by the kernel if the holder dies. It waits for
// the lock until ctx ends. unlock releases it.
func (db *DB) LockAI(ctx context.Context, id int64) (unlock func(), err error) {
	dir := filepath.Join(db.DataDir(), "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock the build of AI %d: %w", id, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("ai-%d.lock", id))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock the build of AI %d: %w", id, err)
	}
	// Polling rather than a blocking flock, so a cancelled build stops
	// waiting at once.
	for {
		busy, err := tryLock(f)
		if err == nil && !busy {
			return func() {
				unlockFile(f)
				f.Close()
			}, nil
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock the build of AI %d (%s): %w", id, path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("lock the build of AI %d: %w", id, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// RemoveRevisionFolders deletes the folders of revs that this database
// owns (see Owns), and ai's revisions folder when nothing is left in it.
// It returns the folders deleted and those left because they lie outside
// DataDir (built before schema 2, possibly shared with another database).
func (db *DB) RemoveRevisionFolders(ai AI, revs []Revision) (removed, kept []string, err error) {
	for _, r := range revs {
		if r.ArtifactDir == "" {
			continue
		}
		if !db.Owns(r.ArtifactDir) {
			if _, statErr := os.Stat(r.ArtifactDir); statErr == nil {
				kept = append(kept, r.ArtifactDir)
			}
			continue
		}
		if err := removeSealed(r.ArtifactDir); err != nil {
			return removed, kept, fmt.Errorf("delete revision folder %s: %w", r.ArtifactDir, err)
		}
		removed = append(removed, r.ArtifactDir)
	}
	dir := db.RevisionsDir(ai)
	if err := removeSealed(dir); err != nil {
		return removed, kept, fmt.Errorf("delete revisions folder %s: %w", dir, err)
	}
	os.Remove(filepath.Join(db.DataDir(), "locks", fmt.Sprintf("ai-%d.lock", ai.ID)))
	return removed, kept, nil
}

// removeSealed deletes a folder that holds read-only revision folders
// (builds make them 0555): its folders are made writable first, as
// deleting a file needs its folder writable, even for its owner.
func removeSealed(dir string) error {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
