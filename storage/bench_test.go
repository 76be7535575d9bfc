package storage

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
)

// BenchmarkFinishMatch persists a finished 1000-turn Grip game with its
// replay: compression plus one transaction. Goal: ≤ 1 ms.
func BenchmarkFinishMatch(b *testing.B) {
	db, ev := openWithEvent(b, 4, 4)
	log := gripLog(1)
	res := log.Result
	var ids []int64
	next, scheduled := 0, 0
	blob, _, err := encodeLog(log)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if next == len(ids) {
			b.StopTimer()
			ids = scheduleMore(b, db, ev.ID, scheduled, 1000)
			scheduled += len(ids)
			next = 0
			b.StartTimer()
		}
		if err := db.FinishMatch(ids[next], res, log, 3*time.Second); err != nil {
			b.Fatal(err)
		}
		next++
	}
	b.ReportMetric(float64(len(blob)), "replay-bytes")
}

// scheduleMore adds n four-seat games after the first from and returns
// their IDs.
func scheduleMore(b *testing.B, db *DB, eventID int64, from, n int) []int64 {
	gs := make([]event.Game, n)
	for i := range gs {
		gs[i] = event.Game{Index: from + i, Seats: []int{0, 1, 2, 3}, Seed: int64(i)}
	}
	if err := db.AddMatches(eventID, gs); err != nil {
		b.Fatal(err)
	}
	ms, err := db.PendingMatches(eventID)
	if err != nil {
		b.Fatal(err)
	}
	return idsOf(ms)
}

// fillOutcomes stores n finished four-seat games directly, as a long
// league would leave them.
func fillOutcomes(b testing.TB, db *DB, eventID int64, n int) {
	res, _ := json.Marshal(engine.Result{Ranks: []int{2, 1, 4, 3}, Reason: "turn_limit", Turns: 1000, Scores: []float64{310, 402, 97, 205}})
	err := db.write(func(tx *sql.Tx) error {
		stmt, err := tx.Prepare(`INSERT INTO matches (event_id, idx, round, grp, seed, seats, status, result, finished, duration_ms)
			VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i := range n {
			s := []int{i % 4, (i + 1) % 4, (i + 2) % 4, (i + 3) % 4}
			if _, err := stmt.Exec(eventID, i, i/400, i/4, int64(i/4)*7919, formatInts(s), string(res),
				time.Now().UnixMilli(), 3000); err != nil {
				return err
			}
		}
		_, err = tx.Exec(`UPDATE matches SET outcome = `+outcomeExpr+` WHERE event_id = ?`, "2,1,4,3", eventID)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOutcomes100k loads 100 000 finished games for standings.
// Goal: loading plus standings ≤ 100 ms.
func BenchmarkOutcomes100k(b *testing.B) {
	db, ev := openWithEvent(b, 8, 4)
	const n = 100_000
	fillOutcomes(b, db, ev.ID, n)
	for b.Loop() {
		outs, err := db.Outcomes(ev.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(outs) != n {
			b.Fatalf("%d outcomes", len(outs))
		}
	}
}

// BenchmarkReplay loads and decodes one stored 1000-turn replay.
func BenchmarkReplay(b *testing.B) {
	db, ev := openWithEvent(b, 4, 4)
	ids := scheduleMore(b, db, ev.ID, 0, 1)
	log := gripLog(1)
	if err := db.FinishMatch(ids[0], log.Result, log, time.Second); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := db.Replay(ids[0]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeReplay compares the stored codec with gzip'd JSON.
func BenchmarkEncodeReplay(b *testing.B) {
	log := gripLog(1)
	b.Run("columnar+gzip", func(b *testing.B) {
		var size int
		for b.Loop() {
			blob, _, err := encodeLog(log)
			if err != nil {
				b.Fatal(err)
			}
			size = len(blob)
		}
		b.ReportMetric(float64(size), "bytes")
	})
	b.Run("json+gzip", func(b *testing.B) {
		var size int
		for b.Loop() {
			js, err := json.Marshal(log)
			if err != nil {
				b.Fatal(err)
			}
			blob, err := gzipBytes(js)
			if err != nil {
				b.Fatal(err)
			}
			size = len(blob)
		}
		b.ReportMetric(float64(size), "bytes")
	})
}

// BenchmarkIntegrityCheck measures the full check on a database of 20 000
// games with replays (about 70 MB), to decide whether Open can afford one.
func BenchmarkIntegrityCheck(b *testing.B) {
	db, ev := openWithEvent(b, 8, 4)
	const n = 20_000
	fillOutcomes(b, db, ev.ID, n)
	blob, size, err := encodeLog(gripLog(1))
	if err != nil {
		b.Fatal(err)
	}
	err = db.write(func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO replays (match_id, codec, size, data) SELECT id, 1, ?, ? FROM matches`, size, blob)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	var pages, pageSize int
	db.r.QueryRow(`PRAGMA page_count`).Scan(&pages)
	db.r.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	for _, check := range []string{"quick_check", "integrity_check"} {
		b.Run(check, func(b *testing.B) {
			for b.Loop() {
				var s string
				if err := db.r.QueryRow(`PRAGMA ` + check).Scan(&s); err != nil || s != "ok" {
					b.Fatal(s, err)
				}
			}
			b.ReportMetric(float64(pages*pageSize)/1e6, "MB")
		})
	}
}

func gzipBytes(p []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(p); err != nil {
		return nil, err
	}
	err := zw.Close()
	return buf.Bytes(), err
}

// BenchmarkReadClass reads what the AIs screen shows of a class of 30:
// every AI, then each one's builds (many small queries, as a screen's
// refresh makes them; the statement cache's case).
func BenchmarkReadClass(b *testing.B) {
	db := openTemp(b)
	for i := range 30 {
		ai, err := db.AddAI(AI{Name: fmt.Sprintf("student%02d", i), Game: "grip", RunCmd: "python3 bot.py"})
		if err != nil {
			b.Fatal(err)
		}
		for n := range 3 {
			if _, err := db.AddRevision(Revision{AIID: ai.ID, Status: BuildOK, Hash: fmt.Sprintf("h%d-%d", i, n), RunCmd: "python3 bot.py"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		ais, err := db.ListAIs()
		if err != nil {
			b.Fatal(err)
		}
		for _, ai := range ais {
			if _, err := db.Revisions(ai.ID); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkOpenNew creates a database: the whole schema on an empty file,
// as every first start and every test's own database does.
func BenchmarkOpenNew(b *testing.B) {
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		db, err := Open(filepath.Join(dir, fmt.Sprintf("new%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}
