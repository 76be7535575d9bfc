package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/games"
)

// replayActions are the what-if buttons above a stored game's viewer:
// "Branch from here…" plays the game again from the step shown with
// another bot in one seat, "Run my bot on this input…" only asks that
// bot what it would answer there.
type replayActions struct {
	u       *UI
	matchID int64
	log     *engine.Log
	v       *replay.Viewer
	win     fyne.Window

	branch, probe *widget.Button
	obj           fyne.CanvasObject
}

func newReplayActions(u *UI, matchID int64, log *engine.Log, v *replay.Viewer) *replayActions {
	a := &replayActions{u: u, matchID: matchID, log: log, v: v}
	a.branch = widget.NewButtonWithIcon("Branch from here…", theme.ContentCopyIcon(), func() { a.ask(false) })
	a.probe = widget.NewButtonWithIcon("Run my bot on this input…", theme.MediaPlayIcon(), func() { a.ask(true) })
	hint := newLineLabel("What if another bot, or another revision, had played a seat from here?")
	a.obj = container.NewBorder(nil, nil, container.NewHBox(a.branch, a.probe), nil, hint)
	return a
}

// botChoices lists who can play a seat of game: its built-in bots, then
// each built AI of the game (its current revision) and its revisions
// (NAME@rN), newest first.
func botChoices(svc *service.Service, game string) []string {
	out := service.BuiltinSpecs(game)
	ais, err := svc.BuiltAIs()
	if err != nil {
		return out
	}
	for _, ai := range ais {
		if ai.Game == game {
			out = append(out, ai.Name)
			out = append(out, ai.Revisions...)
		}
	}
	return out
}

// ask shows the dialog that picks a seat and a bot, then runs the branch
// (probe: only up to the bot's first answer).
func (a *replayActions) ask(probe bool) {
	step := a.v.Step()
	seats := make([]string, len(a.log.Players))
	for i, p := range a.log.Players {
		seats[i] = fmt.Sprintf("%d: %s", i, displayName(p))
	}
	seat := widget.NewSelect(seats, nil)
	seat.SetSelectedIndex(0)
	labels, specOf := entryLabels(botChoices(a.u.Svc, a.log.Game))
	bot := widget.NewSelectEntry(labels)
	bot.PlaceHolder = "a revision (alice@r3), a built-in bot or a command"
	items := []*widget.FormItem{
		widget.NewFormItem("Seat", seat),
		widget.NewFormItem("Played by", bot),
	}
	items[1].HintText = "it first gets every input the seat had before, its answers set aside"
	title, verb := "Branch from here", "Play the branch"
	if probe {
		title, verb = "Run my bot on this input", "Run it"
	}
	d := dialog.NewForm(fmt.Sprintf("%s (step %d)", title, step+1), verb, "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		who := strings.TrimSpace(bot.Text)
		if spec, ok := specOf[who]; ok {
			who = spec
		}
		if who == "" {
			dialog.ShowError(invalidf("say who plays the seat: pick a revision or a built-in bot, or type a command"), a.win)
			return
		}
		a.run(service.BranchSpec{Match: a.matchID, Seat: seat.SelectedIndex(), Bot: who, Step: &step, Probe: probe})
	}, a.win)
	d.Resize(fyne.NewSize(560, 260))
	d.Show()
}

// run plays the branch off the UI thread, with a Stop button meanwhile.
func (a *replayActions) run(spec service.BranchSpec) {
	ctx, cancel := context.WithCancel(a.u.ctx)
	progress := widget.NewLabel("Re-playing the game to the branch…")
	bar := widget.NewProgressBarInfinite()
	var wait *dialog.CustomDialog
	stop := widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), func() { cancel() })
	wait = dialog.NewCustomWithoutButtons("Playing", container.NewVBox(progress, bar, stop), a.win)
	spec.OnStep = func(i int) {
		if i%20 == 0 {
			uiDo(func() { progress.SetText(fmt.Sprintf("Step %d…", i+1)) })
		}
	}
	wait.Show()
	a.branch.Disable()
	a.probe.Disable()
	a.u.goWork(func() {
		defer cancel()
		out, err := a.u.Svc.Branch(ctx, spec)
		var compared *branchReply
		if err == nil && spec.Probe {
			compared, err = compareProbe(a.log, out.Log, spec.Seat)
		}
		uiDo(func() {
			wait.Hide()
			a.branch.Enable()
			a.probe.Enable()
			switch {
			case err != nil:
				dialog.ShowError(err, a.win)
			case spec.Probe:
				showProbe(a.win, compared)
			default:
				openBranchWindow(a.u, a.matchID, a.log, out.Log)
			}
		})
	})
}

// branchReply is a probe's answer beside the recorded one.
type branchReply struct {
	Seat     int
	Bot      string
	Step     int
	Turn     int
	Input    string
	Recorded engine.ReplaySeat
	Probe    engine.ReplaySeat
	Warmup   int
}

// compareProbe finds the probe's first live answer and the recorded
// answer to the same input.
func compareProbe(orig, probe *engine.Log, seat int) (*branchReply, error) {
	a, err := games.Expand(orig)
	if err != nil {
		return nil, err
	}
	b, err := games.Expand(probe)
	if err != nil {
		return nil, err
	}
	br := probe.Branch
	for i := br.Step; i < len(b.Steps); i++ {
		for _, s := range b.Steps[i].Seats {
			if s.Seat != seat || s.Unasked {
				continue
			}
			r := &branchReply{Seat: seat, Bot: br.Bot, Step: i, Turn: b.Steps[i].Turn, Input: s.Input, Probe: s, Warmup: len(br.Warmup)}
			if i < len(a.Steps) {
				for _, o := range a.Steps[i].Seats {
					if o.Seat == seat {
						r.Recorded = o
					}
				}
			}
			return r, nil
		}
	}
	return nil, fmt.Errorf("seat %d was not asked again after step %d: the game ended first", seat, br.Step+1)
}

// replyText says what a seat answered and what the game made of it.
func replyText(s engine.ReplaySeat) string {
	reply := "(no reply: " + s.Status + ")"
	if s.Reply != nil {
		reply = *s.Reply
	}
	out := fmt.Sprintf("%s\n→ %s, %s, %.1f ms", reply, s.Verdict, s.Action, s.Millis)
	if s.Detail != "" {
		out += "\n" + s.Detail
	}
	if s.Stderr != "" {
		out += "\nstderr: " + strings.TrimSpace(s.Stderr)
	}
	return out
}

// showProbe shows a probe's reply beside the recorded one.
func showProbe(w fyne.Window, r *branchReply) {
	mono := func(s string) *widget.Label {
		l := widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	input := r.Input
	if lines := strings.Split(strings.TrimSuffix(input, "\n"), "\n"); len(lines) > 12 {
		input = strings.Join(lines[:12], "\n") + fmt.Sprintf("\n… (%d lines more)", len(lines)-12)
	}
	same := "The same reply."
	if r.Recorded.Reply == nil || r.Probe.Reply == nil || *r.Recorded.Reply != *r.Probe.Reply {
		same = "A different reply."
	}
	grid := container.NewGridWithColumns(2,
		newHeading("Recorded", theme.SizeNameSubHeadingText), newHeading(displayName(r.Bot), theme.SizeNameSubHeadingText),
		mono(replyText(r.Recorded)), mono(replyText(r.Probe)))
	body := container.NewVBox(
		widget.NewLabel(fmt.Sprintf("Seat %d at step %d (turn %d), after %d earlier inputs fed to the bot first. %s",
			r.Seat, r.Step+1, r.Turn, r.Warmup, same)),
		widget.NewAccordion(widget.NewAccordionItem("The input", mono(input))),
		grid)
	d := dialog.NewCustom("Run my bot on this input", "Close", container.NewVScroll(body), w)
	d.Resize(fyne.NewSize(760, 460))
	d.Show()
}

// partingStep is the first step at which the branch's log differs from
// the original's (a reply, or the steps running out), or -1 when the
// branch played the same game.
func partingStep(orig, branch *engine.Log) int {
	for i := range max(len(orig.Steps), len(branch.Steps)) {
		if i >= len(orig.Steps) || i >= len(branch.Steps) {
			return i
		}
		a, b := orig.Steps[i].Replies, branch.Steps[i].Replies
		if len(a) != len(b) {
			return i
		}
		for j := range a {
			if a[j].Status != b[j].Status || a[j].Line != b[j].Line {
				return i
			}
		}
	}
	return -1
}

// branchMarks are the timeline markers of a branch and its original:
// where the branch starts and where the games part.
func branchMarks(orig, branch *engine.Log, steps int) []engine.Event {
	br := branch.Branch
	who := displayName(br.Bot)
	marks := []engine.Event{{Step: br.Step, Turn: br.Turn, Kind: replay.EventBranch,
		Text: fmt.Sprintf("branch: %s plays seat %d from here", who, br.Seat)}}
	switch p := partingStep(orig, branch); {
	case p < 0:
		marks[0].Text += "; the game stayed the same"
	case p < steps:
		marks = append(marks, engine.Event{Step: p, Kind: replay.EventBranch, Text: "the games part here"})
	}
	var out []engine.Event
	for _, m := range marks {
		if m.Step < steps {
			out = append(out, m)
		}
	}
	return out
}

// openBranchWindow shows a branch beside its original, each timeline
// marking where the branch starts and where the two part.
func openBranchWindow(u *UI, matchID int64, orig, branch *engine.Log) fyne.Window {
	w, err := newBranchWindow(u.App, fmt.Sprintf("game %d", matchID), orig, branch)
	if err != nil {
		u.showError("Cannot show the branch", err)
		return nil
	}
	return w
}

// NewBranchFilesWindow is "ringside view BRANCH ORIGINAL": a branch's
// replay file (from "ringside replay branch --replay") beside the
// original's (from "ringside replay export"). Errors are returned before
// any window opens.
func NewBranchFilesWindow(a fyne.App, branchPath, origPath string) (fyne.Window, error) {
	branch, err := ReadReplayFile(branchPath)
	if err != nil {
		return nil, err
	}
	if branch.Branch == nil {
		return nil, fmt.Errorf("%s is not a branch (write one with ringside replay branch --replay FILE); to watch it alone: ringside view %s", branchPath, branchPath)
	}
	orig, err := ReadReplayFile(origPath)
	if err != nil {
		return nil, err
	}
	if orig.Game != branch.Game || orig.Seed != branch.Seed || len(orig.Steps) <= branch.Branch.Step ||
		partingStep(orig, branch) >= 0 && partingStep(orig, branch) < branch.Branch.Step {
		return nil, fmt.Errorf("%s is not the game %s was branched from (game, seed or turns before the branch differ)", origPath, branchPath)
	}
	a.SetIcon(Icon)
	return newBranchWindow(a, origPath, orig, branch)
}

// newBranchWindow shows branch beside orig (named what).
func newBranchWindow(a fyne.App, what string, orig, branch *engine.Log) (fyne.Window, error) {
	g, err := games.Get(orig.Game)
	if err != nil {
		return nil, err
	}
	br := branch.Branch
	bshown := shownLog(branch)
	bshown.Players[br.Seat] = displayName(br.Bot) + " (branch)"
	left, err := replay.NewViewerMarked(g, shownLog(orig), branchMarks(orig, branch, len(orig.Steps)))
	if err != nil {
		return nil, err
	}
	right, err := replay.NewViewerMarked(g, bshown, branchMarks(orig, branch, len(branch.Steps)))
	if err != nil {
		left.Close()
		return nil, err
	}
	left.Seek(br.Step)
	right.Seek(br.Step)
	left.SetNarrow()
	right.SetNarrow()
	outcome := func(log *engine.Log) string {
		if log.Aborted != "" {
			return "stopped before the end"
		}
		// Who played each seat: in the branch, its seat's bot, not the
		// recorded name the branch's log keeps.
		names := service.PlayerNames(log)
		parts := make([]string, len(names))
		for i, p := range names {
			parts[i] = fmt.Sprintf("%s %d", displayName(p), log.Result.Ranks[i])
		}
		return "ranks: " + strings.Join(parts, ", ")
	}
	lhead := widget.NewLabel(fmt.Sprintf("Original: %s · %s", what, outcome(orig)))
	rhead := widget.NewLabel(fmt.Sprintf("Branch at turn %d: seat %d played by %s · %s", br.Turn, br.Seat, displayName(br.Bot), outcome(branch)))
	for _, l := range []*widget.Label{lhead, rhead} {
		l.TextStyle.Bold = true
		// Wrapped, not cut: who played which seat and the ranks are the
		// point of the comparison.
		l.Wrapping = fyne.TextWrapWord
	}
	split := container.NewHSplit(container.NewBorder(lhead, nil, nil, nil, left), container.NewBorder(rhead, nil, nil, nil, right))
	w := a.NewWindow(fmt.Sprintf("Ringside · %s branched at turn %d · seat %d: %s", what, br.Turn, br.Seat, displayName(br.Bot)))
	w.SetIcon(Icon)
	w.SetContent(split)
	// The keys drive the branch; the original follows by its own controls.
	right.AttachKeys(w.Canvas())
	w.SetOnClosed(func() { left.Close(); right.Close() })
	// As the replay window: within a 1024×768 projector; a bigger screen
	// can maximise it.
	w.Resize(fyne.NewSize(1000, 700))
	w.Show()
	return w, nil
}
