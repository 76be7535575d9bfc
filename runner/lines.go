package runner

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// line is one complete output line of a bot.
type line struct {
	text string
	at   time.Time // when its line end arrived
	cut  bool      // longer than MaxLine
	// stale is set for a line that answers an older state than the
	// latest one sent, or none (replies counted: see replyCount).
	stale bool
}

// lineQueue collects a bot's output lines as they complete. The reading
// goroutine never blocks on the consumer.
type lineQueue struct {
	mu      sync.Mutex
	lines   []line
	bytes   int // of the lines waiting
	dropped int // lines dropped unread because too many were waiting
	closed  bool
	notify  chan struct{} // has a value when something changed
	// count, when set, pairs each line with the state it answers as it
	// arrives (login games).
	count *replyCount
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
	if q.count != nil {
		l.stale = q.count.stale(l.text, l.at)
	}
	if len(q.lines) > 0 && (len(q.lines) >= maxQueued || q.bytes+len(l.text) > maxQueuedBytes) {
		// Full: the newest line goes. The earliest are kept, because
		// among them is an answer the bot gave before it started to
		// flood (a READY); everything a bot prints while asked is read
		// by the ask itself and hardly waits here.
		q.dropped++
		q.mu.Unlock()
		q.signal()
		return
	}
	q.lines = append(q.lines, l)
	q.bytes += len(l.text)
	q.mu.Unlock()
	q.signal()
}

// counted makes the queue count lines against c's states from now on.
func (q *lineQueue) counted(c *replyCount) {
	q.mu.Lock()
	q.count = c
	q.mu.Unlock()
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
		q.bytes -= len(l.text)
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
	q.bytes = 0
	return ls
}

// takeDropped returns the count of lines dropped since the last call.
func (q *lineQueue) takeDropped() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := q.dropped
	q.dropped = 0
	return n
}

// lineReader splits a bot's output into lines for its queue. A goroutine
// reads between asks (so a bot never blocks on a full pipe and its noise
// is timed), and an ask borrows the reader to read the reply itself: that
// saves handing every reply from one goroutine to another, a thread
// wake-up per turn (BenchmarkRoundTripRunner against
// BenchmarkRoundTripPipe).
type lineReader struct {
	f *os.File
	q *lineQueue

	mu      sync.Mutex // held by whoever reads
	buf     []byte
	cur     []byte
	cut     bool
	afterCR bool
	ended   bool

	borrowed atomic.Bool
	back     chan struct{} // the borrower is done
}

func newLineReader(f *os.File, q *lineQueue) *lineReader {
	return &lineReader{f: f, q: q, buf: make([]byte, readBuffer), back: make(chan struct{}, 1)}
}

// run is the background reading goroutine; it ends with the output.
func (r *lineReader) run() {
	for {
		r.mu.Lock()
		if r.ended {
			r.mu.Unlock()
			return
		}
		err := r.readOnce()
		r.mu.Unlock()
		if errors.Is(err, os.ErrDeadlineExceeded) && r.borrowed.Load() {
			<-r.back
		}
	}
}

// readOnce reads what is there (blocking) and queues the complete lines.
// At the end of the output it queues the last fragment and closes the
// queue. The caller holds mu.
func (r *lineReader) readOnce() error {
	n, err := r.f.Read(r.buf)
	now := time.Now()
	for _, c := range r.buf[:n] {
		if r.afterCR {
			r.afterCR = false
			if c == '\n' {
				continue
			}
		}
		switch c {
		case '\n', '\r':
			r.q.push(line{text: string(r.cur), at: now, cut: r.cut})
			r.cur = r.cur[:0]
			r.cut = false
			r.afterCR = c == '\r'
		default:
			if len(r.cur) < MaxLine {
				r.cur = append(r.cur, c)
			} else {
				r.cut = true
			}
		}
	}
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		if len(r.cur) > 0 {
			r.q.push(line{text: string(r.cur), at: time.Now(), cut: r.cut})
			r.cur = nil
		}
		r.ended = true
		r.q.close()
	}
	return err
}

// take makes the caller the reader, interrupting the background Read.
func (r *lineReader) take() {
	r.borrowed.Store(true)
	_ = r.f.SetReadDeadline(time.Unix(1, 0))
	r.mu.Lock()
	_ = r.f.SetReadDeadline(time.Time{})
}

// read reads once with a deadline; the caller has taken the reader.
func (r *lineReader) read(deadline time.Time) error {
	if r.ended {
		return io.EOF
	}
	_ = r.f.SetReadDeadline(deadline)
	err := r.readOnce()
	_ = r.f.SetReadDeadline(time.Time{})
	return err
}

// give hands the reader back to the background goroutine.
func (r *lineReader) give() {
	r.mu.Unlock()
	r.borrowed.Store(false)
	select {
	case r.back <- struct{}{}:
	default:
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

// Tail keeps the end of a long output, such as a build log; NewTail makes one.
type Tail = tail

// NewTail keeps the last max bytes written.
func NewTail(max int) *Tail { return newTail(max) }

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
