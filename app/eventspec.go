package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

// EventSpec is what a person asks for when creating an event, before it is
// checked: the CLI's "event create" flags and the app's dialog both fill
// one in.
type EventSpec struct {
	Name       string
	Game       string
	Format     event.Format
	Entries    []string // NAME=COMMAND, builtin:GAME/NAME or a registered AI's name
	Fillers    []string // bots for empty seats, used in turn
	Candidates []string // gauntlet: names of the entries under test
	Games      int      // 0: the format's default
	Seats      int      // 0: the game's usual count
	Seed       int64
	SeedSet    bool // otherwise a random seed is drawn
	Elo0, Elo1 float64
	Alpha      float64
	Beta       float64
	Options    engine.Options
	// Concurrency 0 means cores − 1; TimeScale 0 means 1.
	Concurrency int
	TimeScale   float64
}

// CreateEvent checks spec, stores the event and its first schedule, and
// returns it with the number of games scheduled so far. Every error says
// what is wrong and what to do; nothing is stored on error.
func CreateEvent(db *storage.DB, spec EventSpec) (storage.Event, int, error) {
	if spec.Game == "" {
		return storage.Event{}, 0, usagef("choose a game (one of %s)", gameIDs())
	}
	g, err := games.Get(spec.Game)
	if err != nil {
		return storage.Event{}, 0, usageError{err.Error()}
	}
	info := g.Info()
	options, err := info.Resolve(spec.Options)
	if err != nil {
		return storage.Event{}, 0, usageError{err.Error()}
	}
	if spec.TimeScale == 0 {
		spec.TimeScale = 1
	}
	if spec.TimeScale < 0 {
		return storage.Event{}, 0, usagef("the time multiplier must be above 0")
	}
	if spec.Format == "" {
		spec.Format = event.League
	}
	if !isFormat(spec.Format) {
		return storage.Event{}, 0, usagef("unknown format %q (league, bracket, gauntlet, swiss, sprt)", spec.Format)
	}
	if len(spec.Entries) == 0 {
		return storage.Event{}, 0, usagef("add entries: NAME=COMMAND, builtin:%s/… or the name of a registered AI", info.ID)
	}
	ev := storage.Event{Game: info.ID, Options: options, Concurrency: spec.Concurrency, TimeScale: spec.TimeScale}
	cfg := event.Config{Format: spec.Format, Games: spec.Games, Seed: spec.Seed,
		Elo0: spec.Elo0, Elo1: spec.Elo1, Alpha: spec.Alpha, Beta: spec.Beta}
	names := map[string]bool{}
	add := func(s string, filler bool) error {
		e, err := resolveEntry(db, s, info.ID)
		if err != nil {
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
	for _, s := range spec.Entries {
		if err := add(s, false); err != nil {
			return storage.Event{}, 0, err
		}
	}
	cfg.Seats = spec.Seats
	if cfg.Seats == 0 {
		cfg.Seats = info.MinSeats
		if info.MaxSeats > info.MinSeats {
			cfg.Seats = max(info.MinSeats, min(len(spec.Entries), info.MaxSeats))
		}
	}
	if cfg.Seats < info.MinSeats || cfg.Seats > info.MaxSeats {
		return storage.Event{}, 0, usagef("%s is played by %s, not %d", info.ID, seatRangeText(info), cfg.Seats)
	}
	if len(spec.Entries) < cfg.Seats && len(spec.Fillers) == 0 {
		return storage.Event{}, 0, usagef("%s needs %d players per game but the event has %d entries; add a filler bot such as builtin:%s/random (--filler on the command line); fillers take the empty seats and are not ranked",
			info.Name, cfg.Seats, len(spec.Entries), info.ID)
	}
	for i := 0; len(ev.Entries) < cfg.Seats; i++ {
		if err := add(spec.Fillers[i%len(spec.Fillers)], true); err != nil {
			return storage.Event{}, 0, err
		}
	}
	for _, cand := range spec.Candidates {
		found := false
		for i := range cfg.Entries {
			if strings.EqualFold(cfg.Entries[i].Name, cand) {
				cfg.Entries[i].Candidate, ev.Entries[i].Candidate, found = true, true, true
			}
		}
		if !found {
			return storage.Event{}, 0, usagef("candidate %q is not one of the entries", cand)
		}
	}
	if cfg.Format == event.SPRT {
		cfg.Entries[0].Candidate, ev.Entries[0].Candidate = true, true
	}
	if cfg.Games == 0 {
		cfg.Games = defaultGames(cfg.Format, len(cfg.Entries))
	}
	if !spec.SeedSet {
		cfg.Seed = time.Now().UnixNano() & (1<<31 - 1)
	}
	if err := event.Validate(cfg); err != nil {
		return storage.Event{}, 0, usageError{err.Error()}
	}
	ev.Config = cfg
	ev.Name = strings.TrimSpace(spec.Name)
	if ev.Name == "" {
		ev.Name = fmt.Sprintf("%s %s %s", info.Name, cfg.Format, time.Now().Format("2006-01-02 15:04"))
	}
	sched, _, err := event.Schedule(cfg, nil)
	if err != nil {
		return storage.Event{}, 0, err
	}
	ev, err = db.CreateEvent(ev)
	if err != nil {
		return storage.Event{}, 0, err
	}
	if err := db.AddMatches(ev.ID, sched); err != nil {
		return storage.Event{}, 0, err
	}
	return ev, len(sched), nil
}

func seatRangeText(info engine.Info) string {
	if info.MinSeats == info.MaxSeats {
		return fmt.Sprintf("exactly %d players", info.MinSeats)
	}
	return fmt.Sprintf("%d to %d players", info.MinSeats, info.MaxSeats)
}

func isFormat(f event.Format) bool {
	for _, x := range event.Formats {
		if x == f {
			return true
		}
	}
	return false
}

func defaultGames(f event.Format, entries int) int {
	switch f {
	case event.Bracket:
		return 3
	case event.Swiss:
		r := 1
		for 1<<r < entries {
			r++
		}
		return r + 1
	case event.SPRT:
		return 2000
	}
	return 2
}

// resolveEntry turns an --entry into how to run it: NAME=COMMAND, a
// built-in bot, or a registered AI's current revision.
func resolveEntry(db *storage.DB, spec, game string) (storage.Entry, error) {
	spec = strings.TrimSpace(spec)
	if name, cmd, ok := strings.Cut(spec, "="); ok && !strings.HasPrefix(spec, runner.BuiltinPrefix) {
		name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
		if name == "" || cmd == "" {
			return storage.Entry{}, usagef("entry %q: write NAME=COMMAND", spec)
		}
		if _, err := runner.Split(cmd); err != nil {
			return storage.Entry{}, usagef("entry %s: %v", name, err)
		}
		return storage.Entry{Name: name, Command: cmd}, nil
	}
	if rest, ok := strings.CutPrefix(spec, runner.BuiltinPrefix); ok {
		g, bot, _ := strings.Cut(rest, "/")
		if g != game {
			return storage.Entry{}, usagef("entry %s is a bot for %s, not %s", spec, g, game)
		}
		gm, _ := games.Get(game)
		for _, b := range gm.Bots() {
			if b == bot {
				return storage.Entry{Name: spec, Command: spec}, nil
			}
		}
		return storage.Entry{}, usagef("entry %s: %s has no built-in bot %q (built-in bots: %s)", spec, game, bot, builtinList())
	}
	name, want := spec, 0
	if base, num, ok := strings.Cut(spec, "@"); ok {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(num), "r"))
		if err != nil || n <= 0 {
			return storage.Entry{}, usagef("entry %q: write AI@rN for revision N of an AI, e.g. alice@r3", spec)
		}
		name, want = strings.TrimSpace(base), n
	}
	ai, err := db.AIByName(name)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.Entry{}, usagef("entry %q is not NAME=COMMAND, a built-in bot or a registered AI (\"ringside ai list\")", spec)
	}
	if err != nil {
		return storage.Entry{}, err
	}
	if ai.Game != game {
		return storage.Entry{}, usagef("AI %s plays %s, not %s", ai.Name, ai.Game, game)
	}
	return aiEntry(db, ai, want)
}

// aiEntry is how revision want of ai plays (0: its current revision, the
// newest successful build). It is the one place that turns a stored
// revision into a bot, for events, compare, play and preflight alike.
func aiEntry(db *storage.DB, ai storage.AI, want int) (storage.Entry, error) {
	var rev storage.Revision
	if want == 0 {
		var err error
		rev, err = db.LatestRevision(ai.ID)
		if errors.Is(err, storage.ErrNotFound) {
			return storage.Entry{}, usagef("AI %s has no successful build yet: run \"ringside ai build %s\"", ai.Name, ai.Name)
		}
		if err != nil {
			return storage.Entry{}, err
		}
	} else {
		revs, err := db.Revisions(ai.ID)
		if err != nil {
			return storage.Entry{}, err
		}
		for _, r := range revs {
			if r.Number == want && r.Status == storage.BuildOK {
				rev = r
			}
		}
		if rev.ID == 0 {
			return storage.Entry{}, usagef("AI %s has no revision %d (\"ringside ai revisions %s\" lists them)", ai.Name, want, ai.Name)
		}
	}
	bot := revisionBot(ai, rev)
	return storage.Entry{Name: bot.Name, RevisionID: rev.ID, Command: bot.Command, Dir: bot.Dir}, nil
}
