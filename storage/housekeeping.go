package storage

import (
	"database/sql"
	"fmt"
	"os"
)

// deleteBatch is how many games DeleteEventProgress deletes per
// statement: small enough that progress moves several times a second on a
// 100k-game event, large enough that the statements cost little.
const deleteBatch = 2000

// DeleteEventProgress is DeleteEvent for a big event: it deletes the
// event's games (with their replays) in batches, calling progress after
// each with the games deleted so far and the total, and then the event.
// All of it is one transaction, so a failure (or a kill) leaves the event
// whole. progress may be nil.
func (db *DB) DeleteEventProgress(id int64, progress func(done, total int)) error {
	err := db.write(func(tx *sql.Tx) error {
		var total int
		if err := tx.QueryRow(`SELECT COUNT(*) FROM matches WHERE event_id = ?`, id).Scan(&total); err != nil {
			return err
		}
		del, err := tx.Prepare(`DELETE FROM matches WHERE id IN (SELECT id FROM matches WHERE event_id = ? LIMIT ?)`)
		if err != nil {
			return err
		}
		defer del.Close()
		done := 0
		for done < total {
			res, err := del.Exec(id, deleteBatch)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if n == 0 {
				break
			}
			done += int(n)
			if progress != nil {
				progress(min(done, total), total)
			}
		}
		res, err := tx.Exec(`DELETE FROM events WHERE id = ?`, id)
		if err != nil {
			return err
		}
		return mustAffect(res, fmt.Sprintf("delete event %d", id))
	})
	if err != nil {
		return fmt.Errorf("delete event %d: %w", id, err)
	}
	return nil
}

// Space is how the database file's pages are used.
type Space struct {
	PageSize  int64
	Pages     int64 // in the main file
	FreePages int64 // on the freelist: space a VACUUM gives back
}

// Bytes is the file's size as SQLite sees it.
func (s Space) Bytes() int64 { return s.Pages * s.PageSize }

// FreeBytes is the space a VACUUM would give back.
func (s Space) FreeBytes() int64 { return s.FreePages * s.PageSize }

// MostlyFree says whether more than a quarter of the file is free pages,
// when compacting it is worth the time.
func (s Space) MostlyFree() bool { return s.Pages > 0 && s.FreePages*4 > s.Pages }

// Space reads the page counts (PRAGMA page_count, freelist_count) on the
// writer, which sees its own latest commit.
func (db *DB) Space() (Space, error) {
	var s Space
	c := db.w
	if db.readOnly != "" {
		c = db.r
	}
	for _, q := range []struct {
		pragma string
		v      *int64
	}{{"page_size", &s.PageSize}, {"page_count", &s.Pages}, {"freelist_count", &s.FreePages}} {
		if err := c.QueryRow("PRAGMA " + q.pragma).Scan(q.v); err != nil {
			return Space{}, fmt.Errorf("space of %s: %s: %w", db.path, q.pragma, err)
		}
	}
	return s, nil
}

// FileSize is the size on disk of the database file and its -wal journal.
func (db *DB) FileSize() int64 {
	var n int64
	for _, p := range []string{db.path, db.path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Vacuum rebuilds the database file without its free pages (SQLite's
// VACUUM), then writes the journal back and truncates it, so the file on
// disk shrinks to its live size. It needs about the live size again in
// free disk space meanwhile and holds the write lock throughout; SQLite
// reports no progress while it works.
func (db *DB) Vacuum() error {
	if db.readOnly != "" {
		return &ReadOnlyError{Path: db.path, Reason: db.readOnly}
	}
	if _, err := db.w.Exec(`VACUUM`); err != nil {
		return fmt.Errorf("vacuum %s: %w", db.path, err)
	}
	// In WAL mode VACUUM writes the new pages to the journal; the main
	// file shrinks when they are checkpointed back.
	if _, err := db.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("vacuum %s: write the journal back: %w", db.path, err)
	}
	return nil
}
