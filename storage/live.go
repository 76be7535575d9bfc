package storage

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"ringside/engine"
)

// SaveLive stores the turns so far of a running game, replacing what was
// saved before. It stores nothing once the game is no longer running: a
// save that comes after the game was finished, failed or reset cannot
// bring back a stale copy.
func (db *DB) SaveLive(matchID int64, log *engine.Log) error {
	blob, size, err := encodeLog(log)
	if err != nil {
		return fmt.Errorf("save live game %d: %w", matchID, err)
	}
	err = db.write(func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO live_replays (match_id, codec, size, steps, saved, data)
			SELECT id, ?, ?, ?, ?, ? FROM matches WHERE id = ? AND status = 'running'
			ON CONFLICT (match_id) DO UPDATE SET codec = excluded.codec, size = excluded.size,
				steps = excluded.steps, saved = excluded.saved, data = excluded.data`,
			codecVersion, size, len(log.Steps), db.now().UnixMilli(), blob, matchID)
		return err
	})
	if err != nil {
		return fmt.Errorf("save live game %d: %w", matchID, err)
	}
	return nil
}

// LiveReplay loads the turns so far of a running game, as last saved by
// the process playing it, with the time they were saved. The log is
// marked InProgress. It is ErrNotFound when the game is not running or
// nothing has been saved yet.
func (db *DB) LiveReplay(matchID int64) (*engine.Log, time.Time, error) {
	var blob []byte
	var size int
	var saved int64
	err := db.r.QueryRow(`SELECT l.size, l.saved, l.data FROM live_replays l JOIN matches m ON m.id = l.match_id
		WHERE l.match_id = ? AND m.status = 'running'`, matchID).Scan(&size, &saved, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, fmt.Errorf("live game %d: %w (it is not being played, or no turn is saved yet)", matchID, ErrNotFound)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("live game %d: %w", matchID, err)
	}
	log, err := decodeLog(blob, size)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("live game %d: %w", matchID, err)
	}
	log.InProgress = true
	log.Result = engine.Result{}
	return log, time.UnixMilli(saved), nil
}

// dropLive forgets a game's live copy; called in the transactions that end
// or reset a game.
func dropLive(tx *sql.Tx, where string, arg int64) error {
	if _, err := tx.Exec(`DELETE FROM live_replays WHERE match_id IN (`+where+`)`, arg); err != nil {
		return fmt.Errorf("live copy: %w", err)
	}
	return nil
}
