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
        --games N          league: cycles of the seat design ("Seat orders"
                           below); gauntlet: seeds per pairing or group;
                           bracket: best of N; swiss: rounds; sprt: the most
                           games to play
        --seats N          players per game (games with a variable count)
        --filler E         a bot to fill empty seats (repeatable; not ranked)
        --candidate NAME   gauntlet: an entry under test (repeatable)
        --elo0 X --elo1 X --alpha X --beta X
                           sprt: the hypotheses in normalized Elo and the
                           error rates (defaults 0, 5, 0.05, 0.05)
        --seed N           the master seed (default: random)
        --opt KEY=VALUE    a game option (repeatable)
        --concurrency N    games at once (default: (cores − 1) × 2 ÷ players
                           per game, at least 1)
        --time-scale X     multiply every time limit by X
        --pace N           play each game at most N turns a second, so a room
                           can watch it (0, the default: as fast as the bots
                           answer); the bots' time limits are not touched
        --trusted          run every bot without the sandbox (docs/sandbox.md):
                           only for programs you wrote or read
        --limits CAPS      the sandbox's caps for every bot, e.g.
                           "memory=1G processes=128 cpu=5m" (an AI's own
                           --limits win)
        --deadline TIME    revisions built after TIME are not used by this
                           event: each AI plays the revision it had then
                           ("2026-11-27 17:00", or "17:00" for today; local
                           time). Created before TIME, the event takes the
                           revisions built until TIME when it first starts
                           or is first exported ("event export").
                           A pinned AI ("ringside ai pin") plays its pin.
  ringside event run ID [--concurrency N] [--pace N]
      Plays the event's games until it is finished (--pace: this run's pace
      instead of the event's). Every finished game is
      saved at once; Ctrl-C (or a crash) loses only the games in play. One
      process runs an event at a time: another run of it (or the app) says
      which process and host has it and exits with status 1; a run that
      died (crash, SIGKILL) is taken over by the next one.
  ringside event resume ID [--concurrency N] [--pace N]
      Goes on with an interrupted or paused event; nothing finished is played
      again, unfinished games are replayed from their stored seed.
  ringside event export ID --shards N --out DIR [--resend]
      Writes the event's unfinished games into N shard bundles (one zip
      file each) for other machines to play with "ringside shard run"
      (docs/distributed.md). A game goes out once: exporting again sends
      only games never sent, or with --resend also those still out.
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

Every event command takes --db PATH.

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

func init() {
	register(&command{
		name: "event", usage: "create|run|resume|export|import|unexport|list|show|standings|delete ...", summary: "create, run and resume tournaments; print standings",
		help: eventHelp, run: runEvent,
	})
	register(&command{
		name: "replay", usage: "export MATCH_ID [--out FILE] [--db PATH] | branch MATCH_ID --turn T --seat S --bot CMD [--replay FILE] [--db PATH] | diff A B [--db PATH]",
		summary: "export a stored game's replay as JSON, branch it at a turn with another bot, or compare two",
		help: `ringside replay export MATCH_ID writes the replay of a stored game as JSON
(game, options, seed, players, start, and per turn for each seat asked: the
exact input sent, the raw reply, the action taken, the verdict, the time used
and the stderr excerpt; the timeline events; the result). The game is
re-simulated from its stored replies. Match ids are listed by
"ringside event show ID". --out FILE writes to a file instead of stdout.

A game still being played is exported with the turns played so far, as
saved by the process playing it (about once a second), and marked
"in_progress": true, without a result.

ringside replay branch MATCH_ID --turn T --seat S --bot CMD re-plays the
stored game to just before turn T, then lets CMD play seat S from there:
"what would my new version have done here?". It prints the same JSON as
"ringside play", with "branched_from": {"match": ID, "turn": T, "seat": S}.

  --turn T        the game's turn, as "turn" in the replay's steps (from 0)
  --seat S        the seat, from 0, as "seat" in the replay's steps
  --bot CMD       a command line, builtin:GAME/NAME, a registered AI's name
                  (its current revision) or NAME@rN
  --replay FILE   also write the branch's replay JSON to FILE; its "branch"
                  says where it left the original and holds CMD's warm-up
  --trusted       run CMD without the sandbox (the other seats run as the
                  event ran them)

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
move for move, 1 when they differ, 2 when a replay cannot be read.`,
		run: runReplay,
	})
}

func runEvent(c *cli, args []string) error {
	if len(args) == 0 {
		return usagef("event: say what to do: create, run, resume, export, import, unexport, list, show, standings or delete (see \"ringside help event\")")
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
	case "export":
		return eventExport(c, args[1:])
	case "import":
		return eventImport(c, args[1:])
	case "unexport":
		return eventUnexport(c, args[1:])
	case "delete":
		return eventDelete(c, args[1:])
	}
	return usagef("event: unknown subcommand %q (create, run, resume, export, import, unexport, list, show, standings, delete)", args[0])
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
	fs, dbPath := c.dbFlags("event create")
	var spec service.EventSpec
	opts := specFlags(fs, &spec, 0)
	format := fs.String("format", "league", "")
	fs.StringVar(&spec.Name, "name", "", "")
	fs.IntVar(&spec.Seats, "seats", 0, "")
	fs.Int64Var(&spec.Seed, "seed", 0, "")
	deadline := fs.String("deadline", "", "")
	var entries, fillers, cands listFlag
	fs.Var(&entries, "entry", "")
	fs.Var(&fillers, "filler", "")
	fs.Var(&cands, "candidate", "")
	fs.Float64Var(&spec.Pace, "pace", 0, "")
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
	spec.Format = event.Format(*format)
	spec.Entries, spec.Fillers, spec.Candidates = entries, fillers, cands
	spec.SeedSet = isSet(fs, "seed")
	if spec.Options, err = parseOpts(*opts); err != nil {
		return err
	}
	if spec.Deadline, err = service.ParseDeadline(*deadline, time.Now()); err != nil {
		return usagef("event create: %v", err)
	}
	return withService(*dbPath, func(s *service.Service) error {
		ev, scheduled, err := s.CreateEvent(spec)
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

// specFlags adds to fs the flags that "event create" and "compare" share:
// the game, --games (default games), the SPRT hypotheses and error rates,
// concurrency, time scale and the sandbox. It returns the --opt values.
func specFlags(fs *flag.FlagSet, spec *service.EventSpec, games int) *listFlag {
	fs.StringVar(&spec.Game, "game", "", "")
	fs.IntVar(&spec.Games, "games", games, "")
	fs.Float64Var(&spec.Elo0, "elo0", event.DefaultElo0, "")
	fs.Float64Var(&spec.Elo1, "elo1", event.DefaultElo1, "")
	fs.Float64Var(&spec.Alpha, "alpha", event.DefaultAlpha, "")
	fs.Float64Var(&spec.Beta, "beta", event.DefaultBeta, "")
	fs.IntVar(&spec.Concurrency, "concurrency", 0, "")
	fs.Float64Var(&spec.TimeScale, "time-scale", 1, "")
	fs.BoolVar(&spec.Trusted, "trusted", false, "")
	fs.StringVar(&spec.Limits, "limits", "", "")
	opts := new(listFlag)
	fs.Var(opts, "opt", "")
	return opts
}

func eventRun(c *cli, verb string, args []string) error {
	fs, dbPath := c.dbFlags("event " + verb)
	conc := fs.Int("concurrency", 0, "")
	quiet := fs.Bool("quiet", false, "")
	pace := fs.Float64("pace", 0, "")
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	if err := checkPace("event "+verb, *pace); err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		job, err := s.EventJob(id, *conc)
		if err != nil {
			return err
		}
		if isSet(fs, "pace") {
			job.Run.Pace = *pace
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
		paused, err := c.play(job, *quiet)
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
		fmt.Fprintf(c.stdout, "entries: %s\n", entryNames(ev))
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

func eventStandings(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event standings")
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
	return withReadService(*dbPath, func(s *service.Service) error {
		return printStandings(c.stdout, s, id, format)
	})
}

func printStandings(w io.Writer, s *service.Service, id int64, format string) error {
	ev, table, err := s.Standings(id)
	if err != nil {
		return err
	}
	problems, err := s.DB().EntryProblems(id)
	if err != nil {
		return err
	}
	if err := service.WriteStandings(w, table, problems, format); err != nil {
		return err
	}
	if names := service.TrustedNames(ev); len(names) > 0 && (format == "" || format == "text" || format == "md") {
		fmt.Fprintf(w, "\nran without the sandbox (trusted): %s\n", strings.Join(names, ", "))
	}
	return nil
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
