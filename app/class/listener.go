package class

import (
	"net"
	"sync"
)

// limitListener holds at most n connections at once, and at most perIP
// from one source address: the next connection waits in the kernel's
// backlog until one closes, and one more from an address that holds its
// share is closed at once. So a flood of idle connections from one
// machine can take neither the server's file descriptors nor the other
// students' places (golang.org/x/net's netutil.LimitListener does the
// first half; x/net is not a direct dependency).
type limitListener struct {
	net.Listener
	sem       chan struct{}
	perIP     int
	done      chan struct{}
	closeOnce sync.Once
	mu        sync.Mutex
	byIP      map[string]int
}

func newLimitListener(l net.Listener, n, perIP int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), perIP: perIP, done: make(chan struct{}), byIP: map[string]int{}}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		select {
		case l.sem <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.sem
			return nil, err
		}
		ip := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(ip); err == nil {
			ip = h
		}
		l.mu.Lock()
		over := l.byIP[ip] >= l.perIP
		if !over {
			l.byIP[ip]++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			<-l.sem
			continue
		}
		return &limitConn{Conn: c, release: func() {
			l.mu.Lock()
			if l.byIP[ip]--; l.byIP[ip] <= 0 {
				delete(l.byIP, ip)
			}
			l.mu.Unlock()
			<-l.sem
		}}, nil
	}
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
