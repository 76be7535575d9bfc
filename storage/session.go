package storage

import (
	"database/sql"
	"fmt"
	"os"
	"time"
)

// AppSession marks a desktop app as having the database open until
// Close, refreshing its heartbeat like an event lock.
type AppSession struct {
	db   *DB
	me   LockHolder
	stop chan struct{}
	done chan struct{}
	err  error
}

// thisProcess describes this process as a holder, from now on.
func (db *DB) thisProcess() (LockHolder, int64) {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown host"
	}
	now := time.UnixMilli(db.now().UnixMilli())
	me := LockHolder{PID: os.Getpid(), Host: host, Started: now, Heartbeat: now}
	return me, processStart(me.PID)
}

// OpenAppSession records that this process's app has the database open.
// Rows left by apps that are gone are removed on the way.
func (db *DB) OpenAppSession() (*AppSession, error) {
	me, pstart := db.thisProcess()
	s := &AppSession{db: db, me: me, stop: make(chan struct{}), done: make(chan struct{})}
	err := db.write(func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO app_sessions (pid, host, pstart, started, heartbeat) VALUES (?, ?, ?, ?, ?)`,
			me.PID, me.Host, pstart, me.Started.UnixMilli(), me.Started.UnixMilli())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("record the app in %s: %w", db.path, err)
	}
	go s.beat()
	return s, nil
}

// Close removes the app's row. It is safe to call more than once.
func (s *AppSession) Close() error {
	select {
	case <-s.stop:
		return s.err
	default:
	}
	close(s.stop)
	<-s.done
	_, err := s.db.exec(`DELETE FROM app_sessions WHERE pid = ? AND host = ? AND started = ?`,
		s.me.PID, s.me.Host, s.me.Started.UnixMilli())
	if err != nil {
		s.err = fmt.Errorf("remove the app from %s: %w", s.db.path, err)
	}
	return s.err
}

func (s *AppSession) beat() {
	defer close(s.done)
	heartbeat(s.stop, func() bool {
		// A busy database: the next beat tries again.
		_, _ = s.db.exec(`UPDATE app_sessions SET heartbeat = ? WHERE pid = ? AND host = ? AND started = ?`,
			s.db.now().UnixMilli(), s.me.PID, s.me.Host, s.me.Started.UnixMilli())
		return true
	})
}

// OtherApps lists the other desktop apps that have the database open now,
// oldest first: not this process, and not apps that are gone (crashed or
// killed without closing).
func (db *DB) OtherApps() ([]LockHolder, error) {
	rows, err := db.r.Query(`SELECT pid, host, pstart, started, heartbeat FROM app_sessions ORDER BY started`)
	if err != nil {
		return nil, fmt.Errorf("list the apps on %s: %w", db.path, err)
	}
	defer rows.Close()
	me, _ := db.thisProcess()
	var others []LockHolder
	for rows.Next() {
		var h LockHolder
		var pstart, started, beat int64
		if err := rows.Scan(&h.PID, &h.Host, &pstart, &started, &beat); err != nil {
			return nil, fmt.Errorf("list the apps on %s: %w", db.path, err)
		}
		h.Started, h.Heartbeat = time.UnixMilli(started), time.UnixMilli(beat)
		switch {
		case h.Host == me.Host && h.PID == me.PID:
			continue // this process, whichever of its windows
		case h.Host != me.Host:
			if db.now().Sub(h.Heartbeat) > lockStale {
				continue
			}
		case db.processGone(h, pstart):
			continue
		}
		others = append(others, h)
	}
	return others, rows.Err()
}
