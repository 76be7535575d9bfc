package service

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// EventSpec is what a person asks for when creating an event, before it is
// checked: the CLI's "event create" and "compare" flags and the app's
// dialogs all fill one in, starting from DefaultEventSpec or
// DefaultCompareSpec (config.go, where every default is decided and said).
type EventSpec struct {
	Name       string
	Game       string
	Format     event.Format
	Entries    []string // NAME=COMMAND, builtin:GAME/NAME, a registered AI's name or NAME@rN
	Fillers    []string // bots for empty seats, used in turn
	Candidates []string // gauntlet: names of the entries under test
	Games      int      // 0: the format's default (DefaultGamesText)
	Seats      int      // 0: DefaultSeats
	Seed       int64
	SeedSet    bool // otherwise a random seed is drawn
	// SPRT hypotheses and error rates; zero values take event's defaults
	// (Elo1 0 means event.DefaultElo1).
	Elo0, Elo1 float64
	Alpha      float64
	Beta       float64
	// Test is a comparison's sequential test: event.TestClassroom (the
	// default, also for "") or event.TestElo; P1 is the classroom test's
	// margin (0: rating.DefaultClassroomP1).
	Test    string
	P1      float64
	Options engine.Options
	// Concurrency 0 means DefaultConcurrency; TimeScale 0 means
	// event.DefaultTimeScale (event.TimeScale).
	Concurrency int
	TimeScale   float64
	// Trusted runs every bot of the event without the sandbox; Limits
	// overrides the sandbox's caps for all of them (an AI's own limits
	// win).
	Trusted bool
	Limits  string
	// Deadline, when set, keeps revisions built after it out of the
	// event: each AI plays the revision it had at the deadline (a pinned
	// AI plays its pin). An event created before its deadline takes the
	// revisions built until then when it first starts.
	Deadline time.Time
	// Pace plays each game at most Pace turns a second, so a room can
	// follow it; 0 plays as fast as the bots answer. The bots' time
	// limits are not touched.
	Pace float64
	// Seeding orders the entries, which in a bracket are its seeds:
	// SeedListed (also ""; SeedFromEvent when SeedFrom is set), SeedRandom
	// or SeedFromEvent. SeedFrom takes the entries from that event's final
	// standings instead of Entries, its first Top when Top > 0.
	Seeding  string
	SeedFrom int64
	Top      int
}

// CreateEvent checks spec, stores the event and its first schedule, and
// returns it with the number of games scheduled so far. Every entry is
// resolved and its program checked before anything is stored: an entry
// that cannot start is refused with its name and what is missing. Nothing
// is stored on error.
func (s *Service) CreateEvent(spec EventSpec) (storage.Event, int, error) {
	ev, sched, err := s.prepareEvent(spec)
	if err != nil {
		return storage.Event{}, 0, err
	}
	ev, err = s.db.CreateEvent(ev)
	if err != nil {
		return storage.Event{}, 0, err
	}
	if err := s.db.AddMatches(ev.ID, sched); err != nil {
		return storage.Event{}, 0, err
	}
	return ev, len(sched), nil
}

// prepareEvent checks spec and makes the event and its first schedule, as
// CreateEvent stores them.
func (s *Service) prepareEvent(spec EventSpec) (storage.Event, []event.Game, error) {
	if spec.Game == "" {
		return storage.Event{}, nil, (Errorf(Invalid, "choose a game (one of %s)", GameIDs())).withFix(FixListGames, "")
	}
	g, err := games.Get(spec.Game)
	if err != nil {
		return storage.Event{}, nil, (&Error{Code: Invalid, Message: err.Error(), Err: err}).withFix(FixListGames, "")
	}
	info := g.Info()
	options, err := info.Resolve(spec.Options)
	if err != nil {
		return storage.Event{}, nil, (&Error{Code: Invalid, Message: err.Error(), Err: err}).withFix(FixListGames, "")
	}
	if spec.TimeScale < 0 {
		return storage.Event{}, nil, Errorf(Invalid, "the time multiplier must be above 0")
	}
	spec.TimeScale = event.TimeScale(spec.TimeScale)
	if spec.Format == "" {
		spec.Format = event.League
	}
	if !slices.Contains(event.Formats, spec.Format) {
		return storage.Event{}, nil, Errorf(Invalid, "unknown format %q (league, bracket, gauntlet, swiss, sprt)", spec.Format)
	}
	if err := s.seedEntries(&spec); err != nil {
		return storage.Event{}, nil, err
	}
	if len(spec.Entries) == 0 {
		return storage.Event{}, nil, Errorf(Invalid, "add entries: NAME=COMMAND, builtin:%s/… or the name of a registered AI", info.ID)
	}
	if spec.Format == event.SPRT && spec.Elo1 == 0 && spec.Elo0 == 0 {
		spec.Elo1 = event.DefaultElo1
	}
	if spec.Format == event.SPRT && spec.Test == "" {
		spec.Test = event.TestClassroom
	}
	limits, err := CheckLimits(spec.Limits)
	if err != nil {
		return storage.Event{}, nil, err
	}
	if !(spec.Pace >= 0) || math.IsInf(spec.Pace, 0) {
		return storage.Event{}, nil, Errorf(Invalid, "the pace must be 0 (as fast as the bots answer) or a number of turns a second above 0, not %g", spec.Pace)
	}
	ev := storage.Event{Game: info.ID, Options: options, Concurrency: spec.Concurrency, TimeScale: spec.TimeScale,
		Trusted: spec.Trusted, Limits: limits, Deadline: spec.Deadline, Pace: spec.Pace}
	cfg := event.Config{Format: spec.Format, Games: spec.Games, Seed: spec.Seed,
		Elo0: spec.Elo0, Elo1: spec.Elo1, Alpha: spec.Alpha, Beta: spec.Beta}
	if spec.Format == event.SPRT {
		cfg.Test, cfg.P1 = spec.Test, spec.P1
	}
	names := map[string]bool{}
	add := func(text string, filler bool) error {
		e, err := s.resolveEntry(text, info.ID, cutoff(spec.Deadline))
		if err != nil {
			return err
		}
		e.Spec = strings.TrimSpace(text)
		if err := checkStarts(e); err != nil {
			return err
		}
		base := e.Name
		for i := 2; names[strings.ToLower(e.Name)]; i++ {
			e.Name = fmt.Sprintf("%s#%d", base, i)
		}
		names[strings.ToLower(e.Name)] = true
		e.Index, e.Filler = len(ev.Entries), filler
		ev.Entries = append(ev.Entries, e)
		cfg.Entries = append(cfg.Entries, event.Entry{Name: e.Name, Filler: filler})
		return nil
	}
	for _, text := range spec.Entries {
		if err := add(text, false); err != nil {
			return storage.Event{}, nil, err
		}
	}
	cfg.Seats = spec.Seats
	if cfg.Seats == 0 {
		cfg.Seats = DefaultSeats(info, len(spec.Entries))
	}
	if cfg.Seats < info.MinSeats || cfg.Seats > info.MaxSeats {
		return storage.Event{}, nil, Errorf(Invalid, "%s is played by %s, not %d", info.ID, SeatRange(info), cfg.Seats)
	}
	// A value the game cannot play with (turn_ms=soon) would fail every
	// game: try it on a game's start now.
	players := make([]string, cfg.Seats)
	for i := range players {
		players[i] = fmt.Sprintf("player %d", i)
	}
	if _, err := g.New(options, players, 1); err != nil {
		return storage.Event{}, nil, (&Error{Code: Invalid, Message: err.Error(), Err: err}).withFix(FixListGames, "")
	}
	for _, cand := range spec.Candidates {
		found := false
		for i := range cfg.Entries {
			if strings.EqualFold(cfg.Entries[i].Name, cand) {
				cfg.Entries[i].Candidate, ev.Entries[i].Candidate, found = true, true, true
			}
		}
		if !found {
			return storage.Event{}, nil, Errorf(Invalid, "candidate %q is not one of the entries", cand)
		}
	}
	need := event.FillersNeeded(cfg)
	if need > 0 && len(spec.Fillers) == 0 && cfg.Format == event.SPRT {
		// A comparison in games of more than two seats fills the other
		// seats with the game's built-in bots, each in turn, so no one
		// strategy of the fillers decides who finishes ahead.
		for _, b := range g.Bots() {
			spec.Fillers = append(spec.Fillers, runner.BuiltinPrefix+info.ID+"/"+b)
		}
	}
	if need > 0 && len(spec.Fillers) == 0 {
		return storage.Event{}, nil, (Errorf(Invalid, "a %s of %s with %d players per game needs %d more player(s) than its %d entries; fillers take the empty seats and are not ranked: add a filler bot such as builtin:%s/random",
			cfg.Format, info.Name, cfg.Seats, need, len(spec.Entries), info.ID)).withFix(FixFiller, "builtin:"+info.ID+"/random")
	}
	for i := range need {
		if err := add(spec.Fillers[i%len(spec.Fillers)], true); err != nil {
			return storage.Event{}, nil, err
		}
	}
	if cfg.Format == event.SPRT {
		cfg.Entries[0].Candidate, ev.Entries[0].Candidate = true, true
	}
	if cfg.Games == 0 {
		cfg.Games = defaultGames(cfg)
	}
	if !spec.SeedSet {
		cfg.Seed = time.Now().UnixNano() & (1<<31 - 1)
	}
	if err := event.Validate(cfg); err != nil {
		return storage.Event{}, nil, &Error{Code: Invalid, Message: err.Error(), Err: err}
	}
	ev.Config = cfg
	ev.Name = strings.TrimSpace(spec.Name)
	if ev.Name == "" {
		ev.Name = fmt.Sprintf("%s %s %s", info.Name, cfg.Format, time.Now().Format("2006-01-02 15:04"))
	}
	sched, _, err := event.Schedule(cfg, nil)
	if err != nil {
		return storage.Event{}, nil, wrap(Invalid, err, "schedule")
	}
	return ev, sched, nil
}

// cutoff is the time an event with this deadline takes its revisions at
// now: the deadline once it has passed, until then now (zero: no
// deadline, the current revisions).
func cutoff(deadline time.Time) time.Time {
	if deadline.IsZero() || deadline.Before(time.Now()) {
		return deadline
	}
	return time.Time{}
}

// SeatRange says how many players a game takes.
func SeatRange(info engine.Info) string {
	if info.MinSeats == info.MaxSeats {
		return fmt.Sprintf("exactly %d players", info.MinSeats)
	}
	return fmt.Sprintf("%d to %d players", info.MinSeats, info.MaxSeats)
}

// EventJob runs one stored event: it connects the runner's worker pool to
// the database, so that every scheduled game is stored before it is
// played and every finished game is committed on its own. The CLI and the
// desktop app both run events through it.
type EventJob struct {
	db    *storage.DB
	Event storage.Event
	Run   *runner.Event
	ids   map[int]int64 // game index → match id
	done  []event.Outcome
	live  *Live

	// OnTakeOver, if set, is called when Start takes the event over from
	// a run that died without releasing it (a crash, SIGKILL).
	OnTakeOver func(gone storage.LockHolder)
}

// EventJob prepares event id for running. concurrency 0 keeps the
// event's own setting.
func (s *Service) EventJob(id int64, concurrency int) (*EventJob, error) {
	ev, err := s.db.Event(id)
	if err != nil {
		return nil, err
	}
	if err := checkNotExported(s.db, id); err != nil {
		return nil, err
	}
	if ev, err = s.fixEntries(ev); err != nil {
		return nil, err
	}
	if err := s.verifyEntries(ev); err != nil {
		return nil, err
	}
	j := &EventJob{db: s.db, Event: ev, ids: map[int]int64{}, live: s.live}
	if j.Run, err = eventRunner(ev, concurrency); err != nil {
		return nil, err
	}
	s.showSources(ev.Entries, j.Run.Bots)
	if ev.Status != storage.EventFinished {
		if err := s.checkContainment(j.Run.Sandbox, anyUntrusted(j.Run.Bots)); err != nil {
			return nil, err
		}
	}
	j.Run.OnScheduled, j.Run.OnStart, j.Run.OnFinished = j.scheduled, j.start, j.finished
	j.Run.OnLog = func(g event.Game, log *engine.Log) { j.live.record(id, g.Index, log) }
	return j, nil
}

// eventRunner is the runner of a stored event's games: its game, options,
// time scale, pace, and every entry's bot contained as the event and the
// entry say. It is made in this one place, so that an event played here
// and a shard of it played elsewhere ("ringside shard run") play the same.
// concurrency 0 keeps the event's own setting.
func eventRunner(ev storage.Event, concurrency int) (*runner.Event, error) {
	g, err := games.Get(ev.Game)
	if err != nil {
		return nil, wrap(Invalid, err, "event %d", ev.ID)
	}
	if concurrency <= 0 {
		concurrency = ev.Concurrency
	}
	sb, base, err := eventSandbox(ev)
	if err != nil {
		return nil, err
	}
	bots := make([]runner.Bot, len(ev.Entries))
	for i, e := range ev.Entries {
		bots[i] = EntryBot(e, base)
	}
	return &runner.Event{
		Game: g, Options: ev.Options, Config: ev.Config, Bots: bots, Sandbox: sb,
		Concurrency: concurrency, TimeScale: ev.TimeScale, Pace: ev.Pace,
	}, nil
}

// eventSandbox is how event ev contains its bots: trusted or not, and the
// caps of its entries before their AIs' own (base).
func eventSandbox(ev storage.Event) (runner.Sandbox, sandbox.Limits, error) {
	sb := runner.Sandbox{Trusted: ev.Trusted}
	if ev.Limits == "" {
		return sb, runner.DefaultLimits, nil
	}
	base, err := runner.ParseLimits(ev.Limits, runner.DefaultLimits)
	if err != nil {
		return sb, base, wrap(Invalid, err, "event %d's limits", ev.ID)
	}
	sb.Limits = &base
	return sb, base, nil
}

// fixEntries is an event's first start, here or in shards: before its
// first game is played or exported, an event with a deadline takes the
// revisions built up to the deadline; from then on its entries are fixed,
// so that games played here and games played from its shards play the
// same revisions.
func (s *Service) fixEntries(ev storage.Event) (storage.Event, error) {
	if ev.Deadline.IsZero() || ev.Status != storage.EventCreated {
		return ev, nil
	}
	if c, err := s.db.ShardCounts(ev.ID); err != nil || c.Shards > 0 {
		return ev, err
	}
	return s.refreshEntries(ev)
}

// refreshEntries lets an event with a deadline that has not started yet
// play the revisions its AIs have now (up to the deadline): it was created
// with those of its creation. Entries that no longer resolve (an AI
// removed) keep what they had.
func (s *Service) refreshEntries(ev storage.Event) (storage.Event, error) {
	changed := false
	taken := map[string]bool{}
	for _, e := range ev.Entries {
		taken[strings.ToLower(e.Name)] = true
	}
	for i, e := range ev.Entries {
		if e.Spec == "" || e.RevisionID == 0 {
			continue
		}
		now, err := s.resolveEntry(e.Spec, ev.Game, cutoff(ev.Deadline))
		if err != nil || now.RevisionID == e.RevisionID {
			continue
		}
		delete(taken, strings.ToLower(e.Name))
		base := now.Name
		for k := 2; taken[strings.ToLower(now.Name)]; k++ {
			now.Name = fmt.Sprintf("%s#%d", base, k)
		}
		taken[strings.ToLower(now.Name)] = true
		now.Index, now.Filler, now.Candidate, now.Spec = e.Index, e.Filler, e.Candidate, e.Spec
		ev.Entries[i] = now
		ev.Config.Entries[i].Name = now.Name
		changed = true
	}
	if !changed {
		return ev, nil
	}
	if err := s.db.RefreshEntries(ev); err != nil {
		return ev, wrap(Failed, err, "event %d", ev.ID)
	}
	return ev, nil
}

// Start plays the event until it is finished or ctx is cancelled, keeping
// the event's status in the database up to date. A cancelled run leaves
// the event paused: resuming goes on from the stored results.
//
// Only one process runs an event at a time: Start holds the event's lock
// in the database (storage.LockEvent) for the whole run, and returns a
// *storage.LockedError naming the holder when another process runs it.
func (j *EventJob) Start(ctx context.Context) (err error) {
	id := j.Event.ID
	if j.Event.Status == storage.EventFinished {
		return Errorf(Conflict, "event %d is already finished", id)
	}
	lock, err := j.db.LockEvent(id)
	if err != nil {
		return &Error{Code: Conflict, Message: err.Error(), Err: err}
	}
	defer func() {
		if rerr := lock.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if lock.TookOver != nil && j.OnTakeOver != nil {
		j.OnTakeOver(*lock.TookOver)
	}
	// The holder before us may have finished it since EventJob looked.
	if ev, err := j.db.Event(id); err != nil {
		return err
	} else if ev.Status == storage.EventFinished {
		return Errorf(Conflict, "event %d is already finished", id)
	}
	// An export may have sent its games since EventJob looked.
	if err := checkNotExported(j.db, id); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var lost atomic.Bool
	go func() {
		select {
		case <-lock.Lost():
			lost.Store(true)
			cancel()
		case <-ctx.Done():
		}
	}()
	if _, err := j.db.ResetRunning(id); err != nil {
		return err
	}
	done, err := j.db.Outcomes(id)
	if err != nil {
		return err
	}
	ms, err := j.db.Matches(id)
	if err != nil {
		return err
	}
	for _, m := range ms {
		j.ids[m.Game.Index] = m.ID
	}
	j.Run.Done = done
	j.done = append([]event.Outcome(nil), done...)
	if err := j.db.SetEventStatus(id, storage.EventRunning); err != nil {
		return err
	}
	stopSaving, saving := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(saving)
		j.live.saveLive(j.db, id, stopSaving)
	}()
	runErr := j.Run.Run(ctx)
	close(stopSaving)
	<-saving
	j.live.stopEvent(id, "the event stopped before this game ended; it is played again from its seed when the event resumes")
	if lost.Load() {
		// Its games and status are the new holder's now.
		return Errorf(Conflict, "event %d was taken over by another process while this one did not answer; stopped without saving the games in play", id)
	}
	status := storage.EventFinished
	switch {
	case runErr == nil:
	case errors.Is(runErr, context.Canceled):
		status = storage.EventPaused
		runErr = nil
	default:
		status = storage.EventPaused
	}
	if err := j.db.SetEventStatus(id, status); err != nil && runErr == nil {
		runErr = err
	}
	if _, err := j.db.ResetRunning(id); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

func (j *EventJob) scheduled(gs []event.Game) error {
	if err := j.db.AddMatches(j.Event.ID, gs); err != nil {
		return err
	}
	ms, err := j.db.Matches(j.Event.ID)
	if err != nil {
		return err
	}
	for _, m := range ms {
		j.ids[m.Game.Index] = m.ID
	}
	return nil
}

func (j *EventJob) start(g event.Game) error {
	if err := j.db.StartMatch(j.ids[g.Index]); err != nil {
		return err
	}
	j.live.begin(j.Event.ID, g.Index, j.ids[g.Index])
	return nil
}

func (j *EventJob) finished(g event.Game, out *runner.Outcome) error {
	o := event.Outcome{Game: g, Ranks: out.Log.Result.Ranks}
	// The result and its rating points go in one transaction: a crash
	// between two writes would keep the game and lose its point.
	err := j.db.Finish(j.ids[g.Index], storage.Finish{Result: out.Log.Result, Log: out.Log,
		Duration: out.Wall.Round(time.Millisecond), Problems: problemsOf(out),
		Ratings: j.ratings(append(j.done[:len(j.done):len(j.done)], o), g.Index)})
	if err != nil {
		return err
	}
	j.live.finish(j.Event.ID, g.Index, out.Log)
	j.done = append(j.done, o)
	return nil
}

// problemsOf counts, per seat, the replies of a played game that were
// late, invalid or lost to a crash, and the timeouts a busy machine caused.
func problemsOf(out *runner.Outcome) []storage.Problems {
	problems := make([]storage.Problems, len(out.Verdicts))
	for seat, v := range out.Verdicts {
		// Timeouts while the machine held the CPU are said apart: the
		// bot is not to blame for them.
		busy := 0
		if seat < len(out.LoadTimeouts) {
			busy = out.LoadTimeouts[seat]
		}
		problems[seat] = storage.Problems{Timeouts: v[engine.Timeout] - busy, Invalid: v[engine.Invalid], Crashed: v[engine.Crashed], Busy: busy}
	}
	return problems
}

// ratings is every entry's rating after game index, for the ratings
// history. It is kept for charts and exports; standings are always
// recomputed from the results themselves.
func (j *EventJob) ratings(done []event.Outcome, index int) []storage.Rating {
	return ratingsAfter(j.Event.Config, done, index)
}

// ratingsAfter is every entry's rating after game index, given the games
// done by then.
func ratingsAfter(cfg event.Config, done []event.Outcome, index int) []storage.Rating {
	t, err := event.Standings(cfg, done)
	if err != nil {
		return nil // a schedule the standings cannot read yet; the result is still saved
	}
	rs := make([]storage.Rating, 0, len(t.Rows))
	for _, r := range t.Rows {
		rs = append(rs, storage.Rating{Entry: r.Entry, AfterMatch: index, Rating: r.Rating, Interval: (r.RatingHigh - r.RatingLow) / 2})
	}
	return rs
}

// Standings is an event with its standings so far.
func (s *Service) Standings(id int64) (storage.Event, event.Table, error) {
	ev, err := s.db.Event(id)
	if err != nil {
		return storage.Event{}, event.Table{}, err
	}
	done, err := s.db.Outcomes(ev.ID)
	if err != nil {
		return ev, event.Table{}, err
	}
	t, err := standings(ev, done)
	if err != nil {
		return ev, event.Table{}, err
	}
	return ev, t, nil
}

// RenameEvent gives event id a new name.
func (s *Service) RenameEvent(id int64, name string) error {
	if strings.TrimSpace(name) == "" {
		return Errorf(Invalid, "give the event a name")
	}
	return wrap(Failed, s.db.RenameEvent(id, name), "rename event %d", id)
}

// DeleteEvent forgets an event with its games, replays and ratings. An
// event being played (here or by another process) is not deleted: stop it
// first.
func (s *Service) DeleteEvent(id int64) error {
	_, err := s.DeleteEventProgress(id, nil)
	return err
}

// deadlineLayouts are the ways a deadline may be written, in local time.
var deadlineLayouts = []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"}

// ParseDeadline reads an event's deadline as people write it: "2026-11-27
// 17:00" (also with a T or seconds), an RFC 3339 time, or "17:00" for
// today; times without a zone are local. "" is no deadline.
func ParseDeadline(text string, now time.Time) (time.Time, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, text); err == nil {
		return t, nil
	}
	for _, layout := range deadlineLayouts {
		if t, err := time.ParseInLocation(layout, text, now.Location()); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("15:04", text, now.Location()); err == nil {
		y, m, d := now.Date()
		return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, now.Location()), nil
	}
	return time.Time{}, Errorf(Invalid, "deadline %q: write a date and time such as %s, or a time today such as 17:00",
		text, now.Format("2006-01-02 15:04"))
}

// lockEvent takes the lock of event id for a change other than a run. The
// advice says what to do when another process runs the event; an event
// that does not exist is NotFound, with no advice about stopping it.
func (s *Service) lockEvent(id int64, advice string) (*storage.EventLock, error) {
	lock, err := s.db.LockEvent(id)
	var locked *storage.LockedError
	switch {
	case err == nil:
		return lock, nil
	case errors.As(err, &locked):
		return nil, &Error{Code: Conflict, Message: err.Error() + "; " + advice, Err: err}
	case errors.Is(err, storage.ErrNotFound):
		return nil, (&Error{Code: NotFound, Message: fmt.Sprintf("there is no event %d", id), Err: err}).withFix(FixListEvents, "")
	}
	return nil, err
}
