package replay

import (
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/battle2048"
	"ringside/engine/cloud"
	"ringside/engine/grip"
)

// playLog plays a match in process between g's built-in bots and records
// it as the runner would: one LogReply per ask, with made-up but
// deterministic times and an occasional stderr line.
func playLog(t testing.TB, g engine.Game, opts engine.Options, seed int64, botNames ...string) *engine.Log {
	t.Helper()
	players := make([]string, len(botNames))
	for i, name := range botNames {
		players[i] = fmt.Sprintf("%s-%d", name, i)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	return fixture.PlayLog(t, g, opts, seed, players, botNames, func(_ engine.Ask, turn int) (time.Duration, string) {
		elapsed := time.Duration(200+rng.IntN(5000)) * time.Microsecond
		if rng.IntN(10) == 0 {
			return elapsed, fmt.Sprintf("thinking about turn %d\n", turn)
		}
		return elapsed, ""
	})
}

// gripMovesLog is a full-length Grip game of moves only: nobody attacks,
// so nobody falls and all max_turns turns are played.
func gripMovesLog(t testing.TB, turns int) *engine.Log {
	t.Helper()
	opts := engine.Options{grip.OptMaxTurns: fmt.Sprint(turns), grip.OptStart: "14,0,D/17,14,L/10,14,U/5,2,R"}
	log := &engine.Log{Game: "grip", Options: opts, Seed: 1, Players: []string{"a", "b", "c", "d"}}
	st, err := grip.New().New(opts, log.Players, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for !st.Done() {
		asks := st.Asks()
		replies := make([]engine.Reply, len(asks))
		logged := make([]engine.LogReply, len(asks))
		for i, a := range asks {
			line := "READY"
			if a.Input != "" {
				line = string("URDL"[rng.IntN(4)])
			}
			replies[i] = engine.Reply{Status: engine.Answered, Line: line, Elapsed: 1500 * time.Microsecond}
			logged[i] = engine.LogReplyOf(replies[i], "", "")
		}
		st.Apply(replies)
		log.Steps = append(log.Steps, engine.LogStep{Replies: logged})
	}
	log.Result = st.Result()
	return log
}

// simulated is simulate for a test: the viewer's data for log, or the
// test stops.
func simulated(t testing.TB, g engine.Game, log *engine.Log) *replayData {
	t.Helper()
	d, err := simulate(g, log)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// gripLog is a real Grip game: one greedy bot against three random ones.
func gripLog(t testing.TB) *engine.Log {
	return playLog(t, grip.New(), nil, 3, "greedy", "random", "random", "random")
}

func battleLog(t testing.TB) *engine.Log {
	return playLog(t, battle2048.New(), engine.Options{battle2048.OptRounds: "60"}, 5, "greedy", "random")
}

func cloudLog(t testing.TB) *engine.Log {
	return playLog(t, cloud.New(), engine.Options{"turns": "60", "transport": "stdio"}, 11, "hunter", "random", "hunter")
}

// newTestViewer opens log in a 1280×800 test window.
func newTestViewer(t *testing.T, g engine.Game, log *engine.Log) (*Viewer, fyne.Window) {
	t.Helper()
	v, err := NewViewer(g, log)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(1280, 800))
	t.Cleanup(v.Close)
	return v, w
}

// waitFor polls cond until it holds or a generous deadline passes; it
// asserts that something happens, never how fast.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// shot writes the canvas to /tmp/viewer_NAME.png when RINGSIDE_SHOTS=1, so
// a person can look at the viewer without a display.
func shot(t *testing.T, w fyne.Window, name string) {
	t.Helper()
	if os.Getenv("RINGSIDE_SHOTS") != "1" {
		return
	}
	img := w.Canvas().Capture()
	f, err := os.Create("/tmp/viewer_" + name + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

func TestSimulateRecordsEveryStep(t *testing.T) {
	log := gripLog(t)
	d := simulated(t, grip.New(), log)
	rp, err := engine.Expand(grip.New(), log)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.steps) != len(rp.Steps) || len(d.states) != len(rp.Steps) {
		t.Fatalf("%d steps and %d states, want %d", len(d.steps), len(d.states), len(rp.Steps))
	}
	for i, s := range d.steps {
		want := rp.Steps[i]
		if s.Turn != want.Turn {
			t.Errorf("step %d: turn %d, want %d", i, s.Turn, want.Turn)
		}
		for j, a := range s.Asks {
			if a.Input != want.Seats[j].Input || a.Seat != want.Seats[j].Seat {
				t.Errorf("step %d ask %d: seat %d input %q, want seat %d %q", i, j, a.Seat, a.Input, want.Seats[j].Seat, want.Seats[j].Input)
			}
		}
	}
	if fmt.Sprint(d.events) != fmt.Sprint(rp.Events) {
		t.Errorf("events differ from Expand:\n%v\n%v", d.events, rp.Events)
	}
	// States are snapshots: the state after step i still shows turn i's
	// board although later steps were played on the simulation.
	last := d.states[len(d.states)-1]
	if !last.Done() || d.states[1].Done() {
		t.Errorf("snapshots are not independent: last done=%v, step 1 done=%v", last.Done(), d.states[1].Done())
	}
	if d.states[5].Turn() != d.steps[5].Turn+1 {
		t.Errorf("state after step 5 is at turn %d, want %d", d.states[5].Turn(), d.steps[5].Turn+1)
	}
}

func TestNewViewerRefusesBadLogs(t *testing.T) {
	test.NewTempApp(t)
	good := gripLog(t)
	cut := *good
	cut.Steps = cut.Steps[:len(cut.Steps)/2]
	wrongGame := *good
	wrongGame.Game = "cloud"
	badOption := *good
	badOption.Options = engine.Options{"colour": "red"}
	extra := *good
	extra.Steps = append(append([]engine.LogStep(nil), good.Steps...), engine.LogStep{})
	missing := *good
	missing.Steps = append([]engine.LogStep(nil), good.Steps...)
	missing.Steps[3] = engine.LogStep{}
	aborted := cut
	aborted.Aborted = "cancelled"
	empty := aborted
	empty.Steps = nil
	for _, tc := range []struct {
		name string
		log  *engine.Log
		want string // in the error; "" for no error
	}{
		{"good", good, ""},
		{"aborted match opens", &aborted, ""},
		{"match aborted before its first step opens", &empty, ""},
		{"nil", nil, "no replay"},
		{"cut short", &cut, "not over"},
		{"other game", &wrongGame, `game "cloud"`},
		{"unknown option", &badOption, "colour"},
		{"step after the end", &extra, "game already over"},
		{"replies missing", &missing, "asks 1 seats, log has 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := NewViewer(grip.New(), tc.log)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				// Every control works, even with nothing to show.
				w := test.NewTempWindow(t, v)
				w.Resize(fyne.NewSize(900, 600))
				v.Play()
				v.HandleKey(&fyne.KeyEvent{Name: fyne.KeySpace})
				v.Last()
				v.StepBack()
				v.Close()
				if v.Step() != max(0, len(tc.log.Steps)-2) {
					t.Errorf("Last then StepBack: step %d of %d", v.Step(), len(tc.log.Steps))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestViewerStepControls(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestViewer(t, grip.New(), gripLog(t))
	n := v.Steps()
	if n < 10 {
		t.Fatalf("only %d steps", n)
	}
	for _, tc := range []struct {
		name string
		do   func()
		want int
	}{
		{"starts at the first step", func() {}, 0},
		{"back at the start stays", func() { test.Tap(v.back) }, 0},
		{"forward", func() { test.Tap(v.forward) }, 1},
		{"forward again", func() { test.Tap(v.forward) }, 2},
		{"back", func() { test.Tap(v.back) }, 1},
		{"last", func() { test.Tap(v.last) }, n - 1},
		{"forward at the end stays", func() { v.StepForward() }, n - 1},
		{"first", func() { test.Tap(v.first) }, 0},
		{"seek", func() { v.Seek(7) }, 7},
		{"seek past the end clamps", func() { v.Seek(n + 50) }, n - 1},
		{"seek before the start clamps", func() { v.Seek(-3) }, 0},
	} {
		tc.do()
		if got := v.Step(); got != tc.want {
			t.Errorf("%s: step %d, want %d", tc.name, got, tc.want)
		}
		if got := v.timeline.Value(); got != tc.want {
			t.Errorf("%s: timeline at %d, want %d", tc.name, got, tc.want)
		}
	}
	if !v.first.Disabled() || !v.back.Disabled() || v.forward.Disabled() {
		t.Errorf("at the first step: first/back should be disabled and forward enabled")
	}
	v.Last()
	if v.first.Disabled() || !v.forward.Disabled() || !v.last.Disabled() {
		t.Errorf("at the last step: forward/last should be disabled and first enabled")
	}
}

func TestViewerKeys(t *testing.T) {
	test.NewTempApp(t)
	v, w := newTestViewer(t, grip.New(), gripLog(t))
	v.AttachKeys(w.Canvas())
	n := v.Steps()
	key := func(k fyne.KeyName) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k}) }
	key(fyne.KeyRight)
	key(fyne.KeyRight)
	if v.Step() != 2 {
		t.Errorf("two Right presses: step %d, want 2", v.Step())
	}
	key(fyne.KeyLeft)
	if v.Step() != 1 {
		t.Errorf("Left: step %d, want 1", v.Step())
	}
	key(fyne.KeyEnd)
	if v.Step() != n-1 {
		t.Errorf("End: step %d, want %d", v.Step(), n-1)
	}
	key(fyne.KeyHome)
	if v.Step() != 0 {
		t.Errorf("Home: step %d, want 0", v.Step())
	}
	// Speed keys are runes, so they follow the keyboard layout.
	test.TypeOnCanvas(w.Canvas(), "++")
	if v.Speed() != 4 {
		t.Errorf("after ++ speed %v, want 4", v.Speed())
	}
	test.TypeOnCanvas(w.Canvas(), "-")
	if v.Speed() != 2 || v.speedSel.Selected != "2×" {
		t.Errorf("after - speed %v (selector %q), want 2", v.Speed(), v.speedSel.Selected)
	}
	test.TypeOnCanvas(w.Canvas(), strings.Repeat("+", 20))
	if v.Speed() != 32 {
		t.Errorf("speed tops out at %v, want 32", v.Speed())
	}
	// A space press arrives as a key and as a rune; it must toggle once.
	key(fyne.KeySpace)
	test.TypeOnCanvas(w.Canvas(), " ")
	if !v.Playing() {
		t.Fatal("space did not start playback")
	}
	key(fyne.KeySpace)
	if v.Playing() {
		t.Fatal("second space did not pause")
	}
	// Keys the viewer does not use reach the canvas's earlier handler, and
	// all keys do once the viewer is closed.
	var passed []fyne.KeyName
	w2 := test.NewTempWindow(t, widget.NewLabel(""))
	w2.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { passed = append(passed, ev.Name) })
	v.AttachKeys(w2.Canvas())
	w2.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF5})
	v.Close()
	w2.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyRight})
	if fmt.Sprint(passed) != "[F5 Right]" {
		t.Errorf("keys passed on: %v, want [F5 Right]", passed)
	}
}

func TestViewerPlayback(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestViewer(t, grip.New(), gripLog(t))
	v.Seek(3)
	test.Tap(v.play)
	if !v.Playing() || v.play.Text != "Pause" {
		t.Fatalf("tapping Play: playing=%v, button %q", v.Playing(), v.play.Text)
	}
	waitFor(t, "playback to advance", func() bool { return v.Step() > 3 })
	// The button's own tap, not test.Tap: that finds the button by
	// walking the canvas's objects from this goroutine, while the
	// playback goroutine moves the board's pieces (the test driver runs
	// fyne.Do on the calling goroutine), which the race detector caught
	// beside a CPU hog.
	v.play.Tapped(&fyne.PointEvent{})
	if v.Playing() || v.play.Text != "Play" {
		t.Fatalf("tapping Pause: playing=%v, button %q", v.Playing(), v.play.Text)
	}
	// Paused means paused: the step no longer changes.
	at := v.Step()
	time.Sleep(50 * time.Millisecond)
	if v.Step() != at {
		t.Errorf("step moved from %d to %d while paused", at, v.Step())
	}
	// At top speed playback reaches the end and stops there by itself.
	v.speedSel.SetSelectedIndex(len(speeds) - 1)
	v.Play()
	waitFor(t, "playback to reach the end", func() bool { return !v.Playing() })
	if v.Step() != v.Steps()-1 {
		t.Errorf("playback stopped at %d, want the last step %d", v.Step(), v.Steps()-1)
	}
	// Play at the end starts over from the first step.
	v.speedSel.SetSelectedIndex(0)
	v.Play()
	v.Pause()
	if v.Step() == v.Steps()-1 {
		t.Errorf("Play at the last step did not start over")
	}
	// Stepping pauses.
	v.Play()
	v.StepForward()
	if v.Playing() {
		t.Errorf("step forward did not pause")
	}
	// Hiding pauses, and Close is final.
	v.Play()
	v.Hide()
	if v.Playing() {
		t.Errorf("hidden viewer still plays")
	}
	v.Show()
	v.Close()
	v.Play()
	if v.Playing() {
		t.Errorf("closed viewer plays")
	}
}

func TestViewerSpeedChangeWhilePlaying(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestViewer(t, grip.New(), gripMovesLog(t, 400))
	v.Play()
	waitFor(t, "playback to start", func() bool { return v.Step() > 0 })
	v.Faster()
	if !v.Playing() || v.Speed() != 2 {
		t.Fatalf("after Faster: playing=%v speed=%v", v.Playing(), v.Speed())
	}
	at := v.Step()
	waitFor(t, "playback to go on at the new speed", func() bool { return v.Step() > at })
	// Seeking while playing plays on from there.
	v.Seek(100)
	waitFor(t, "playback to go on after a seek", func() bool { return v.Step() > 100 })
	v.Pause()
	if s := v.Step(); s < 100 {
		t.Errorf("after seeking to 100 and playing, step %d", s)
	}
}

func TestSeatPanelShowsExactInput(t *testing.T) {
	a := test.NewTempApp(t)
	log := gripLog(t)
	v, _ := newTestViewer(t, grip.New(), log)
	rp, err := engine.Expand(grip.New(), log)
	if err != nil {
		t.Fatal(err)
	}
	// Step 0 is the READY handshake: every seat asked, nothing written.
	for seat, c := range v.panel.cards {
		if c.inputText != "" || !c.copyBtn.Disabled() {
			t.Errorf("READY step, seat %d: input %q, copy enabled=%v", seat, c.inputText, !c.copyBtn.Disabled())
		}
		if !strings.Contains(c.status.Text, "ok") {
			t.Errorf("READY step, seat %d: status %q", seat, c.status.Text)
		}
	}
	lastAsked, notAsked := -1, -1
	for i, s := range rp.Steps {
		if s.Seats[0].Input != "" {
			lastAsked = i
		} else if s.Seats[0].Status == engine.Gone.String() && notAsked < 0 {
			notAsked = i
		}
	}
	if notAsked < 0 {
		t.Fatal("no step of a fallen player in the game")
	}
	v.Seek(notAsked)
	seat := rp.Steps[notAsked].Seats[0].Seat
	if c := v.panel.cards[seat]; c.status.Text != "not asked: fallen" || !c.copyBtn.Disabled() {
		t.Errorf("fallen seat %d's turn: status %q, copy enabled=%v", seat, c.status.Text, !c.copyBtn.Disabled())
	}
	for _, i := range []int{1, 2, 7, lastAsked} {
		v.Seek(i)
		want := rp.Steps[i].Seats[0]
		c := v.panel.cards[want.Seat]
		if c.inputText != want.Input {
			t.Errorf("step %d: seat %d input %q, want %q", i, want.Seat, c.inputText, want.Input)
		}
		if !strings.Contains(c.input.raw, strings.TrimSuffix(want.Input, "\n")) {
			t.Errorf("step %d: input label %q does not show the input", i, c.input.raw)
		}
		if want.Reply != nil && !strings.Contains(c.reply.l.Text, *want.Reply) {
			t.Errorf("step %d: reply label %q, want it to show %q", i, c.reply.l.Text, *want.Reply)
		}
		if !strings.Contains(c.status.Text, want.Verdict.String()) || !strings.Contains(c.status.Text, fmt.Sprintf("%.2f ms", want.Millis)) {
			t.Errorf("step %d: status %q, want verdict %s and %.2f ms", i, c.status.Text, want.Verdict, want.Millis)
		}
		test.Tap(c.copyBtn)
		if got := a.Clipboard().Content(); got != want.Input {
			t.Errorf("step %d: clipboard %q, want the exact input %q", i, got, want.Input)
		}
		for seat, other := range v.panel.cards {
			if seat != want.Seat && (other.inputText != "" || !other.copyBtn.Disabled()) {
				t.Errorf("step %d: seat %d was not asked but shows input %q", i, seat, other.inputText)
			}
		}
	}
}

// BenchmarkOpenGrip1000 opens a 1000-turn Grip replay: the whole
// re-simulation with a snapshot per step, the widgets and the first frame.
func BenchmarkOpenGrip1000(b *testing.B) {
	test.NewTempApp(b)
	log := gripMovesLog(b, 1000)
	if len(log.Steps) != 1001 {
		b.Fatalf("%d steps, want the handshake and 1000 turns", len(log.Steps))
	}
	b.Run("simulate", func(b *testing.B) {
		for b.Loop() {
			if _, err := simulate(grip.New(), log); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("viewer", func(b *testing.B) {
		for b.Loop() {
			v, err := NewViewer(grip.New(), log)
			if err != nil {
				b.Fatal(err)
			}
			v.Close()
		}
	})
}

// BenchmarkShowStep is one playback frame in a 1280×800 window: the board,
// the timeline thumb, the seat panel and the labels.
func BenchmarkShowStep(b *testing.B) {
	for _, tc := range []struct {
		name string
		g    engine.Game
		log  func(testing.TB) *engine.Log
	}{
		{"grip", grip.New(), func(t testing.TB) *engine.Log { return gripMovesLog(t, 1000) }},
		{"battle2048", battle2048.New(), battleLog},
		{"cloud", cloud.New(), cloudLog},
	} {
		b.Run(tc.name, func(b *testing.B) {
			test.NewTempApp(b)
			v, err := NewViewer(tc.g, tc.log(b))
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			w := test.NewTempWindow(b, v)
			w.Resize(fyne.NewSize(1280, 800))
			b.Run("paused", func(b *testing.B) {
				i := 0
				for b.Loop() {
					v.Seek(i % v.Steps())
					i += 4 // as 32× at 60 frames a second
				}
			})
			// A playback frame, without the goroutine: the seat panel is
			// refreshed only a few times a second then.
			b.Run("playing", func(b *testing.B) {
				v.mu.Lock()
				v.playing = true
				gen := v.gen
				v.mu.Unlock()
				i := 0
				for b.Loop() {
					v.frame(gen, i%(v.Steps()-1))
					i += 4
				}
				v.mu.Lock()
				v.playing = false
				v.mu.Unlock()
			})
		})
	}
}

// TestSeatPanelKeepsUpWithTheBoard plays a 1000-turn Grip replay at 8×
// and 32× on a clock of the test's own, a frame every 1/60 s as the
// playback goroutine does, and measures how far the seat panel's turn is
// behind the board's: the panel is filled at most panelRate times a
// second while playing (a fill costs about twenty frames' worth of board),
// so it may be behind by that long and no longer, and it shows the
// board's turn again once playback stops.
func TestSeatPanelKeepsUpWithTheBoard(t *testing.T) {
	test.NewTempApp(t)
	log := gripMovesLog(t, 1000)
	for _, speed := range []float64{8, 32} {
		t.Run(fmt.Sprint(speed), func(t *testing.T) {
			v, err := NewViewer(grip.New(), log)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			w := test.NewTempWindow(t, v)
			w.Resize(fyne.NewSize(1000, 700))
			clock := time.Now() // after the panel's first fill, as on a real clock
			v.mu.Lock()
			v.clock = func() time.Time { return clock }
			v.playing = true
			gen := v.gen
			v.mu.Unlock()
			panelTurn := func() int {
				var turn, of int
				fmt.Sscanf(v.panel.header.Text, "Turn %d of %d", &turn, &of)
				return turn
			}
			rate := speed * baseStepsPerSecond
			frame := time.Second / frameRate
			var behindSince time.Time
			var worst time.Duration
			worstSteps, fills, last := 0, 0, panelTurn()
			for k := 1; ; k++ {
				clock = clock.Add(frame)
				step := min(int(float64(k)*frame.Seconds()*rate), v.Steps()-1)
				v.frame(gen, step)
				board := v.data.steps[v.Step()].Turn
				if pt := panelTurn(); pt != last {
					fills, last = fills+1, pt
				}
				if last == board {
					behindSince = time.Time{}
				} else {
					if behindSince.IsZero() {
						behindSince = clock
					}
					worst = max(worst, clock.Sub(behindSince))
					worstSteps = max(worstSteps, board-last)
				}
				if step >= v.Steps()-1 {
					break
				}
			}
			t.Logf("%v×: %d turns shown, the panel filled %d times, at worst %d turns or %v behind the board", speed, v.Steps(), fills, worstSteps, worst)
			if worst > time.Second/panelRate+frame {
				t.Errorf("the panel stayed %v behind the board, want at most %v", worst, time.Second/panelRate+frame)
			}
			if got, want := panelTurn(), v.data.steps[v.Step()].Turn; got != want {
				t.Errorf("playback over: the panel shows turn %d, the board turn %d", got, want)
			}
		})
	}
}
