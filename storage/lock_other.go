//go:build !unix

package storage

// processAlive cannot look at other processes here; LockEvent then goes
// by the holder's heartbeat alone.
func processAlive(pid int) (alive, known bool) { return false, false }

// processStart is unknown here.
func processStart(pid int) int64 { return 0 }
