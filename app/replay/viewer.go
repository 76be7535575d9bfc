package replay

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/engine"
)

// stepInfo is everything about one replay step except the state: the
// asks with their exact inputs, the replies as logged, what the game made
// of them and the events it marked.
type stepInfo struct {
	Index   int // index of the step in the log
	Turn    int // the game's turn when the step was asked
	Asks    []engine.Ask
	Replies []engine.LogReply
	Seats   []engine.SeatStep
	Events  []engine.Event
	Noise   []engine.Noise
	// Of is the turn of the replay's last step: the game's real length,
	// which boards and counters count to, never the max_turns option.
	Of int
}

// noise is the lines seat printed while not asked, one per line.
func (s *stepInfo) noise(seat int) string {
	var b strings.Builder
	for _, n := range s.Noise {
		if n.Seat == seat {
			b.WriteString(n.Line)
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// replayData is a log re-simulated once: the state after every step and
// what happened in it. Viewing a step is then only drawing.
type replayData struct {
	log     *engine.Log
	initial engine.State   // before the first step
	states  []engine.State // states[i] is the state after step i
	steps   []stepInfo
	events  []engine.Event // every step's events, Step set
	turns   []int          // the game's turn at each step, for the timeline
	// sim goes on from the last step, for a game still being played.
	sim *engine.Sim
}

// simulate re-plays log with g and keeps a snapshot of every state. It
// fails when the log is not a game of g or its replies do not fit the
// game's asks.
func simulate(g engine.Game, log *engine.Log) (*replayData, error) {
	if log == nil {
		return nil, fmt.Errorf("no replay to show")
	}
	steps := log.Steps
	if log.InProgress {
		// The viewer's own log, which grows as steps come in.
		own := *log
		own.Steps = append([]engine.LogStep(nil), log.Steps...)
		log, steps = &own, own.Steps
	}
	sim, err := engine.NewSim(g, log)
	if err != nil {
		return nil, fmt.Errorf("cannot open the replay: %w", err)
	}
	d := &replayData{
		log:     log,
		initial: sim.State.Clone(),
		states:  make([]engine.State, 0, len(steps)),
		steps:   make([]stepInfo, 0, len(steps)),
		turns:   make([]int, 0, len(steps)),
		sim:     sim,
	}
	if err := d.simulateFrom(0, g); err != nil {
		return nil, err
	}
	if log.Aborted == "" && !log.InProgress && !sim.State.Done() {
		return nil, fmt.Errorf("cannot open the replay: it ends after %d steps but the game is not over "+
			"(the file is cut short, or was recorded with other rules)", len(log.Steps))
	}
	if !log.InProgress {
		d.sim = nil
	}
	return d, nil
}

// simulateFrom re-plays the log's steps from step from on, which must be
// the next step of d.sim, and sets every step's Of.
func (d *replayData) simulateFrom(from int, g engine.Game) error {
	sim := d.sim
	for i := from; i < len(d.log.Steps); i++ {
		turn := sim.State.Turn()
		asks, st, err := sim.Step()
		if err != nil {
			return fmt.Errorf("cannot open the replay: it does not re-simulate with this version of %s (%w); "+
				"it was probably recorded with other rules", g.Info().Name, err)
		}
		for k := range asks {
			asks[k].Expect = nil // a closure over the live state; not needed to show the step
		}
		for k := range st.Events {
			st.Events[k].Step = i
		}
		d.steps = append(d.steps, stepInfo{Index: i, Turn: turn, Asks: asks, Replies: d.log.Steps[i].Replies,
			Seats: st.Seats, Events: st.Events, Noise: d.log.Steps[i].Noise})
		d.events = append(d.events, st.Events...)
		d.states = append(d.states, sim.State.Clone())
		d.turns = append(d.turns, turn)
	}
	if n := len(d.steps); n > 0 {
		for i := range d.steps {
			d.steps[i].Of = d.steps[n-1].Turn
		}
	}
	return nil
}

// extend adds the steps of a game in play.
func (d *replayData) extend(g engine.Game, steps []engine.LogStep) error {
	if d.sim == nil {
		return fmt.Errorf("the replay is finished: no step can be added")
	}
	from := len(d.log.Steps)
	d.log.Steps = append(d.log.Steps, steps...)
	if err := d.simulateFrom(from, g); err != nil {
		// The game cannot go on from a step it did not take: keep what
		// was shown and take no more.
		d.log.Steps = d.log.Steps[:len(d.steps)]
		d.sim = nil
		return err
	}
	return nil
}

// Playback speeds, as multiples of baseStepsPerSecond.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32}

// baseStepsPerSecond is the playback rate at 1×.
const baseStepsPerSecond = 8

// defaultSpeed is the index in speeds a viewer starts with (1×).
const defaultSpeed = 2

// frameRate is how often playback recomputes the step to show.
const frameRate = 60

// Viewer shows a recorded match, or a match being played (a live viewer,
// to which Append adds steps as they are played): the board of the game at the
// current step, a side panel with every seat's exact input, reply and
// verdict, a timeline with the match's events, and playback controls.
//
// Every state is computed when the viewer is made, so moving through the
// replay only draws. Playback runs a ticker goroutine that works out the
// step from the elapsed time and hands it to the UI thread with fyne.Do.
//
// Keyboard: the viewer cannot see key presses by itself; attach it to
// its window's canvas with AttachKeys (or call HandleKey and HandleRune
// from your own handlers). Call Close when the viewer goes away for good.
type Viewer struct {
	widget.BaseWidget

	game engine.Game
	data *replayData

	board    board
	timeline *timeline
	panel    *seatPanel

	first, back, play, forward, last *widget.Button
	speedSel                         *widget.Select
	position                         *widget.Label
	content                          fyne.CanvasObject
	// The pieces content is made of, for SetNarrow: the buttons and the
	// speed; the counter and the live controls; the keys' hint; the
	// board beside the seat panel.
	transport, where *fyne.Container
	hint             *widget.Label
	split            *container.Split
	// now jumps to the latest step of a game in play; liveNote says the
	// game is in play, or how it ended.
	now      *widget.Button
	liveNote *widget.Label

	// mu guards the fields below and every change of the viewer's widgets
	// made through its methods. On a real driver everything runs on the
	// UI thread anyway; the lock keeps the viewer sound where fyne.Do runs
	// the function on the calling goroutine, as the test driver does.
	mu      sync.Mutex
	cur     int // the step shown
	speed   int // index in speeds
	playing bool
	gen     int           // playback generation: frames of an older one are dropped
	stop    chan struct{} // closes to end the playback goroutine
	done    chan struct{} // closed when the playback goroutine has ended
	closed  bool
	lastBtn [4]bool // enabled state of first, back, forward, last
	// live is set while the game is being played: Append adds steps.
	// follow is set while the latest step is shown: new steps are shown
	// as they come; moving back stops it, "Jump to now" starts it again.
	live   bool
	follow bool
	// appending is set while Append shows a step, which may happen every
	// frame: the seat panel is then filled at the playback rate.
	appending bool
	// panelAt is when the seat panel was last filled during playback: it
	// is filled at most panelRate times a second then, since nobody reads
	// 256 inputs a second and its texts cost the most to lay out.
	panelAt time.Time
	// clock is what panelAt is read on; nil is time.Now (a test plays
	// frames on a clock of its own).
	clock func() time.Time
}

// panelRate is how often playback refreshes the seat panel.
const panelRate = 10

// NewViewer re-simulates log with g and returns a viewer at the
// first step; a log marked InProgress gives a live viewer (NewLiveViewer).
// It fails with a readable error when the log is not of g or does not
// re-simulate.
func NewViewer(g engine.Game, log *engine.Log) (*Viewer, error) {
	return NewViewerMarked(g, log, nil)
}

// NewViewerMarked is NewViewer with extra timeline markers, placed by
// their Step: where a branched game parts from its original (kind
// EventBranch), say.
func NewViewerMarked(g engine.Game, log *engine.Log, marks []engine.Event) (*Viewer, error) {
	p, err := PrepareMarked(g, log, marks)
	if err != nil {
		return nil, err
	}
	return p.Viewer(), nil
}

// Prepared is a game re-simulated for the viewer, with every state: the
// costly part of opening a replay, done by Prepare without touching a
// widget so that it can run off the UI thread.
type Prepared struct {
	game engine.Game
	data *replayData
}

// Prepare re-simulates log with g. It fails with a readable error when
// the log is not of g or does not re-simulate. A log marked InProgress
// (the steps so far of a game in play) prepares a live viewer.
func Prepare(g engine.Game, log *engine.Log) (*Prepared, error) {
	return PrepareMarked(g, log, nil)
}

// PrepareMarked is Prepare with extra timeline markers (NewViewerMarked).
func PrepareMarked(g engine.Game, log *engine.Log, marks []engine.Event) (*Prepared, error) {
	d, err := simulate(g, log)
	if err != nil {
		return nil, err
	}
	d.events = append(d.events, marks...)
	return &Prepared{game: g, data: d}, nil
}

// Viewer makes the viewer of a prepared game, at its first step (a live
// game: at its newest step, following it). Call it on the UI thread.
func (p *Prepared) Viewer() *Viewer {
	v := &Viewer{game: p.game, data: p.data, speed: defaultSpeed}
	v.build()
	v.ExtendBaseWidget(v)
	v.mu.Lock()
	defer v.mu.Unlock()
	if !p.data.log.InProgress {
		v.showLocked(0)
		return v
	}
	v.live, v.follow = true, true
	setLabel(v.liveNote, "● Live")
	v.liveNote.Importance = widget.DangerImportance
	v.liveNote.Show()
	v.now.Show()
	v.showLocked(len(v.data.steps) - 1)
	return v
}

func (v *Viewer) build() {
	d := v.data
	v.board = newBoard(d.log.Game, d.log.Players)
	if cb, ok := v.board.(*cloudBoard); ok {
		cb.sync = func(f func()) {
			v.mu.Lock()
			defer v.mu.Unlock()
			f()
		}
	}
	v.timeline = newTimeline(len(d.steps), d.turns, d.events, func(step int) { v.Seek(step) })
	v.panel = newSeatPanel(d.log.Players, func(s string) { fyne.CurrentApp().Clipboard().SetContent(s) })

	v.first = widget.NewButtonWithIcon("", theme.MediaSkipPreviousIcon(), v.First)
	v.back = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), v.StepBack)
	v.play = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), v.TogglePlay)
	v.play.Importance = widget.HighImportance
	v.forward = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), v.StepForward)
	v.last = widget.NewButtonWithIcon("", theme.MediaSkipNextIcon(), v.Last)
	var names []string
	for _, s := range speeds {
		names = append(names, speedName(s))
	}
	v.speedSel = widget.NewSelect(names, nil)
	v.speedSel.SetSelectedIndex(defaultSpeed)
	v.speedSel.OnChanged = func(string) {
		v.setSpeed(v.speedSel.SelectedIndex())
		// Give the keyboard back to the viewer's shortcuts.
		if c := fyne.CurrentApp().Driver().CanvasForObject(v.speedSel); c != nil {
			c.Unfocus()
		}
	}
	v.position = widget.NewLabel("")
	v.position.TextStyle.Monospace = true
	v.now = widget.NewButtonWithIcon("Jump to now", theme.MediaFastForwardIcon(), v.JumpToNow)
	v.now.Hide()
	v.liveNote = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.liveNote.Hide()
	// Key names in plain letters: the arrows and the minus sign are not in
	// Fyne's own font, and where no system font has them (Windows under
	// Wine) they showed as boxes.
	hint := widget.NewLabel("Space play · Left/Right step · Home/End · +/- speed")
	hint.TextStyle.Italic = true
	hint.Truncation = fyne.TextTruncateEllipsis
	v.transport = container.NewHBox(v.first, v.back, v.play, v.forward, v.last, widget.NewLabel("Speed"), v.speedSel)
	v.where = container.NewHBox(v.position, v.liveNote, v.now, widget.NewSeparator())
	v.hint = hint
	controls := container.NewBorder(nil, nil, container.NewHBox(v.transport, v.where), nil, hint)
	v.split = container.NewHSplit(v.board.Object(), v.panel.root)
	v.split.Offset = 0.68
	v.content = container.NewBorder(nil, container.NewVBox(v.timeline, controls), nil, nil, v.split)
	if len(d.steps) == 0 {
		for _, b := range []*widget.Button{v.first, v.back, v.play, v.forward, v.last} {
			b.Disable()
		}
	}
}

// NewLiveViewer shows a game being played: log holds its steps so far
// (maybe none) and is marked InProgress. Append adds the steps played
// since; Finish turns the viewer into the finished game's replay.
func NewLiveViewer(g engine.Game, log *engine.Log) (*Viewer, error) {
	if log == nil {
		return nil, fmt.Errorf("no game to show")
	}
	in := *log
	in.InProgress = true
	return NewViewer(g, &in)
}

// SetCompact shows only the board and the timeline, for a projector where
// the viewer shares the screen: no seat panel, no controls. Call it before
// the viewer is shown.
func (v *Viewer) SetCompact() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.content = container.NewBorder(nil, container.NewVBox(v.timeline, container.NewHBox(v.position, v.liveNote)), nil, nil,
		v.board.Object())
}

// SetNarrow puts the controls on two rows, the buttons above the turn
// counter, so that two viewers fit side by side on a 1024-pixel screen
// (a branch beside its original). Call it before the viewer is shown.
func (v *Viewer) SetNarrow() {
	v.mu.Lock()
	defer v.mu.Unlock()
	controls := container.NewVBox(v.transport, container.NewBorder(nil, nil, v.where, nil, v.hint))
	v.content = container.NewBorder(nil, container.NewVBox(v.timeline, controls), nil, nil, v.split)
}

// Live reports whether the game shown is still being played.
func (v *Viewer) Live() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.live
}

// Following reports whether the viewer shows each new step of a game in
// play as it comes.
func (v *Viewer) Following() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.live && v.follow
}

// Append adds steps just played to a live game: the timeline grows and,
// while the viewer follows the game, the newest step is shown.
func (v *Viewer) Append(steps []engine.LogStep) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.live || v.closed {
		return nil
	}
	if len(steps) == 0 {
		return nil
	}
	if err := v.data.extend(v.game, steps); err != nil {
		v.stopLive("cannot follow the game")
		v.timeline.setData(len(v.data.steps), v.data.turns, v.data.events)
		v.showLocked(v.cur)
		return err
	}
	v.timeline.setData(len(v.data.steps), v.data.turns, v.data.events)
	if len(v.data.steps) >= 2 {
		v.play.Enable()
	}
	v.appending = true
	if v.follow && !v.playing {
		v.showLocked(len(v.data.steps) - 1)
	} else {
		v.showLocked(v.cur)
	}
	v.appending = false
	return nil
}

// JumpToNow shows the newest step of a game in play and follows the game
// again; on a finished game it is Last.
func (v *Viewer) JumpToNow() {
	v.pauseThen(func() {
		v.follow = true
		v.showLocked(len(v.data.steps) - 1)
	})
}

// Finish turns a live viewer into the replay of the finished game, log:
// the whole game as stored. A viewer that followed the game shows its last
// step; one that was looking back stays where it was. It re-simulates the
// game: FinishPrepared does that part off the UI thread.
func (v *Viewer) Finish(log *engine.Log) error {
	p, err := Prepare(v.game, log)
	if err != nil {
		return err
	}
	v.FinishPrepared(p)
	return nil
}

// FinishPrepared is Finish with the finished game prepared already.
func (v *Viewer) FinishPrepared(p *Prepared) {
	d := p.data
	v.Pause()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	follow := v.follow || !v.live
	v.data, v.live, v.follow = d, false, false
	v.timeline.setData(len(d.steps), d.turns, d.events)
	v.now.Hide()
	v.liveNote.Hide()
	if len(d.steps) >= 2 {
		v.play.Enable()
	}
	if follow {
		v.showLocked(len(d.steps) - 1)
	} else {
		v.showLocked(v.cur)
	}
}

// Stopped ends a live viewer whose game ended without a result (its event
// was stopped): the steps played stay to be looked at, with why.
func (v *Viewer) Stopped(why string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.live {
		return
	}
	v.stopLive("Stopped: " + why)
}

// stopLive ends live mode with a note. v.mu must be held.
func (v *Viewer) stopLive(note string) {
	v.live, v.follow = false, false
	v.data.sim = nil
	v.now.Hide()
	setLabel(v.liveNote, note)
	v.liveNote.Importance = widget.WarningImportance
	v.liveNote.Refresh()
}

func speedName(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", s), "0"), ".") + "×"
}

// CreateRenderer is part of fyne.Widget.
func (v *Viewer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.content)
}

// showLocked draws step i everywhere. v.mu must be held.
func (v *Viewer) showLocked(i int) {
	n := len(v.data.steps)
	if n == 0 {
		v.board.Show(v.data.initial, nil)
		v.panel.show(nil, 0)
		setLabel(v.position, "no steps")
		return
	}
	i = max(0, min(i, n-1))
	v.cur = i
	v.follow = i == n-1
	step := &v.data.steps[i]
	v.board.Show(v.data.states[i], step)
	v.timeline.SetValue(i)
	busy := v.playing || v.appending
	nowFn := time.Now
	if v.clock != nil {
		nowFn = v.clock
	}
	if now := nowFn(); !busy || now.Sub(v.panelAt) >= time.Second/panelRate || (i == n-1 && !v.appending) {
		v.panelAt = now
		v.panel.show(step, v.data.steps[n-1].Turn)
	}
	setLabel(v.position, fmt.Sprintf("turn %d / %d · step %d / %d", step.Turn, v.data.steps[n-1].Turn, i+1, n))
	enabled := [4]bool{i > 0, i > 0, i < n-1, i < n-1}
	for k, b := range []*widget.Button{v.first, v.back, v.forward, v.last} {
		if enabled[k] != v.lastBtn[k] || b.Disabled() == enabled[k] {
			v.lastBtn[k] = enabled[k]
			if enabled[k] {
				b.Enable()
			} else {
				b.Disable()
			}
		}
	}
}

// Step is the index of the step shown (0-based).
func (v *Viewer) Step() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.cur
}

// PositionText is what the viewer says about where it is: "turn 12 / 40 ·
// step 13 / 41".
func (v *Viewer) PositionText() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.position.Text
}

// Players are the names of the game's seats.
func (v *Viewer) Players() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.data.log.Players
}

// Steps is the number of steps in the replay (so far, in a live game).
func (v *Viewer) Steps() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.data.steps)
}

// Seek shows step i (clamped to the replay). During playback, playing
// continues from there.
func (v *Viewer) Seek(i int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	v.showLocked(i)
	if v.playing {
		v.startLocked()
	}
}

// StepForward shows the next step and pauses playback.
func (v *Viewer) StepForward() { v.pauseThen(func() { v.showLocked(v.cur + 1) }) }

// StepBack shows the previous step and pauses playback.
func (v *Viewer) StepBack() { v.pauseThen(func() { v.showLocked(v.cur - 1) }) }

// First shows the first step and pauses playback.
func (v *Viewer) First() { v.pauseThen(func() { v.showLocked(0) }) }

// Last shows the last step and pauses playback.
func (v *Viewer) Last() { v.pauseThen(func() { v.showLocked(len(v.data.steps) - 1) }) }

// Playing reports whether playback runs.
func (v *Viewer) Playing() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.playing
}

// Play starts playback from the step shown, or from the first step when
// the last one is shown.
func (v *Viewer) Play() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed || v.playing || len(v.data.steps) < 2 {
		return
	}
	if v.cur >= len(v.data.steps)-1 {
		v.showLocked(0)
	}
	v.playing = true
	v.play.SetIcon(theme.MediaPauseIcon())
	v.play.SetText("Pause")
	v.startLocked()
}

// Pause stops playback and waits until its goroutine has ended.
func (v *Viewer) Pause() { v.pauseThen(nil) }

// TogglePlay plays when paused and pauses when playing.
func (v *Viewer) TogglePlay() {
	if v.Playing() {
		v.Pause()
	} else {
		v.Play()
	}
}

// pauseThen stops playback, waits for the goroutine and then runs f
// under the lock.
func (v *Viewer) pauseThen(f func()) {
	v.mu.Lock()
	done := v.stopLocked()
	if v.playing {
		v.playing = false
		v.play.SetIcon(theme.MediaPlayIcon())
		v.play.SetText("Play")
		v.showLocked(v.cur) // the seat panel may lag behind during playback
	}
	if f != nil && !v.closed {
		f()
	}
	v.mu.Unlock()
	// Waited for outside the lock: the goroutine's last frame may be
	// waiting for it.
	if done != nil {
		<-done
	}
}

// stopLocked ends the playback goroutine, if any, and returns the channel
// that closes when it has ended.
func (v *Viewer) stopLocked() chan struct{} {
	v.gen++
	if v.stop == nil {
		return nil
	}
	close(v.stop)
	done := v.done
	v.stop, v.done = nil, nil
	return done
}

// startLocked (re)starts the playback goroutine from the current step at
// the current speed.
func (v *Viewer) startLocked() {
	v.stopLocked()
	v.stop, v.done = make(chan struct{}), make(chan struct{})
	go v.run(v.gen, v.cur, speeds[v.speed]*baseStepsPerSecond, len(v.data.steps)-1, v.stop, v.done)
}

// run is the playback goroutine. The step shown is computed from the time
// since playback started, never by counting ticks, so a slow frame makes
// the next one skip ahead instead of falling behind. At most one frame
// waits for the UI thread at a time.
func (v *Viewer) run(gen, from int, rate float64, last int, stop, done chan struct{}) {
	defer close(done)
	t0 := time.Now()
	tick := time.NewTicker(time.Second / frameRate)
	defer tick.Stop()
	var busy atomic.Bool
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			target := min(from+int(now.Sub(t0).Seconds()*rate), last)
			if !busy.CompareAndSwap(false, true) {
				continue
			}
			fyne.Do(func() {
				defer busy.Store(false)
				v.frame(gen, target)
			})
			if target >= last {
				return
			}
		}
	}
}

// frame shows a playback frame unless playback was stopped or restarted
// since it was computed.
func (v *Viewer) frame(gen, step int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if gen != v.gen || !v.playing {
		return
	}
	if step != v.cur {
		v.showLocked(step)
	}
	if step >= len(v.data.steps)-1 {
		// The goroutine ends by itself after the last frame.
		v.gen++
		v.stop, v.done = nil, nil
		v.playing = false
		v.play.SetIcon(theme.MediaPlayIcon())
		v.play.SetText("Play")
	}
}

// Speed is the playback speed as a multiple of 8 steps a second.
func (v *Viewer) Speed() float64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return speeds[v.speed]
}

// Faster picks the next higher speed.
func (v *Viewer) Faster() { v.shiftSpeed(1) }

// Slower picks the next lower speed.
func (v *Viewer) Slower() { v.shiftSpeed(-1) }

func (v *Viewer) shiftSpeed(d int) {
	v.mu.Lock()
	i := max(0, min(v.speed+d, len(speeds)-1))
	v.mu.Unlock()
	// Through the selector, whose OnChanged sets the speed, so the two
	// never disagree.
	v.speedSel.SetSelectedIndex(i)
}

func (v *Viewer) setSpeed(i int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i < 0 || i >= len(speeds) || i == v.speed {
		return
	}
	v.speed = i
	if v.playing {
		v.startLocked()
	}
}

// Shortcut describes one keyboard shortcut of the viewer, for help texts.
type Shortcut struct {
	Keys string
	Does string
}

// Shortcuts lists the keys HandleKey and HandleRune understand.
func (v *Viewer) Shortcuts() []Shortcut {
	return []Shortcut{
		{"Space", "play or pause"},
		{"Left / Right", "step back / forward"},
		{"Home / End", "first / last step"},
		{"+ / -", "faster / slower"},
	}
}

// HandleKey acts on a key event: Space plays or pauses, Left and Right
// step, Home and End jump to the first and last step. It reports whether
// it used the key. Speed keys come as runes: see HandleRune.
func (v *Viewer) HandleKey(ev *fyne.KeyEvent) bool {
	if v.isClosed() || ev == nil {
		return false
	}
	switch ev.Name {
	case fyne.KeySpace:
		v.TogglePlay()
	case fyne.KeyLeft:
		v.StepBack()
	case fyne.KeyRight:
		v.StepForward()
	case fyne.KeyHome:
		v.First()
	case fyne.KeyEnd:
		v.Last()
	default:
		return false
	}
	return true
}

// HandleRune acts on typed characters: '+' (or '=') is faster and '-'
// slower. Characters rather than keys, so they work on every keyboard
// layout. Space is left to HandleKey: a space press sends both a key and
// a rune, and must toggle only once.
func (v *Viewer) HandleRune(r rune) bool {
	if v.isClosed() {
		return false
	}
	switch r {
	case '+', '=':
		v.Faster()
	case '-', '−':
		v.Slower()
	default:
		return false
	}
	return true
}

func (v *Viewer) isClosed() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.closed
}

// AttachKeys routes c's typed keys and runes to the viewer while no
// widget has the focus (Fyne sends them to the focused widget otherwise).
// Handlers c had before keep the keys the viewer does not use, and get
// all of them back once the viewer is closed.
func (v *Viewer) AttachKeys(c fyne.Canvas) {
	prevKey, prevRune := c.OnTypedKey(), c.OnTypedRune()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if !v.HandleKey(ev) && prevKey != nil {
			prevKey(ev)
		}
	})
	c.SetOnTypedRune(func(r rune) {
		if !v.HandleRune(r) && prevRune != nil {
			prevRune(r)
		}
	})
}

// Hide pauses playback before hiding the viewer: nothing plays unseen.
func (v *Viewer) Hide() {
	v.Pause()
	v.BaseWidget.Hide()
}

// Close stops playback for good and waits for its goroutine; the viewer
// then ignores keys. Call it when the viewer's window or tab closes.
func (v *Viewer) Close() {
	v.Pause()
	v.mu.Lock()
	v.closed = true
	v.mu.Unlock()
}
