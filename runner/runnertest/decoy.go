package runnertest

import (
	"net"
	"sync/atomic"
	"testing"
)

// Decoy is a loopback TCP port that belongs to no game: a test hands it to
// a bot that must not reach it and counts the connections that arrive.
type Decoy struct {
	Addr     string // 127.0.0.1:Port
	Port     int
	accepted atomic.Int32
}

// NewDecoy listens on a free loopback port, accepting and closing every
// connection, until the test ends.
func NewDecoy(t testing.TB) *Decoy {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	d := &Decoy{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d.accepted.Add(1)
			c.Close()
		}
	}()
	return d
}

// Accepted counts the connections made to the decoy so far.
func (d *Decoy) Accepted() int32 { return d.accepted.Load() }
