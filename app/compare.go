package app

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/signal"

	"ringside/engine/event"
	"ringside/engine/rating"
	"ringside/runner"
	"ringside/storage"
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
  --games N   the most games to play (default 2000)
  --elo0 X    H0: the first is at most X normalized Elo stronger (default 0)
  --elo1 X    H1: the first is at least X normalized Elo stronger (default 5)
  --alpha X, --beta X   the error rates (default 0.05 each)
  --concurrency N, --time-scale X, --opt KEY=VALUE   as for events`,
		run: runCompare,
	})
}

func runCompare(c *cli, args []string) error {
	fs := c.flags("compare")
	dbPath := dbFlag(fs)
	spec := EventSpec{Format: event.SPRT, SeedSet: false}
	opts := specFlags(fs, &spec, 2000)
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
	return withDB(*dbPath, func(db *storage.DB) error {
		ev, _, err := CreateEvent(db, spec)
		if err != nil {
			return err
		}
		job, err := NewEventJob(db, ev.ID, 0)
		if err != nil {
			return err
		}
		if isTerminal(c.stderr) {
			job.Run.OnProgress = func(p runner.Progress) { fmt.Fprint(c.stderr, "\r"+progressLine(p)+"  ") }
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		if err := job.Start(ctx); err != nil {
			return fmt.Errorf("comparison (event %d) stopped: %w", ev.ID, err)
		}
		if isTerminal(c.stderr) {
			fmt.Fprintln(c.stderr)
		}
		rep, err := compareReport(db, ev)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, CompareSentence(ev, rep))
		fmt.Fprintln(c.stdout, CompareNumbers(rep))
		if ctx.Err() != nil {
			fmt.Fprintf(c.stdout, "interrupted; go on with: ringside event resume %d%s\n", ev.ID, dbArg(*dbPath))
		}
		return nil
	})
}

func compareReport(db *storage.DB, ev storage.Event) (event.SPRTReport, error) {
	done, err := db.Outcomes(ev.ID)
	if err != nil {
		return event.SPRTReport{}, err
	}
	return event.SPRTStatus(ev.Config, done)
}

// CompareSentence says in plain words what an SPRT comparison found.
func CompareSentence(ev storage.Event, r event.SPRTReport) string {
	a, b := ev.Entries[0].Name, ev.Entries[1].Name
	games := 2 * r.Pairs
	switch r.Verdict {
	case rating.AcceptH1:
		return fmt.Sprintf("%s is stronger than %s (%.0f %% confidence, after %d games).", a, b, 100*(1-r.Test.Alpha), games)
	case rating.AcceptH0:
		if r.Test.Elo0 <= 0 {
			return fmt.Sprintf("%s is not stronger than %s (%.0f %% confidence, after %d games).", a, b, 100*(1-r.Test.Beta), games)
		}
		return fmt.Sprintf("%s is not stronger than %s by %g normalized Elo or more (%.0f %% confidence, after %d games).",
			a, b, r.Test.Elo1, 100*(1-r.Test.Beta), games)
	}
	if r.Finished {
		return fmt.Sprintf("No clear difference between %s and %s after %d games (the limit).", a, b, games)
	}
	if games == 0 {
		return fmt.Sprintf("Comparing %s with %s: no games finished yet.", a, b)
	}
	return fmt.Sprintf("No difference found yet between %s and %s after %d games.", a, b, games)
}

// CompareNumbers is the line of figures behind the sentence.
func CompareNumbers(r event.SPRTReport) string {
	return fmt.Sprintf("W/D/L %d/%d/%d · pairs %v · Elo %s · nElo %s · LOS %.1f %% · LLR %.2f (bounds %.2f … %.2f)",
		r.WDL.Wins, r.WDL.Draws, r.WDL.Losses, r.Penta, eloText(r.Elo.Elo, r.Elo.Error), eloText(r.Elo.NElo, r.Elo.NEloError),
		100*r.Elo.LOS, r.LLR, r.Lower, r.Upper)
}

func eloText(elo, err float64) string {
	if math.IsInf(elo, 0) || math.IsNaN(elo) {
		if elo > 0 {
			return "+∞"
		}
		return "−∞"
	}
	if math.IsInf(err, 0) || math.IsNaN(err) {
		return fmt.Sprintf("%+.1f", elo)
	}
	return fmt.Sprintf("%+.1f ± %.1f", elo, err)
}
