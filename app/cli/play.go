package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
)

func init() {
	register(&command{
		name: "play", usage: "--game GAME --bot CMD --bot CMD... [--seed N] [--opt KEY=VALUE]... [--replay FILE] [--time-scale X] [--pace N] [--trusted] [--limits CAPS] [--db PATH]",
		summary: "play one game and print its result as JSON",
		help: func() string {
			return `Plays one game between bot programs and prints one JSON object on stdout:

  {"game":"grip","seed":7,"turns":412,"ranks":[1,3,2,4],"reason":"last_standing",
   "seats":[{"bot":"...","verdicts":{"ok":103,"invalid":0,"timeout":0,"crashed":0,"not_asked":0}},...]}

Ranks are 1-based, one per seat in --bot order; equal ranks are ties.

` + optionsHelp(2, 18, playOptions(new(playArgs))) + `

Exit status: 0 when the game was played, whatever the bots did. A bot that
cannot be started (program not found) plays as a crashed seat while at least
one other bot runs. Status 2, with a one-line message, for bad usage: unknown
game, wrong number of bots, an unknown or malformed option, a malformed
command line, or no bot that could be started at all.`
		},
		run: runPlay,
	})
}

// checkPace refuses a --pace that is not a number of turns a second.
func checkPace(cmd string, pace float64) error {
	if !(pace >= 0) || math.IsInf(pace, 0) {
		return usagef("%s: --pace is turns a second, 0 or more (0: as fast as the bots answer), not %v", cmd, pace)
	}
	return nil
}

// playResult is the JSON that "ringside play" prints.
type playResult struct {
	Game    string       `json:"game"`
	Seed    int64        `json:"seed"`
	Turns   int          `json:"turns"`
	Ranks   []int        `json:"ranks"`
	Reason  string       `json:"reason"`
	Scores  []float64    `json:"scores,omitempty"`
	Seats   []seatResult `json:"seats"`
	Aborted string       `json:"aborted,omitempty"`
}

type seatResult struct {
	Bot      string         `json:"bot"`
	Verdicts map[string]int `json:"verdicts"`
	Note     string         `json:"note,omitempty"`
	Sandbox  string         `json:"sandbox,omitempty"` // on, partial, off, trusted
}

// playArgs are the flags of "play".
type playArgs struct {
	db, game, replay, limits string
	seed                     int64
	scale, pace              float64
	trusted                  bool
	bots, opts               listFlag
}

// playOptions are the flags of "play", declared into a and written in its
// help.
func playOptions(a *playArgs) []option {
	return []option{
		stringOption(&a.game, "game", "GAME", "", `grip, battle2048 or cloud ("ringside games" lists them with options)`, required),
		listOption(&a.bots, "bot", "CMD", "one per seat, in seat order. A command line, split like a shell splits words (quotes honoured) but never run through a shell; builtin:GAME/NAME runs a built-in bot, e.g. builtin:grip/greedy; a registered AI's name (alice, or alice@r3 for revision 3) plays its current (or that) revision",
			required+": one per seat"),
		stringOption(&a.db, "db", "PATH", "", "where to look up AI names", `"ringside help db"`),
		int64Option(&a.seed, "seed", "N", 0, "the game seed", "random, printed in the result"),
		listOption(&a.opts, "opt", "KEY=VALUE", "a game option, repeatable (e.g. --opt turn_ms=200)", "the game's own"),
		stringOption(&a.replay, "replay", "FILE", "", "also write the full replay JSON to FILE", "none"),
		floatOption(&a.scale, "time-scale", "X", event.DefaultTimeScale, "multiply every time limit by X (slow machines)"),
		floatOption(&a.pace, "pace", "N", 0, "play at most N turns a second, to watch fast bots (the wait is between turns: the bots' time limits are not touched)",
			service.DefaultPaceWords),
		boolOption(&a.trusted, "trusted", `run the bots without the sandbox, with your rights, files and environment (docs/sandbox.md); each seat's "sandbox" says how it ran: on, partial, off (this system has none) or trusted`),
		stringOption(&a.limits, "limits", "CAPS", "", `the sandbox's caps for every bot, e.g. "memory=1G cpu=5m" (keys: memory, processes, cpu, filesize, scratch, files)`,
			service.DefaultLimitsText()),
	}
}

func runPlay(c *cli, args []string) error {
	fs := c.flags("play")
	var a playArgs
	declare(fs, playOptions(&a))
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("play: unexpected argument %q (bots go in --bot)", fs.Arg(0))
	}
	if a.game == "" {
		return usagef("play: --game is required (one of %s)", service.GameIDs())
	}
	g, err := games.Get(a.game)
	if err != nil {
		return usageError{err.Error()}
	}
	options, err := parseOpts(a.opts)
	if err != nil {
		return err
	}
	if a.scale <= 0 {
		return usagef("play: --time-scale must be above 0, got %v", a.scale)
	}
	if err := checkPace("play", a.pace); err != nil {
		return err
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seed" {
			seedSet = true
		}
	})
	if !seedSet {
		a.seed = rand.Int64N(1 << 31)
	}
	m := runner.Match{Game: g, Options: options, Seed: a.seed, TimeScale: a.scale, Pace: a.pace,
		Sandbox: runner.Sandbox{Trusted: a.trusted}}
	if a.limits != "" {
		l, err := runner.ParseLimits(a.limits, runner.DefaultLimits)
		if err != nil {
			return usagef("play: --limits: %v", err)
		}
		m.Sandbox.Limits = &l
	}
	for _, b := range a.bots {
		bot, err := service.PlayBot(a.db, b, g.Info().ID)
		if err != nil {
			return err
		}
		m.Bots = append(m.Bots, bot)
	}
	if service.NeedsConsent(m.Sandbox, m.Bots) {
		// A weak sandbox runs students' programs only with the
		// teacher's consent, kept beside the database.
		if err := withService(a.db, func(s *service.Service) error { return s.CheckPlay(m.Sandbox, m.Bots) }); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out, err := runner.Play(ctx, m)
	if err != nil {
		return usageError{err.Error()}
	}
	if a.replay != "" {
		if err := writeReplay(a.replay, out.Log); err != nil {
			return err
		}
	}
	for _, w := range containmentWarnings(out) {
		fmt.Fprintln(c.stderr, "ringside: warning: "+w)
	}
	res := resultJSON(out)
	enc := json.NewEncoder(c.stdout)
	return enc.Encode(res)
}

// containmentWarnings say, one line a seat, which seats' bots ran without
// the full sandbox (its "sandbox" in the JSON is "partial" or
// "trusted"), and what they lacked: a person reading the terminal sees it
// without reading the JSON.
func containmentWarnings(out *runner.Outcome) []string {
	var lines []string
	for i, level := range out.Sandbox {
		name := ""
		if i < len(out.Log.Players) {
			name = service.Visible(out.Log.Players[i])
		}
		switch level {
		case "partial":
			missing := ""
			if i < len(out.SandboxMissing) {
				missing = out.SandboxMissing[i]
			}
			if missing == "" {
				missing = "see \"ringside ai check\" for what this machine lacks"
			}
			lines = append(lines, fmt.Sprintf("seat %d (%s) ran without full containment: %s", i, name, missing))
		case "off":
			lines = append(lines, fmt.Sprintf("seat %d (%s) ran with no sandbox: this system has none, so it had your rights, files and network (docs/sandbox.md)", i, name))
		case "trusted":
			lines = append(lines, fmt.Sprintf("seat %d (%s) ran trusted: without the sandbox, with your rights, files and environment", i, name))
		}
	}
	return lines
}

// resultJSON turns an outcome into the JSON "ringside play" prints.
func resultJSON(out *runner.Outcome) playResult {
	r := out.Log.Result
	res := playResult{Game: out.Log.Game, Seed: out.Log.Seed, Turns: r.Turns, Ranks: r.Ranks,
		Reason: r.Reason, Scores: r.Scores, Aborted: out.Log.Aborted}
	for i, name := range out.Log.Players {
		v := map[string]int{}
		for _, verdict := range engine.Verdicts {
			v[verdict.String()] = out.Verdicts[i][verdict]
		}
		res.Seats = append(res.Seats, seatResult{Bot: name, Verdicts: v, Note: out.Notes[i], Sandbox: out.Sandbox[i]})
	}
	return res
}

// parseOpts reads KEY=VALUE options.
func parseOpts(opts []string) (engine.Options, error) {
	o := engine.Options{}
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, usagef("option %q: write KEY=VALUE, e.g. --opt turn_ms=200", kv)
		}
		if _, dup := o[k]; dup {
			return nil, usagef("option %s given twice", k)
		}
		o[k] = v
	}
	return o, nil
}
