package runnertest

import "time"

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
