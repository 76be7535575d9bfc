package runner

import (
	"os"
	"sync"
	"time"

	"ringside/engine"
)

// line is one complete output line of a bot.
type line struct {
	text string
	at   time.Time // when its line end arrived
	// end counts the bytes of the output up to this line's end (0: not
	// counted, a line not read from a bot's pipe).
	end int64
	cut bool // longer than MaxLine
	// size is the line's whole length in bytes, of which text may keep
	// less (0: len(text)).
	size int64
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
	// max is the game's longest valid reply (engine.Info.MaxReply), set
	// before the first line: a longer line is kept cut there, with a mark
	// of its length, and the game judges it invalid. 0 keeps MaxLine.
	max int
}

func newLineQueue() *lineQueue {
	return &lineQueue{notify: make(chan struct{}, 1)}
}

// keep bounds the lines kept to the game's longest valid reply (max, in
// bytes; 0 or more than MaxLine keeps MaxLine). It is set before any line
// is pushed.
func (q *lineQueue) keep(max int) *lineQueue {
	if max > 0 && max < MaxLine {
		q.max = max
	}
	return q
}

// keptBytes is how much of a line the reader holds on to: a line cut at
// the game's bound needs no more of it than the game's bound.
func (q *lineQueue) keptBytes() int {
	if q.max > 0 {
		return q.max
	}
	return MaxLine
}

// withMaxReply is bots, copied, each bounded to the game's longest valid
// reply (engine.Info.MaxReply).
func withMaxReply(bots []Bot, max int) []Bot {
	out := make([]Bot, len(bots))
	for i, b := range bots {
		b.maxReply = max
		out[i] = b
	}
	return out
}

func (q *lineQueue) signal() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *lineQueue) push(l line) {
	if size := max(l.size, int64(len(l.text))); q.max > 0 && size > int64(q.max) {
		// Longer than the game can accept: what is kept says how long
		// it was, and the game judges it (engine.Info.LongReply).
		l.text, l.cut = engine.CutReply(l.text, q.max, size), false
	}
	q.mu.Lock()
	if q.count != nil {
		l.stale = q.count.stale(l.text, l.at)
	}
	if len(q.lines) > 0 && (len(q.lines) >= maxQueued || q.bytes+len(l.text) > maxQueuedBytes) {
		// Full: the newest line goes. The earliest are kept, because
		// among them is an answer the bot gave before it started to
		// flood (a READY); an ask takes what it waits for as soon as
		// it arrives, so little ever waits here.
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

// peek is pop without taking the line.
func (q *lineQueue) peek() (l line, ok, ended bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.lines) > 0 {
		return q.lines[0], true, false
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

// lineReader splits a bot's output into lines for its queue. Its own
// goroutine does nothing but read, so a line's arrival is stamped when
// the line end is read, however late the goroutine waiting for the reply
// is: a bot's time is what it took, not when Ringside looked. It also
// keeps reading between asks, so a bot never blocks on a full pipe and
// its noise is timed.
type lineReader struct {
	f *os.File
	q *lineQueue
	// mu is held across each read from the pipe and the count of what it
	// took, so that written never misses bytes in flight between the two.
	mu      sync.Mutex
	taken   int64 // bytes taken from the pipe, under mu
	pos     int64 // bytes split into lines so far (the reading goroutine's)
	buf     []byte
	cur     []byte
	cut     bool
	size    int64 // of the current line, whatever of it is kept
	afterCR bool
}

func newLineReader(f *os.File, q *lineQueue) *lineReader {
	return &lineReader{f: f, q: q, buf: make([]byte, readBuffer)}
}

// run is the reading goroutine; it ends with the output.
func (r *lineReader) run() {
	for r.readOnce() == nil {
	}
}

// afterFill, when set, runs between a read from a bot's pipe and the
// queueing of its lines: tests use it to make the reader late there.
var afterFill func(chunk []byte)

// written is how many bytes the bot has written to its output so far:
// those the reader took from the pipe and those still in it. A line that
// ends within them was printed by now, whenever the reader gets to it.
func (r *lineReader) written() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.taken + int64(unread(r.f))
}

// readOnce reads what is there (blocking) and queues the complete lines,
// each stamped with the moment its line end was read. At the end of the
// output it queues the last fragment and closes the queue.
func (r *lineReader) readOnce() error {
	n, err := r.fill()
	if afterFill != nil {
		afterFill(r.buf[:n])
	}
	now := time.Now()
	base := r.pos
	r.pos += int64(n)
	kept := r.q.keptBytes()
	for i, c := range r.buf[:n] {
		if r.afterCR {
			r.afterCR = false
			if c == '\n' {
				continue
			}
		}
		switch c {
		case '\n', '\r':
			r.q.push(line{text: string(r.cur), at: now, end: base + int64(i) + 1, cut: r.cut, size: r.size})
			r.cur = r.cur[:0]
			r.cut = false
			r.size = 0
			r.afterCR = c == '\r'
		default:
			r.size++
			if len(r.cur) < kept {
				r.cur = append(r.cur, c)
			} else {
				r.cut = true
			}
		}
	}
	if err != nil {
		if len(r.cur) > 0 {
			r.q.push(line{text: string(r.cur), at: time.Now(), end: r.pos, cut: r.cut, size: r.size})
			r.cur = nil
		}
		r.q.close()
	}
	return err
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
