package storage

import (
	"database/sql"
	"fmt"
	"time"
)

// GameTime is the average wall time of the last n finished games of game
// in events played as fast as the bots answer, and how many games that
// average is over: what the next unpaced games will probably take on this
// computer. A paced event's games (a demo at 4 turns a second) say how
// fast the room watched, not how fast the bots are: learning from them
// made the first estimate of a class league about 10 times too long.
func (db *DB) GameTime(game string, n int) (avg time.Duration, count int, err error) {
	var ms sql.NullFloat64
	err = db.r.QueryRow(`SELECT avg(d), count(*) FROM (SELECT m.duration_ms AS d FROM matches m
		JOIN events e ON e.id = m.event_id
		WHERE e.game = ? AND e.pace = 0 AND m.status = 'done' AND m.duration_ms IS NOT NULL
		ORDER BY m.finished DESC LIMIT ?)`, game, n).Scan(&ms, &count)
	if err != nil {
		return 0, 0, fmt.Errorf("time of %s games: %w", game, err)
	}
	return time.Duration(ms.Float64 * float64(time.Millisecond)), count, nil
}
