package service

import (
	"fmt"
	"io"
	"os"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/storage"
)

// View models: what the GUI shows, read and computed here once, in the
// service's own types, so that the GUI needs neither storage nor runner.
// Each view keeps the stored values it was built from (unexported), for
// the service's functions that take them.

// EventStatus is where an event stands.
type EventStatus string

// Event statuses.
const (
	EventCreated   EventStatus = EventStatus(storage.EventCreated)
	EventRunning   EventStatus = EventStatus(storage.EventRunning)
	EventPaused    EventStatus = EventStatus(storage.EventPaused)
	EventFinished  EventStatus = EventStatus(storage.EventFinished)
	EventCancelled EventStatus = EventStatus(storage.EventCancelled)
)

// GameStatus is where one game of an event stands.
type GameStatus string

// Game statuses.
const (
	GameScheduled GameStatus = GameStatus(storage.MatchScheduled)
	GameRunning   GameStatus = GameStatus(storage.MatchRunning)
	GameDone      GameStatus = GameStatus(storage.MatchDone)
	GameError     GameStatus = GameStatus(storage.MatchError) // Ringside could not play it
)

// Problems counts a seat's (or an entry's) replies that were late,
// invalid, or lost because the bot crashed; Busy are timeouts under load,
// not the bot's fault.
type Problems struct {
	Timeouts, Invalid, Crashed, Busy int
}

// Any reports whether anything went wrong.
func (p Problems) Any() bool { return p != Problems{} }

// EntryInfo is one competitor of an event.
type EntryInfo struct {
	Index int
	Name  string // as stored: "alice r3", "builtin:grip/random"
	Spec  string // as written: "alice@r3"; "" for old events
	// RevisionID is the stored revision the entry plays (0: a command or
	// a built-in): whose entry it is, for a student's page.
	RevisionID int64
	Filler     bool
	Candidate  bool
	Trusted    bool
}

// EventInfo is an event's configuration and state.
type EventInfo struct {
	ID      int64
	Name    string
	Game    string
	Options engine.Options
	Config  event.Config
	Status  EventStatus
	// Concurrency is the number of games played at once, the runner's
	// default for the event's seats when none was chosen.
	Concurrency int
	// TimeScale multiplies the games' time limits (at least 1).
	TimeScale float64
	Created   time.Time
	Finished  time.Time // zero until finished or cancelled
	Entries   []EntryInfo
	Trusted   bool
	Deadline  time.Time
	Pace      float64
	// SandboxText says how the event's bots are contained
	// (EventSandboxText).
	SandboxText string

	stored storage.Event
}

// eventInfo is ev as the front ends see it.
func eventInfo(ev storage.Event) EventInfo {
	conc := ev.Concurrency
	if conc == 0 {
		conc = DefaultConcurrency(ev.Config.Seats)
	}
	info := EventInfo{ID: ev.ID, Name: ev.Name, Game: ev.Game, Options: ev.Options, Config: ev.Config,
		Status: EventStatus(ev.Status), Concurrency: conc, TimeScale: event.TimeScale(ev.TimeScale),
		Created: ev.Created, Finished: ev.Finished, Trusted: ev.Trusted, Deadline: ev.Deadline, Pace: ev.Pace,
		SandboxText: EventSandboxText(ev), stored: ev}
	info.Entries = make([]EntryInfo, len(ev.Entries))
	for i, e := range ev.Entries {
		info.Entries[i] = EntryInfo{Index: e.Index, Name: e.Name, Spec: e.Spec, RevisionID: e.RevisionID, Filler: e.Filler,
			Candidate: e.Candidate, Trusted: EntryTrusted(ev, e)}
	}
	return info
}

// TrustedNames are the entries that run without the sandbox
// (TrustedNames).
func (e EventInfo) TrustedNames() []string { return TrustedNames(e.stored) }

// Over reports whether the event will play no more games (finished or
// cancelled): its standings are final.
func (e EventInfo) Over() bool { return e.Status == EventFinished || e.Status == EventCancelled }

// GameView is one scheduled game of an event and, once played, its
// result.
type GameView struct {
	ID       int64
	Game     event.Game
	Status   GameStatus
	Result   *engine.Result // set when done
	Error    string         // set when it could not be played
	Started  time.Time
	Finished time.Time
	Duration time.Duration
	Problems []Problems // per seat, in a finished game; nil for old games
	// Away says the game is out in an exported bundle (not back yet).
	Away bool
}

func gameViews(ms []storage.Match, away map[int64]bool) []GameView {
	out := make([]GameView, len(ms))
	for i, m := range ms {
		out[i] = GameView{ID: m.ID, Game: m.Game, Status: GameStatus(m.Status), Result: m.Result, Error: m.Error,
			Started: m.Started, Finished: m.Finished, Duration: m.Duration, Away: away[m.ID]}
		if m.Problems != nil {
			out[i].Problems = make([]Problems, len(m.Problems))
			for s, p := range m.Problems {
				out[i].Problems[s] = Problems(p)
			}
		}
	}
	return out
}

// Holder is another process playing an event: another Ringside window,
// "ringside event run".
type Holder struct {
	PID  int
	Host string
	text string
}

func (h Holder) String() string { return h.text }

// ShardCounts says how an exported event's games are: bundles written,
// games out, back and still missing.
type ShardCounts struct {
	Shards, Out, Back, Missing int
}

// OutShard is a bundle of an event's games still out.
type OutShard struct {
	File          string
	Number, Count int
	Missing       int // games it carries still waited for
}

// EventView is everything an event's screen shows, read at once.
type EventView struct {
	Event    EventInfo
	Games    []GameView       // every scheduled game, in schedule order
	Outcomes []event.Outcome  // the finished games' results
	Table    event.Table      // the standings (valid when TableErr is nil)
	TableErr error            // why the standings cannot be computed
	Problems map[int]Problems // by entry
	// Player is the process playing the event now, this one included;
	// Elsewhere is Player when that is another process. nil when none.
	Player, Elsewhere *Holder
	Shards            ShardCounts
	// OutShards are the bundles out (games sent, not back): the event is
	// locked against a run while there are any.
	OutShards []OutShard

	problems map[int]storage.Problems
	matches  []storage.Match
}

// Interrupted reports whether the event is marked running while no
// process plays it: the app that played it was killed or crashed. Its
// games marked running are played again on Resume, so a front end says
// "interrupted", never "running" or "playing".
func (v *EventView) Interrupted() bool {
	return v.Event.Status == EventRunning && v.Player == nil
}

// standings is an event's standings table from its finished games: the
// one place the front ends' standings come from (Standings, EventView).
func standings(ev storage.Event, done []event.Outcome) (event.Table, error) {
	t, err := event.Standings(ev.Config, done)
	if err != nil {
		return event.Table{}, wrap(Failed, err, "standings of event %d", ev.ID)
	}
	return t, nil
}

// EventView reads event id with its games, standings, problems and
// shards.
func (s *Service) EventView(id int64) (*EventView, error) {
	v := &EventView{}
	if h, running, err := s.db.EventHolder(id); err == nil && running {
		v.Player = &Holder{PID: h.PID, Host: h.Host, text: h.String()}
		if h.PID != os.Getpid() {
			v.Elsewhere = v.Player
		}
	}
	ev, err := s.db.Event(id)
	if err != nil {
		return nil, err
	}
	if v.matches, err = s.db.Matches(id); err != nil {
		return nil, err
	}
	if v.Outcomes, err = s.db.Outcomes(id); err != nil {
		return nil, err
	}
	if v.problems, err = s.db.EntryProblems(id); err != nil {
		return nil, err
	}
	v.Problems = make(map[int]Problems, len(v.problems))
	for e, p := range v.problems {
		v.Problems[e] = Problems(p)
	}
	away, err := s.shardsOf(id, v)
	if err != nil {
		return nil, err
	}
	v.Event = eventInfo(ev)
	v.Games = gameViews(v.matches, away)
	v.Table, v.TableErr = standings(ev, v.Outcomes)
	return v, nil
}

// shardsOf fills v's shard counts and bundles still out, and returns the
// games out in them.
func (s *Service) shardsOf(id int64, v *EventView) (away map[int64]bool, err error) {
	c, err := s.db.ShardCounts(id)
	if err != nil {
		return nil, err
	}
	v.Shards = ShardCounts(c)
	if c.Missing == 0 {
		return nil, nil
	}
	out, err := s.db.OutShards(id)
	if err != nil || len(out) == 0 {
		return nil, err
	}
	for _, sh := range out {
		v.OutShards = append(v.OutShards, OutShard{File: sh.File, Number: sh.Number, Count: sh.Count, Missing: sh.Missing})
	}
	return s.db.OutMatches(id)
}

// WriteStandings writes the view's standings with its problems
// (WriteStandings).
func (v *EventView) WriteStandings(w io.Writer, format string) error {
	return WriteStandings(w, v.Table, v.problems, format, v.Event.Over())
}

// Featured picks the game in play most worth showing on a projector
// (Featured).
func (v *EventView) Featured(running []LiveGame) int64 {
	return Featured(v.Event.stored, v.matches, v.Table, running)
}

// GameTitle names game g for a projector (MatchTitle).
func (v *EventView) GameTitle(g GameView, rounds int, name func(string) string) string {
	for _, m := range v.matches {
		if m.ID == g.ID {
			return MatchTitle(v.Event.stored, m, rounds, name)
		}
	}
	return fmt.Sprintf("Game %d", GameNumber(g.Game))
}

// EventSummary is an event's line in a list: the event and how many of
// its games are done.
type EventSummary struct {
	Event     EventInfo
	Done, All int
	// Interrupted: the event is marked running but no process plays it
	// (the app that did was killed); Resume carries it on.
	Interrupted bool
}

// EventList lists every event with its games' counts, newest first.
func (s *Service) EventList() ([]EventSummary, error) {
	evs, err := s.db.ListEvents()
	if err != nil {
		return nil, err
	}
	out := make([]EventSummary, len(evs))
	for i, ev := range evs {
		out[i].Event = eventInfo(ev)
		// A count that cannot be read shows as 0/0, as it always did:
		// the list is still worth showing.
		out[i].Done, out[i].All, _ = s.db.MatchCounts(ev.ID)
		if ev.Status == storage.EventRunning {
			_, running, err := s.db.EventHolder(ev.ID)
			out[i].Interrupted = err == nil && !running
		}
	}
	return out, nil
}

// HasEvents reports whether the database holds any event.
func (s *Service) HasEvents() (bool, error) {
	evs, err := s.db.ListEvents()
	return len(evs) > 0, err
}

// EventInfo reads event id's configuration and state.
func (s *Service) EventInfo(id int64) (EventInfo, error) {
	ev, err := s.db.Event(id)
	if err != nil {
		return EventInfo{}, err
	}
	return eventInfo(ev), nil
}

// PlayedElsewhere reports whether a process holds event id's lock and
// plays it now: asked before this process starts the event, another one
// (a window, "ringside event run").
func (s *Service) PlayedElsewhere(id int64) (bool, error) {
	_, running, err := s.db.EventHolder(id)
	return running, err
}

// Progress says where a running event is: games done and known so far,
// being played, paused or finished, the run's time and an estimate of
// the time left (0 until a game has finished).
type Progress struct {
	Done      int
	Scheduled int
	Running   int
	Paused    bool
	Finished  bool
	Elapsed   time.Duration
	Left      time.Duration
}

// Words says where the event is, in parts a front end joins
// (ProgressWords).
func (p Progress) Words() []string { return ProgressWords(runner.Progress(p)) }

// Events lists every event, newest first, without counting games
// (EventList does).
func (s *Service) Events() ([]EventInfo, error) {
	evs, err := s.db.ListEvents()
	if err != nil {
		return nil, err
	}
	out := make([]EventInfo, len(evs))
	for i, ev := range evs {
		out[i] = eventInfo(ev)
	}
	return out, nil
}

// BuiltinPrefix starts the command of a built-in bot: "builtin:grip/random".
const BuiltinPrefix = runner.BuiltinPrefix

// BuiltinSpecs are the entry specs of game's built-in bots
// ("builtin:grip/random"…); none for an unknown game.
func BuiltinSpecs(game string) []string {
	g, err := games.Get(game)
	if err != nil {
		return nil
	}
	var out []string
	for _, b := range g.Bots() {
		out = append(out, BuiltinPrefix+game+"/"+b)
	}
	return out
}

// BuiltAI is an AI that can play: its name, its game, and its successful
// builds as entry specs (NAME@rN), newest first.
type BuiltAI struct {
	Name, Game string
	Revisions  []string
}

// BuiltAIs lists the AIs with at least one successful build, by name. An
// AI whose builds cannot be read is left out: a list to choose from is
// still worth showing.
func (s *Service) BuiltAIs() ([]BuiltAI, error) {
	ais, err := s.db.ListAIs()
	if err != nil {
		return nil, err
	}
	var out []BuiltAI
	for _, ai := range ais {
		revs, err := s.db.Revisions(ai.ID)
		if err != nil {
			continue
		}
		b := BuiltAI{Name: ai.Name, Game: ai.Game}
		for i := len(revs) - 1; i >= 0; i-- {
			if revs[i].Status == storage.BuildOK {
				b.Revisions = append(b.Revisions, fmt.Sprintf("%s@r%d", ai.Name, revs[i].Number))
			}
		}
		if len(b.Revisions) > 0 {
			out = append(out, b)
		}
	}
	return out, nil
}

// CompareView is where a head-to-head comparison stands, in words.
type CompareView struct {
	Event    EventInfo
	Report   event.SPRTReport
	Sentence string // CompareSentence
	Numbers  string // CompareNumbers
}

// CompareView reads comparison event id and where it stands.
func (s *Service) CompareView(id int64) (CompareView, error) {
	ev, err := s.db.Event(id)
	if err != nil {
		return CompareView{}, err
	}
	rep, err := s.CompareReport(ev)
	if err != nil {
		return CompareView{}, err
	}
	return CompareView{Event: eventInfo(ev), Report: rep, Sentence: CompareSentence(ev, rep), Numbers: CompareNumbers(rep)}, nil
}

// ErrNotFound is wrapped by the errors of reads that found nothing: no
// replay stored (yet) for a game.
var ErrNotFound = storage.ErrNotFound

// Replay reads the stored replay of game matchID.
func (s *Service) Replay(matchID int64) (*engine.Log, error) { return s.db.Replay(matchID) }

// LiveReplay reads the turns saved so far of game matchID, played by
// another process (ErrNotFound when none are saved).
func (s *Service) LiveReplay(matchID int64) (*engine.Log, error) {
	log, _, err := s.db.LiveReplay(matchID)
	return log, err
}

// GamePlaying reports whether game matchID is being played (by any
// process).
func (s *Service) GamePlaying(matchID int64) bool {
	m, err := s.db.Match(matchID)
	return err == nil && m.Status == storage.MatchRunning
}

// DefaultPath is the database's path when none is given.
func DefaultPath() (string, error) { return storage.DefaultPath() }

// BuildStatus is how a revision's build went.
type BuildStatus string

// Build statuses.
const (
	BuildOK     BuildStatus = BuildStatus(storage.BuildOK)
	BuildFailed BuildStatus = BuildStatus(storage.BuildFailed)
)

// AIInfo is a registered AI as the front ends see it.
type AIInfo struct {
	ID        int64
	Name      string
	Game      string
	Language  string
	SourceDir string
	BuildCmd  string // "" when nothing needs building
	RunCmd    string
	Watch     bool
	Created   time.Time
	// Current and Pinned are the IDs of the revision that plays and the
	// one events play instead (0: none).
	Current, Pinned int64
	CurrentSince    time.Time // when Current was last set
	Trusted         bool
	Limits          string
	Options         string
	// BuildText describes the build command (BuildText), SandboxText how
	// the AI runs (AISandboxText), RevisionsDir where its builds are kept.
	BuildText, SandboxText, RevisionsDir string

	stored storage.AI
}

func (s *Service) aiInfo(ai storage.AI) AIInfo {
	return AIInfo{ID: ai.ID, Name: ai.Name, Game: ai.Game, Language: ai.Language, SourceDir: ai.SourceDir,
		BuildCmd: ai.BuildCmd, RunCmd: ai.RunCmd, Watch: ai.Watch, Created: ai.Created, Current: ai.Current,
		Pinned: ai.Pinned, CurrentSince: ai.CurrentSince, Trusted: ai.Trusted, Limits: ai.Limits, Options: ai.Options,
		BuildText: BuildText(ai), SandboxText: AISandboxText(ai), RevisionsDir: s.db.RevisionsDir(ai), stored: ai}
}

// RevisionInfo is one build of an AI.
type RevisionInfo struct {
	ID       int64
	Number   int // counts successful builds 1, 2, 3…; 0 for a failed one
	Hash     string
	Status   BuildStatus
	BuildLog string
	// ArtifactDir is the revision's folder.
	ArtifactDir string
	Created     time.Time
}

func revisionInfo(r storage.Revision) RevisionInfo {
	return RevisionInfo{ID: r.ID, Number: r.Number, Hash: r.Hash, Status: BuildStatus(r.Status), BuildLog: r.BuildLog, ArtifactDir: r.ArtifactDir, Created: r.Created}
}

// AIView is an AI with what its builds say (AIStatus), in the service's
// own types.
type AIView struct {
	AI AIInfo
	// Current is the revision that plays, Pinned the one events play
	// instead, Last the newest build (failed ones included); nil when
	// there is none.
	Current, Pinned, Last *RevisionInfo
	Revisions             []RevisionInfo // every build, oldest first
	Failed                int            // failed builds among them
	// Missing says the source folder is gone.
	Missing bool

	lastFailed bool
}

// LastFailed reports whether the AI's sources, as far as anyone knows,
// are those of a failed build (AIStatus.LastFailed).
func (v AIView) LastFailed() bool { return v.lastFailed }

func (s *Service) aiView(st AIStatus) AIView {
	v := AIView{AI: s.aiInfo(st.AI), Failed: st.Failed, Missing: st.Missing, lastFailed: st.LastFailed()}
	v.Revisions = make([]RevisionInfo, len(st.Revisions))
	for i, r := range st.Revisions {
		v.Revisions[i] = revisionInfo(r)
		// The pointers point into Revisions, as AIStatus's do.
		if st.Current != nil && r.ID == st.Current.ID {
			v.Current = &v.Revisions[i]
		}
		if st.Pinned != nil && r.ID == st.Pinned.ID {
			v.Pinned = &v.Revisions[i]
		}
		if st.Last != nil && r.ID == st.Last.ID {
			v.Last = &v.Revisions[i]
		}
	}
	return v
}

// AIViews lists every AI with its builds, by name.
func (s *Service) AIViews() ([]AIView, error) {
	sts, err := s.AIs()
	if err != nil {
		return nil, err
	}
	out := make([]AIView, len(sts))
	for i, st := range sts {
		out[i] = s.aiView(st)
	}
	return out, nil
}

// AIView reads AI id with its builds.
func (s *Service) AIView(id int64) (AIView, error) {
	st, err := s.AIByID(id)
	if err != nil {
		return AIView{}, err
	}
	return s.aiView(st), nil
}

// SourcesOf lists ai's source files and what is left out of its builds
// (SourceFiles).
func (s *Service) SourcesOf(ai AIInfo) Sources { return s.SourceFiles(ai.stored) }

// The watcher's defaults: how long a folder must be quiet after a save
// before it is built, and how long a build may take.
const (
	DefaultDebounce     = build.DefaultDebounce
	DefaultBuildTimeout = build.DefaultBuildTimeout
)
