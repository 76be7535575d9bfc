package runnertest

import (
	"testing"
	"time"
)

// NextSecond waits until the wall clock enters the next whole second and
// returns that second. A test of something stored to the second (an
// event's deadline, written as RFC 3339) waits for the second to turn
// instead of sleeping a fixed 1.1 s: everything done before the call is
// in an earlier second than the one returned, everything after it in
// this one or later.
func NextSecond() time.Time {
	next := time.Now().Truncate(time.Second).Add(time.Second)
	// Sleep may wake early on some systems' clocks: wait until the clock
	// itself says so.
	for time.Now().Before(next) {
		time.Sleep(time.Until(next))
	}
	return next
}

// Patience is how long a test may wait for an event it expects: until
// shortly before the test binary's own deadline (go test -timeout), so
// that a busy machine makes a test slower, never red, while a test that
// waits for what never comes still fails with its own message before
// the binary is stopped. Without a deadline it is ten minutes.
func Patience(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			return max(time.Until(end)-time.Minute, 10*time.Second)
		}
	}
	return 10 * time.Minute
}
