package storage

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"ringside/engine"
	"ringside/engine/event"
)

// MatchStatus is where a scheduled game is.
type MatchStatus string

// Match statuses.
const (
	MatchScheduled MatchStatus = "scheduled"
	MatchRunning   MatchStatus = "running"
	MatchDone      MatchStatus = "done"
	MatchError     MatchStatus = "error" // Ringside could not play it (the bot would not start…)
)

// Match is one scheduled game of an event and, once played, its result.
type Match struct {
	ID       int64
	EventID  int64
	Game     event.Game
	Status   MatchStatus
	Result   *engine.Result // set when done
	Error    string         // set on error
	Started  time.Time
	Finished time.Time
	Duration time.Duration
	// Problems are, per seat, what went wrong in a finished game; nil for
	// games stored before schema 4.
	Problems []Problems
}

// Problems counts a seat's (or an entry's) replies that were late,
// invalid, or lost because the bot crashed.
type Problems struct {
	Timeouts int `json:"timeouts"`
	Invalid  int `json:"invalid"`
	Crashed  int `json:"crashed"`
	// Busy counts timeouts that came while the machine kept the bot
	// from the CPU (another seat's or game's processes held it): not
	// among Timeouts, since they are not the bot's fault.
	Busy int `json:"busy,omitempty"`
}

// Any reports whether anything went wrong.
func (p Problems) Any() bool { return p != Problems{} }

// Add sums two counts.
func (p Problems) Add(q Problems) Problems {
	return Problems{p.Timeouts + q.Timeouts, p.Invalid + q.Invalid, p.Crashed + q.Crashed, p.Busy + q.Busy}
}

// formatProblems stores problems as "t/i/c,t/i/c" ("t/i/c/b" where a
// seat timed out under load); nil as NULL.
func formatProblems(ps []Problems) sql.NullString {
	if ps == nil {
		return sql.NullString{}
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%d/%d/%d", p.Timeouts, p.Invalid, p.Crashed)
		if p.Busy > 0 {
			parts[i] += fmt.Sprintf("/%d", p.Busy)
		}
	}
	return sql.NullString{String: strings.Join(parts, ","), Valid: true}
}

// parseProblems reads formatProblems; anything it cannot read is nil.
func parseProblems(s sql.NullString) []Problems {
	if !s.Valid || s.String == "" {
		return nil
	}
	var out []Problems
	for _, part := range strings.Split(s.String, ",") {
		var p Problems
		if strings.Count(part, "/") == 3 {
			if _, err := fmt.Sscanf(part, "%d/%d/%d/%d", &p.Timeouts, &p.Invalid, &p.Crashed, &p.Busy); err != nil {
				return nil
			}
		} else if _, err := fmt.Sscanf(part, "%d/%d/%d", &p.Timeouts, &p.Invalid, &p.Crashed); err != nil {
			return nil
		}
		out = append(out, p)
	}
	return out
}

// eventExists is ErrNotFound, naming the event, when there is no event id.
func eventExists(tx *sql.Tx, id int64) error {
	var exists bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM events WHERE id = ?)`, id).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	return nil
}

// AddMatches stores scheduled games. It is idempotent per game index, so a
// resumed scheduler may add its schedule again: a game already stored is
// left as it is (with its status and result), provided it is the same
// game; a different game at a stored index is refused.
func (db *DB) AddMatches(eventID int64, games []event.Game) error {
	err := db.write(func(tx *sql.Tx) error {
		if err := eventExists(tx, eventID); err != nil {
			return err
		}
		ins, err := tx.Prepare(`INSERT INTO matches (event_id, idx, round, grp, seed, seats) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (event_id, idx) DO NOTHING`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, g := range games {
			seats := formatInts(g.Seats)
			res, err := ins.Exec(eventID, g.Index, g.Round, g.Group, g.Seed, seats)
			if err != nil {
				return fmt.Errorf("game %d: %w", g.Index, err)
			}
			if n, err := res.RowsAffected(); err != nil || n == 1 {
				if err != nil {
					return fmt.Errorf("game %d: %w", g.Index, err)
				}
				continue
			}
			var old event.Game
			var oldSeats string
			if err := tx.QueryRow(`SELECT round, grp, seed, seats FROM matches WHERE event_id = ? AND idx = ?`, eventID, g.Index).
				Scan(&old.Round, &old.Group, &old.Seed, &oldSeats); err != nil {
				return fmt.Errorf("game %d: %w", g.Index, err)
			}
			if old.Round != g.Round || old.Group != g.Group || old.Seed != g.Seed || oldSeats != seats {
				return fmt.Errorf("game %d is already stored as round %d, group %d, seed %d, seats %s, not round %d, group %d, seed %d, seats %s: the schedule of a started event cannot change",
					g.Index, old.Round, old.Group, old.Seed, oldSeats, g.Round, g.Group, g.Seed, seats)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("schedule games of event %d: %w", eventID, err)
	}
	return nil
}

const matchColumns = `id, event_id, idx, round, grp, seed, seats, status, result, error, started, finished, duration_ms, problems`

func scanMatch(row scanner) (Match, error) {
	var m Match
	var seats string
	var result, problems sql.NullString
	var started, finished, dur sql.NullInt64
	if err := row.Scan(&m.ID, &m.EventID, &m.Game.Index, &m.Game.Round, &m.Game.Group, &m.Game.Seed, &seats,
		&m.Status, &result, &m.Error, &started, &finished, &dur, &problems); err != nil {
		return Match{}, err
	}
	m.Problems = parseProblems(problems)
	var err error
	if m.Game.Seats, err = parseInts(seats, nil); err != nil {
		return Match{}, fmt.Errorf("match %d seats: %w", m.ID, err)
	}
	if result.Valid {
		m.Result = new(engine.Result)
		if err := json.Unmarshal([]byte(result.String), m.Result); err != nil {
			return Match{}, fmt.Errorf("match %d result: %w", m.ID, err)
		}
	}
	m.Started, m.Finished = fromMillis(started), fromMillis(finished)
	m.Duration = time.Duration(dur.Int64) * time.Millisecond
	return m, nil
}

func (db *DB) queryMatches(what, query string, args ...any) ([]Match, error) {
	out, err := collect(scanMatch)(db.r.Query(query, args...))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// Matches returns all of an event's games in schedule order.
func (db *DB) Matches(eventID int64) ([]Match, error) {
	return db.queryMatches(fmt.Sprintf("matches of event %d", eventID),
		`SELECT `+matchColumns+` FROM matches WHERE event_id = ? ORDER BY idx`, eventID)
}

// PendingMatches returns an event's games still to play, in schedule
// order. Running games are not included: after a crash, ResetRunning puts
// them back first.
func (db *DB) PendingMatches(eventID int64) ([]Match, error) {
	return db.queryMatches(fmt.Sprintf("pending matches of event %d", eventID),
		`SELECT `+matchColumns+` FROM matches WHERE event_id = ? AND status = 'scheduled' ORDER BY idx`, eventID)
}

// MatchCounts returns how many of an event's games are done and how many
// are scheduled in all, without loading them.
func (db *DB) MatchCounts(eventID int64) (done, all int, err error) {
	err = db.r.QueryRow(`SELECT COUNT(*) FILTER (WHERE status = 'done'), COUNT(*) FROM matches WHERE event_id = ?`, eventID).
		Scan(&done, &all)
	if err != nil {
		return 0, 0, fmt.Errorf("count matches of event %d: %w", eventID, err)
	}
	return done, all, nil
}

// Match loads one game.
func (db *DB) Match(id int64) (Match, error) {
	return one(scanMatch, db.r.QueryRow(`SELECT `+matchColumns+` FROM matches WHERE id = ?`, id), "match %d", id)
}

// StartMatch marks a scheduled game as running.
func (db *DB) StartMatch(id int64) error {
	err := db.write(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE matches SET status = 'running', started = ? WHERE id = ? AND status = 'scheduled'`,
			db.now().UnixMilli(), id)
		if err != nil {
			return err
		}
		return wrongState(tx, res, id, "started")
	})
	if err != nil {
		return fmt.Errorf("start match %d: %w", id, err)
	}
	return nil
}

// wrongState explains why an update guarded by status changed no row.
func wrongState(tx *sql.Tx, res sql.Result, id int64, verb string) error {
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var st MatchStatus
	err := tx.QueryRow(`SELECT status FROM matches WHERE id = ?`, id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("it is %s and cannot be %s", st, verb)
}

// outcomeExpr computes the outcome column from the row's own columns and
// the ranks parameter, so it cannot disagree with them.
const outcomeExpr = `idx || ' ' || round || ' ' || grp || ' ' || seed || ' ' || seats || ' ' || ?`

// FinishMatch records a played game in one transaction: its result, its
// replay (log may be nil) and its status done. The game must be scheduled
// or running; a game is never recorded twice.
func (db *DB) FinishMatch(id int64, result engine.Result, log *engine.Log, duration time.Duration) error {
	return db.FinishMatchRated(id, result, log, duration, nil)
}

// FinishMatchRated is FinishMatch that also appends rating points to the
// match's event history (as AddRatings does) in the same transaction, so
// a crash never keeps the result without its rating points or the points
// without the result.
func (db *DB) FinishMatchRated(id int64, result engine.Result, log *engine.Log, duration time.Duration, ratings []Rating) error {
	return db.Finish(id, Finish{Result: result, Log: log, Duration: duration, Ratings: ratings})
}

// Finish is everything a finished game stores.
type Finish struct {
	Result   engine.Result
	Log      *engine.Log // the replay; nil for none
	Duration time.Duration
	Ratings  []Rating   // rating points after it, for the history
	Problems []Problems // per seat; nil when not counted
}

// Finish stores a finished game's result, replay, problems and rating
// points in one transaction (see FinishMatchRated).
func (db *DB) Finish(id int64, f Finish) error {
	resJSON, err := json.Marshal(f.Result)
	if err != nil {
		return fmt.Errorf("save match %d: result: %w", id, err)
	}
	// Compress before taking the write lock.
	var blob []byte
	var size int
	if f.Log != nil {
		if blob, size, err = encodeLog(f.Log); err != nil {
			return fmt.Errorf("save match %d: %w", id, err)
		}
	}
	err = db.write(func(tx *sql.Tx) error {
		done, err := finishTx(tx, nil, id, f, string(resJSON), blob, size, db.now())
		if err == nil && done {
			err = wrongState(tx, zeroRows{}, id, "finished again")
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("save match %d: %w", id, err)
	}
	return nil
}

const finishQuery = `UPDATE matches SET status = 'done', outcome = ` + outcomeExpr + `,
	result = ?, error = '', finished = ?, duration_ms = ?, problems = ?
	WHERE id = ? AND status IN ('scheduled', 'running') RETURNING seats, event_id`

// finishTx stores a finished game in tx: result (resJSON), replay (blob of
// uncompressed length size; nil for none), problems and rating points.
// update, when not nil, is finishQuery prepared in tx (many games in one
// transaction). already reports a game that is not scheduled or running
// (done, error, or gone); then nothing is written.
func finishTx(tx *sql.Tx, update *sql.Stmt, id int64, f Finish, resJSON string, blob []byte, size int, now time.Time) (already bool, err error) {
	ranks := formatInts(f.Result.Ranks)
	var seats string
	var eventID int64
	args := []any{ranks, resJSON, now.UnixMilli(), f.Duration.Milliseconds(), formatProblems(f.Problems), id}
	if update != nil {
		err = update.QueryRow(args...).Scan(&seats, &eventID)
	} else {
		err = tx.QueryRow(finishQuery, args...).Scan(&seats, &eventID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if n := countInts(seats); n != len(f.Result.Ranks) {
		return false, fmt.Errorf("the result has %d ranks but the game has %d seats", len(f.Result.Ranks), n)
	}
	if err := putReplay(tx, id, blob, size); err != nil {
		return false, err
	}
	if err := dropLive(tx, `?`, id); err != nil {
		return false, err
	}
	return false, putRatings(tx, eventID, f.Ratings)
}

// FailMatch records that a game could not be played: status error with
// reason, and whatever replay there is (log may be nil).
func (db *DB) FailMatch(id int64, reason string, log *engine.Log, duration time.Duration) error {
	var blob []byte
	var size int
	var err error
	if log != nil {
		if blob, size, err = encodeLog(log); err != nil {
			return fmt.Errorf("save failed match %d: %w", id, err)
		}
	}
	err = db.write(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE matches SET status = 'error', error = ?, finished = ?, duration_ms = ?
			WHERE id = ? AND status IN ('scheduled', 'running')`,
			reason, db.now().UnixMilli(), duration.Milliseconds(), id)
		if err != nil {
			return err
		}
		if err := wrongState(tx, res, id, "failed"); err != nil {
			return err
		}
		if err := dropLive(tx, `?`, id); err != nil {
			return err
		}
		return putReplay(tx, id, blob, size)
	})
	if err != nil {
		return fmt.Errorf("save failed match %d: %w", id, err)
	}
	return nil
}

// zeroRows is a sql.Result for "no row changed".
type zeroRows struct{}

func (zeroRows) LastInsertId() (int64, error) { return 0, nil }
func (zeroRows) RowsAffected() (int64, error) { return 0, nil }

func putReplay(tx *sql.Tx, id int64, blob []byte, size int) error {
	if blob == nil {
		return nil
	}
	_, err := tx.Exec(`INSERT OR REPLACE INTO replays (match_id, codec, size, data) VALUES (?, ?, ?, ?)`,
		id, codecVersion, size, blob)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// ResetRunning puts an event's running games back to scheduled, for a
// resume after Ringside stopped mid-event, and returns how many it reset.
// A game's result is written in one transaction, so a running game has no
// partial result to lose.
func (db *DB) ResetRunning(eventID int64) (int, error) {
	var n int64
	err := db.write(func(tx *sql.Tx) error {
		if err := dropLive(tx, `SELECT id FROM matches WHERE event_id = ? AND status = 'running'`, eventID); err != nil {
			return err
		}
		res, err := tx.Exec(`UPDATE matches SET status = 'scheduled', started = NULL WHERE event_id = ? AND status = 'running'`, eventID)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("reset running games of event %d: %w", eventID, err)
	}
	return int(n), nil
}

// outcomesQuery reads only the covering index matches_outcomes.
const outcomesQuery = `SELECT group_concat(outcome, ';') FROM matches WHERE event_id = ? AND status = 'done'`

// Outcomes returns an event's finished games with their ranks, in
// schedule order: what standings and adaptive formats need.
func (db *DB) Outcomes(eventID int64) ([]event.Outcome, error) {
	// One row holding every outcome: database/sql costs about a
	// microsecond per row and column, which would be most of the time for
	// a long event.
	var all sql.NullString
	err := db.r.QueryRow(outcomesQuery, eventID).Scan(&all)
	if err != nil {
		return nil, fmt.Errorf("outcomes of event %d: %w", eventID, err)
	}
	outs, err := parseOutcomes(all.String)
	if err != nil {
		return nil, fmt.Errorf("outcomes of event %d: %w", eventID, err)
	}
	// The covering index yields schedule order; group_concat does not
	// promise to keep it, so check and sort only if it did not.
	if !slices.IsSortedFunc(outs, byIndex) {
		slices.SortFunc(outs, byIndex)
	}
	return outs, nil
}

func byIndex(a, b event.Outcome) int { return cmp.Compare(a.Game.Index, b.Game.Index) }

// parseOutcomes reads ';'-separated outcome columns: "idx round grp seed
// seats ranks". The seats and ranks of all games share one backing array,
// so 100 000 games cost a handful of allocations.
func parseOutcomes(s string) ([]event.Outcome, error) {
	if s == "" {
		return nil, nil
	}
	outs := make([]event.Outcome, 0, strings.Count(s, ";")+1)
	// Every number of a list but the last is followed by a comma, and each
	// outcome has two lists.
	pool := make([]int, 0, strings.Count(s, ",")+2*cap(outs))
	for rec := range strings.SplitSeq(s, ";") {
		var o event.Outcome
		var fields [6]string
		rest := rec
		for i := range fields {
			var ok bool
			if i == len(fields)-1 {
				fields[i], ok = rest, rest != "" && !strings.Contains(rest, " ")
			} else {
				fields[i], rest, ok = strings.Cut(rest, " ")
			}
			if !ok {
				return nil, fmt.Errorf("damaged outcome %q: want \"index round group seed seats ranks\"", rec)
			}
		}
		var err error
		ints := []*int{&o.Game.Index, &o.Game.Round, &o.Game.Group}
		for i, p := range ints {
			if *p, err = strconv.Atoi(fields[i]); err != nil {
				return nil, fmt.Errorf("damaged outcome %q: %w", rec, err)
			}
		}
		if o.Game.Seed, err = strconv.ParseInt(fields[3], 10, 64); err != nil {
			return nil, fmt.Errorf("damaged outcome %q: %w", rec, err)
		}
		if o.Game.Seats, pool, err = carve(fields[4], pool); err == nil {
			o.Ranks, pool, err = carve(fields[5], pool)
		}
		if err != nil {
			return nil, fmt.Errorf("damaged outcome %q: %w", rec, err)
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// carve parses a list into the free end of pool and returns it with its
// capacity clipped, so appending to it never overwrites a neighbour.
func carve(list string, pool []int) ([]int, []int, error) {
	start := len(pool)
	pool, err := parseInts(list, pool)
	if err != nil {
		return nil, pool, err
	}
	return pool[start:len(pool):len(pool)], pool, nil
}

// Replay loads a game's replay.
func (db *DB) Replay(matchID int64) (*engine.Log, error) {
	var blob []byte
	var size int
	err := db.r.QueryRow(`SELECT size, data FROM replays WHERE match_id = ?`, matchID).Scan(&size, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("replay of match %d: %w (the game has not been played, or was stopped before it started)", matchID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("replay of match %d: %w", matchID, err)
	}
	log, err := decodeLog(blob, size)
	if err != nil {
		return nil, fmt.Errorf("replay of match %d: %w", matchID, err)
	}
	return log, nil
}

// ReplaySize returns the stored (compressed) size of a game's replay in
// bytes.
func (db *DB) ReplaySize(matchID int64) (int, error) {
	var n int
	err := db.r.QueryRow(`SELECT length(data) FROM replays WHERE match_id = ?`, matchID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("replay of match %d: %w", matchID, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("replay of match %d: %w", matchID, err)
	}
	return n, nil
}

// Rating is one point of an entry's rating history in an event.
type Rating struct {
	Entry      int     // entry index
	AfterMatch int     // schedule index of the game after which it was computed
	Rating     float64 // Elo or the rank-based rating
	Interval   float64 // half-width of the 95 % interval
}

// AddRatings appends rating points to an event's history. A point for the
// same entry and game replaces the stored one, so a recomputation after a
// resume is harmless.
func (db *DB) AddRatings(eventID int64, rs []Rating) error {
	err := db.write(func(tx *sql.Tx) error { return putRatings(tx, eventID, rs) })
	if err != nil {
		return fmt.Errorf("save ratings of event %d: %w", eventID, err)
	}
	return nil
}

func putRatings(tx *sql.Tx, eventID int64, rs []Rating) error {
	if len(rs) == 0 {
		return nil
	}
	stmt, err := tx.Prepare(`INSERT INTO ratings (event_id, entry_idx, after_match, rating, interval) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (event_id, entry_idx, after_match) DO UPDATE SET rating = excluded.rating, interval = excluded.interval`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rs {
		if _, err := stmt.Exec(eventID, r.Entry, r.AfterMatch, r.Rating, r.Interval); err != nil {
			return fmt.Errorf("rating of entry %d after game %d: %w", r.Entry, r.AfterMatch, err)
		}
	}
	return nil
}

// Ratings returns an event's rating history in game order, then entry
// order.
func (db *DB) Ratings(eventID int64) ([]Rating, error) {
	out, err := collect(func(row scanner) (Rating, error) {
		var r Rating
		err := row.Scan(&r.Entry, &r.AfterMatch, &r.Rating, &r.Interval)
		return r, err
	})(db.r.Query(`SELECT entry_idx, after_match, rating, interval FROM ratings
		WHERE event_id = ? ORDER BY after_match, entry_idx`, eventID))
	if err != nil {
		return nil, fmt.Errorf("ratings of event %d: %w", eventID, err)
	}
	return out, nil
}

// formatInts writes a list as "1,2,3", the stored form of seats and ranks.
func formatInts(xs []int) string {
	b := make([]byte, 0, 4*len(xs))
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// countInts counts the items of a stored list.
func countInts(s string) int {
	if s == "" {
		return 0
	}
	n := 1
	for i := range len(s) {
		if s[i] == ',' {
			n++
		}
	}
	return n
}

// parseInts appends the integers of a stored list ("1,2,3", "" for none)
// to dst.
func parseInts(b string, dst []int) ([]int, error) {
	if len(b) == 0 {
		return dst, nil
	}
	for len(b) > 0 {
		neg := false
		if b[0] == '-' {
			neg, b = true, b[1:]
		}
		v, n := 0, 0
		for n < len(b) && b[n] >= '0' && b[n] <= '9' {
			if v > (1<<62)/10 {
				return dst, fmt.Errorf("number too large in list %q", b)
			}
			v = v*10 + int(b[n]-'0')
			n++
		}
		if n == 0 {
			return dst, fmt.Errorf("bad integer list near %q", b)
		}
		if neg {
			v = -v
		}
		dst = append(dst, v)
		b = b[n:]
		if len(b) > 0 {
			if b[0] != ',' || len(b) == 1 {
				return dst, fmt.Errorf("bad integer list near %q", b)
			}
			b = b[1:]
		}
	}
	return dst, nil
}

// EntryProblems sums, per entry index, the problems of an event's
// finished games.
func (db *DB) EntryProblems(eventID int64) (map[int]Problems, error) {
	rows, err := db.r.Query(`SELECT seats, problems FROM matches
		WHERE event_id = ? AND status = 'done' AND problems IS NOT NULL`, eventID)
	if err != nil {
		return nil, fmt.Errorf("problems of event %d: %w", eventID, err)
	}
	out := map[int]Problems{}
	for rows.Next() {
		var seats string
		var problems sql.NullString
		if err := rows.Scan(&seats, &problems); err != nil {
			rows.Close()
			return nil, fmt.Errorf("problems of event %d: %w", eventID, err)
		}
		entries, err := parseInts(seats, nil)
		ps := parseProblems(problems)
		if err != nil || len(ps) != len(entries) {
			continue
		}
		for k, e := range entries {
			out[e] = out[e].Add(ps[k])
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("problems of event %d: %w", eventID, err)
	}
	return out, nil
}
