package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"ringside/engine"
	"ringside/runner/sandbox"
)

// Match is one game to play.
type Match struct {
	Game    engine.Game
	Options engine.Options // as given; Play fills in defaults
	Seed    int64
	Bots    []Bot
	// TimeScale multiplies every time limit (slow machines, many games in
	// parallel); the game sees times divided by it again. 0 means
	// event.DefaultTimeScale (event.TimeScale).
	TimeScale float64
	// PlayWithoutBots plays the game even when no bot could be started
	// (every seat then crashes at once). Events set it: in a class of 30
	// programs two broken ones may meet, and that must cost them their
	// game, not stop the event. "ringside play" leaves it off and reports
	// a usage error instead.
	PlayWithoutBots bool
	// Sandbox is how the bots are contained; the zero value sandboxes
	// every bot with DefaultLimits.
	Sandbox Sandbox
	// OnStep, when set, is called after each step from Play's goroutine.
	OnStep func(index int, st engine.State, step engine.Step)
	// Branch, when set, re-plays Branch.Log and lets Bots[Branch.Seat]
	// play live from Branch.Step (see Branch). Options and Seed are then
	// the log's, and the game's players keep their recorded names.
	Branch *Branch
	// OnLog, when set, is called from Play's goroutine once the game has
	// started (log has no steps yet) and again after each step, for live
	// viewers. log is Play's own: read it during the call only, and copy
	// what is kept (Play still adds remarks to the last replies when the
	// game ends). It must return quickly: the game waits for it.
	OnLog func(log *engine.Log)
	// Pace, when above 0, plays at most Pace turns a second, so people
	// can follow a game of fast bots: each turn of the game starts at
	// least 1/Pace s after the one before. The wait is between turns,
	// when no bot is asked: time limits and the bots' clocks are not
	// touched.
	Pace float64
	// PaceNow, when set, is read before every turn's wait in place of
	// Pace: a room speeds a running event up or slows it down
	// (Event.SetPace). 0 plays as fast as the bots answer.
	PaceNow func() float64

	// Tests' settings, per match so that such tests may run side by
	// side: loginTimeout replaces LoginTimeout when above 0; noGiveBack
	// is every seat's (seatConn.noGiveBack).
	loginTimeout time.Duration
	noGiveBack   bool
}

// Outcome is a played match.
type Outcome struct {
	Log *engine.Log
	// Verdicts counts, per seat, the verdicts of its replies, indexed by
	// engine.Verdict.
	Verdicts [][len(verdictIndex)]int
	// Stderr is the end of each seat's stderr (StderrKept bytes at most).
	Stderr []string
	// Notes say, per seat, what went wrong outside the game: a program
	// that could not start, how a process ended.
	Notes []string
	// NoiseCut counts, per seat, the unasked lines that were read but not
	// kept in the replay (beyond NoiseLinesKept or NoiseBytesKept).
	NoiseCut []int
	// Sandbox says, per seat, how its bot was contained: "on",
	// "partial" (the kernel lacks something: see SandboxStatus; or
	// Windows, whose Job Object holds some), "off" (this OS has no
	// sandbox), "trusted" (run without it by choice), or "" when it did
	// not start.
	Sandbox []string
	// SandboxMissing says, per seat whose Sandbox is "partial" or "off",
	// what its containment lacked, in plain words.
	SandboxMissing []string
	// LoadTimeouts counts, per seat, the timeouts among Verdicts that
	// came while the machine kept the bot from the CPU for half its
	// window or more after what it waited was given back: the machine's
	// fault, not the bot's (the replay's note says so).
	LoadTimeouts []int
	Wall         time.Duration
}

var verdictIndex = [...]engine.Verdict{engine.OK, engine.Invalid, engine.Timeout, engine.Crashed, engine.NotAsked}

// ErrNoBotStarted is returned when not one bot of a match could be started:
// then the problem is the set-up, not a bot.
var ErrNoBotStarted = errors.New("no bot could be started")

// seatConn is how the match talks to one seat's bot.
type seatConn struct {
	seat     int
	proc     *process   // nil when the program could not start
	out      *lineQueue // the bot's reply lines
	send     func(text string, timeout time.Duration) error
	since    time.Time // when the bot was last written to (or started)
	errMark  int64
	errSpent int
	// dir is the bot's folder and shownDir what its stderr names instead
	// (Bot.ShownDir).
	dir, shownDir string
	stopped       bool
	note          string // pending remark for the next logged reply
	noiseCut      int    // unasked lines not kept, not yet counted in the outcome
	// loadTimeouts counts the seat's timeouts under a busy machine.
	loadTimeouts int
	remark       string        // said with the first logged reply (how it is contained)
	capped       bool          // run outside a sandbox this OS lacks, with the caps it can hold (Bot.caps)
	closer       func()        // extra clean-up (transports)
	pending      func() string // remarks of the transport for the next reply (refused logins)

	// Test hooks, per seat so that such tests may run side by side.
	// afterWrite, when set, runs between writing an input and waiting
	// for its answer: tests make Ringside late there. noGiveBack, set by
	// tests of when an answer arrives against its deadline, judges every
	// ask on the wall clock alone, with nothing given back for a wait for
	// a CPU (which a busy test machine would otherwise give).
	afterWrite func()
	noGiveBack bool
}

// SeatOptions adds each bot's own options to the match's, as key@SEAT:
// the options a match of these bots plays with (and its replay records),
// before defaults.
func SeatOptions(opts engine.Options, bots []Bot) engine.Options {
	out, copied := opts, false
	for i, b := range bots {
		if len(b.Options) == 0 {
			continue
		}
		if !copied {
			copied = true
			out = make(engine.Options, len(opts)+len(b.Options))
			for k, v := range opts {
				out[k] = v
			}
		}
		for k, v := range b.Options {
			out[engine.SeatKey(k, i)] = v
		}
	}
	return out
}

// pace waits until turns turns have taken at least turns/perSecond
// seconds since began, or until ctx ends.
func pace(ctx context.Context, began time.Time, turns int, perSecond float64) {
	wait := time.Until(began.Add(time.Duration(float64(turns) / perSecond * float64(time.Second))))
	if wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// noiseBudget is what a seat's noise has used of the replay's room.
type noiseBudget struct {
	lines, bytes int
	cut          bool
}

// keepNoise keeps the unasked lines within each seat's budget and counts
// the rest in cut. The first time a seat's noise is cut, the seat's next
// reply says so.
func keepNoise(noise []engine.Noise, kept []noiseBudget, conns []*seatConn, cut []int) []engine.Noise {
	// A new slice: the replay must not hold on to the lines that were cut.
	var out []engine.Noise
	for _, n := range noise {
		if n.Seat < 0 || n.Seat >= len(kept) {
			continue
		}
		b := &kept[n.Seat]
		if b.lines < NoiseLinesKept && b.bytes+len(n.Line) <= NoiseBytesKept {
			b.lines++
			b.bytes += len(n.Line)
			out = append(out, n)
			continue
		}
		cut[n.Seat]++
		if !b.cut {
			b.cut = true
			conns[n.Seat].note = joinNote(conns[n.Seat].note, fmt.Sprintf(
				"unasked output beyond %d lines or %s per game is read but not kept", NoiseLinesKept, sandbox.Size(NoiseBytesKept)))
		}
	}
	for i, c := range conns {
		if c.out != nil {
			cut[i] += c.out.takeDropped()
		}
		cut[i] += c.noiseCut
		if c.noiseCut > 0 && !kept[i].cut {
			kept[i].cut = true
			c.note = joinNote(c.note, fmt.Sprintf(
				"unasked output beyond %d lines or %s per game is read but not kept", NoiseLinesKept, sandbox.Size(NoiseBytesKept)))
		}
		c.noiseCut = 0
	}
	return out
}

func seatRange(info engine.Info) string {
	if info.MinSeats == info.MaxSeats {
		return fmt.Sprintf("exactly %d bots", info.MinSeats)
	}
	return fmt.Sprintf("%d to %d bots", info.MinSeats, info.MaxSeats)
}

// uniqueNames gives every seat a distinct display name.
func uniqueNames(bots []Bot) []string {
	names := make([]string, len(bots))
	seen := map[string]int{}
	for i, b := range bots {
		n := strings.TrimSpace(b.Name)
		if n == "" {
			n = strings.TrimSpace(b.Command)
		}
		seen[n]++
		if seen[n] > 1 {
			n = fmt.Sprintf("%s#%d", n, seen[n])
		}
		names[i] = n
	}
	return names
}

// SeedEnv is the environment variable that gives each bot its seed for
// the game: a number from the game's seed and the seat, the same every
// time that game is played.
const SeedEnv = "RINGSIDE_SEED"

// botSeed gives each seat's bot its own stream.
func botSeed(seed int64, seat int) int64 {
	x := uint64(seed) + uint64(seat+1)*0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return int64((x ^ (x >> 31)) >> 1)
}

// connect starts every bot. A bot that cannot start becomes a seat whose
// every reply is "closed" (the game sees it as crashed), with the reason
// noted.
func connect(ctx context.Context, info engine.Info, opts engine.Options, st engine.State,
	bots []Bot, argvs [][]string, scale float64, sb Sandbox, login time.Duration) ([]*seatConn, func(), error) {
	specs := make([]*sandboxSpec, len(bots))
	for i, b := range bots {
		specs[i] = sb.spec(b)
	}
	bots = withMaxReply(bots, info.MaxReply)
	for i := range bots {
		bots[i].caps = sb.caps(bots[i])
	}
	if info.Login != nil {
		return connectLogin(ctx, info.Login, opts, st, bots, argvs, scale, login, specs)
	}
	conns := make([]*seatConn, len(bots))
	for i, b := range bots {
		conns[i] = startSeat(i, argvs[i], b, specs[i])
	}
	return conns, func() {}, nil
}

func startSeat(i int, argv []string, b Bot, sb *sandboxSpec) *seatConn {
	c := &seatConn{seat: i, dir: b.Dir, shownDir: b.ShownDir}
	p, err := startProcess(argv, b.Dir, b.Env, sb, b.maxReply, b.caps)
	if err != nil {
		c.note = err.Error()
		c.out = newLineQueue()
		c.out.close()
		return c
	}
	if p.launch != nil {
		// The bot's clock starts when it does, not when its sandbox
		// began to be made.
		p.launch.Features(launchReport)
	}
	c.proc, c.out, c.since = p, p.out, time.Now()
	c.capped = b.caps != (sandbox.Limits{})
	c.send = p.write
	return c
}

func (c *seatConn) stop() {
	if c.stopped {
		return
	}
	c.stopped = true
	if c.closer != nil {
		c.closer()
	}
	if c.proc != nil {
		c.proc.stop()
	}
}

// collect asks every seat of asks at once and waits for all replies.
func collect(ctx context.Context, conns []*seatConn, asks []engine.Ask, scale float64) ([]engine.Reply, []engine.LogReply, []engine.Noise) {
	replies := make([]engine.Reply, len(asks))
	logged := make([]engine.LogReply, len(asks))
	noise := make([][]string, len(asks))
	if len(asks) == 1 {
		replies[0], logged[0], noise[0] = askOne(ctx, conns[asks[0].Seat], asks[0], scale)
	} else {
		hs := newHandshake(conns, asks)
		var wg sync.WaitGroup
		for i, a := range asks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i], logged[i], noise[i] = askLinked(ctx, conns[a.Seat], a, scale, hs.link(i))
			}()
		}
		wg.Wait()
	}
	var all []engine.Noise
	for i, ls := range noise {
		for _, l := range ls {
			all = append(all, engine.Noise{Seat: asks[i].Seat, Line: l})
		}
	}
	return replies, logged, all
}

// askOne writes one input and waits for the answer line. The bot's clock
// runs from just before the input is written (or, for an ask that writes
// nothing such as a READY handshake, from the bot's start) to the moment
// its answer's line end was read.
func askOne(ctx context.Context, c *seatConn, a engine.Ask, scale float64) (engine.Reply, engine.LogReply, []string) {
	return askLinked(ctx, c, a, scale, nil)
}

// askLinked is askOne with the ask's place in a handshake (nil: none).
func askLinked(ctx context.Context, c *seatConn, a engine.Ask, scale float64, hs *handshakeLink) (engine.Reply, engine.LogReply, []string) {
	if c.stopped {
		hs.close(time.Now())
		r := engine.Reply{Status: engine.Gone}
		return r, engine.LogReplyOf(r, "", c.remark), nil
	}
	limit := time.Duration(float64(a.Timeout) * scale)
	w := waiter{c: c, a: a, start: c.since, scale: scale, hs: hs}
	if a.Input != "" {
		// Everything the bot printed before the input is written was
		// unasked: it is noise, never this turn's answer. That includes
		// what is in the pipe and what the reader has not queued yet,
		// however late a busy machine lets it run.
		if c.proc != nil && c.out == c.proc.out {
			w.unasked = c.proc.rd.written()
		}
		for _, l := range c.out.drain() {
			w.addNoise(l.text)
		}
		if c.proc != nil {
			// Taken before the clock starts: what the bot's threads wait
			// for a CPU from here on is given back if it is late.
			w.stats, w.pressure = c.proc.turnStats(), cpuPressure()
		}
		w.start = time.Now()
		w.sent = w.start
		c.since = w.start
		if c.send != nil {
			if err := c.send(a.Input, limit); err != nil && !isClosedPipe(err) && !errors.Is(err, os.ErrDeadlineExceeded) {
				c.note = "write: " + err.Error()
			}
		}
		if c.afterWrite != nil {
			c.afterWrite()
		}
	}
	w.own = w.start.Add(limit)
	w.deadline = w.own
	reply := w.wait(ctx)
	if reply.Status == engine.Closed && c.proc != nil {
		// The output usually ends a moment before the process is reaped;
		// wait for that moment so the note can say how it ended.
		select {
		case <-c.proc.exited:
		case <-time.After(reapWait):
		}
		select {
		case <-c.proc.exited:
			if !strings.Contains(c.note, c.proc.exitText) {
				c.note = joinNote(c.note, c.proc.exitText)
			}
			// Its last words (a traceback) may still be in the stderr
			// pipe, which a busy machine reads late: the excerpt below
			// must hold them. The pipe ends once nothing holds it.
			select {
			case <-c.proc.errEnd:
			case <-time.After(reapWait):
			}
		default:
			c.note = joinNote(c.note, "closed its output")
		}
	}
	reply.Elapsed = time.Duration(float64(reply.Elapsed) / scale).Truncate(time.Microsecond)
	if c.pending != nil {
		c.note = joinNote(c.note, c.pending())
	}
	lr := engine.LogReplyOf(reply, c.stderrExcerpt(), joinNote(c.remark, c.note))
	c.note, c.remark = "", ""
	c.noiseCut += w.cut
	return reply, lr, w.noise
}

// waiter waits for one ask's answer. Every decision is taken on the
// lines' arrival stamps, never on when the waiter happens to look: a
// line whose end arrived by the deadline is on time even when the waiter
// sees it later, and one that arrived after it is late even when it is
// seen before the waiter's timer fires.
type waiter struct {
	c        *seatConn
	a        engine.Ask
	start    time.Time // the bot's clock starts
	sent     time.Time // lines that arrived before this are not answers (zero: none written)
	unasked  int64     // lines that end within this many bytes of the output are not answers
	own      time.Time // the end of the ask's own window
	deadline time.Time // the last moment an answer may arrive: own, or later by the handshake
	hs       *handshakeLink
	scale    float64 // the match's time scale, to say times in the game's terms
	// waits is the run-queue delay of each of the bot's threads when an
	// input was written; waited is the most any of them has waited for
	// a CPU since (or, for READY, all of them since the start), as last
	// measured.
	stats    map[int]schedStat
	pressure time.Duration // the machine's CPU pressure then (cpuPressure)
	waited   time.Duration
	noise    []string
	// noiseBytes is the size of noise; cut counts the lines beyond what
	// a replay keeps of a whole game, which one ask never needs to hold.
	noiseBytes int
	cut        int
}

// addNoise keeps an unasked line, within a game's budget.
func (w *waiter) addNoise(text string) {
	if len(w.noise) >= NoiseLinesKept || w.noiseBytes+len(text) > NoiseBytesKept {
		w.cut++
		return
	}
	w.noise = append(w.noise, text)
	w.noiseBytes += len(text)
}

// next looks at the queued lines: the answer, a late answer (a timeout),
// or that the output ended. An answer that came after the ask's own
// window, while its handshake may still give it a later deadline, is left
// queued until that is known.
func (w *waiter) next() (engine.Reply, bool) {
	for {
		l, ok, ended := w.c.out.peek()
		switch {
		case ok:
			if l.stale || l.at.Before(w.sent) || (w.unasked > 0 && l.end <= w.unasked) || (w.a.Expect != nil && !w.a.Expect(l.text)) {
				w.c.out.pop()
				w.addNoise(l.text)
				continue
			}
			if l.at.After(w.deadline) && !w.extend() {
				return engine.Reply{}, false
			}
			w.c.out.pop()
			if l.at.After(w.deadline) {
				// Late, however close: the line is kept as noise, so the
				// replay shows what came and when.
				w.addNoise(l.text)
				w.c.note = joinNote(w.c.note, fmt.Sprintf("answered after %s, over the limit of %s",
					w.millis(l.at.Sub(w.start)), w.millis(w.deadline.Sub(w.start))))
				w.underLoad()
				w.hs.close(w.deadline)
				return engine.Reply{Status: engine.TimedOut, Elapsed: l.at.Sub(w.start)}, true
			}
			w.hs.close(l.at)
			reply := engine.Reply{Status: engine.Answered, Line: l.text}
			if l.at.After(w.start) {
				reply.Elapsed = l.at.Sub(w.start) - w.givenBack(l.at)
			}
			if l.cut {
				w.c.note = fmt.Sprintf("line longer than %d KiB, cut", MaxLine>>10)
			}
			return reply, true
		case ended:
			w.hs.close(time.Now())
			return engine.Reply{Status: engine.Closed, Elapsed: time.Since(w.start)}, true
		}
		return engine.Reply{}, false
	}
}

// extend moves the deadline later where the ask deserves it, and reports
// false while that is not known yet. Every ask gets back the time its bot
// waited for a CPU on a busy machine (another seat's or game's processes
// held it), up to readyStretch times its window, so a bot is judged on
// its own time as well as on the wall clock; an ask in a handshake may
// end with the window chained to the previous seat's.
func (w *waiter) extend() bool {
	if w.c.proc != nil && !w.c.noGiveBack {
		limit := w.own.Sub(w.start)
		if w.a.Input == "" {
			// READY: the clock ran from the bot's start, and all its
			// waiting since counts.
			w.waited = w.c.proc.cpuWait()
		} else {
			w.waited = mostWaited(w.stats, w.c.proc.threadStats())
		}
		if d := w.own.Add(min(w.waited, readyStretch*limit)); d.After(w.deadline) {
			w.deadline = d
		}
	}
	if w.hs == nil {
		return true
	}
	end, known := w.hs.window(w.own.Sub(w.start))
	if !known {
		return false
	}
	if end.After(w.deadline) {
		w.deadline = end
	}
	return true
}

// givenBack is how much of an answer's time, arrived at at, was the
// bot's wait for a CPU that extend gave back: the time past its own
// window, up to what it waited. The reply's Elapsed leaves it out, so a
// game that judges time itself (Battle 2048's turn limit and bank) sees
// the bot's own time too, and the note says what was given back.
func (w *waiter) givenBack(at time.Time) time.Duration {
	if !at.After(w.own) || w.c.proc == nil {
		return 0
	}
	back := min(at.Sub(w.own), w.waited, readyStretch*w.own.Sub(w.start))
	if back > 0 {
		w.c.note = joinNote(w.c.note, fmt.Sprintf("answered after %s, %s of it waiting for a CPU (given back)",
			w.millis(at.Sub(w.start)), w.millis(back)))
	}
	return back
}

// mostWaited is the most one thread has waited for a CPU between two
// measures (a thread new since the first counts from its start). The
// most of one thread, not the sum: a bot must not buy itself time by
// starting threads that only wait; and a bot that answers from one
// thread is late by what that thread waited.
func mostWaited(before, now map[int]schedStat) time.Duration {
	var most time.Duration
	for tid, st := range now {
		most = max(most, st.wait-before[tid].wait)
	}
	return most
}

// ranFor is the CPU time all the bot's threads used between two measures.
func ranFor(before, now map[int]schedStat) time.Duration {
	var total time.Duration
	for tid, st := range now {
		total += st.run - before[tid].run
	}
	return total
}

// schedStat is the scheduler's account of one thread: time on a CPU and
// time ready to run but waiting for one.
type schedStat struct{ run, wait time.Duration }

// underLoad notes a timeout of a bot that was kept from the CPU for much
// of its window even after what it waited was given back: the machine
// was too busy (another seat's or game's processes held the CPU), which
// is no fault of the bot's, and the teacher may replay the game.
//
// The bot used less than three quarters of its window of CPU, and either
// it waited for half its window or the machine was under CPU pressure
// for half of it (Ringside's own reader waits too, and it stamps the
// answer): a bot that burns its window itself is late by its own doing.
func (w *waiter) underLoad() {
	if w.c.proc == nil {
		return
	}
	limit := w.own.Sub(w.start)
	// A bot that used most of its window's CPU itself is late by its own
	// doing, whatever else waited.
	if ranFor(w.stats, w.c.proc.threadStats())*4 >= limit*3 {
		return
	}
	starved := w.waited*2 >= limit
	held := time.Duration(0)
	if !starved && w.a.Input != "" {
		held = cpuPressure() - w.pressure
	}
	if !starved && held*2 < limit {
		return
	}
	w.c.loadTimeouts++
	if starved {
		w.c.note = joinNote(w.c.note, fmt.Sprintf("%s %s for a CPU (not its fault: replay the game)", starvedNote, w.millis(w.waited)))
		return
	}
	w.c.note = joinNote(w.c.note, fmt.Sprintf("%s: other programs held the CPU for %s of its window (not its fault: replay the game)",
		busyNote, w.millis(held)))
}

// The notes of a timeout under load. starvedNote is said only where the
// bot's own threads waited for a CPU for half its window; busyNote alone
// where the machine was short of CPU, which a bot that sleeps past its
// window on a busy machine also shows.
const (
	busyNote    = "late while the machine was busy"
	starvedNote = busyNote + ": it waited"
)

// LateWhileStarved reports whether a reply's note says its timeout came
// while the bot itself waited for a CPU for half its window or more: the
// machine's fault, not the bot's.
func LateWhileStarved(note string) bool { return strings.Contains(note, starvedNote) }

// LateWhileBusy reports whether a reply's note says its timeout came
// while the machine was short of CPU (the bot starved or not).
func LateWhileBusy(note string) bool { return strings.Contains(note, busyNote) }

// millis says a real duration in the game's milliseconds.
func (w *waiter) millis(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/w.scale/float64(time.Millisecond))
}

// wait waits on the line queue, which the seat's reader fills, until the
// answer, the deadline or the end of the bot.
func (w *waiter) wait(ctx context.Context) engine.Reply {
	c := w.c
	timer := time.NewTimer(time.Until(w.deadline))
	defer timer.Stop()
	var exited <-chan struct{}
	if c.proc != nil {
		exited = c.proc.exited
	}
	var grace <-chan time.Time
	for {
		if r, ok := w.next(); ok {
			return r
		}
		var changed <-chan struct{}
		if w.hs != nil {
			changed = w.hs.changed()
		}
		select {
		case <-c.out.notify:
		case <-changed:
			if w.extend() {
				timer.Reset(time.Until(w.deadline))
			}
		case <-timer.C:
			if !w.extend() {
				// The handshake before this one is still open: its end
				// opens this one's window.
				continue
			}
			if time.Now().Before(w.deadline) {
				timer.Reset(time.Until(w.deadline))
				continue
			}
			// A line stamped before the deadline may be queued at this
			// very moment: it is on time.
			if r, ok := w.next(); ok {
				return r
			}
			w.underLoad()
			w.hs.close(w.deadline)
			return engine.Reply{Status: engine.TimedOut, Elapsed: time.Since(w.start)}
		case <-exited:
			exited = nil
			// Gone, but a grandchild may hold the output open: give the
			// last lines a moment, then call it closed.
			grace = time.After(exitGrace)
		case <-grace:
			if r, ok := w.next(); ok {
				return r
			}
			w.hs.close(time.Now())
			return engine.Reply{Status: engine.Closed, Elapsed: time.Since(w.start)}
		case <-ctx.Done():
			w.hs.close(time.Now())
			return engine.Reply{Status: engine.TimedOut, Elapsed: time.Since(w.start)}
		}
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// stderrExcerpt returns what the bot wrote to stderr since it was last
// asked, within the replay's per-seat budget.
func (c *seatConn) stderrExcerpt() string {
	if c.proc == nil {
		return ""
	}
	s := c.proc.errs.since(c.errMark, excerptMax)
	c.errMark = c.proc.errs.mark()
	if s == "" {
		return ""
	}
	if c.errSpent >= replayStderrMax {
		return ""
	}
	c.errSpent += len(s)
	return ShowPaths(s, c.dir, c.shownDir)
}

// ShowPaths rewrites the folder dir to shown in text, a bot's stderr or a
// build's log: a copy's path in a traceback or a compiler error becomes
// the source folder's, which the student knows and can open. A path that
// only begins like dir ("/a/b2" for "/a/b") is left alone.
func ShowPaths(text, dir, shown string) string {
	dir = strings.TrimRight(dir, `/\`)
	shown = strings.TrimRight(shown, `/\`)
	if dir == "" || shown == "" || dir == shown || !strings.Contains(text, dir) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, dir)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		rest := text[i+len(dir):]
		if rest == "" || !pathChar(rest[0]) {
			b.WriteString(shown)
		} else {
			b.WriteString(dir)
		}
		text = rest
	}
}

// pathChar reports whether c may continue a file or folder name (so that
// what follows dir is a longer name, not a separator or the path's end).
func pathChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~+", c) >= 0
}
