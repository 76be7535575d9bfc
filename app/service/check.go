package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/engine/grip"
	"ringside/runner"
	"ringside/storage"
)

// CheckOptions tune an AI's check game.
type CheckOptions struct {
	Seed      int64          // 0 means 1
	TimeScale float64        // 0 means 1
	Options   engine.Options // game options on top of the check's short game
	Timeout   time.Duration  // for the build; 0: the default
}

// CheckResult is what checking an AI found: how its build went and, when
// it built, what it did in short games against built-in bots.
type CheckResult struct {
	Build BuildOutcome
	// BuildErr is set when the build could not run at all (no folder).
	BuildErr error
	// Revision is the revision that played the check game: the one that
	// plays in events from now on.
	Revision storage.Revision
	// Report is the last check game's, or the first that failed; nil
	// when it did not build.
	Report *runner.CheckReport
	// Games and Answers are how many check games were played and how
	// many answers the AI gave in them, all told; Starved how many more
	// came late while it waited for a CPU on a busy machine (not held
	// against it).
	Games, Answers, Starved int
	// Sandbox is how the check game's bots were contained, in one line;
	// SandboxReport is the whole report behind it (SandboxReport).
	Sandbox, SandboxReport string
	// Warnings are things that do not fail the check but look wrong: a
	// Grip bot that keeps walking into moves that go nowhere probably
	// reads its position the wrong way round.
	Warnings []CheckWarning
}

// CheckWarning is something a check saw that looks wrong without failing
// it, and the AI's game options that would probably put it right.
type CheckWarning struct {
	Text string
	// Option is the option change to try ("coords=xy"; "coords=" removes
	// it), "" when there is none.
	Option string
}

// Passed reports whether the AI builds and its check game went well.
func (r CheckResult) Passed() bool {
	return r.BuildErr == nil && !r.Build.Failed() && r.Report != nil && r.Report.OK()
}

// Check builds an AI if its sources changed, then plays its current
// revision in short games against the game's random built-in bots (until
// it has answered checkAnswers times) and
// reports whether it starts, does its handshake, answers in time and
// answers validly, with the first problem of each kind. The error is for
// a check that could not run; a failing AI is a result that did not pass.
func (s *Service) Check(ctx context.Context, id int64, opt CheckOptions) (CheckResult, error) {
	out, err := s.Build(ctx, id, BuildOptions{Timeout: opt.Timeout})
	res := CheckResult{Build: out, BuildErr: err}
	if err != nil {
		if ErrorCode(err) == NotFound {
			return res, err
		}
		return res, nil
	}
	if out.Failed() {
		return res, nil
	}
	ai := out.AI
	g, err := games.Get(ai.Game)
	if err != nil {
		return res, wrap(Invalid, err, "check %s", ai.Name)
	}
	if _, err := CheckAIOptions(ai.Game, ai.Options); err != nil {
		// Saved options are checked, so only another program (or a game
		// that changed) leaves options like these.
		return res, (Errorf(Invalid, "%s's game options %q: %v", ai.Name, ai.Options, err)).withFix(FixEdit, ai.Name)
	}
	rev, err := s.currentRevision(ai)
	if err != nil {
		return res, err
	}
	if rev, err = s.verifiedRevision(ai, rev); err != nil {
		return res, err
	}
	res.Revision = rev
	// One probe (it starts a launcher) for the line and the report.
	res.SandboxReport = SandboxReport(runner.Sandbox{Trusted: ai.Trusted})
	res.Sandbox, _, _ = strings.Cut(res.SandboxReport, "\n")
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	// Games on new seeds until the AI has answered checkAnswers times: a
	// bot late on 1 turn in 40 answered in time all through one short
	// game about half the time (it passed the app's Check 3 times of 5).
	var first *runner.CheckReport
	for res.Games < checkGames && (res.Games == 0 || res.Answers < checkAnswers) {
		bot := EntryBot(revisionEntry(ai, rev), runner.DefaultLimits)
		bot.ShownDir = ai.SourceDir
		m := preflightMatch(g, bot, seed+int64(res.Games), opt.Options)
		m.TimeScale = opt.TimeScale
		rep, err := runner.Preflight(ctx, m, 0)
		if err != nil {
			return res, wrap(Failed, err, "check %s", ai.Name)
		}
		res.Report = rep
		if first == nil {
			first = rep
		}
		res.Games++
		res.Answers += rep.Answers
		res.Starved += rep.Starved
		if !rep.OK() || rep.Answers == 0 {
			break // the first problem is the one to fix
		}
	}
	// The first game (its seed the one asked for) judges confusion: the
	// heuristic was tuned on one game, and an AI that reads its position
	// right can wander into edges in some other game.
	if w, ok := confusion(ai, first); ok {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// checkAnswers is how many answers a Check waits for, over as many
// games as it takes (at most checkGames): with 120, a bot late once in 40
// turns is caught 19 times in 20, (39/40)^120 being 5%.
const (
	checkAnswers = 120
	checkGames   = 8
)

// PlayedWords says how much a check played, the same in the app and "ai
// check": "3 games against built-in random bots, 150 answers; in the
// last it finished 1st of 4", or where the problem came ("…; the problem
// came in game 3").
func (r CheckResult) PlayedWords() string {
	if r.Report == nil || r.Games == 0 {
		return ""
	}
	s := fmt.Sprintf("%s against built-in random bots, %s", plural(r.Games, "game", "games"), plural(r.Answers, "answer", "answers"))
	if r.Starved > 0 {
		s += fmt.Sprintf(" (and %d late while the machine was busy, not counted)", r.Starved)
	}
	if !r.Report.OK() {
		return s + fmt.Sprintf("; the problem came in game %d", r.Games)
	}
	if r.Report.Rank > 0 {
		last := "in the last"
		if r.Games == 1 {
			last = "in it"
		}
		s += fmt.Sprintf("; %s it finished %s of %d", last, Ordinal(r.Report.Rank), r.Report.Seats)
	}
	return s
}

// confusion says why an AI's check game looks like a bot that misreads
// the protocol, with the option that would fix that.
func confusion(ai storage.AI, rep *runner.CheckReport) (CheckWarning, bool) {
	if ai.Game != "grip" || rep.Log == nil {
		return CheckWarning{}, false
	}
	moves, cancelled, err := grip.MoveStats(rep.Log, 0)
	if err != nil || !grip.Confused(moves, cancelled) {
		return CheckWarning{}, false
	}
	w := CheckWarning{Option: "coords=xy"}
	reads, other := "row column (the rule text's order)", "x y"
	if strings.Contains(ai.Options, "coords=xy") {
		w.Option = "coords="
		reads, other = "x y (coords=xy, the 2015 referee's order)", "row column"
	}
	w.Text = fmt.Sprintf("looks confused: %d of its %d moves went nowhere (off the board, into a fallen block or next to another player). "+
		"It is sent its position as %s; a bot that reads %s walks into the edge like this.", cancelled, moves, reads, other)
	return w, true
}

// preflightMatch is a short game with the bot in seat 0 and the game's
// random built-in bots in the other seats.
func preflightMatch(g engine.Game, bot runner.Bot, seed int64, extra engine.Options) runner.Match {
	info := g.Info()
	opts := engine.Options{}
	for _, o := range info.Options {
		switch o.Key {
		case "max_turns": // Grip: global turns, 4 per round
			// 50 turns of its own: long enough for a bot that misreads
			// its position to reach an edge and keep bumping into it.
			opts[o.Key] = "200"
		case "rounds", "turns":
			opts[o.Key] = "30"
		}
	}
	for k, v := range extra {
		opts[k] = v
	}
	m := runner.Match{Game: g, Options: opts, Seed: seed, Bots: []runner.Bot{bot}}
	opponent := "random"
	if bots := g.Bots(); len(bots) > 0 && !slices.Contains(bots, opponent) {
		opponent = bots[0]
	}
	for len(m.Bots) < info.MinSeats {
		m.Bots = append(m.Bots, runner.Bot{Name: "random", Command: fmt.Sprintf("%s%s/%s", runner.BuiltinPrefix, info.ID, opponent)})
	}
	return m
}
