package storage

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"ringside/engine"
	"ringside/engine/event"
)

// EventStatus is where an event is in its life.
type EventStatus string

// Event statuses.
const (
	EventCreated   EventStatus = "created"
	EventRunning   EventStatus = "running"
	EventPaused    EventStatus = "paused"
	EventFinished  EventStatus = "finished"
	EventCancelled EventStatus = "cancelled"
)

func (s EventStatus) valid() bool {
	switch s {
	case EventCreated, EventRunning, EventPaused, EventFinished, EventCancelled:
		return true
	}
	return false
}

// Event is a stored event: its config (which fixes the schedule), how it
// runs, and its entries.
type Event struct {
	ID          int64
	Name        string
	Game        string
	Options     engine.Options
	Config      event.Config
	Status      EventStatus
	Concurrency int     // games at once; 0 means the runner's default
	TimeScale   float64 // multiplier of the games' time limits; 0 is stored as event.TimeScale(0)
	Created     time.Time
	Finished    time.Time // zero until finished or cancelled
	// Entries has one entry per Config.Entries, in the same order.
	Entries []Entry
	// Trusted runs every bot of the event without the sandbox; Limits
	// overrides the sandbox's caps for all of them ("" keeps the
	// defaults; an entry's own limits win).
	Trusted bool
	Limits  string
	// Deadline, when set, is the time after which new revisions of the
	// event's AIs are not used by it.
	Deadline time.Time
	// Pace is the most turns a second each game is played at; 0 plays
	// as fast as the bots answer.
	Pace float64
}

// Entry is how one competitor of an event is run. Name, Filler and
// Candidate mirror the event.Entry of the same index.
type Entry struct {
	Index      int
	Name       string
	RevisionID int64 // 0 when not run from a stored revision
	Command    string
	Dir        string
	Filler     bool
	Candidate  bool
	// Trusted and Limits are the entry's AI's, as they were when the
	// event was made.
	Trusted bool
	Limits  string
	// Options are the AI's own game options ("coords=xy"), as they were
	// when the event was made.
	Options string
	// Spec is what was written for the entry ("alice", "alice@r3",
	// "builtin:grip/random"); "" for events made before it was kept.
	Spec string
}

// CreateEvent stores an event with its entries and returns it with its ID.
// The entries' names and flags must agree with ev.Config.Entries; when
// ev.Entries is empty they are made from the config, without commands.
func (db *DB) CreateEvent(ev Event) (Event, error) {
	if ev.Name == "" {
		return Event{}, errors.New("create event: an event needs a name")
	}
	if ev.Game == "" {
		return Event{}, fmt.Errorf("create event %q: no game given", ev.Name)
	}
	if len(ev.Entries) == 0 {
		ev.Entries = make([]Entry, len(ev.Config.Entries))
		for i, ce := range ev.Config.Entries {
			ev.Entries[i] = Entry{Name: ce.Name}
		}
	}
	if len(ev.Entries) != len(ev.Config.Entries) {
		return Event{}, fmt.Errorf("create event %q: %d entries but the config lists %d", ev.Name, len(ev.Entries), len(ev.Config.Entries))
	}
	for i := range ev.Entries {
		e, ce := &ev.Entries[i], ev.Config.Entries[i]
		if e.Name != ce.Name {
			return Event{}, fmt.Errorf("create event %q: entry %d is %q but the config names %q", ev.Name, i, e.Name, ce.Name)
		}
		e.Index, e.Filler, e.Candidate = i, ce.Filler, ce.Candidate
	}
	if ev.Status == "" {
		ev.Status = EventCreated
	}
	if !ev.Status.valid() {
		return Event{}, fmt.Errorf("create event %q: unknown status %q", ev.Name, ev.Status)
	}
	ev.TimeScale = event.TimeScale(ev.TimeScale)
	opts, err := json.Marshal(ev.Options)
	if err != nil {
		return Event{}, fmt.Errorf("create event %q: options: %w", ev.Name, err)
	}
	if ev.Options == nil {
		opts = []byte("{}")
	}
	cfg, err := json.Marshal(ev.Config)
	if err != nil {
		return Event{}, fmt.Errorf("create event %q: config: %w", ev.Name, err)
	}
	ev.Created = time.UnixMilli(db.now().UnixMilli())
	err = db.write(func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO events (name, game, format, options, config, status, concurrency, time_scale, created, finished, trusted, limits, deadline, pace)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.Name, ev.Game, string(ev.Config.Format), string(opts), string(cfg), ev.Status,
			ev.Concurrency, ev.TimeScale, ev.Created.UnixMilli(), millis(ev.Finished), ev.Trusted, ev.Limits, millis(ev.Deadline), ev.Pace)
		if err != nil {
			return err
		}
		if ev.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		stmt, err := tx.Prepare(`INSERT INTO entries (event_id, idx, name, revision_id, command, dir, filler, candidate, trusted, limits, options, spec)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, e := range ev.Entries {
			rev := sql.NullInt64{Int64: e.RevisionID, Valid: e.RevisionID != 0}
			_, err := stmt.Exec(ev.ID, e.Index, e.Name, rev, e.Command, e.Dir, e.Filler, e.Candidate, e.Trusted, e.Limits, e.Options, e.Spec)
			if isConstraint(err, sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY) {
				return fmt.Errorf("entry %d (%s): revision %d does not exist: %w", e.Index, e.Name, e.RevisionID, ErrNotFound)
			}
			if err != nil {
				return fmt.Errorf("entry %d (%s): %w", e.Index, e.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return Event{}, fmt.Errorf("create event %q: %w", ev.Name, err)
	}
	return ev, nil
}

const eventColumns = `id, name, game, options, config, status, concurrency, time_scale, created, finished, trusted, limits, deadline, pace`

func scanEvent(row scanner) (Event, error) {
	var ev Event
	var opts, cfg string
	var created, finished, deadline sql.NullInt64
	if err := row.Scan(&ev.ID, &ev.Name, &ev.Game, &opts, &cfg, &ev.Status, &ev.Concurrency, &ev.TimeScale,
		&created, &finished, &ev.Trusted, &ev.Limits, &deadline, &ev.Pace); err != nil {
		return Event{}, err
	}
	ev.Created, ev.Finished, ev.Deadline = fromMillis(created), fromMillis(finished), fromMillis(deadline)
	if err := json.Unmarshal([]byte(opts), &ev.Options); err != nil {
		return Event{}, fmt.Errorf("options: %w", err)
	}
	if err := json.Unmarshal([]byte(cfg), &ev.Config); err != nil {
		return Event{}, fmt.Errorf("config: %w", err)
	}
	return ev, nil
}

// Event loads an event with its entries.
func (db *DB) Event(id int64) (Event, error) {
	ev, err := one(scanEvent, db.r.QueryRow(`SELECT `+eventColumns+` FROM events WHERE id = ?`, id), "event %d", id)
	if err != nil {
		return Event{}, err
	}
	ev.Entries, err = collect(scanEntry)(db.r.Query(`SELECT idx, name, revision_id, command, dir, filler, candidate, trusted, limits, options, spec
		FROM entries WHERE event_id = ? ORDER BY idx`, id))
	if err != nil {
		return Event{}, fmt.Errorf("entries of event %d: %w", id, err)
	}
	return ev, nil
}

func scanEntry(row scanner) (Entry, error) {
	var e Entry
	var rev sql.NullInt64
	err := row.Scan(&e.Index, &e.Name, &rev, &e.Command, &e.Dir, &e.Filler, &e.Candidate, &e.Trusted, &e.Limits, &e.Options, &e.Spec)
	e.RevisionID = rev.Int64
	return e, err
}

// ListEvents returns every event without its entries, newest first.
func (db *DB) ListEvents() ([]Event, error) {
	out, err := collect(scanEvent)(db.r.Query(`SELECT ` + eventColumns + ` FROM events ORDER BY id DESC`))
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	return out, nil
}

// SetEventStatus moves an event to status. Finishing or cancelling it
// records the time; any other status clears it.
func (db *DB) SetEventStatus(id int64, status EventStatus) error {
	if !status.valid() {
		return fmt.Errorf("set status of event %d: unknown status %q", id, status)
	}
	var fin sql.NullInt64
	if status == EventFinished || status == EventCancelled {
		fin = millis(db.now())
	}
	res, err := db.exec(`UPDATE events SET status = ?, finished = ? WHERE id = ?`, status, fin, id)
	if err != nil {
		return fmt.Errorf("set status of event %d to %s: %w", id, status, err)
	}
	return mustAffect(res, fmt.Sprintf("set status of event %d", id))
}

// SetEventPace stores the pace a running event was changed to, so that a
// resumed run keeps it (0: as fast as the bots answer).
func (db *DB) SetEventPace(id int64, pace float64) error {
	res, err := db.exec(`UPDATE events SET pace = ? WHERE id = ?`, pace, id)
	if err != nil {
		return fmt.Errorf("set the pace of event %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("set the pace of event %d", id))
}

// RenameEvent gives an event a new name.
func (db *DB) RenameEvent(id int64, name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("rename event %d: the name is empty", id)
	}
	res, err := db.exec(`UPDATE events SET name = ? WHERE id = ?`, strings.TrimSpace(name), id)
	if err != nil {
		return fmt.Errorf("rename event %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("rename event %d", id))
}

// DeleteEvent removes an event with its entries, matches, replays and
// rating history.
func (db *DB) DeleteEvent(id int64) error {
	res, err := db.exec(`DELETE FROM events WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete event %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("delete event %d", id))
}

// RefreshEntries saves ev's entries (name, revision, command, folder,
// sandbox settings, options) and the entry names of its config, for an
// event that has not started yet: one created before its deadline takes
// the revisions built until then. An event that has started is refused.
func (db *DB) RefreshEntries(ev Event) error {
	cfg, err := json.Marshal(ev.Config)
	if err != nil {
		return fmt.Errorf("refresh entries of event %d: config: %w", ev.ID, err)
	}
	err = db.write(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE events SET config = ? WHERE id = ? AND status = 'created'`, string(cfg), ev.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("it has started or is gone: %w", ErrNotFound)
		}
		for _, e := range ev.Entries {
			rev := sql.NullInt64{Int64: e.RevisionID, Valid: e.RevisionID != 0}
			if _, err := tx.Exec(`UPDATE entries SET name = ?, revision_id = ?, command = ?, dir = ?, trusted = ?, limits = ?, options = ?
				WHERE event_id = ? AND idx = ?`, e.Name, rev, e.Command, e.Dir, e.Trusted, e.Limits, e.Options, ev.ID, e.Index); err != nil {
				return fmt.Errorf("entry %d (%s): %w", e.Index, e.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("refresh entries of event %d: %w", ev.ID, err)
	}
	return nil
}
