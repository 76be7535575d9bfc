package storage

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestOtherApps: a second app on the database sees the first, and only
// apps that are still there: not itself, not a process that is gone, not
// one on another host that stopped beating.
func TestOtherApps(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	host, _ := os.Hostname()
	put := func(pid int, host string, pstart int64, beat time.Time) {
		t.Helper()
		_, err := db.w.Exec(`INSERT INTO app_sessions (pid, host, pstart, started, heartbeat) VALUES (?, ?, ?, ?, ?)`,
			pid, host, pstart, beat.Add(-time.Minute).UnixMilli(), beat.UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
	}
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Process.Kill(); live.Wait() })
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	put(live.Process.Pid, host, processStart(live.Process.Pid), now)
	put(gone.Process.Pid, host, 0, now)
	put(live.Process.Pid, host, processStart(live.Process.Pid)+1, now.Add(-time.Second)) // its pid, another process
	put(4242, "other-host", 0, now.Add(-10*time.Second))
	put(4343, "stale-host", 0, now.Add(-10*time.Minute))

	s, err := db.OpenAppSession()
	if err != nil {
		t.Fatal(err)
	}
	others, err := db.OtherApps()
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, h := range others {
		got = append(got, h.PID)
	}
	slices.Sort(got)
	want := []int{live.Process.Pid, 4242}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("other apps = %v (%v), want pids %v", got, others, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.w.QueryRow(`SELECT count(*) FROM app_sessions WHERE pid = ?`, os.Getpid()).Scan(&n); err != nil || n != 0 {
		t.Errorf("after Close this app has %d rows (%v)", n, err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
