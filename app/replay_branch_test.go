package app

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine"
	"ringside/runner"
)

// playedMatch creates and runs a one-game Battle 2048 event and returns
// its match id and log.
func playedMatch(t *testing.T, u *UI) (int64, *engine.Log) {
	t.Helper()
	ev := playEvent(t, u.Svc, service.EventSpec{Game: "battle2048", Format: "league", Games: 1, Seed: 3, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
	ms, err := u.Svc.DB().Matches(ev.ID)
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches: %v %v", ms, err)
	}
	log, err := u.Svc.DB().Replay(ms[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return ms[0].ID, log
}

// fillAndRun fills the open seat-and-bot dialog of w and taps verb.
func fillAndRun(t *testing.T, w fyne.Window, seat int, bot, verb string) {
	t.Helper()
	onUI(func() {
		var sel *widget.Select
		var entry *widget.SelectEntry
		var run []*widget.Button
		for _, o := range w.Canvas().Overlays().List() {
			walk(t, o, func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Select:
					sel = x
				case *widget.SelectEntry:
					entry = x
				}
			})
			run = append(run, buttons(t, o, verb)...)
		}
		if sel == nil || entry == nil || len(run) != 1 {
			t.Fatalf("dialog: seat %v, bot %v, %d %q buttons", sel != nil, entry != nil, len(run), verb)
		}
		sel.SetSelectedIndex(seat)
		entry.SetText(bot)
		test.Tap(run[0])
	})
}

// TestReplayBranchFromViewer branches a stored game from the replay
// viewer's "Branch from here…" and opens the branch beside the original;
// "Run my bot on this input…" shows another bot's reply beside the
// recorded one.
func TestReplayBranchFromViewer(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	id, log := playedMatch(t, u)
	var acts *replayActions
	onUI(func() {
		v, err := newViewerFor(log)
		if err != nil {
			t.Fatal(err)
		}
		w := showViewer(u.App, "replay", v)
		acts = newReplayActions(u, id, log, v)
		acts.win = w
		w.SetContent(container.NewWithoutLayout())
		v.Seek(20)
		test.Tap(acts.branch)
	})
	// Picked from the list, as shown; typed as a spec below.
	fillAndRun(t, acts.win, 1, "greedy (built-in)", "Play the branch")
	var branchWin fyne.Window
	eventually(t, "the branch window opens", func() bool {
		onUI(func() {
			for _, w := range u.App.Driver().AllWindows() {
				if strings.Contains(w.Title(), "branched at turn") {
					branchWin = w
				}
			}
		})
		return branchWin != nil
	})
	onUI(func() {
		if !strings.Contains(branchWin.Title(), "seat 1: greedy (built-in)") {
			t.Errorf("branch window title %q", branchWin.Title())
		}
		var viewers []*replay.Viewer
		var heads []string
		walk(t, branchWin.Content(), func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *replay.Viewer:
				viewers = append(viewers, x)
			case *widget.Label:
				if strings.HasPrefix(x.Text, "Original:") || strings.HasPrefix(x.Text, "Branch at turn") {
					heads = append(heads, x.Text)
				}
			}
		})
		if len(viewers) != 2 || len(heads) != 2 {
			t.Fatalf("branch window shows %d viewers and headings %q", len(viewers), heads)
		}
		// The branch's ranks name who played seat 1 there: greedy, not
		// the original's random (the branch's log keeps the recorded name).
		if !strings.Contains(heads[1], "ranks: greedy (built-in) ") || strings.Contains(heads[1], "random") {
			t.Errorf("branch heading %q names the original's bot", heads[1])
		}
		// Both open where the branch starts: step 21 (the viewer's 21st).
		for _, v := range viewers {
			if v.Step() != 20 {
				t.Errorf("a viewer opens at step %d, want the branch's step 20", v.Step())
			}
		}
		branchWin.Close()
	})

	onUI(func() { test.Tap(acts.probe) })
	fillAndRun(t, acts.win, 1, "builtin:battle2048/greedy", "Run it")
	eventually(t, "the probe's answer is shown", func() bool {
		return strings.Contains(overlayText(t, acts.win), "earlier inputs fed to the bot first")
	})
	text := overlayText(t, acts.win)
	// Step 21 is seat 0's move: seat 1 answers at the next step.
	for _, want := range []string{"Recorded", "greedy (built-in)", "Seat 1 at step 22 (turn 10)"} {
		if !strings.Contains(text, want) {
			t.Errorf("probe dialog lacks %q:\n%s", want, text)
		}
	}
	onUI(func() { acts.win.Close() })
}

func TestBotChoices(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	specs := botChoices(u.Svc, "battle2048")
	got := strings.Join(specs, " ")
	if got != "builtin:battle2048/random builtin:battle2048/greedy builtin:battle2048/search" {
		t.Errorf("choices %q", got)
	}
	// The dialog lists them by name and plays the spec picked.
	labels, specOf := entryLabels(specs)
	if got := strings.Join(labels, ", "); got != "random (built-in), greedy (built-in), search (built-in)" {
		t.Errorf("bot list shows %q", got)
	}
	if got := specOf["greedy (built-in)"]; got != "builtin:battle2048/greedy" {
		t.Errorf("greedy (built-in) plays %q", got)
	}
}

func TestBranchMarks(t *testing.T) {
	orig := &engine.Log{Steps: []engine.LogStep{{Replies: []engine.LogReply{{Line: "L"}}}, {Replies: []engine.LogReply{{Line: "R"}}},
		{Replies: []engine.LogReply{{Line: "U"}}}}}
	same := &engine.Log{Steps: orig.Steps, Branch: &engine.Branched{Step: 1, Seat: 0, Bot: "builtin:grip/greedy"}}
	other := &engine.Log{Steps: []engine.LogStep{orig.Steps[0], orig.Steps[1], {Replies: []engine.LogReply{{Line: "D"}}}},
		Branch: same.Branch}
	if got := branchMarks(orig, same, 3); len(got) != 1 || got[0].Step != 1 || !strings.Contains(got[0].Text, "stayed the same") {
		t.Errorf("same game: marks %+v", got)
	}
	if got := branchMarks(orig, other, 3); len(got) != 2 || got[1].Step != 2 || got[1].Text != "the games part here" {
		t.Errorf("parting at step 2: marks %+v", got)
	}
}

// TestViewBranchFiles is "ringside view BRANCH ORIGINAL" on files written
// by the binary, and its refusals.
func TestViewBranchFiles(t *testing.T) {
	dir := t.TempDir()
	exe, _ := runner.Executable()
	db := filepath.Join(dir, "b.db")
	orig, branch, other := filepath.Join(dir, "orig.json"), filepath.Join(dir, "branch.json"), filepath.Join(dir, "other.json")
	runAll(t, exe, db, [][]string{
		{"event", "create", "--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--games", "1", "--seed", "4"},
		{"event", "run", "1", "--quiet"},
		{"replay", "export", "1", "--out", orig},
		{"replay", "branch", "1", "--turn", "5", "--seat", "1", "--bot", "builtin:battle2048/greedy", "--replay", branch},
		{"replay", "export", "2", "--out", other},
	})
	a, w := openBranchFiles(t, branch, orig)
	onUI(func() {
		n := 0
		walk(t, w.Content(), func(o fyne.CanvasObject) {
			if _, ok := o.(*replay.Viewer); ok {
				n++
			}
		})
		if n != 2 || !strings.Contains(w.Title(), "branched at turn 5 · seat 1: greedy (built-in)") {
			t.Errorf("window %q shows %d viewers", w.Title(), n)
		}
		w.Close()
	})
	for _, tc := range []struct{ branch, orig, want string }{
		{orig, orig, "is not a branch"},
		{branch, other, "is not the game"},
	} {
		var err error
		onUI(func() { _, err = NewBranchFilesWindow(a, tc.branch, tc.orig) })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("view %s %s: %v, want %q", filepath.Base(tc.branch), filepath.Base(tc.orig), err, tc.want)
		}
	}
}

// openBranchFiles opens the window that shows branch beside orig in a
// new test app.
func openBranchFiles(t *testing.T, branch, orig string) (fyne.App, fyne.Window) {
	t.Helper()
	var a fyne.App
	var w fyne.Window
	var err error
	onUI(func() {
		a = test.NewTempApp(t)
		w, err = NewBranchFilesWindow(a, branch, orig)
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, w
}

// runAll runs the ringside binary exe with each of cmds against the
// database db, in turn, and stops the test at the first that fails.
func runAll(t *testing.T, exe, db string, cmds [][]string) {
	t.Helper()
	for _, args := range cmds {
		if out, err := exec.Command(exe, append(args, "--db", db)...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
}

// TestBranchWindowFitsAProjector: a branch beside its original, in each
// game, opens in a window no bigger than a 1024×768 projector, and both
// viewers fit in it whole.
func TestBranchWindowFitsAProjector(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe, _ := runner.Executable()
	for _, g := range []struct{ game, a, b string }{
		{"battle2048", "builtin:battle2048/greedy", "builtin:battle2048/random"},
		{"grip", "builtin:grip/greedy", "builtin:grip/random"},
		{"cloud", "builtin:cloud/hunter", "builtin:cloud/random"},
	} {
		db := filepath.Join(dir, g.game+".db")
		orig, branch := filepath.Join(dir, g.game+"-orig.json"), filepath.Join(dir, g.game+"-branch.json")
		runAll(t, exe, db, [][]string{
			{"event", "create", "--game", g.game, "--entry", g.a, "--entry", g.b, "--filler", g.b, "--games", "1", "--seed", "4"},
			{"event", "run", "1", "--quiet"},
			{"replay", "export", "1", "--out", orig},
			{"replay", "branch", "1", "--turn", "5", "--seat", "1", "--bot", g.a, "--replay", branch},
		})
		_, w := openBranchFiles(t, branch, orig)
		onUI(func() {
			defer w.Close()
			size, min := w.Canvas().Size(), w.Content().MinSize()
			if size.Width > 1024 || size.Height > 768 {
				t.Errorf("%s: the branch window opens at %v, bigger than a 1024×768 screen", g.game, size)
			}
			if min.Width > size.Width || min.Height > size.Height {
				t.Errorf("%s: the two viewers need %v, more than the window's %v", g.game, min, size)
			}
		})
	}
}

// TestBranchViewNamesWhole: a Grip branch of a class's four bots, beside
// its original in a window that fits a 1024×768 projector, shows every
// seat's name whole on both boards (not "a… r1"), and the branch's header
// names the revision that really played the branched seat, in its ranks
// too.
func TestBranchViewNamesWhole(t *testing.T) {
	dir := t.TempDir()
	exe, _ := runner.Executable()
	db := filepath.Join(dir, "g.db")
	orig, branch := filepath.Join(dir, "orig.json"), filepath.Join(dir, "branch.json")
	runAll(t, exe, db, [][]string{
		{"event", "create", "--game", "grip", "--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random", "--filler", "builtin:grip/random", "--games", "1", "--seed", "4"},
		{"event", "run", "1", "--quiet"},
		{"replay", "export", "1", "--out", orig},
		{"replay", "branch", "1", "--turn", "5", "--seat", "1", "--bot", "builtin:grip/greedy", "--replay", branch},
	})
	o, err := ReadReplayFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadReplayFile(branch)
	if err != nil {
		t.Fatal(err)
	}
	class := []string{"alice r1", "bobby r2", "carol r1", "david r3"}
	o.Players, b.Players = class, class
	b.Branch.Bot = "bobby r3"
	var w fyne.Window
	onUI(func() {
		w, err = newBranchWindow(test.NewTempApp(t), "game 1", o, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	onUI(func() {
		defer w.Close()
		shown := map[string]int{}
		var heads []string
		walk(t, w.Content(), func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *canvas.Text:
				shown[x.Text]++
			case *widget.Label:
				heads = append(heads, x.Text)
			}
		})
		for _, want := range []struct {
			name string
			n    int
		}{{"alice r1", 2}, {"bobby r2", 1}, {"bobby r3 (branch)", 1}, {"carol r1", 2}, {"david r3", 2}} {
			if shown[want.name] != want.n {
				t.Errorf("%q shown whole on %d boards, want %d", want.name, shown[want.name], want.n)
			}
		}
		var head string
		for _, h := range heads {
			if strings.HasPrefix(h, "Branch at turn") {
				head = h
			}
		}
		if !strings.Contains(head, "seat 1 played by bobby r3 · ranks: ") || !strings.Contains(head, "bobby r3 ") || strings.Contains(head, "bobby r2") {
			t.Errorf("branch header %q: want seat 1 played by bobby r3, in the ranks too", head)
		}
	})
}
