package runner

import (
	"sync"
	"time"

	"ringside/engine"
)

// handshake links the windows of a step whose asks write nothing and wait
// for every seat at once, such as Grip's READY. Each bot has its own
// window from its own start; besides, the windows are chained as the 2015
// referee ran them: it launched every bot, then waited for each bot's
// READY in seat order, giving each its own window from the moment the
// previous handshake ended. A bot's window here ends at the later of the
// two, so every bot the referee would have accepted is accepted, however
// slowly bots start when several start at once on a busy machine.
type handshake struct {
	mu     sync.Mutex
	floor  time.Time   // the last of the bots' starts: the first chained window opens then
	ends   []time.Time // per ask: when its handshake ended (READY, crash or timeout); zero while open
	change chan struct{}
}

// newHandshake links asks when they form a handshake: more than one, each
// for another seat, none writing anything. Otherwise it returns nil.
func newHandshake(conns []*seatConn, asks []engine.Ask) *handshake {
	if len(asks) < 2 {
		return nil
	}
	h := &handshake{ends: make([]time.Time, len(asks)), change: make(chan struct{})}
	seen := map[int]bool{}
	for _, a := range asks {
		if a.Input != "" || seen[a.Seat] || a.Seat < 0 || a.Seat >= len(conns) {
			return nil
		}
		seen[a.Seat] = true
		if s := conns[a.Seat].since; s.After(h.floor) {
			h.floor = s
		}
	}
	return h
}

// handshakeLink is one ask's place in a handshake; nil is no handshake.
type handshakeLink struct {
	h *handshake
	i int
}

func (h *handshake) link(i int) *handshakeLink {
	if h == nil {
		return nil
	}
	return &handshakeLink{h: h, i: i}
}

// window returns the end of the chained window of an ask whose own window
// is limit long, and whether it is known yet (the previous handshake has
// ended).
func (l *handshakeLink) window(limit time.Duration) (time.Time, bool) {
	h := l.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if l.i == 0 {
		return h.floor.Add(limit), true
	}
	prev := h.ends[l.i-1]
	if prev.IsZero() {
		return time.Time{}, false
	}
	return prev.Add(limit), true
}

// close records when the ask's handshake ended; the first call counts.
func (l *handshakeLink) close(at time.Time) {
	if l == nil {
		return
	}
	h := l.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.ends[l.i].IsZero() {
		return
	}
	if at.IsZero() {
		at = time.Now()
	}
	h.ends[l.i] = at
	close(h.change)
	h.change = make(chan struct{})
}

// changed is closed when another handshake of the step ends.
func (l *handshakeLink) changed() <-chan struct{} {
	h := l.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.change
}
