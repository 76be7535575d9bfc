package storage

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Event locks: a runner holds its event's row in event_locks while it
// plays, so a second "event run" (or a second app) on the same event
// refuses instead of resetting the first one's running games and playing
// them again.
var (
	// lockHeartbeat is how often a holder refreshes its row.
	lockHeartbeat = 5 * time.Second
	// lockStale is how old a heartbeat from another host must be before
	// the holder counts as gone: Ringside cannot see another host's
	// processes, and a live holder refreshes its row every lockHeartbeat.
	lockStale = 60 * time.Second
)

// heldLocks are the event locks this process holds, by database file and
// event: a row with this process's pid is its own only if listed here
// (whichever DB handle took it).
var heldLocks = struct {
	sync.Mutex
	m map[heldKey]bool
}{m: map[heldKey]bool{}}

type heldKey struct {
	path  string
	event int64
}

// LockHolder is the process that runs an event.
type LockHolder struct {
	PID       int
	Host      string
	Started   time.Time // when it took the lock
	Heartbeat time.Time // its last sign of life
}

func (h LockHolder) String() string {
	return fmt.Sprintf("process %d on %s (running it since %s)", h.PID, h.Host, h.Started.Format("2006-01-02 15:04:05"))
}

// LockedError says that another process runs the event.
type LockedError struct {
	Path    string
	EventID int64
	Holder  LockHolder
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("event %d is being run by %s, last seen %s ago; wait for it to finish or stop it (it pauses on Ctrl-C or SIGTERM), then run the event again (database %s)",
		e.EventID, e.Holder, time.Since(e.Holder.Heartbeat).Round(time.Second), e.Path)
}

// EventLock is a held event lock. A goroutine refreshes its heartbeat
// until Release.
type EventLock struct {
	db      *DB
	eventID int64
	me      LockHolder
	// TookOver is the holder whose lock this one replaced because it was
	// gone (a crashed or killed run); nil when the event was free.
	TookOver *LockHolder

	stop     chan struct{}
	done     chan struct{}
	lost     chan struct{}
	lostOnce sync.Once
	once     sync.Once
	err      error
}

// LockEvent takes the lock of event id for this process, or returns a
// *LockedError naming the process that holds it. A holder that is gone is
// replaced: on this host, when no process with its pid (and start time)
// is alive; on another host, when its heartbeat is older than a minute.
// The same process cannot take one event's lock twice.
//
// Release the lock when the run ends; Lost is closed if another process
// takes it over in the meantime (only possible when this one stopped
// refreshing it, e.g. it was suspended for over a minute while another
// host looked).
func (db *DB) LockEvent(id int64) (*EventLock, error) {
	me, pstart := db.thisProcess()
	now := me.Started
	l := &EventLock{db: db, eventID: id, me: me,
		stop: make(chan struct{}), done: make(chan struct{}), lost: make(chan struct{})}
	err := db.write(func(tx *sql.Tx) error {
		if err := eventExists(tx, id); err != nil {
			return err
		}
		var h LockHolder
		var hstart, started, beat int64
		err := tx.QueryRow(`SELECT pid, host, pstart, started, heartbeat FROM event_locks WHERE event_id = ?`, id).
			Scan(&h.PID, &h.Host, &hstart, &started, &beat)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			h.Started, h.Heartbeat = time.UnixMilli(started), time.UnixMilli(beat)
			if !db.holderGone(id, h, hstart, me) {
				return &LockedError{Path: db.path, EventID: id, Holder: h}
			}
			l.TookOver = &h
		}
		_, err = tx.Exec(`INSERT OR REPLACE INTO event_locks (event_id, pid, host, pstart, started, heartbeat) VALUES (?, ?, ?, ?, ?, ?)`,
			id, me.PID, me.Host, pstart, now.UnixMilli(), now.UnixMilli())
		return err
	})
	if err != nil {
		var locked *LockedError
		if errors.As(err, &locked) {
			return nil, locked
		}
		return nil, fmt.Errorf("lock event %d: %w", id, err)
	}
	heldLocks.Lock()
	heldLocks.m[heldKey{db.path, id}] = true
	heldLocks.Unlock()
	go l.beat()
	return l, nil
}

// EventHolder says which process runs event id now, if any: a holder
// that is gone (crashed, killed) does not count. This process counts.
func (db *DB) EventHolder(id int64) (h LockHolder, running bool, err error) {
	var hstart, started, beat int64
	err = db.r.QueryRow(`SELECT pid, host, pstart, started, heartbeat FROM event_locks WHERE event_id = ?`, id).
		Scan(&h.PID, &h.Host, &hstart, &started, &beat)
	if errors.Is(err, sql.ErrNoRows) {
		return LockHolder{}, false, nil
	}
	if err != nil {
		return LockHolder{}, false, fmt.Errorf("who runs event %d: %w", id, err)
	}
	h.Started, h.Heartbeat = time.UnixMilli(started), time.UnixMilli(beat)
	host, _ := os.Hostname()
	me := LockHolder{PID: os.Getpid(), Host: host}
	if h.PID == me.PID && h.Host == me.Host {
		return h, true, nil
	}
	return h, !db.holderGone(id, h, hstart, me), nil
}

// holderGone reports whether the recorded holder h of event id no longer
// runs.
func (db *DB) holderGone(id int64, h LockHolder, hstart int64, me LockHolder) bool {
	if h.Host != me.Host {
		return db.now().Sub(h.Heartbeat) > lockStale
	}
	if h.PID == me.PID {
		// This process holds it only if it says so; otherwise the row was
		// left by an earlier process with the same pid (a container's pid
		// 1, or a reused pid).
		heldLocks.Lock()
		defer heldLocks.Unlock()
		return !heldLocks.m[heldKey{db.path, id}]
	}
	return db.processGone(h, hstart)
}

// processGone reports whether process h (started at hstart, in the
// system's ticks) of this host no longer runs.
func (db *DB) processGone(h LockHolder, hstart int64) bool {
	alive, known := processAlive(h.PID)
	if !known {
		return db.now().Sub(h.Heartbeat) > lockStale
	}
	if !alive {
		return true
	}
	// A live process has that pid: it is the holder unless it started at
	// another time than the holder did (the pid was reused).
	now := processStart(h.PID)
	return hstart != 0 && now != 0 && now != hstart
}

// Lost is closed when another process took the lock over.
func (l *EventLock) Lost() <-chan struct{} { return l.lost }

// Release gives the lock up. It is safe to call more than once.
func (l *EventLock) Release() error {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		heldLocks.Lock()
		delete(heldLocks.m, heldKey{l.db.path, l.eventID})
		heldLocks.Unlock()
		_, err := l.db.exec(`DELETE FROM event_locks WHERE event_id = ? AND pid = ? AND host = ? AND started = ?`,
			l.eventID, l.me.PID, l.me.Host, l.me.Started.UnixMilli())
		if err != nil {
			l.err = fmt.Errorf("release the lock of event %d: %w", l.eventID, err)
		}
	})
	return l.err
}

// beat refreshes the heartbeat until Release, and notices a takeover.
func (l *EventLock) beat() {
	defer close(l.done)
	heartbeat(l.stop, func() bool {
		res, err := l.db.exec(`UPDATE event_locks SET heartbeat = ? WHERE event_id = ? AND pid = ? AND host = ? AND started = ?`,
			l.db.now().UnixMilli(), l.eventID, l.me.PID, l.me.Host, l.me.Started.UnixMilli())
		if err != nil {
			return true // a busy or failing database; the next beat tries again
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			l.lostOnce.Do(func() { close(l.lost) })
			return false
		}
		return true
	})
}

// heartbeat calls beat every lockHeartbeat until stop is closed or beat
// returns false.
func heartbeat(stop <-chan struct{}, beat func() bool) {
	t := time.NewTicker(lockHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if !beat() {
			return
		}
	}
}
