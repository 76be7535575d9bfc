package service

import (
	"context"
	"errors"
	"os/exec"
	"strings"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// BranchSpec asks for a branch of a stored game: re-play it to just before
// Turn, then let Bot play Seat from there (runner.Branch says how the
// other seats go on).
type BranchSpec struct {
	Match int64
	Turn  int
	Seat  int    // 0-based, as in the replay's steps
	Bot   string // a command line, builtin:GAME/NAME, a registered AI's name or NAME@rN
	// Trusted runs Bot without the sandbox; the other seats run as the
	// event ran them.
	Trusted bool
	// Probe stops once Bot has answered its first input at Turn or later:
	// "what would it answer here?" (runner.Branch.Probe).
	Probe bool
	// Step, when set, is the step (an index into the replay's steps) to
	// branch at, instead of the first step of Turn.
	Step *int
	// OnStep, when set, is called after each step of the branch.
	OnStep func(index int)
}

// Branch plays a branch of a stored game and returns its outcome; the
// outcome's log says where it branched (engine.Log.Branch). The other
// seats play the programs of the event's entries, with the event's
// sandbox settings and time multiplier.
func (s *Service) Branch(ctx context.Context, spec BranchSpec) (*runner.Outcome, error) {
	m, err := s.db.Match(spec.Match)
	if err != nil {
		return nil, err
	}
	if m.Status != storage.MatchDone {
		return nil, Errorf(Invalid, "game %d is %s: only a finished game can be branched", spec.Match, m.Status)
	}
	log, err := s.db.Replay(spec.Match)
	if err != nil {
		return nil, err
	}
	ev, err := s.db.Event(m.EventID)
	if err != nil {
		return nil, err
	}
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, wrap(Invalid, err, "game %d", spec.Match)
	}
	var step int
	if spec.Step != nil {
		step = *spec.Step
		err = runner.CheckBranchAt(g, log, step, spec.Seat)
		if err == nil {
			spec.Turn = branchTurn(g, log, step)
		}
	} else {
		step, err = runner.BranchStep(g, log, spec.Turn, spec.Seat)
	}
	if err != nil {
		return nil, Errorf(Invalid, "branch game %d: %v", spec.Match, err)
	}
	sb, base, err := eventSandbox(ev)
	if err != nil {
		return nil, err
	}
	if len(m.Game.Seats) != len(log.Players) {
		return nil, Errorf(Failed, "game %d has %d seats but its replay %d players", spec.Match, len(m.Game.Seats), len(log.Players))
	}
	bots := make([]runner.Bot, len(m.Game.Seats))
	for seat, entry := range m.Game.Seats {
		if entry < 0 || entry >= len(ev.Entries) {
			return nil, Errorf(Failed, "game %d seats entry %d, which event %d does not have", spec.Match, entry, ev.ID)
		}
		bots[seat] = EntryBot(ev.Entries[entry], base)
		s.showSources(ev.Entries[entry:entry+1], bots[seat:seat+1])
	}
	bot, err := s.commandBot(spec.Bot, log.Game, base)
	if err != nil {
		return nil, err
	}
	bot.Trusted = bot.Trusted || spec.Trusted
	bots[spec.Seat] = bot
	rm := runner.Match{Game: g, Bots: bots, TimeScale: ev.TimeScale, Sandbox: sb, PlayWithoutBots: true,
		Branch: &runner.Branch{Log: log, Match: spec.Match, Turn: spec.Turn, Step: step, Seat: spec.Seat, Probe: spec.Probe}}
	if spec.OnStep != nil {
		rm.OnStep = func(i int, _ engine.State, _ engine.Step) { spec.OnStep(i) }
	}
	out, err := runner.Play(ctx, rm)
	if err != nil {
		return nil, wrap(Failed, err, "branch game %d", spec.Match)
	}
	return out, nil
}

// commandBot is the bot a person named for one seat: a program on PATH or
// a command line as is, a built-in bot, or a registered AI's name (its
// current revision) or NAME@rN.
func (s *Service) commandBot(spec, game string, base sandbox.Limits) (runner.Bot, error) {
	word := strings.TrimSpace(spec)
	if word == "" {
		return runner.Bot{}, Errorf(Invalid, "say who plays the seat: a command, builtin:%s/NAME, a registered AI or NAME@rN", game)
	}
	if strings.HasPrefix(word, runner.BuiltinPrefix) {
		e, err := s.ResolveEntry(word, game)
		if err != nil {
			return runner.Bot{}, err
		}
		return EntryBot(e, base), nil
	}
	if !strings.ContainsAny(word, " \t/=") {
		if _, err := exec.LookPath(word); err != nil {
			name, _, _ := strings.Cut(word, "@")
			if _, err := s.db.AIByName(name); err == nil || !errors.Is(err, storage.ErrNotFound) {
				e, err := s.ResolveEntry(word, game)
				if err != nil {
					return runner.Bot{}, err
				}
				return EntryBot(e, base), nil
			}
		}
	}
	if _, err := runner.Split(word); err != nil {
		return runner.Bot{}, Errorf(Invalid, "bot %q: %v", word, err)
	}
	return runner.Bot{Name: word, Command: word}, nil
}

// branchTurn is the game's turn at step of log (checked to re-play).
func branchTurn(g engine.Game, log *engine.Log, step int) int {
	sim, err := engine.NewSim(g, log)
	if err != nil {
		return 0
	}
	for range step {
		if _, _, err := sim.Step(); err != nil {
			return 0
		}
	}
	return sim.State.Turn()
}

// PlayerNames is who played each seat of log. A branch's log keeps the
// original game's names (the game may tell them to the bots, so a re-play
// needs them), but from Branch.Step its seat was played by Branch.Bot:
// that is the name a person must read for it.
func PlayerNames(log *engine.Log) []string {
	names := append([]string(nil), log.Players...)
	if b := log.Branch; b != nil && b.Seat >= 0 && b.Seat < len(names) && b.Bot != "" {
		names[b.Seat] = b.Bot
	}
	return names
}
