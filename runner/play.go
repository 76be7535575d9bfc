package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner/sandbox"
)

// Play runs one match to its end (or until ctx is cancelled: then the log is
// marked aborted) and stops every bot process it started.
//
// A match is played in three steps — start (the bots and their seats),
// turn (ask, apply, record: once per step of the game) and finish (the
// result and the seats' last notes) — by a match; what Play does besides
// (branching from a recorded game, pacing, live logs) wraps those steps
// as a wrapper rather than living inside them.
func Play(ctx context.Context, m Match) (*Outcome, error) {
	began := time.Now()
	p, err := start(ctx, m)
	if err != nil {
		return nil, err
	}
	defer p.cleanup()
	p.play(ctx)
	p.finish()
	p.out.Wall = time.Since(began)
	return p.out, nil
}

// match is one match being played.
type match struct {
	st      engine.State
	scale   float64 // the match's time scale (Match.TimeScale, 0 made 1)
	conns   []*seatConn
	cleanup func() // the transport's, once the seats are stopped
	out     *Outcome
	kept    []noiseBudget
	// lastReply is where each seat's latest reply is in the log: step
	// and reply index, -1 before it has one.
	lastReply [][2]int
	ask       askFunc   // how a step's replies are had: the bots, as wrapped
	wrappers  []wrapper // in the order they see each step
}

// answers are a step's replies as the game gets them and the log keeps
// them. live, when set, reports per ask whether it was answered live (a
// branch replays recorded answers).
type answers struct {
	replies []engine.Reply
	logged  []engine.LogReply
	noise   []engine.Noise
	live    []bool
}

// askFunc has the asks of step (the index of the step in the log)
// answered.
type askFunc func(ctx context.Context, step int, asks []engine.Ask) answers

// played is one step of the game, as played.
type played struct {
	index int // in the log
	asks  []engine.Ask
	answers
	step engine.Step
}

// A wrapper is something Play does besides playing: each part is
// optional. begin runs once the game has started (the log has no step
// yet); ask wraps how replies are had; after runs after each step and
// ends the game, with the log marked aborted so, when it returns a
// reason; finish runs once the game has ended.
type wrapper struct {
	begin  func()
	ask    func(next askFunc) askFunc
	after  func(ctx context.Context, p *played) (aborted string)
	finish func(out *Outcome)
}

// start checks the match, starts every bot and readies the log.
func start(ctx context.Context, m Match) (*match, error) {
	info := m.Game.Info()
	if n := len(m.Bots); n < info.MinSeats || n > info.MaxSeats {
		return nil, fmt.Errorf("%s needs %s, got %d", info.ID, seatRange(info), n)
	}
	names := uniqueNames(m.Bots)
	var br *branchRun
	if m.Branch != nil {
		var err error
		if br, err = startBranch(m); err != nil {
			return nil, err
		}
		// The same game: the recorded options, seed and names (a name
		// may be part of what the bots are told).
		m.Options, m.Seed, names = m.Branch.Log.Options, m.Branch.Log.Seed, m.Branch.Log.Players
	}
	opts, err := info.Resolve(SeatOptions(m.Options, m.Bots))
	if err != nil {
		return nil, err
	}
	p := &match{scale: event.TimeScale(m.TimeScale)}
	if p.st, err = m.Game.New(opts, names, m.Seed); err != nil {
		return nil, err
	}
	bots, argvs, err := commands(m, names)
	if err != nil {
		return nil, err
	}
	login := m.loginTimeout
	if login <= 0 {
		login = LoginTimeout
	}
	if p.conns, p.cleanup, err = connect(ctx, info, opts, p.st, bots, argvs, p.scale, m.Sandbox, login); err != nil {
		return nil, err
	}
	for _, c := range p.conns {
		c.noGiveBack = m.noGiveBack
	}
	if err := p.checkStarted(m.PlayWithoutBots); err != nil {
		p.cleanup()
		return nil, err
	}
	p.out = newOutcome(&engine.Log{Game: info.ID, Options: opts, Seed: m.Seed, Players: names,
		Deterministic: deterministicSeats(m.Bots)}, len(p.conns))
	p.containment()
	p.ask = p.collect
	p.wrap(liveLog(m, p.out.Log, p.st), branching(br, p.st), pacing(m, p.st))
	return p, nil
}

// startBranch readies a Branch's re-play.
func startBranch(m Match) (*branchRun, error) {
	b := m.Branch
	if len(b.Log.Players) != len(m.Bots) || b.Seat < 0 || b.Seat >= len(m.Bots) {
		return nil, fmt.Errorf("branch: the game has %d seats, seat %d given %d bots", len(b.Log.Players), b.Seat, len(m.Bots))
	}
	who := strings.TrimSpace(m.Bots[b.Seat].Name)
	if who == "" {
		who = strings.TrimSpace(m.Bots[b.Seat].Command)
	}
	return newBranchRun(m.Game, b, who)
}

// commands splits every bot's command line; built-in bots get their
// environment.
func commands(m Match, names []string) ([]Bot, [][]string, error) {
	argvs := make([][]string, len(m.Bots))
	bots := make([]Bot, len(m.Bots))
	for i, b := range m.Bots {
		var err error
		if argvs[i], err = Argv(b.Command, botSeed(m.Seed, i)); err != nil {
			return nil, nil, fmt.Errorf("bot %d (%s): %w", i+1, names[i], err)
		}
		bots[i] = b
		// The same game and seat give the same seed, so a bot that
		// draws its randomness from it plays the same game again, on
		// any machine (the templates do).
		bots[i].Env = append(append([]string(nil), b.Env...), fmt.Sprintf("%s=%d", SeedEnv, botSeed(m.Seed, i)))
		if strings.HasPrefix(strings.TrimSpace(b.Command), BuiltinPrefix) {
			// Ringside's own binary links Fyne, whose start-up complains
			// on stderr about locales such as C.UTF-8; a built-in bot's
			// stderr should hold nothing but what the bot says.
			bots[i].Env = append(bots[i].Env, "LANGUAGE=en")
		}
	}
	return bots, argvs, nil
}

// checkStarted refuses a match none of whose bots started, unless it is
// to be played without them.
func (p *match) checkStarted(withoutBots bool) error {
	for _, c := range p.conns {
		if c.proc != nil {
			return nil
		}
	}
	if withoutBots {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNoBotStarted, p.conns[0].note)
}

// newOutcome makes the outcome of a match of seats seats, to be filled.
func newOutcome(log *engine.Log, seats int) *Outcome {
	return &Outcome{
		Log:            log,
		Verdicts:       make([][len(verdictIndex)]int, seats),
		Stderr:         make([]string, seats),
		Notes:          make([]string, seats),
		Sandbox:        make([]string, seats),
		NoiseCut:       make([]int, seats),
		SandboxMissing: make([]string, seats),
		LoadTimeouts:   make([]int, seats),
	}
}

// containment notes how each seat is contained and what went wrong at
// its start. The replay says once, with the seat's first reply, when its
// bot was not fully contained.
func (p *match) containment() {
	p.kept = make([]noiseBudget, len(p.conns))
	p.lastReply = make([][2]int, len(p.conns))
	for i, c := range p.conns {
		p.lastReply[i] = [2]int{-1, -1}
		p.out.Notes[i] = c.note
		p.out.Sandbox[i] = c.sandboxLevel()
		switch {
		case c.uncontained():
			// Not trusted by choice: this OS has no sandbox, and what it
			// does hold is said (Windows' Job Object).
			p.out.SandboxMissing[i] = uncontainedRemark
			c.remark = uncontainedRemark
		case p.out.Sandbox[i] == "trusted":
			c.remark = "trusted: ran without the sandbox"
		case p.out.Sandbox[i] == "partial":
			p.out.SandboxMissing[i] = c.sandboxMissing()
			c.remark = "sandbox partial: " + p.out.SandboxMissing[i]
		}
	}
}

// wrap puts the wrappers around the match, each around the ones before
// it, and begins them in order.
func (p *match) wrap(ws ...wrapper) {
	for _, w := range ws {
		if w.ask != nil {
			p.ask = w.ask(p.ask)
		}
	}
	p.wrappers = ws
	for _, w := range ws {
		if w.begin != nil {
			w.begin()
		}
	}
}

// collect has the bots answer.
func (p *match) collect(ctx context.Context, _ int, asks []engine.Ask) answers {
	replies, logged, noise := collect(ctx, p.conns, asks, p.scale)
	return answers{replies: replies, logged: logged, noise: noise}
}

// play plays turns until the game is over, ctx is cancelled or a wrapper
// ends it.
func (p *match) play(ctx context.Context) {
	for !p.st.Done() {
		if ctx.Err() != nil {
			p.out.Log.Aborted = "cancelled"
			return
		}
		s := p.turn(ctx)
		for _, w := range p.wrappers {
			if w.after == nil {
				continue
			}
			if why := w.after(ctx, s); why != "" {
				p.out.Log.Aborted = why
				return
			}
		}
	}
}

// turn plays one step: asks the seats, applies their replies, logs the
// step and carries out what the game said (bots to stop, lines to send).
func (p *match) turn(ctx context.Context) *played {
	s := &played{index: len(p.out.Log.Steps), asks: p.st.Asks()}
	turn := p.st.Turn()
	s.answers = p.ask(ctx, s.index, s.asks)
	s.noise = keepNoise(s.noise, p.kept, p.conns, p.out.NoiseCut)
	s.step = p.st.Apply(s.replies)
	p.out.Log.Steps = append(p.out.Log.Steps, engine.LogStep{Replies: s.logged, Noise: s.noise})
	p.record(s, turn)
	p.carryOut(s.step)
	return s
}

// record counts a step's verdicts and notes where each seat's latest
// reply is and the first thing that went wrong with it.
func (p *match) record(s *played, turn int) {
	for i, a := range s.asks {
		if a.Seat >= 0 && a.Seat < len(p.lastReply) && (s.live == nil || s.live[i]) {
			p.lastReply[a.Seat] = [2]int{s.index, i}
		}
	}
	for i, r := range s.logged {
		seat := s.asks[i].Seat
		if p.out.Notes[seat] != "" {
			continue
		}
		switch r.Status {
		case engine.TimedOut:
			p.out.Notes[seat] = fmt.Sprintf("no reply within the time limit at turn %d", turn)
		case engine.Closed:
			p.out.Notes[seat] = fmt.Sprintf("stopped at turn %d: %s", turn, r.Note)
		}
	}
	for _, st := range s.step.Seats {
		if st.Seat >= 0 && st.Seat < len(p.conns) && int(st.Verdict) < len(verdictIndex) {
			p.out.Verdicts[st.Seat][st.Verdict]++
		}
	}
}

// carryOut stops the bots the game stopped and sends its lines.
func (p *match) carryOut(step engine.Step) {
	for _, seat := range step.Stop {
		if seat >= 0 && seat < len(p.conns) {
			p.conns[seat].stop()
		}
	}
	for _, msg := range step.Send {
		if msg.Seat >= 0 && msg.Seat < len(p.conns) {
			c := p.conns[msg.Seat]
			if !c.stopped && c.send != nil {
				_ = c.send(msg.Text, sendTimeout)
			}
		}
	}
}

// finish records the result, stops every seat and puts in the log what
// was cut and which caps ended bots.
func (p *match) finish() {
	if p.st.Done() && p.out.Log.Aborted == "" {
		p.out.Log.Result = p.st.Result()
	}
	for _, w := range p.wrappers {
		if w.finish != nil {
			w.finish(p.out)
		}
	}
	for i, c := range p.conns {
		p.out.LoadTimeouts[i] = c.loadTimeouts
		if c.out != nil {
			p.out.NoiseCut[i] += c.out.takeDropped()
		}
		if n := p.out.NoiseCut[i]; n > 0 {
			// The replay says how much was cut, with the seat's last reply.
			p.noteLast(i, fmt.Sprintf("%d unasked lines not kept (%d lines, %s kept per game)", n, NoiseLinesKept, sandbox.Size(NoiseBytesKept)))
		}
	}
	for i, c := range p.conns {
		c.stop()
		if c.proc == nil {
			continue
		}
		p.out.Stderr[i] = ShowPaths(c.proc.errs.String(), c.dir, c.shownDir)
		if l := c.proc.limit; l != "" && !strings.Contains(p.out.Notes[i], l) {
			// A cap can end a bot between asks, or after a timeout it
			// caused: the seat's result must still name it.
			p.out.Notes[i] = joinNote(p.out.Notes[i], l)
			p.noteLast(i, l)
		}
	}
}

// noteLast adds a remark to seat's last reply in the log, if it has one.
func (p *match) noteLast(seat int, note string) {
	if at := p.lastReply[seat]; at[0] >= 0 {
		r := &p.out.Log.Steps[at[0]].Replies[at[1]]
		r.Note = joinNote(r.Note, note)
	}
}

// liveLog calls Match.OnLog once the game has started and, after
// Match.OnStep, again after each step.
func liveLog(m Match, log *engine.Log, st engine.State) wrapper {
	var w wrapper
	if m.OnLog != nil {
		w.begin = func() { m.OnLog(log) }
	}
	if m.OnStep == nil && m.OnLog == nil {
		return w
	}
	w.after = func(_ context.Context, s *played) string {
		if m.OnStep != nil {
			m.OnStep(s.index, st, s.step)
		}
		if m.OnLog != nil {
			m.OnLog(log)
		}
		return ""
	}
	return w
}

// branching plays a Branch: recorded replies where they still fit, and
// the end of a probe. br nil: no branch.
func branching(br *branchRun, st engine.State) wrapper {
	if br == nil {
		return wrapper{}
	}
	return wrapper{
		ask: func(next askFunc) askFunc {
			return func(ctx context.Context, step int, asks []engine.Ask) answers {
				a := next(ctx, step, asks)
				a.replies, a.logged, a.noise, a.live = br.merge(step, asks, a.replies, a.logged, a.noise)
				return a
			}
		},
		after: func(_ context.Context, s *played) string {
			if br.done(s.index, s.asks) && !st.Done() {
				return ProbeAborted
			}
			return ""
		},
		finish: func(out *Outcome) {
			info := br.info
			out.Log.Branch = &info
		},
	}
}

// pacing plays at most Match.Pace turns a second (or what
// Match.PaceNow says before each turn; 0: as fast as the bots answer). A
// paced game waits before each new turn until 1/pace s have passed since
// the last one began, so a slow turn is not made up for by a burst of
// fast ones.
func pacing(m Match, st engine.State) wrapper {
	perSecond := func() float64 { return m.Pace }
	if m.PaceNow != nil {
		perSecond = m.PaceNow
	} else if m.Pace <= 0 {
		return wrapper{}
	}
	var turn int
	var at time.Time
	return wrapper{
		begin: func() { turn, at = st.Turn(), time.Now() },
		after: func(ctx context.Context, _ *played) string {
			if t := st.Turn(); !st.Done() && t != turn {
				if p := perSecond(); p > 0 {
					pace(ctx, at, max(1, t-turn), p)
				}
				turn, at = t, time.Now()
			}
			return ""
		},
	}
}

// deterministicSeats is the log's per-seat Deterministic, nil when no bot
// is marked: a match whose caller says nothing records nothing, so its
// replay is byte for byte what it was before the field existed.
func deterministicSeats(bots []Bot) []bool {
	if !slices.ContainsFunc(bots, func(b Bot) bool { return b.Deterministic }) {
		return nil
	}
	out := make([]bool, len(bots))
	for i, b := range bots {
		out[i] = b.Deterministic
	}
	return out
}
