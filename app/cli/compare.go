package cli

import (
	"fmt"

	"ringside/app/service"
	"ringside/engine/event"
)

func init() {
	register(&command{
		name: "compare", usage: "--game G --entry A --entry B [--games N] [--elo0 X] [--elo1 X] [--alpha X] [--beta X] [--db PATH]",
		summary: "find out whether one bot (or revision) is stronger than another",
		help: `Plays seat-swapped pairs of games between two entries until a sequential
probability ratio test (SPRT) decides, or --games are played, and answers in
plain words, e.g. "alice r7 is stronger than alice r6 (95 % confidence, after
240 games)" or "no difference found yet". The games are an SPRT event in the
database, so "ringside event resume ID" goes on with an interrupted comparison.

  --entry E   twice: NAME=COMMAND, builtin:GAME/NAME, an AI's name (its
              current revision) or AI@rN (its revision N); the first is the
              one under test
  --games N   the most games to play (default ` + fmt.Sprint(event.DefaultSPRTGames) + `)
  --elo0 X    H0: the first is at most X normalized Elo stronger (default ` + fmt.Sprint(event.DefaultElo0) + `)
  --elo1 X    H1: the first is at least X normalized Elo stronger (default ` + fmt.Sprint(event.DefaultElo1) + `)
  --alpha X, --beta X   the error rates (default ` + fmt.Sprint(event.DefaultAlpha) + ` each)
  --concurrency N, --time-scale X, --opt KEY=VALUE, --trusted, --limits CAPS
                    as for events`,
		run: runCompare,
	})
}

func runCompare(c *cli, args []string) error {
	fs := c.flags("compare")
	dbPath := dbFlag(fs)
	spec := service.EventSpec{Format: event.SPRT}
	opts := specFlags(fs, &spec, event.DefaultSPRTGames)
	var entries listFlag
	fs.Var(&entries, "entry", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(entries) != 2 {
		return usagef("compare: give exactly two --entry (the one under test first)")
	}
	spec.Entries = entries
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
