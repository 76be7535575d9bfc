package cli

import (
	"fmt"

	"ringside/app/service"
	"ringside/engine/event"
	"ringside/engine/rating"
)

func init() {
	register(&command{
		name: "compare", usage: "--game G --entry A --entry B [--filler F]... [--test classroom|sprt] [--games N] [--seed N] [--p1 X] [--elo0 X] [--elo1 X] [--alpha X] [--beta X] [--db PATH]",
		summary: "find out whether one bot (or revision) is stronger than another",
		help: `Plays groups of games between two entries on one seed each until a
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

  --entry E    twice: NAME=COMMAND, builtin:GAME/NAME, an AI's name (its
               current revision) or AI@rN (its revision N); the first is the
               one under test
  --filler F   a bot for the other seats of games of more than two players,
               repeatable, used in turn (default: the game's built-in bots)
  --seats N    players per game (default: the game's fewest)
  --seed N     the master seed of the games (default: random)
  --test T     classroom (default): decides an obvious difference in a few
               games and says "stronger", "weaker" or "no clear difference";
               the chance of calling equal bots different is at most alpha
               each way, of missing a difference of p1 at most beta.
               sprt: the chess engines' test on normalized Elo (--elo0,
               --elo1), for small differences; needs hundreds of games
  --games N    the most games to play (default ` + fmt.Sprint(event.DefaultClassroomGames) + ` for classroom, ` + fmt.Sprint(event.DefaultSPRTGames) + ` for sprt)
  --p1 X       classroom: "stronger" means finishing ahead in at least this
               share of the decided groups (default ` + fmt.Sprint(rating.DefaultClassroomP1) + `)
  --elo0 X     sprt H0: the first is at most X normalized Elo stronger (default ` + fmt.Sprint(event.DefaultElo0) + `)
  --elo1 X     sprt H1: the first is at least X normalized Elo stronger (default ` + fmt.Sprint(event.DefaultElo1) + `)
  --alpha X, --beta X   the error rates (default ` + fmt.Sprint(event.DefaultAlpha) + ` each)
  --concurrency N, --time-scale X, --opt KEY=VALUE, --trusted, --limits CAPS
                    as for events`,
		run: runCompare,
	})
}

func runCompare(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("compare")
	spec := service.EventSpec{Format: event.SPRT}
	opts := specFlags(fs, &spec, 0)
	var entries, fillers listFlag
	fs.Var(&entries, "entry", "")
	fs.Var(&fillers, "filler", "")
	fs.IntVar(&spec.Seats, "seats", 0, "")
	fs.StringVar(&spec.Test, "test", event.TestClassroom, "")
	fs.Float64Var(&spec.P1, "p1", rating.DefaultClassroomP1, "")
	fs.Int64Var(&spec.Seed, "seed", 0, "")
	if err := parse(fs, args); err != nil {
		return err
	}
	spec.SeedSet = isSet(fs, "seed")
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q (entries go in --entry)", fs.Arg(0))
	}
	if len(entries) != 2 {
		return usagef("compare: give exactly two --entry (the one under test first)")
	}
	if spec.Test != event.TestClassroom && spec.Test != event.TestElo {
		return usagef("compare: --test %q: write classroom or sprt", spec.Test)
	}
	spec.Entries, spec.Fillers = entries, fillers
	var err error
	if spec.Options, err = parseOpts(*opts); err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		ev, _, err := s.CreateEvent(spec)
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
