package storage

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// putLock writes a lock row as another process would have left it.
func putLock(t *testing.T, db *DB, id int64, pid int, host string, pstart int64, beat time.Time) {
	t.Helper()
	_, err := db.w.Exec(`INSERT OR REPLACE INTO event_locks (event_id, pid, host, pstart, started, heartbeat) VALUES (?, ?, ?, ?, ?, ?)`,
		id, pid, host, pstart, beat.Add(-time.Hour).UnixMilli(), beat.UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
}

func TestLockEvent(t *testing.T) {
	db, ev := openWithEvent(t, 2, 2)
	host, _ := os.Hostname()
	l, err := db.LockEvent(ev.ID)
	if err != nil || l.TookOver != nil {
		t.Fatalf("first lock: %v, took over %v", err, l.TookOver)
	}
	// The same process cannot run the event twice.
	_, err = db.LockEvent(ev.ID)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.Holder.PID != os.Getpid() || locked.Holder.Host != host ||
		!strings.Contains(err.Error(), "is being run by process") || !strings.Contains(err.Error(), db.Path()) {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
	l, err = db.LockEvent(ev.ID)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	l.Release()
	if _, err := db.LockEvent(999); !errors.Is(err, ErrNotFound) {
		t.Errorf("lock of a missing event: %v", err)
	}

	now := time.Now()
	parent := os.Getppid()
	tests := []struct {
		name   string
		pid    int
		host   string
		pstart int64
		beat   time.Time
		gone   bool
	}{
		{"dead pid here", 1 << 30, host, 0, now, true},
		{"live pid here", parent, host, processStart(parent), now.Add(-time.Hour), false},
		{"reused pid here", parent, host, processStart(parent) + 1, now, true},
		{"this pid, left by an earlier process", os.Getpid(), host, 0, now, true},
		{"other host, fresh", 1, "elsewhere.example", 0, now.Add(-5 * time.Second), false},
		{"other host, stale", 1, "elsewhere.example", 0, now.Add(-2 * lockStale), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			putLock(t, db, ev.ID, tt.pid, tt.host, tt.pstart, tt.beat)
			l, err := db.LockEvent(ev.ID)
			if !tt.gone {
				if !errors.As(err, &locked) || locked.Holder.PID != tt.pid || locked.Holder.Host != tt.host {
					t.Fatalf("took a live holder's lock: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("did not take over: %v", err)
			}
			defer l.Release()
			if l.TookOver == nil || l.TookOver.PID != tt.pid || l.TookOver.Host != tt.host {
				t.Fatalf("took over %+v", l.TookOver)
			}
		})
	}
}

// A holder whose row another process took over sees Lost closed at its
// next heartbeat, and its Release leaves the new holder's row alone.
func TestLockLost(t *testing.T) {
	old := lockHeartbeat
	lockHeartbeat = 10 * time.Millisecond
	defer func() { lockHeartbeat = old }()
	db, ev := openWithEvent(t, 2, 2)
	l, err := db.LockEvent(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	putLock(t, db, ev.ID, 1, "elsewhere.example", 0, time.Now())
	select {
	case <-l.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("Lost was not closed")
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := db.r.QueryRow(`SELECT pid FROM event_locks WHERE event_id = ?`, ev.ID).Scan(&pid); err != nil || pid != 1 {
		t.Fatalf("the new holder's row: pid %d, %v", pid, err)
	}
}

// Two handles on one file in one process are still one process: the
// second cannot take the event the first runs.
func TestLockTwoHandles(t *testing.T) {
	db, ev := openWithEvent(t, 2, 2)
	other := openAt(t, db.Path())
	l, err := db.LockEvent(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var locked *LockedError
	if _, err := other.LockEvent(ev.ID); !errors.As(err, &locked) {
		t.Fatalf("second handle: %v", err)
	}
}
