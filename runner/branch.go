package runner

import (
	"fmt"
	"slices"

	"ringside/engine"
)

// Branch makes Play re-play a recorded game and let one seat play live
// from a chosen step: "what would my new version have done here?".
//
// Play starts every seat's program as usual (Match.Bots: Seat's new bot,
// the others' original programs) and feeds each the inputs the game gives
// it, waiting for its answers. Up to Step the game uses the recorded
// replies of every seat, so the branch's steps before Step are the
// original's byte for byte; Seat's answers there are kept in the log as
// warm-up (engine.Branched.Warmup), the others' are dropped. From Step on
// Seat plays live. Every other seat keeps its recorded reply for as long as
// its input is the one it received at that step of the original game (the
// game has stayed the same for it); at the first step where it is not (a
// different input, asked when it was not, or past the original's end) the
// recorded reply no longer fits, and that seat plays live from then on with
// its original program, which has received every earlier input. A program
// that cannot start any more (a deleted folder) plays live as a crashed
// seat, as in any game.
type Branch struct {
	Log   *engine.Log // the game branched from
	Match int64       // its stored match id, 0 for a replay file
	Turn  int         // the turn asked for (recorded in the log)
	Step  int         // the first step Seat plays live
	Seat  int
	// Probe ends the game as soon as Seat has answered its first live
	// ask (the log is then marked aborted "probe"): "what would this bot
	// answer here?" without playing the game out.
	Probe bool
}

// ProbeAborted marks the log of a probe (Branch.Probe).
const ProbeAborted = "probe"

// BranchStep returns the step of log at which a branch at turn starts:
// the first step played at that turn or later. It re-plays the game to
// check that the log is whole and that seat was still in the game then.
func BranchStep(g engine.Game, log *engine.Log, turn, seat int) (int, error) {
	return branchAt(g, log, seat, func(i, t int) bool { return t >= turn },
		func(last int) error {
			return fmt.Errorf("turn %d: the game ended at turn %d (%d steps); branch at a turn from 0 to %d", turn, last, len(log.Steps), last)
		})
}

// CheckBranchAt checks that a branch of log at step (an index into the
// log's steps) can be played: the log re-plays, and seat was still in the
// game.
func CheckBranchAt(g engine.Game, log *engine.Log, step, seat int) error {
	_, err := branchAt(g, log, seat, func(i, t int) bool { return i == step },
		func(int) error {
			return fmt.Errorf("step %d: the game has steps 0 to %d", step, len(log.Steps)-1)
		})
	return err
}

func branchAt(g engine.Game, log *engine.Log, seat int, here func(step, turn int) bool, past func(last int) error) (int, error) {
	if seat < 0 || seat >= len(log.Players) {
		return 0, fmt.Errorf("seat %d: the game has seats 0 to %d", seat, len(log.Players)-1)
	}
	sim, err := engine.NewSim(g, log)
	if err != nil {
		return 0, err
	}
	last := 0
	for i := range log.Steps {
		if here(i, sim.State.Turn()) {
			return i, nil
		}
		_, st, err := sim.Step()
		if err != nil {
			return 0, err
		}
		last = sim.State.Turn()
		if slices.Contains(st.Stop, seat) {
			return 0, fmt.Errorf("seat %d (%s) was out of the game after turn %d (its bot stopped): branch at an earlier turn",
				seat, log.Players[seat], last)
		}
	}
	return 0, past(last)
}

// branchRun is a Branch being played.
type branchRun struct {
	b    *Branch
	rec  *engine.Sim // the original, re-played in step with the branch
	info engine.Branched
}

func newBranchRun(g engine.Game, b *Branch, bot string) (*branchRun, error) {
	if b.Log == nil {
		return nil, fmt.Errorf("branch: no game to branch from")
	}
	if b.Step < 0 || b.Step >= len(b.Log.Steps) {
		return nil, fmt.Errorf("branch: step %d is not in the game (%d steps)", b.Step, len(b.Log.Steps))
	}
	rec, err := engine.NewSim(g, b.Log)
	if err != nil {
		return nil, fmt.Errorf("branch: %w", err)
	}
	r := &branchRun{b: b, rec: rec, info: engine.Branched{Match: b.Match, Turn: b.Turn, Seat: b.Seat, Step: b.Step, Bot: bot,
		Live: make([]int, len(b.Log.Players))}}
	for i := range r.info.Live {
		r.info.Live[i] = -1
	}
	r.info.Live[b.Seat] = b.Step
	return r, nil
}

// merge takes the live answers to step i's asks and returns what the game
// uses: recorded replies where they fit, live ones elsewhere. live[j]
// reports whether ask j was answered live.
func (r *branchRun) merge(i int, asks []engine.Ask, replies []engine.Reply, logged []engine.LogReply, noise []engine.Noise) (
	[]engine.Reply, []engine.LogReply, []engine.Noise, []bool) {
	var recAsks []engine.Ask
	var recStep *engine.LogStep
	if r.rec != nil && r.rec.Next == i && i < len(r.b.Log.Steps) && !r.rec.State.Done() {
		recAsks = r.rec.State.Asks()
		recStep = &r.b.Log.Steps[i]
		if _, _, err := r.rec.Step(); err != nil {
			r.rec = nil // the original can be followed no further
		}
	} else {
		r.rec = nil
	}
	live := make([]bool, len(asks))
	outR := slices.Clone(replies)
	outL := slices.Clone(logged)
	for j, a := range asks {
		seat := a.Seat
		if r.info.Live[seat] >= 0 && r.info.Live[seat] <= i {
			live[j] = true
			continue
		}
		k := slices.IndexFunc(recAsks, func(x engine.Ask) bool { return x.Seat == seat })
		if k < 0 || recAsks[k].Input != a.Input || k >= len(recStep.Replies) {
			// The recorded reply no longer fits: from here the
			// seat's own program plays.
			r.info.Live[seat] = i
			live[j] = true
			continue
		}
		if seat == r.b.Seat {
			r.info.Warmup = append(r.info.Warmup, engine.WarmupOf(i, logged[j]))
		}
		outL[j] = recStep.Replies[k]
		outR[j] = outL[j].Reply()
	}
	// Unasked lines: the recorded ones of the seats replayed, the live
	// ones of the seats playing.
	var outN []engine.Noise
	isLive := func(seat int) bool { return r.info.Live[seat] >= 0 && r.info.Live[seat] <= i }
	if recStep != nil {
		for _, n := range recStep.Noise {
			if n.Seat >= 0 && n.Seat < len(r.info.Live) && !isLive(n.Seat) {
				outN = append(outN, n)
			}
		}
	}
	for _, n := range noise {
		if n.Seat >= 0 && n.Seat < len(r.info.Live) && isLive(n.Seat) {
			outN = append(outN, n)
		}
	}
	return outR, outL, outN, live
}

// done reports whether a probe has what it wanted after step i.
func (r *branchRun) done(i int, asks []engine.Ask) bool {
	return r.b.Probe && i >= r.b.Step && slices.ContainsFunc(asks, func(a engine.Ask) bool { return a.Seat == r.b.Seat })
}
