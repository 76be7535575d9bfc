package storage

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Shard is one bundle of an event's games sent out to be played on
// another machine ("ringside event export").
type Shard struct {
	ID      int64
	EventID int64
	// Token is random and names the bundle in the result file its run
	// writes.
	Token   string
	Number  int // 1..Count within one export
	Count   int
	File    string // the bundle's file name as written
	SHA256  string // of the whole bundle file
	Created time.Time
	// Matches are the ids of the games it carries.
	Matches []int64
	// Revoked is when "ringside event unexport" took the bundle back
	// (zero while it is valid): its results are refused from then on.
	Revoked time.Time
	// Missing is how many of its games are still waited for (OutShards).
	Missing int
}

// AddShards records bundles as sent, in one transaction: their games are
// out from now on, each in the last bundle that carried it.
func (db *DB) AddShards(eventID int64, shards []Shard) ([]Shard, error) {
	now := db.now()
	err := db.write(func(tx *sql.Tx) error {
		put, err := tx.Prepare(`INSERT INTO shard_matches (match_id, shard_id)
			SELECT id, ? FROM matches WHERE id = ? AND event_id = ?
			ON CONFLICT (match_id) DO UPDATE SET shard_id = excluded.shard_id`)
		if err != nil {
			return err
		}
		defer put.Close()
		for i := range shards {
			sh := &shards[i]
			sh.EventID, sh.Created = eventID, time.UnixMilli(now.UnixMilli())
			res, err := tx.Exec(`INSERT INTO shards (event_id, token, number, count, file, sha256, created)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, eventID, sh.Token, sh.Number, sh.Count, sh.File, sh.SHA256, now.UnixMilli())
			if err != nil {
				return fmt.Errorf("shard %d: %w", sh.Number, err)
			}
			if sh.ID, err = res.LastInsertId(); err != nil {
				return err
			}
			for _, m := range sh.Matches {
				res, err := put.Exec(sh.ID, m, eventID)
				if err != nil {
					return fmt.Errorf("shard %d, match %d: %w", sh.Number, m, err)
				}
				if n, err := res.RowsAffected(); err != nil || n != 1 {
					return fmt.Errorf("shard %d: match %d is not a game of event %d", sh.Number, m, eventID)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("record the shards of event %d: %w", eventID, err)
	}
	return shards, nil
}

// ShardByToken finds an exported bundle by its token.
func (db *DB) ShardByToken(token string) (Shard, error) {
	var sh Shard
	var created int64
	var revoked sql.NullInt64
	err := db.r.QueryRow(`SELECT id, event_id, token, number, count, file, sha256, created, revoked FROM shards WHERE token = ?`, token).
		Scan(&sh.ID, &sh.EventID, &sh.Token, &sh.Number, &sh.Count, &sh.File, &sh.SHA256, &created, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return Shard{}, fmt.Errorf("shard %s: %w", token, ErrNotFound)
	}
	if err != nil {
		return Shard{}, fmt.Errorf("shard %s: %w", token, err)
	}
	sh.Created, sh.Revoked = time.UnixMilli(created), fromMillis(revoked)
	return sh, nil
}

// OutShards returns the bundles of an event still out: valid ones with
// games not back yet, each with Missing set, oldest first. An event with
// any is locked against a local run.
func (db *DB) OutShards(eventID int64) ([]Shard, error) {
	return outShards(db.r, eventID)
}

type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

func outShards(q querier, eventID int64) ([]Shard, error) {
	rows, err := q.Query(`SELECT s.id, s.token, s.number, s.count, s.file, s.sha256, s.created, COUNT(*)
		FROM shards s JOIN shard_matches sm ON sm.shard_id = s.id JOIN matches m ON m.id = sm.match_id
		WHERE s.event_id = ? AND s.revoked IS NULL AND m.status <> 'done'
		GROUP BY s.id ORDER BY s.id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("bundles out of event %d: %w", eventID, err)
	}
	var out []Shard
	for rows.Next() {
		sh := Shard{EventID: eventID}
		var created int64
		if err := rows.Scan(&sh.ID, &sh.Token, &sh.Number, &sh.Count, &sh.File, &sh.SHA256, &created, &sh.Missing); err != nil {
			rows.Close()
			return nil, fmt.Errorf("bundles out of event %d: %w", eventID, err)
		}
		sh.Created = time.UnixMilli(created)
		out = append(out, sh)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("bundles out of event %d: %w", eventID, err)
	}
	return out, nil
}

// Unexport takes back the bundles of an event that are out (OutShards):
// their games not back are scheduled here again, and the bundles are
// marked revoked so an import of their results is refused. It returns the
// bundles taken back and how many games came home.
func (db *DB) Unexport(eventID int64) ([]Shard, int, error) {
	var shards []Shard
	games := 0
	now := db.now()
	err := db.write(func(tx *sql.Tx) error {
		var err error
		if shards, err = outShards(tx, eventID); err != nil {
			return err
		}
		for _, sh := range shards {
			if _, err := tx.Exec(`UPDATE shards SET revoked = ? WHERE id = ?`, now.UnixMilli(), sh.ID); err != nil {
				return err
			}
			res, err := tx.Exec(`DELETE FROM shard_matches WHERE shard_id = ?
				AND match_id IN (SELECT id FROM matches WHERE event_id = ? AND status <> 'done')`, sh.ID, eventID)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			games += int(n)
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("take back the bundles of event %d: %w", eventID, err)
	}
	return shards, games, nil
}

// OutMatches returns the ids of an event's games that are out in a shard,
// finished or not.
func (db *DB) OutMatches(eventID int64) (map[int64]bool, error) {
	rows, err := db.r.Query(`SELECT sm.match_id FROM shard_matches sm JOIN shards s ON s.id = sm.shard_id
		WHERE s.event_id = ?`, eventID)
	if err != nil {
		return nil, fmt.Errorf("exported games of event %d: %w", eventID, err)
	}
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("exported games of event %d: %w", eventID, err)
		}
		out[id] = true
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("exported games of event %d: %w", eventID, err)
	}
	return out, nil
}

// ShardCounts is how far an exported event's shards are.
type ShardCounts struct {
	Shards  int // bundles written
	Out     int // games sent in them
	Back    int // of those, games with a result
	Missing int // of those, games still waited for (Out − Back)
}

// ShardCounts counts an event's exported games: out, back and missing.
// All zero for an event never exported.
func (db *DB) ShardCounts(eventID int64) (ShardCounts, error) {
	var c ShardCounts
	err := db.r.QueryRow(`SELECT (SELECT COUNT(*) FROM shards WHERE event_id = ?),
		COUNT(*), COUNT(*) FILTER (WHERE m.status = 'done')
		FROM shard_matches sm JOIN matches m ON m.id = sm.match_id WHERE m.event_id = ?`, eventID, eventID).
		Scan(&c.Shards, &c.Out, &c.Back)
	if err != nil {
		return ShardCounts{}, fmt.Errorf("shards of event %d: %w", eventID, err)
	}
	c.Missing = c.Out - c.Back
	return c, nil
}

// Imported is a game played elsewhere, as an import stores it.
type Imported struct {
	MatchID int64
	Finish
}

// ImportMatches stores games played elsewhere, all in one transaction: a
// failure stores none of them. A game that already has a result (from an
// earlier import, or played here meanwhile) is left as it is and counted
// in kept, so importing a file twice changes nothing. ratings are the
// event's rating points after the imported games.
func (db *DB) ImportMatches(eventID int64, games []Imported, ratings []Rating) (stored, kept int, err error) {
	type encoded struct {
		res  string
		blob []byte
		size int
		err  error
	}
	// Compressing the replays is most of the work: spread it over the
	// cores, before taking the write lock.
	enc := make([]encoded, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range next {
				g, e := games[i], &enc[i]
				var b []byte
				if b, e.err = json.Marshal(g.Result); e.err != nil {
					continue
				}
				e.res = string(b)
				if g.Log != nil {
					e.blob, e.size, e.err = encodeLog(g.Log)
				}
			}
		})
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, e := range enc {
		if e.err != nil {
			return 0, 0, fmt.Errorf("import games of event %d: match %d: %w", eventID, games[i].MatchID, e.err)
		}
	}
	now := db.now()
	err = db.write(func(tx *sql.Tx) error {
		owner, err := tx.Prepare(`SELECT event_id FROM matches WHERE id = ?`)
		if err != nil {
			return err
		}
		defer owner.Close()
		update, err := tx.Prepare(finishQuery)
		if err != nil {
			return err
		}
		defer update.Close()
		for i, g := range games {
			var ev int64
			if err := owner.QueryRow(g.MatchID).Scan(&ev); err != nil || ev != eventID {
				if err == nil || errors.Is(err, sql.ErrNoRows) {
					return fmt.Errorf("match %d is not a game of event %d", g.MatchID, eventID)
				}
				return err
			}
			g.Ratings = nil
			already, err := finishTx(tx, update, g.MatchID, g.Finish, enc[i].res, enc[i].blob, enc[i].size, now)
			if err != nil {
				return fmt.Errorf("match %d: %w", g.MatchID, err)
			}
			if already {
				kept++
			} else {
				stored++
			}
		}
		if stored == 0 {
			return nil
		}
		return putRatings(tx, eventID, ratings)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("import games of event %d: %w", eventID, err)
	}
	return stored, kept, nil
}
