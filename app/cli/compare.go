package cli

import (
	"fmt"

	"ringside/app/service"
	"ringside/engine/event"
)

func init() {
	register(&command{
		name: "compare", usage: "--game G --entry A --entry B [--filler F]... [--test classroom|sprt] [--games N] [--seed N] [--p1 X] [--elo0 X] [--elo1 X] [--alpha X] [--beta X] [--db PATH]",
		summary: "find out whether one bot (or revision) is stronger than another",
		help: func() string {
			return `Plays groups of games between two entries on one seed each until a
sequential test decides, or --games are played, and answers in plain words,
e.g. "alice@r7 is stronger than alice@r6 (it finished ahead in 8 of 8 decided
groups of games; after 16 games)" or "no clear difference". The games are an
SPRT event in the database, so "ringside event resume ID" goes on with an
interrupted comparison.

A group is a seat-swapped pair in a two-player game. In a game of more seats
(Grip, or Cloud with --seats) the two play in the same games with fillers in
the other seats, each of the two in every seat equally often and as often
just after the other as just before; what counts is who of the two finished
ahead. A group counts for the one that finished ahead in more of its games.

` + optionsHelp(2, 18, compareOptions(new(compareArgs))) + "\n" + dbHelp()
		},
		run: runCompare,
	})
}

// compareArgs is what "compare" reads: the spec, from the service's
// defaults, and the flags parsed into it afterwards.
type compareArgs struct {
	spec                  service.EventSpec
	entries, fillers, opt listFlag
}

// compareOptions are the flags of "compare", declared into a (whose spec
// starts as service.DefaultCompareSpec) and written in its help.
func compareOptions(a *compareArgs) []option {
	a.spec = service.DefaultCompareSpec()
	sp := &a.spec
	opts := []option{
		listOption(&a.entries, "entry", "E", "twice: NAME=COMMAND, builtin:GAME/NAME, an AI's name (its current revision) or AI@rN (its revision N); the first is the one under test", required+": two"),
		stringOption(&sp.Game, "game", "G", "", `the game ("ringside games" lists them)`, required),
		listOption(&a.fillers, "filler", "F", "a bot for the other seats of games of more than two players, repeatable, used in turn", "the game's built-in bots"),
		intOption(&sp.Seats, "seats", "N", 0, "players per game", "the game's fewest"),
		int64Option(&sp.Seed, "seed", "N", 0, "the master seed of the games", service.DefaultSeedWords),
		stringOption(&sp.Test, "test", "T", sp.Test, `classroom decides an obvious difference in a few games and says "stronger", "weaker" or "no clear difference"; the chance of calling equal bots different is at most alpha each way, of missing a difference of p1 at most beta. sprt: the chess engines' test on normalized Elo (--elo0, --elo1), for small differences; needs hundreds of games`),
		intOption(&sp.Games, "games", "N", 0, "the most games to play", fmt.Sprintf("%d for classroom, %d for sprt", event.DefaultClassroomGames, event.DefaultSPRTGames)),
		floatOption(&sp.P1, "p1", "X", sp.P1, `classroom: "stronger" means finishing ahead in at least this share of the decided groups`),
	}
	opts = append(opts, sprtOptions(sp)...)
	return append(opts,
		intOption(&sp.Concurrency, "concurrency", "N", 0, "games at once", service.DefaultConcurrencyWords),
		floatOption(&sp.TimeScale, "time-scale", "X", sp.TimeScale, "multiply every time limit by X"),
		listOption(&a.opt, "opt", "KEY=VALUE", "a game option (repeatable)", "the game's own"),
		boolOption(&sp.Trusted, "trusted", "run every bot without the sandbox (docs/sandbox.md)"),
		stringOption(&sp.Limits, "limits", "CAPS", "", "the sandbox's caps for every bot (an AI's own --limits win)", service.DefaultLimitsText()),
	)
}

func runCompare(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("compare")
	var a compareArgs
	declare(fs, compareOptions(&a))
	spec := &a.spec
	if err := parse(fs, args); err != nil {
		return err
	}
	spec.SeedSet = isSet(fs, "seed")
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q (entries go in --entry)", fs.Arg(0))
	}
	if len(a.entries) != 2 {
		return usagef("compare: give exactly two --entry (the one under test first)")
	}
	if spec.Test != event.TestClassroom && spec.Test != event.TestElo {
		return usagef("compare: --test %q: write classroom or sprt", spec.Test)
	}
	spec.Entries, spec.Fillers = a.entries, a.fillers
	var err error
	if spec.Options, err = parseOpts(a.opt); err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		ev, _, err := s.CreateEvent(*spec)
		if err != nil {
			return err
		}
		job, err := s.EventJob(ev.ID, 0)
		if err != nil {
			return err
		}
		paused, err := c.play(job, false)
		if err != nil {
			return fmt.Errorf("comparison (event %d) stopped: %w", ev.ID, err)
		}
		rep, err := s.CompareReport(ev)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, service.CompareSentence(ev, rep))
		fmt.Fprintln(c.stdout, service.CompareNumbers(rep))
		if paused {
			fmt.Fprintf(c.stdout, "interrupted; go on with: ringside event resume %d%s\n", ev.ID, dbArg(*dbPath))
		}
		return nil
	})
}
