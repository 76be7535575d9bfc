package storage

import (
	"crypto/rand"
	"database/sql"
	"errors"
	"testing"
)

// addReplays gives every match of db a replay of n random bytes
// (incompressible, so the file's size is what a real replay of that
// compressed size costs).
func addReplays(t testing.TB, db *DB, n int) {
	t.Helper()
	blob := make([]byte, n)
	rand.Read(blob)
	err := db.write(func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO replays (match_id, codec, size, data) SELECT id, 1, ?, ? FROM matches`, 4*n, blob)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeleteEventProgressAndVacuum: deleting an event in batches reports
// progress up to its whole game count and removes its games and replays;
// the space is free pages until Vacuum, which shrinks the file on disk.
func TestDeleteEventProgressAndVacuum(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	keep := mkEvent(t, db, 2, 2)
	if err := db.AddMatches(keep.ID, schedule(10)); err != nil {
		t.Fatal(err)
	}
	big := mkEvent(t, db, 4, 4)
	const games = 2*deleteBatch + 123
	fillOutcomes(t, db, big.ID, games)
	addReplays(t, db, 1000)
	var calls []int
	if err := db.DeleteEventProgress(big.ID, func(done, total int) {
		if total != games {
			t.Errorf("progress total %d, want %d", total, games)
		}
		calls = append(calls, done)
	}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 || calls[len(calls)-1] != games {
		t.Errorf("progress calls %v, want 3 batches ending at %d", calls, games)
	}
	if _, err := db.Event(big.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the deleted event is still there: %v", err)
	}
	var left int
	if err := db.r.QueryRow(`SELECT (SELECT COUNT(*) FROM matches) + (SELECT COUNT(*) FROM replays)`).Scan(&left); err != nil || left != 20 {
		t.Errorf("%d matches and replays left, %v; want the other event's 10 + 10", left, err)
	}
	sp, err := db.Space()
	if err != nil || !sp.MostlyFree() {
		t.Fatalf("space after delete %+v, %v: want mostly free pages", sp, err)
	}
	before := db.FileSize()
	if err := db.Vacuum(); err != nil {
		t.Fatal(err)
	}
	after := db.FileSize()
	sp2, err := db.Space()
	if err != nil || sp2.FreePages != 0 || after >= before/2 {
		t.Errorf("vacuum: %d → %d bytes, %+v, %v; want no free pages and the file at most half", before, after, sp2, err)
	}
	if err := db.DeleteEventProgress(big.ID, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again: %v, want not found", err)
	}
}

// BenchmarkDeleteVacuum100k builds a 100k-game event (each game with a
// 600-byte replay, about the 66 MB) beside a small one, deletes it
// and vacuums, and reports the file's size at each step:
//
//	go test -tags ci -run '^$' -bench DeleteVacuum100k -benchtime 1x ./storage
func BenchmarkDeleteVacuum100k(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		db := openTemp(b)
		keep := mkEvent(b, db, 2, 2)
		if err := db.AddMatches(keep.ID, schedule(8)); err != nil {
			b.Fatal(err)
		}
		big := mkEvent(b, db, 4, 4)
		fillOutcomes(b, db, big.ID, 100_000)
		addReplays(b, db, 600)
		if _, err := db.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
		full := db.FileSize()
		b.StartTimer()
		if err := db.DeleteEventProgress(big.ID, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := db.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
		deleted := db.FileSize()
		sp, err := db.Space()
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Vacuum(); err != nil {
			b.Fatal(err)
		}
		vacuumed := db.FileSize()
		b.ReportMetric(float64(full)/1e6, "MB-full")
		b.ReportMetric(float64(deleted)/1e6, "MB-deleted")
		b.ReportMetric(float64(sp.FreeBytes())/1e6, "MB-free")
		b.ReportMetric(float64(vacuumed)/1e6, "MB-vacuumed")
	}
}
