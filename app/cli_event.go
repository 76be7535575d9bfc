package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

const eventHelp = `Events are tournaments stored in the database: their whole schedule, every
result and every replay. Commands:

  ringside event create --game G --format F --entry E... [options]
      Creates an event and prints its id. Formats: league (everyone plays
      everyone), bracket (single elimination), gauntlet (candidates against a
      field), swiss (rounds paired by score), sprt (two entries until the
      sequential test decides). An entry is NAME=COMMAND, a built-in bot
      (builtin:grip/greedy) or the name of a registered AI (its current
      revision). Options:
        --name NAME        a name for the event
        --games N          league/gauntlet: seeds per pairing or group, each
                           played in every seat arrangement; bracket: best of N;
                           swiss: rounds; sprt: the most games to play
        --seats N          players per game (games with a variable count)
        --filler E         a bot to fill empty seats (repeatable; not ranked)
        --candidate NAME   gauntlet: an entry under test (repeatable)
        --elo0 X --elo1 X --alpha X --beta X
                           sprt: the hypotheses in normalized Elo and the
                           error rates (defaults 0, 5, 0.05, 0.05)
        --seed N           the master seed (default: random)
        --opt KEY=VALUE    a game option (repeatable)
        --concurrency N    games at once (default: cores − 1)
        --time-scale X     multiply every time limit by X
  ringside event run ID [--concurrency N]
      Plays the event's games until it is finished. Every finished game is
      saved at once; Ctrl-C (or a crash) loses only the games in play.
  ringside event resume ID [--concurrency N]
      Goes on with an interrupted or paused event; nothing finished is played
      again, unfinished games are replayed from their stored seed.
  ringside event list
  ringside event show ID             the schedule with each game's status
  ringside event standings ID [--json|--csv|--md]

Every event command takes --db PATH.`

func init() {
	register(&command{
		name: "event", usage: "create|run|resume|list|show|standings ...", summary: "create, run and resume tournaments; print standings",
		help: eventHelp, run: runEvent,
	})
	register(&command{
		name: "replay", usage: "export MATCH_ID [--out FILE] [--db PATH]", summary: "export a stored game's replay as JSON",
		help: `ringside replay export MATCH_ID writes the replay of a stored game as JSON
(game, options, seed, players, start, and per turn for each seat asked: the
exact input sent, the raw reply, the action taken, the verdict, the time used
and the stderr excerpt; the timeline events; the result). The game is
re-simulated from its stored replies. Match ids are listed by
"ringside event show ID". --out FILE writes to a file instead of stdout.`,
		run: runReplay,
	})
}

func runEvent(c *cli, args []string) error {
	if len(args) == 0 {
		return usagef("event: say what to do: create, run, resume, list, show or standings (see \"ringside help event\")")
	}
	switch args[0] {
	case "create":
		return eventCreate(c, args[1:])
	case "run", "resume":
		return eventRun(c, args[0], args[1:])
	case "list":
		return eventList(c, args[1:])
	case "show":
		return eventShow(c, args[1:])
	case "standings":
		return eventStandings(c, args[1:])
	}
	return usagef("event: unknown subcommand %q (create, run, resume, list, show, standings)", args[0])
}

// parseInterleaved parses flags that may come before or after positional
// arguments ("event run 3 --db x" and "event run --db x 3").
func parseInterleaved(fs interface {
	Parse([]string) error
	Args() []string
	Name() string
}, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%s: %v (see \"ringside help event\")", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// eventID parses fs's flags around the one event id the command takes;
// fs's name starts its usage errors.
func eventID(fs *flag.FlagSet, args []string) (int64, error) {
	args, err := parseInterleaved(fs, args)
	if err != nil {
		return 0, err
	}
	what := fs.Name()
	if len(args) != 1 {
		return 0, usagef("%s: give one event id (\"ringside event list\" shows them)", what)
	}
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || id <= 0 {
		return 0, usagef("%s: %q is not an event id (\"ringside event list\" shows them)", what, args[0])
	}
	return id, nil
}

func eventCreate(c *cli, args []string) error {
	fs := c.flags("event create")
	dbPath := dbFlag(fs)
	var spec EventSpec
	opts := specFlags(fs, &spec, 0)
	format := fs.String("format", "league", "")
	fs.StringVar(&spec.Name, "name", "", "")
	fs.IntVar(&spec.Seats, "seats", 0, "")
	fs.Int64Var(&spec.Seed, "seed", 0, "")
	var entries, fillers, cands listFlag
	fs.Var(&entries, "entry", "")
	fs.Var(&fillers, "filler", "")
	fs.Var(&cands, "candidate", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("event create: unexpected argument %q (entries go in --entry)", pos[0])
	}
	spec.Format = event.Format(*format)
	spec.Entries, spec.Fillers, spec.Candidates = entries, fillers, cands
	fs.Visit(func(f *flag.Flag) { spec.SeedSet = spec.SeedSet || f.Name == "seed" })
	if spec.Options, err = parseOpts(*opts); err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ev, scheduled, err := CreateEvent(db, spec)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d: %s, %d entries, %d games scheduled so far (seed %d)\n",
			ev.ID, ev.Name, len(ev.Entries), scheduled, ev.Config.Seed)
		fmt.Fprintf(c.stdout, "run it with: ringside event run %d%s\n", ev.ID, dbArg(*dbPath))
		return nil
	})
}

// specFlags adds to fs the flags that "event create" and "compare" share:
// the game, --games (default games), the SPRT hypotheses and error rates,
// concurrency and time scale. It returns the --opt values.
func specFlags(fs *flag.FlagSet, spec *EventSpec, games int) *listFlag {
	fs.StringVar(&spec.Game, "game", "", "")
	fs.IntVar(&spec.Games, "games", games, "")
	fs.Float64Var(&spec.Elo0, "elo0", 0, "")
	fs.Float64Var(&spec.Elo1, "elo1", 5, "")
	fs.Float64Var(&spec.Alpha, "alpha", 0.05, "")
	fs.Float64Var(&spec.Beta, "beta", 0.05, "")
	fs.IntVar(&spec.Concurrency, "concurrency", 0, "")
	fs.Float64Var(&spec.TimeScale, "time-scale", 1, "")
	opts := new(listFlag)
	fs.Var(opts, "opt", "")
	return opts
}

func dbArg(p string) string {
	if p == "" {
		return ""
	}
	return " --db " + shellQuote(p)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func eventRun(c *cli, verb string, args []string) error {
	fs := c.flags("event " + verb)
	dbPath := dbFlag(fs)
	conc := fs.Int("concurrency", 0, "")
	quiet := fs.Bool("quiet", false, "")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		job, err := NewEventJob(db, id, *conc)
		if err != nil {
			return err
		}
		if job.Event.Status == storage.EventFinished {
			fmt.Fprintf(c.stdout, "event %d is already finished\n", id)
			return printStandings(c.stdout, db, job.Event, "text")
		}
		showProgress := !*quiet && isTerminal(c.stderr)
		if showProgress {
			job.Run.OnProgress = func(p runner.Progress) { fmt.Fprint(c.stderr, "\r"+progressLine(p)+"  ") }
		}
		fmt.Fprintf(c.stdout, "event %d: %s\n", id, sandboxSummary(job.Run.Sandbox))
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		err = job.Start(ctx)
		if showProgress {
			fmt.Fprintln(c.stderr)
		}
		if err != nil {
			return fmt.Errorf("event %d stopped: %w; fix the problem and run \"ringside event resume %d\"", id, err, id)
		}
		if ctx.Err() != nil {
			fmt.Fprintf(c.stdout, "event %d paused; go on with: ringside event resume %d%s\n", id, id, dbArg(*dbPath))
			return nil
		}
		ev, err := db.Event(id)
		if err != nil {
			return err
		}
		return printStandings(c.stdout, db, ev, "text")
	})
}

// progressLine is the one-line progress of a running event.
func progressLine(p runner.Progress) string {
	const width = 24
	filled := 0
	if p.Scheduled > 0 {
		filled = width * p.Done / p.Scheduled
	}
	s := fmt.Sprintf("[%s%s] %d/%d games", strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.Done, p.Scheduled)
	if p.Running > 0 {
		s += fmt.Sprintf(", %d running", p.Running)
	}
	if p.Left > 0 {
		s += ", about " + p.Left.Round(time.Second).String() + " left"
	}
	if p.Paused {
		s += " (paused)"
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func eventList(c *cli, args []string) error {
	fs := c.flags("event list")
	dbPath := dbFlag(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("event list takes no arguments")
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		evs, err := db.ListEvents()
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			fmt.Fprintln(c.stdout, "no events yet: create one with \"ringside event create\"")
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tGAME\tFORMAT\tENTRIES\tGAMES\tSTATUS")
		for _, ev := range evs {
			done, all, err := db.MatchCounts(ev.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d/%d\t%s\n", ev.ID, ev.Name, ev.Game, ev.Config.Format,
				len(ev.Config.Entries), done, all, ev.Status)
		}
		return tw.Flush()
	})
}

func eventShow(c *cli, args []string) error {
	fs := c.flags("event show")
	dbPath := dbFlag(fs)
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ev, err := db.Event(id)
		if err != nil {
			return err
		}
		ms, err := db.Matches(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d: %s (%s %s, %s)\n", ev.ID, ev.Name, ev.Game, ev.Config.Format, ev.Status)
		tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MATCH\tGAME\tROUND\tSEED\tSEATS\tSTATUS\tRANKS\tREASON")
		for _, m := range ms {
			var seats []string
			for _, e := range m.Game.Seats {
				seats = append(seats, ev.Entries[e].Name)
			}
			ranks, reason := "", ""
			if m.Result != nil {
				ranks, reason = fmt.Sprint(m.Result.Ranks), m.Result.Reason
			}
			if m.Error != "" {
				reason = m.Error
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", m.ID, m.Game.Index+1, m.Game.Round+1, m.Game.Seed,
				strings.Join(seats, ", "), m.Status, ranks, reason)
		}
		return tw.Flush()
	})
}

func eventStandings(c *cli, args []string) error {
	fs := c.flags("event standings")
	dbPath := dbFlag(fs)
	asJSON := fs.Bool("json", false, "")
	asCSV := fs.Bool("csv", false, "")
	asMD := fs.Bool("md", false, "")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	format := "text"
	n := 0
	for f, on := range map[string]bool{"json": *asJSON, "csv": *asCSV, "md": *asMD} {
		if on {
			format = f
			n++
		}
	}
	if n > 1 {
		return usagef("event standings: choose one of --json, --csv, --md")
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ev, err := db.Event(id)
		if err != nil {
			return err
		}
		return printStandings(c.stdout, db, ev, format)
	})
}

func printStandings(w io.Writer, db *storage.DB, ev storage.Event, format string) error {
	done, err := db.Outcomes(ev.ID)
	if err != nil {
		return err
	}
	table, err := event.Standings(ev.Config, done)
	if err != nil {
		return fmt.Errorf("standings of event %d: %w", ev.ID, err)
	}
	return WriteStandings(w, table, format)
}

// WriteStandings writes a standings table as text, json, csv or md.
func WriteStandings(w io.Writer, t event.Table, format string) error {
	rating := func(s event.Standing) string {
		return fmt.Sprintf("%.0f ± %.0f", s.Rating, (s.RatingHigh-s.RatingLow)/2)
	}
	wdl := func(s event.Standing) string { return fmt.Sprintf("%d/%d/%d", s.Wins, s.Draws, s.Losses) }
	rank := func(i int) string { return rankText(t.Rows, i) }
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"rank", "name", "games", "points", "wins", "draws", "losses", "score", "rating", "rating_low", "rating_high", "los", "tied"})
		for _, s := range t.Rows {
			cw.Write([]string{strconv.Itoa(s.Rank), s.Name, strconv.Itoa(s.Games), points(s.Points),
				strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), fmt.Sprintf("%.4f", s.Score),
				fmt.Sprintf("%.1f", s.Rating), fmt.Sprintf("%.1f", s.RatingLow), fmt.Sprintf("%.1f", s.RatingHigh),
				fmt.Sprintf("%.4f", s.LOS), strconv.FormatBool(s.Tied)})
		}
		cw.Flush()
		return cw.Error()
	case "md":
		fmt.Fprintln(w, "| Rank | Name | Games | Points | W/D/L | Score | Rating | LOS |")
		fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|")
		for i, s := range t.Rows {
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %.1f %% | %s | %.0f %% |\n", rank(i),
				strings.ReplaceAll(s.Name, "|", `\|`), s.Games, points(s.Points), wdl(s), 100*s.Score, rating(s), 100*s.LOS)
		}
		if tied(t) {
			fmt.Fprintln(w, "\n`=` marks entries whose order the games so far do not establish (95 % intervals overlap).")
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RANK\tNAME\tGAMES\tPOINTS\tW/D/L\tSCORE\tRATING\tLOS\t")
	for i, s := range t.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.1f%%\t%s\t%.0f%%\t\n", rank(i), s.Name, s.Games, points(s.Points), wdl(s),
			100*s.Score, rating(s), 100*s.LOS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if tied(t) {
		fmt.Fprintln(w, "= : order not established yet (95 % intervals overlap)")
	}
	return nil
}

// rankText is row i's rank, with "=" when its order against a neighbour
// is not established (their 95 % intervals overlap).
func rankText(rows []event.Standing, i int) string {
	if rows[i].Tied || (i > 0 && rows[i-1].Tied) {
		return strconv.Itoa(rows[i].Rank) + "="
	}
	return strconv.Itoa(rows[i].Rank)
}

// points prints standings points with at most two decimals (multi-seat
// games give thirds).
func points(p float64) string {
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64)
}

func tied(t event.Table) bool {
	for _, s := range t.Rows {
		if s.Tied {
			return true
		}
	}
	return false
}

func runReplay(c *cli, args []string) error {
	if len(args) == 0 || args[0] != "export" {
		return usagef("replay: write \"ringside replay export MATCH_ID\"")
	}
	fs := c.flags("replay export")
	dbPath := dbFlag(fs)
	outPath := fs.String("out", "", "")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("replay export: give one match id (\"ringside event show ID\" lists them)")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil {
		return usagef("replay export: %q is not a match id", pos[0])
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		log, err := db.Replay(id)
		if err != nil {
			return err
		}
		g, err := games.Get(log.Game)
		if err != nil {
			return err
		}
		rp, err := engine.Expand(g, log)
		if err != nil {
			return fmt.Errorf("replay of match %d: %w", id, err)
		}
		data, err := json.MarshalIndent(rp, "", " ")
		if err != nil {
			return err
		}
		data = append(data, '\n')
		if *outPath == "" {
			_, err = c.stdout.Write(data)
			return err
		}
		return os.WriteFile(*outPath, data, 0o644)
	})
}
