package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

// eventHelp is "ringside help event": its options are written from the
// same option lists that declare the flags (eventCreateOptions,
// eventRunOptions), with their defaults.
func eventHelp() string {
	return `Events are tournaments stored in the database: their whole schedule, every
result and every replay. Commands:

  ringside event create --game G --format F --entry E... [options]
      Creates an event and prints its id. Formats: league (everyone plays
      everyone), bracket (single elimination), gauntlet (candidates against a
      field), swiss (rounds paired by score), sprt (two entries until the
      sequential test decides). An entry is NAME=COMMAND, a built-in bot
      (builtin:grip/greedy) or the name of a registered AI (its current
      revision). Options:
` + optionsHelp(8, 19, eventCreateOptions(new(eventCreateArgs))) + `
  ringside event run ID [--concurrency N] [--pace N] [--quiet]
      Plays the event's games until it is finished (--pace: this run's pace
      instead of the event's). Every finished game is
      saved at once; Ctrl-C (or a crash) loses only the games in play. One
      process runs an event at a time: another run of it (or the app) says
      which process and host has it and exits with status 1; a run that
      died (crash, SIGKILL) is taken over by the next one.
  ringside event resume ID [--concurrency N] [--pace N] [--quiet]
      Goes on with an interrupted or paused event; nothing finished is played
      again, unfinished games are replayed from their stored seed.
      Options of run and resume:
` + optionsHelp(8, 19, eventRunOptions(new(eventRunArgs))) + `
  ringside event export ID --shards N --out DIR [--resend] [--slurm FILE] [--k8s FILE --image IMAGE]
      Writes the event's unfinished games into N shard bundles (one zip
      file each) for other machines to play with "ringside shard run"
      (docs/distributed.md). A game goes out once: exporting again sends
      only games never sent, or with --resend also those still out.
` + optionsHelp(8, 19, exportOptions(new(exportArgs))) + `
  ringside event import ID RESULT|FOLDER...
      Merges the result files of shard runs into the event, by game. Every
      game's replay is re-simulated first; a file of another event, of other
      revisions, or with a game whose replay does not end as recorded is
      refused and nothing is imported. Importing a file again changes
      nothing.
      A folder gives all its result files (*.result, *.jsonl) at once.
  ringside event unexport ID
      Takes back the event's bundles that are out: their games not back are
      scheduled here again (a run plays them), and a later import of those
      bundles' results is refused. Results imported already are kept.
      While games are out, "event run" and "event resume" refuse the event:
      import the results, or unexport.
  ringside event list
  ringside event show ID             the schedule with each game's status
                                     ("out in a bundle": exported, not back)
  ringside event delete ID
      Deletes the event with its games, replays and ratings (the AIs and
      their revisions stay), with progress for a big event. The file keeps
      the space as free pages; when more than a quarter of it is free,
      the database is compacted ("ringside db vacuum") straight away.
  ringside event standings ID [--json|--csv|--md]
` + optionsHelp(8, 19, standingsOptions(new(bool), new(bool), new(bool))) + `
  ringside event sheet ID            the results sheet for pupils and parents:
                                     one HTML page (standings in places, each
                                     student's games and progress chart) that
                                     opens and prints without a network
` + optionsHelp(8, 19, sheetOptions(new(string))) + `

Every event command takes --db PATH (default: "ringside help db").

Seat orders. Turns go round the seats (in Grip seat 0, 1, 2, 3, 0, …), so
where an entry sits and whom it moves right after both matter. What is played
per --games (one "cycle"):
  2 seats (every format): each pairing on a seed of its own, twice, with the
      seats swapped.
  league, S > 2 seats, as many entries as seats: the one group plays one
      seed in all S! seat orders (24 games for 4 seats).
  league, S > 2 seats, N > S entries: a balanced design of cyclic orders,
      each on a seed of its own and rotated through all S seats (S games).
      In it every entry sits in each seat equally often, and every entry
      moves right after every other entry equally often: after each other
      entry in exactly L·S games, where L is the smallest number that lets
      N−1 be split that way (L = S / gcd(S, N−1), doubled when that is odd
      and N even; checked for up to 80 entries, beyond which the design
      search may need a multiple of it). A cycle has L·N·(N−1) games;
      every pair meets, but not every group of S entries is played. For 4
      seats: 5 entries 20 games, 6: 120, 7: 84, 8: 224, 9: 72, 10: 360.
      The entries are shuffled by the master seed each cycle.
  gauntlet and bracket heats with more seats: each group on one seed,
      rotated through all seats (S games): each member sits in every seat
      once, and who follows whom stays the same within the group.
Leagues stored before balanced seat orders keep the rotations they were made
with (one cyclic order per group, rotated).`
}

func init() {
	register(&command{
		name: "event", usage: "create|run|resume|export|import|unexport|list|show|standings|delete ...", summary: "create, run and resume tournaments; print standings",
		help: func() string { return eventHelp() }, run: runEvent,
	})
	register(&command{
		name: "replay", usage: "export MATCH_ID [--out FILE] [--db PATH] | branch MATCH_ID --turn T --seat S --bot CMD [--replay FILE] [--db PATH] | diff A B [--db PATH]",
		summary: "export a stored game's replay as JSON, branch it at a turn with another bot, or compare two",
		help: func() string {
			return `ringside replay export MATCH_ID writes the replay of a stored game as JSON
(game, options, seed, players, start, and per turn for each seat asked: the
exact input sent, the raw reply, the action taken, the verdict, the time used
and the stderr excerpt; the timeline events; the result). The game is
re-simulated from its stored replies. Match ids are listed by
"ringside event show ID".

` + optionsHelp(2, 16, replayExportOptions(new(string))) + `

A game still being played is exported with the turns played so far, as
saved by the process playing it (about once a second), and marked
"in_progress": true, without a result.

ringside replay branch MATCH_ID --turn T --seat S --bot CMD re-plays the
stored game to just before turn T, then lets CMD play seat S from there:
"what would my new version have done here?". It prints the same JSON as
"ringside play", with "branched_from": {"match": ID, "turn": T, "seat": S}.

` + optionsHelp(2, 16, branchOptions(new(branchArgs))) + `

The game stays the same game: the same options, seed and player names. A bot
keeps state across turns, so CMD first receives, in order, every input seat
S received before T; its answers to those are discarded (kept in the
replay's "branch" as warm-up) and the recorded replies used, so the branch's
turns before T are the original's byte for byte. The other seats keep their
recorded replies for as long as the game stays the same for them; at the
first step where a seat's input differs from the one it received in the
original game (or it is asked when it was not, or the original had ended),
its recorded reply no longer fits, and from then on it plays live with its
original program, which has been fed every earlier input the same way
(answers discarded). A program that can no longer start (its folder
deleted) then plays as a crashed seat. Branching with the original bot of
a deterministic game gives the original game again, times aside.

ringside replay diff A B compares two replays of one game, each a match id
or a replay file (from "play --replay" or "replay export"), and says where
the games first part and why: a different choice, a timeout, a crash, an
invalid reply, a different input, one game ending first. Measured times are
not a difference: the time used is left out, and Battle 2048's TimeLeft
(the bank the runner measured, which a bot may read) is named apart, with
the first turn where it differs. Exit status 0 when the games are the same
move for move, 1 when they differ, 2 when a replay cannot be read.`
		},
		run: runReplay,
	})
}

func runEvent(c *cli, args []string) error {
	if len(args) == 0 {
		return usagef("event: say what to do: create, run, resume, export, import, unexport, list, show, standings, sheet or delete (see \"ringside help event\")")
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
	case "sheet":
		return eventSheet(c, args[1:])
	case "export":
		return eventExport(c, args[1:])
	case "import":
		return eventImport(c, args[1:])
	case "unexport":
		return eventUnexport(c, args[1:])
	case "delete":
		return eventDelete(c, args[1:])
	}
	return usagef("event: unknown subcommand %q (create, run, resume, export, import, unexport, list, show, standings, sheet, delete)", args[0])
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

// eventCreateArgs is what "event create" reads: the spec, from the
// service's defaults, and the flags that are parsed into it afterwards.
type eventCreateArgs struct {
	spec                              service.EventSpec
	format, deadline                  string
	entries, fillers, candidates, opt listFlag
}

// eventCreateOptions are the flags of "event create", declared into a
// (whose spec starts as service.DefaultEventSpec) and written in its help.
func eventCreateOptions(a *eventCreateArgs) []option {
	a.spec = service.DefaultEventSpec()
	sp := &a.spec
	opts := []option{
		stringOption(&sp.Game, "game", "G", "", `the game ("ringside games" lists them)`, required),
		stringOption(&a.format, "format", "F", string(sp.Format), "league, bracket, gauntlet, swiss or sprt"),
		listOption(&a.entries, "entry", "E", "an entry (repeatable): NAME=COMMAND, builtin:GAME/NAME or a registered AI's name", required+", at least one, unless --from-event"),
		stringOption(&sp.Name, "name", "NAME", "", "a name for the event", service.DefaultNameWords),
		intOption(&sp.Games, "games", "N", 0, `league: cycles of the seat design ("Seat orders" below); gauntlet: seeds per pairing or group; bracket: best of N; swiss: rounds; sprt: the most games to play`,
			service.DefaultGamesWords()),
		intOption(&sp.Seats, "seats", "N", 0, "players per game (games with a variable count)", service.DefaultSeatsWords),
		listOption(&a.fillers, "filler", "E", "a bot to fill empty seats (repeatable; not ranked)", service.DefaultFillersWords),
		listOption(&a.candidates, "candidate", "NAME", "gauntlet: an entry under test (repeatable)", "none"),
		stringOption(&sp.Seeding, "seeding", "HOW", "", "the order of the entries, a bracket's seeds (1 v N, 2 v N-1…, byes to the top seeds): listed, random (by the seed) or event (--from-event's standings)",
			service.DefaultSeedingWords),
		int64Option(&sp.SeedFrom, "from-event", "ID", 0, "take the entries, and their seeds, from event ID's final standings, best first (instead of --entry)", "none"),
		intOption(&sp.Top, "top", "N", 0, "with --from-event: only its first N", service.DefaultTopWords),
	}
	opts = append(opts, sprtOptions(sp)...)
	opts = append(opts,
		int64Option(&sp.Seed, "seed", "N", 0, "the master seed", service.DefaultSeedWords),
		listOption(&a.opt, "opt", "KEY=VALUE", "a game option (repeatable)", `the game's own; "ringside games" lists them`),
		intOption(&sp.Concurrency, "concurrency", "N", 0, "games at once", service.DefaultConcurrencyWords),
		floatOption(&sp.TimeScale, "time-scale", "X", sp.TimeScale, "multiply every time limit by X"),
		floatOption(&sp.Pace, "pace", "N", sp.Pace, "play each game at most N turns a second, so a room can watch it; the bots' time limits are not touched",
			service.DefaultPaceWords),
		boolOption(&sp.Trusted, "trusted", "run every bot without the sandbox (docs/sandbox.md): only for programs you wrote or read"),
		stringOption(&sp.Limits, "limits", "CAPS", "", `the sandbox's caps for every bot, e.g. "memory=1G processes=128 cpu=5m" (an AI's own --limits win)`,
			service.DefaultLimitsText()),
		stringOption(&a.deadline, "deadline", "TIME", "", `revisions built after TIME are not used by this event: each AI plays the revision it had then ("2026-11-27 17:00", or "17:00" for today; local time). Created before TIME, the event takes the revisions built until TIME when it first starts or is first exported ("event export"). A pinned AI ("ringside ai pin") plays its pin.`,
			service.DefaultDeadlineWords),
	)
	return opts
}

// sprtOptions are the SPRT's hypotheses and error rates, shared by "event
// create" and "compare"; their defaults are sp's (the engine's).
func sprtOptions(sp *service.EventSpec) []option {
	return []option{
		floatOption(&sp.Elo0, "elo0", "X", sp.Elo0, "sprt H0: the candidate is at most X normalized Elo stronger"),
		floatOption(&sp.Elo1, "elo1", "X", sp.Elo1, "sprt H1: the candidate is at least X normalized Elo stronger"),
		floatOption(&sp.Alpha, "alpha", "X", sp.Alpha, "sprt: the chance of calling equal bots different"),
		floatOption(&sp.Beta, "beta", "X", sp.Beta, "sprt: the chance of missing a difference"),
	}
}

func eventCreate(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event create")
	var a eventCreateArgs
	declare(fs, eventCreateOptions(&a))
	spec := &a.spec
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("event create: unexpected argument %q (entries go in --entry)", pos[0])
	}
	if err := checkPace("event create", spec.Pace); err != nil {
		return err
	}
	spec.Format = event.Format(a.format)
	spec.Entries, spec.Fillers, spec.Candidates = a.entries, a.fillers, a.candidates
	spec.SeedSet = isSet(fs, "seed")
	if spec.Options, err = parseOpts(a.opt); err != nil {
		return err
	}
	if spec.Deadline, err = service.ParseDeadline(a.deadline, time.Now()); err != nil {
		return usagef("event create: %v", err)
	}
	return withService(*dbPath, func(s *service.Service) error {
		ev, scheduled, err := s.CreateEvent(*spec)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d: %s, %d entries, %d games scheduled so far (seed %d)\n",
			ev.ID, ev.Name, len(ev.Entries), scheduled, ev.Config.Seed)
		if !ev.Deadline.IsZero() {
			fmt.Fprintf(c.stdout, "deadline %s: revisions built after it are not used; entries: %s\n",
				ev.Deadline.Local().Format("2006-01-02 15:04"), entryNames(ev))
		}
		fmt.Fprintf(c.stdout, "run it with: ringside event run %d%s\n", ev.ID, dbArg(*dbPath))
		return nil
	})
}

// eventRunArgs are the flags of "event run" and "event resume".
type eventRunArgs struct {
	concurrency int
	pace        float64
	quiet       bool
}

// eventRunOptions are the flags of "event run" and "event resume".
func eventRunOptions(a *eventRunArgs) []option {
	return []option{
		intOption(&a.concurrency, "concurrency", "N", 0, "games at once for this run",
			"the event's own; for an event created without one, "+service.DefaultConcurrencyWords),
		floatOption(&a.pace, "pace", "N", 0, "this run's pace in turns a second instead of the event's (0: as fast as the bots answer)",
			"the event's own"),
		boolOption(&a.quiet, "quiet", "no progress line on a terminal"),
	}
}

func eventRun(c *cli, verb string, args []string) error {
	fs, dbPath := c.dbFlags("event " + verb)
	var a eventRunArgs
	declare(fs, eventRunOptions(&a))
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	if err := checkPace("event "+verb, a.pace); err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		job, err := s.EventJob(id, a.concurrency)
		if err != nil {
			return err
		}
		if isSet(fs, "pace") {
			job.Run.Pace = a.pace
		}
		if job.Event.Status == storage.EventFinished {
			fmt.Fprintf(c.stdout, "event %d is already finished\n", id)
			return printStandings(c.stdout, s, id, "text")
		}
		job.OnTakeOver = func(gone storage.LockHolder) {
			fmt.Fprintf(c.stderr, "note: event %d was left running by %s, which has stopped; taking it over\n", id, gone)
		}
		fmt.Fprintf(c.stdout, "event %d: %s\n", id, service.SandboxSummary(job.Run.Sandbox))
		if names := service.TrustedNames(job.Event); len(names) > 0 && !job.Event.Trusted {
			fmt.Fprintf(c.stdout, "event %d: trusted, so without the sandbox: %s\n", id, strings.Join(names, ", "))
		}
		paused, err := c.play(job, a.quiet)
		var locked *storage.LockedError
		if errors.As(err, &locked) {
			return err
		}
		if err != nil {
			return fmt.Errorf("event %d stopped: %w; fix the problem and run \"ringside event resume %d\"", id, err, id)
		}
		if paused {
			fmt.Fprintf(c.stdout, "event %d paused; go on with: ringside event resume %d%s\n", id, id, dbArg(*dbPath))
			return nil
		}
		return printStandings(c.stdout, s, id, "text")
	})
}

// play runs a job until it is done or interrupted (Ctrl-C, SIGTERM),
// with a progress line on a terminal unless quiet. paused says it was
// interrupted: the event can be resumed.
func (c *cli) play(job *service.EventJob, quiet bool) (paused bool, err error) {
	showProgress := !quiet && isTerminal(c.stderr)
	if showProgress {
		job.Run.OnProgress = func(p runner.Progress) { fmt.Fprint(c.stderr, "\r"+progressLine(p)+"  ") }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = job.Start(ctx)
	if showProgress {
		fmt.Fprintln(c.stderr)
	}
	return ctx.Err() != nil, err
}

// progressLine is the one-line progress of a running event.
func progressLine(p runner.Progress) string {
	const width = 24
	filled := 0
	if p.Scheduled > 0 {
		filled = width * p.Done / p.Scheduled
	}
	return fmt.Sprintf("[%s%s] %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		strings.Join(service.ProgressWords(p), ", "))
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
	fs, dbPath := c.dbFlags("event list")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("event list takes no arguments")
	}
	return withReadService(*dbPath, func(s *service.Service) error {
		db := s.DB()
		evs, err := db.ListEvents()
		if err != nil {
			return err
		}
		var rows [][]string
		for _, ev := range evs {
			done, all, err := db.MatchCounts(ev.ID)
			if err != nil {
				return err
			}
			status, err := eventStatus(db, ev)
			if err != nil {
				return err
			}
			rows = append(rows, []string{fmt.Sprint(ev.ID), ev.Name, ev.Game, string(ev.Config.Format),
				fmt.Sprint(len(ev.Config.Entries)), fmt.Sprintf("%d/%d", done, all), status})
		}
		return c.printTable("ID\tNAME\tGAME\tFORMAT\tENTRIES\tGAMES\tSTATUS", rows,
			"no events yet: create one with \"ringside event create\"")
	})
}

func eventShow(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event show")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withReadService(*dbPath, func(s *service.Service) error {
		db := s.DB()
		ev, err := db.Event(id)
		if err != nil {
			return err
		}
		ms, err := db.Matches(id)
		if err != nil {
			return err
		}
		away, err := db.OutMatches(id)
		if err != nil {
			return err
		}
		status, err := eventStatus(db, ev)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d: %s (%s %s, %s)\n", ev.ID, ev.Name, ev.Game, ev.Config.Format, status)
		if !ev.Deadline.IsZero() {
			fmt.Fprintf(c.stdout, "deadline %s: revisions built after it are not used\n", ev.Deadline.Local().Format("2006-01-02 15:04"))
		}
		if ev.Config.Format == event.Bracket {
			// A bracket's entries are in seed order: say each seed.
			fmt.Fprintf(c.stdout, "seeds: %s\n", seedNames(ev))
		} else {
			fmt.Fprintf(c.stdout, "entries: %s\n", entryNames(ev))
		}
		var rows [][]string
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
			status := string(m.Status)
			if m.Status == storage.MatchScheduled && away[m.ID] {
				status = "out in a bundle"
			}
			rows = append(rows, []string{fmt.Sprint(m.ID), fmt.Sprint(m.Game.Index + 1), fmt.Sprint(m.Game.Round + 1),
				fmt.Sprint(m.Game.Seed), strings.Join(seats, ", "), status, ranks, reason})
		}
		return c.printTable("MATCH\tGAME\tROUND\tSEED\tSEATS\tSTATUS\tRANKS\tREASON", rows, "")
	})
}

// standingsOptions are the flags of "event standings": one format at most.
func standingsOptions(asJSON, asCSV, asMD *bool) []option {
	const text = "off: an aligned text table"
	return []option{
		boolOption(asJSON, "json", "print the standings as JSON", text),
		boolOption(asCSV, "csv", "print them as CSV", text),
		boolOption(asMD, "md", "print them as a Markdown table", text),
	}
}

func eventStandings(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event standings")
	asJSON, asCSV, asMD := new(bool), new(bool), new(bool)
	declare(fs, standingsOptions(asJSON, asCSV, asMD))
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
	return withReadService(*dbPath, func(s *service.Service) error {
		return printStandings(c.stdout, s, id, format)
	})
}

func printStandings(w io.Writer, s *service.Service, id int64, format string) error {
	// The same view as the app's events screen: its standings and
	// problems are computed in one place.
	v, err := s.EventView(id)
	if err != nil {
		return err
	}
	if v.TableErr != nil {
		return v.TableErr
	}
	if err := v.WriteStandings(w, format); err != nil {
		return err
	}
	if names := v.Event.TrustedNames(); len(names) > 0 && (format == "" || format == "text" || format == "md") {
		fmt.Fprintf(w, "\nran without the sandbox (trusted): %s\n", strings.Join(names, ", "))
	}
	return nil
}

// replayExportOptions are the flags of "replay export".
func replayExportOptions(out *string) []option {
	return []option{stringOption(out, "out", "FILE", "", "write the replay to FILE", "stdout")}
}

func runReplay(c *cli, args []string) error {
	if len(args) > 0 && args[0] == "branch" {
		return replayBranch(c, args[1:])
	}
	if len(args) > 0 && args[0] == "diff" {
		return replayDiff(c, args[1:])
	}
	if len(args) == 0 || args[0] != "export" {
		return usagef("replay: write \"ringside replay export MATCH_ID\", \"ringside replay branch MATCH_ID --turn T --seat S --bot CMD\" or \"ringside replay diff A B\"")
	}
	fs, dbPath := c.dbFlags("replay export")
	outPath := new(string)
	declare(fs, replayExportOptions(outPath))
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
	return withReadService(*dbPath, func(s *service.Service) error {
		log, err := exportLog(s.DB(), id)
		if err != nil {
			return err
		}
		data, err := replayJSON(log)
		if err != nil {
			return fmt.Errorf("replay of match %d: %w", id, err)
		}
		if *outPath == "" {
			_, err = c.stdout.Write(data)
			return err
		}
		return os.WriteFile(*outPath, data, 0o644)
	})
}

// replayJSON is the readable replay (engine.Replay) of log, as "replay
// export" prints it and "play --replay" writes it.
func replayJSON(log *engine.Log) ([]byte, error) {
	rp, err := games.Expand(log)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(rp, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encode replay: %w", err)
	}
	return append(data, '\n'), nil
}

// writeReplay writes log's readable replay to path.
func writeReplay(path string, log *engine.Log) error {
	data, err := replayJSON(log)
	if err != nil {
		return fmt.Errorf("build replay: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write replay: %w", err)
	}
	return nil
}

// entryNames lists an event's entries by name, with their own game
// options.
func entryNames(ev storage.Event) string {
	names := make([]string, len(ev.Entries))
	for i, e := range ev.Entries {
		names[i] = e.Name
		if e.Options != "" {
			names[i] += " (" + e.Options + ")"
		}
	}
	return strings.Join(names, ", ")
}

// seedNames names a bracket's entries with their seeds, "1 carol r2, 2
// alice r1, …" (the entries' order; fillers have no seed).
func seedNames(ev storage.Event) string {
	var names []string
	for _, e := range ev.Entries {
		if !e.Filler {
			names = append(names, fmt.Sprintf("%d %s", len(names)+1, e.Name))
		}
	}
	return strings.Join(names, ", ")
}

// exportLog is match id's replay, or the turns so far of a game in play.
func exportLog(db *storage.DB, id int64) (*engine.Log, error) {
	log, err := db.Replay(id)
	if err == nil || !errors.Is(err, storage.ErrNotFound) {
		return log, err
	}
	m, merr := db.Match(id)
	if merr != nil || m.Status != storage.MatchRunning {
		return nil, err
	}
	log, _, lerr := db.LiveReplay(id)
	if errors.Is(lerr, storage.ErrNotFound) {
		// Finished in the meantime, or not saved yet.
		if log, err := db.Replay(id); err == nil {
			return log, nil
		}
		return nil, fmt.Errorf("match %d is being played but no turn of it is saved yet (the process playing it saves them every %v): try again in a moment", id, service.LiveSaveEvery)
	}
	return log, lerr
}

// eventStatus is an event's status as the list and show print it: an
// event with games out in bundles says so, since it cannot run here.
func eventStatus(db *storage.DB, ev storage.Event) (string, error) {
	out, err := db.OutShards(ev.ID)
	if err != nil {
		return "", err
	}
	if len(out) == 0 {
		return string(ev.Status), nil
	}
	games := 0
	for _, sh := range out {
		games += sh.Missing
	}
	return fmt.Sprintf("%s, %d out in %d bundle(s)", ev.Status, games, len(out)), nil
}

func eventUnexport(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event unexport")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		rep, err := s.Unexport(id)
		if err != nil {
			return err
		}
		for _, sh := range rep.Shards {
			fmt.Fprintf(c.stdout, "took back %s (shard %d of %d): its results will be refused\n", sh.File, sh.Number, sh.Count)
		}
		fmt.Fprintf(c.stdout, "event %d: %d game(s) scheduled here again; play them with: ringside event resume %d%s\n", id, rep.Games, id, dbArg(*dbPath))
		return nil
	})
}

// bigEvent is how many games make "event delete" print progress.
const bigEvent = 5000

func eventDelete(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event delete")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		shown := -1
		rep, err := s.DeleteEventProgress(id, func(done, total int) {
			if total < bigEvent {
				return
			}
			// Whole percents, so a pipe gets a few dozen lines at most.
			if pct := done * 100 / total; pct != shown {
				shown = pct
				fmt.Fprintf(c.stderr, "deleting event %d: %d/%d games (%d%%)\n", id, done, total, pct)
			}
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d deleted with its %d games\n", id, rep.Games)
		if !rep.Space.MostlyFree() {
			return nil
		}
		fmt.Fprintf(c.stderr, "vacuum: %s of %s is free space now; compacting the database (SQLite's VACUUM copies the live data to a new file; it reports no progress)...\n",
			service.Size(rep.Space.FreeBytes()), service.Size(rep.Space.Bytes()))
		v, err := s.Vacuum()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "vacuum: %s → %s\n", service.Size(v.Before), service.Size(v.After))
		return nil
	})
}
