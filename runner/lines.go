package runner

import (
	"io"
	"sync"
	"time"
)

// MaxLine is the longest reply line kept; longer lines are cut there and
// marked, and the rest up to the line end is discarded.
const MaxLine = 64 << 10

// maxQueued bounds the lines waiting to be taken, so a bot that floods its
// output costs CPU but never memory; the oldest are dropped first.
const maxQueued = 256

// line is one complete output line of a bot.
type line struct {
	text string
	at   time.Time // when its line end arrived
	cut  bool      // longer than MaxLine
}

// lineQueue collects a bot's output lines as they complete. The reading
// goroutine never blocks on the consumer.
type lineQueue struct {
	mu      sync.Mutex
	lines   []line
	dropped int
	closed  bool
	notify  chan struct{} // has a value when something changed
}

func newLineQueue() *lineQueue {
	return &lineQueue{notify: make(chan struct{}, 1)}
}

func (q *lineQueue) signal() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *lineQueue) push(l line) {
	q.mu.Lock()
	if len(q.lines) >= maxQueued {
		q.lines = q.lines[1:]
		q.dropped++
	}
	q.lines = append(q.lines, l)
	q.mu.Unlock()
	q.signal()
}

func (q *lineQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

// pop returns the next line if there is one, and whether the output has
// ended with nothing left.
func (q *lineQueue) pop() (l line, ok, ended bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.lines) > 0 {
		l = q.lines[0]
		q.lines = q.lines[1:]
		return l, true, false
	}
	return line{}, false, q.closed
}

// drain takes every waiting line.
func (q *lineQueue) drain() []line {
	q.mu.Lock()
	defer q.mu.Unlock()
	ls := q.lines
	q.lines = nil
	return ls
}

// readLines splits r into lines ended by "\n", "\r\n" or a lone "\r" and
// pushes them to q until r ends; then it closes q. A final unterminated
// fragment is delivered as a line too, since the bot can no longer finish it.
func readLines(r io.Reader, q *lineQueue) {
	defer q.close()
	buf := make([]byte, 32<<10)
	var cur []byte
	cut := false
	afterCR := false
	for {
		n, err := r.Read(buf)
		now := time.Now()
		for _, c := range buf[:n] {
			if afterCR {
				afterCR = false
				if c == '\n' {
					continue
				}
			}
			switch c {
			case '\n', '\r':
				q.push(line{text: string(cur), at: now, cut: cut})
				cur = cur[:0]
				cut = false
				afterCR = c == '\r'
			default:
				if len(cur) < MaxLine {
					cur = append(cur, c)
				} else if !cut {
					cut = true
				}
			}
		}
		if err != nil {
			if len(cur) > 0 {
				q.push(line{text: string(cur), at: time.Now(), cut: cut})
			}
			return
		}
	}
}

// tail keeps the last max bytes written to it, and counts all bytes, so a
// caller can ask for what arrived since a mark.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// mark returns the count of bytes written so far.
func (t *tail) mark() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// since returns at most limit bytes of what was written after mark m (the
// end of it, when more was written), and whether anything was lost.
func (t *tail) since(m int64, limit int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.total - m
	if n <= 0 {
		return ""
	}
	if n > int64(len(t.buf)) {
		n = int64(len(t.buf))
	}
	if n > int64(limit) {
		n = int64(limit)
	}
	return string(t.buf[int64(len(t.buf))-n:])
}

// String returns everything kept.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
