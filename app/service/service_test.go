package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// openTemp opens a service on a fresh database.
func openTemp(t *testing.T) *Service {
	t.Helper()
	dir := t.TempDir()
	// Revisions are sealed read-only: writable again before the clean-up
	// deletes them (an ordinary user could not).
	t.Cleanup(func() { build.Unseal(dir) })
	s, err := Open(filepath.Join(dir, "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// registered adds a built Python Grip bot called name.
func registered(t *testing.T, s *Service, name string) storage.AI {
	t.Helper()
	runnertest.NeedPython(t)
	dir := filepath.Join(t.TempDir(), name)
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	reg, err := s.Register(NewAI{Name: name, Game: "grip", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Build(context.Background(), reg.AI.ID, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	return reg.AI
}

func TestRegisterRefusals(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	registered(t, s, "alice")
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	tests := []struct {
		name string
		ai   NewAI
		code Code
		want string
		fix  Fix
	}{
		{"no name", NewAI{Game: "grip", Dir: dir}, Invalid, "give the AI a name", FixNone},
		{"built-in name", NewAI{Name: "builtin:me", Game: "grip", Dir: dir}, Invalid, "kept for built-in bots", FixNone},
		{"entry syntax", NewAI{Name: "a@r2", Game: "grip", Dir: dir}, Invalid, "has = or @", FixNone},
		{"no game", NewAI{Name: "x", Dir: dir}, Invalid, "choose the game", FixListGames},
		{"unknown game", NewAI{Name: "x", Game: "chess", Dir: dir}, Invalid, `unknown game "chess"`, FixListGames},
		{"taken name", NewAI{Name: "ALICE", Game: "grip", Dir: dir}, Conflict, `an AI named "alice" already exists: choose another name, or change that AI`, FixEdit},
		{"no folder", NewAI{Name: "x", Game: "grip", Dir: filepath.Join(dir, "nope")}, Failed, "no such folder", FixNone},
		{"missing program", NewAI{Name: "x", Game: "grip", Dir: dir, Run: "nosuch-4711 bot.py"}, Failed, "nosuch-4711 is not installed", FixNone},
		{"unknown limit", NewAI{Name: "x", Game: "grip", Dir: dir, Limits: "ram=1G"}, Invalid, `limit "ram": no such limit`, FixNone},
		{"bad size", NewAI{Name: "x", Game: "grip", Dir: dir, Limits: "memory=lots"}, Invalid, "want a size above 0", FixNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Register(tt.ai)
			if ErrorCode(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (code %q), want %q with code %q", err, ErrorCode(err), tt.want, tt.code)
			}
			if fix, _ := ErrorFix(err); fix != tt.fix {
				t.Errorf("fix = %q, want %q", fix, tt.fix)
			}
		})
	}
	if ais, _ := s.AIs(); len(ais) != 1 {
		t.Errorf("%d AIs after the refusals, want 1", len(ais))
	}
}

func TestResolveEntry(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	alice := registered(t, s, "alice")
	tests := []struct {
		spec, game string
		name, cmd  string // want, when no error
		code       Code
		fix        Fix
	}{
		{"bob=python3 bot.py", "grip", "bob", "python3 bot.py", "", FixNone},
		{"builtin:grip/greedy", "grip", "builtin:grip/greedy", "builtin:grip/greedy", "", FixNone},
		{"alice", "grip", "alice r1", "python3 bot.py", "", FixNone},
		{"ALICE@r1", "grip", "alice r1", "python3 bot.py", "", FixNone},
		{"alice@r7", "grip", "", "", Invalid, FixRevisions},
		{"alice@seven", "grip", "", "", Invalid, FixNone},
		{"alice", "battle2048", "", "", Invalid, FixNone},
		{"nobody", "grip", "", "", Invalid, FixListAIs},
		{"builtin:grip/wizard", "grip", "", "", Invalid, FixListGames},
		{"builtin:cloud/hunter", "grip", "", "", Invalid, FixNone},
		{"=python3 x.py", "grip", "", "", Invalid, FixNone},
		{"bob=python3 'x.py", "grip", "", "", Invalid, FixNone},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			e, err := s.ResolveEntry(tt.spec, tt.game)
			if tt.code != "" {
				if ErrorCode(err) != tt.code {
					t.Fatalf("err = %v (code %q), want code %q", err, ErrorCode(err), tt.code)
				}
				if fix, _ := ErrorFix(err); fix != tt.fix {
					t.Errorf("fix = %q, want %q", fix, tt.fix)
				}
				return
			}
			if err != nil || e.Name != tt.name || e.Command != tt.cmd {
				t.Fatalf("= %+v, %v; want %s running %q", e, err, tt.name, tt.cmd)
			}
			if strings.HasPrefix(tt.spec, "alice") || strings.HasPrefix(tt.spec, "ALICE") {
				cur, _ := s.DB().CurrentRevision(alice.ID)
				if e.RevisionID != cur.ID || e.Dir != cur.ArtifactDir {
					t.Errorf("entry %+v does not run the current revision %+v", e, cur)
				}
			}
		})
	}
}

func TestUnbuiltAIAsksForABuild(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	runnertest.NeedPython(t)
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	if _, err := s.Register(NewAI{Name: "nina", Game: "grip", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	_, err := s.ResolveEntry("nina", "grip")
	if fix, subject := ErrorFix(err); ErrorCode(err) != Invalid || fix != FixBuild || subject != "nina" {
		t.Fatalf("err = %v, fix %q %q; want Invalid with FixBuild nina", err, fix, subject)
	}
}

func TestEditAndRemove(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	alice := registered(t, s, "alice")
	registered(t, s, "bob")
	bad := "nosuch-4711 bot.py"
	if _, err := s.EditAI(alice.ID, AIEdit{Run: &bad}); ErrorCode(err) != Failed || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("a run command that cannot work: %v", err)
	}
	bob := "Bob"
	if _, err := s.EditAI(alice.ID, AIEdit{Name: &bob}); ErrorCode(err) != Conflict {
		t.Errorf("renaming onto bob: %v", err)
	}
	on := true
	ed, err := s.EditAI(alice.ID, AIEdit{Watch: &on})
	if err != nil || ed.Rebuild || !ed.AI.Watch {
		t.Errorf("watch on: %+v, %v", ed, err)
	}
	run := "python3 ./bot.py"
	if ed, err = s.EditAI(alice.ID, AIEdit{Run: &run}); err != nil || !ed.Rebuild {
		t.Errorf("a new run command needs a build: %+v, %v", ed, err)
	}
	st, err := s.AIByID(alice.ID)
	if err != nil || st.Current == nil {
		t.Fatalf("alice: %+v, %v", st, err)
	}
	src := st.AI.SourceDir
	rm, err := s.RemoveAI(alice.ID, true)
	if err != nil || len(rm.Folders) != 1 {
		t.Fatalf("remove: %+v, %v", rm, err)
	}
	if _, err := os.Stat(st.Current.ArtifactDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the revision folder is still there: %v", err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Errorf("the source folder was touched: %v", err)
	}
	if _, err := s.AI("alice"); ErrorCode(err) != NotFound {
		t.Errorf("alice after removal: %v", err)
	}
	if _, err := s.RemoveAI(alice.ID, false); ErrorCode(err) != NotFound {
		t.Errorf("removing twice: %v", err)
	}
}

func TestCreateEventRefusals(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	tests := []struct {
		name string
		spec EventSpec
		want string
		fix  Fix
	}{
		{"no game", EventSpec{Entries: []string{"builtin:grip/random"}}, "choose a game", FixListGames},
		{"no entries", EventSpec{Game: "grip"}, "add entries", FixNone},
		{"bad option", EventSpec{Game: "grip", Options: map[string]string{"turn_ms": "soon"},
			Entries: []string{"builtin:grip/random"}}, "turn_ms", FixListGames},
		{"too few players", EventSpec{Game: "grip", Entries: []string{"builtin:grip/random", "builtin:grip/greedy"}},
			"add a filler bot such as builtin:grip/random", FixFiller},
		{"cannot start", EventSpec{Game: "battle2048", Entries: []string{"zed=pyhton3 bot.py", "builtin:battle2048/random"}},
			"entry zed cannot start: pyhton3 is not installed", FixNone},
		{"sprt of three", EventSpec{Game: "battle2048", Format: event.SPRT,
			Entries: []string{"builtin:battle2048/random", "builtin:battle2048/greedy", "a=builtin:battle2048/random"}}, "sprt", FixNone},
		{"bad limits", EventSpec{Game: "battle2048", Limits: "cpu=0s",
			Entries: []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}}, "limit cpu=0s", FixNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := s.CreateEvent(tt.spec)
			if ErrorCode(err) != Invalid || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (code %q), want Invalid saying %q", err, ErrorCode(err), tt.want)
			}
			if fix, _ := ErrorFix(err); fix != tt.fix {
				t.Errorf("fix = %q, want %q", fix, tt.fix)
			}
		})
	}
	if evs, _ := s.DB().ListEvents(); len(evs) != 0 {
		t.Errorf("%d events stored by refused creates", len(evs))
	}
}

func TestRenameAndDeleteEvent(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ev, _, err := s.CreateEvent(EventSpec{Game: "battle2048", Games: 1, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RenameEvent(ev.ID, "  "); ErrorCode(err) != Invalid {
		t.Errorf("empty name: %v", err)
	}
	if err := s.RenameEvent(ev.ID, "Class 3B, round 1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.DB().Event(ev.ID); got.Name != "Class 3B, round 1" {
		t.Errorf("name = %q", got.Name)
	}
	lock, err := s.DB().LockEvent(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteEvent(ev.ID); ErrorCode(err) != Conflict {
		t.Errorf("deleting a running event: %v", err)
	}
	lock.Release()
	if err := s.DeleteEvent(ev.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := s.DB().Event(ev.ID); ErrorCode(err) != NotFound {
		t.Errorf("the event is still there: %v", err)
	}
}

func TestRatingTextHasNoMinusZero(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rating, low, high float64
		want              string
	}{
		{-0.3, -90.3, 89.7, "0 ± 90"},
		{0.4, -89.6, 90.4, "0 ± 90"},
		{-12.6, -50, 25, "-13 ± 38"},
		{250, 200, 300, "250 ± 50"},
	}
	for _, tt := range tests {
		if got := RatingText(event.Standing{Rating: tt.rating, RatingLow: tt.low, RatingHigh: tt.high}); got != tt.want {
			t.Errorf("RatingText(%v) = %q, want %q", tt.rating, got, tt.want)
		}
	}
}

// TestSandboxSettingsReachTheBots follows an AI's and an event's sandbox
// settings from the service's input to the bots the runner starts.
func TestSandboxSettingsReachTheBots(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	alice := registered(t, s, "alice")
	bob := registered(t, s, "bob")
	trusted, limits := true, "processes=16 memory=256m"
	if _, err := s.EditAI(alice.ID, AIEdit{Trusted: &trusted}); err != nil {
		t.Fatal(err)
	}
	ed, err := s.EditAI(bob.ID, AIEdit{Limits: &limits})
	if err != nil {
		t.Fatal(err)
	}
	if ed.AI.Limits != "memory=256M processes=16" || ed.Rebuild {
		t.Errorf("bob's limits stored as %q (rebuild %v), want them normalised and no rebuild", ed.AI.Limits, ed.Rebuild)
	}
	ev, _, err := s.CreateEvent(EventSpec{Game: "grip", Limits: "cpu=2m memory=512M", SeedSet: true,
		Entries: []string{"alice", "bob", "builtin:grip/random", "builtin:grip/greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	// Changing the AI afterwards does not change how the event plays it.
	off := false
	if _, err := s.EditAI(alice.ID, AIEdit{Trusted: &off}); err != nil {
		t.Fatal(err)
	}
	job, err := s.EventJob(ev.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	sb := job.Run.Sandbox
	if sb.Trusted || sb.Limits == nil || sb.Limits.CPU != 2*time.Minute || sb.Limits.Memory != 512<<20 {
		t.Fatalf("event sandbox = %+v, want cpu 2m and memory 512M", sb)
	}
	bots := job.Run.Bots
	if !bots[0].Trusted || bots[1].Trusted || bots[2].Trusted {
		t.Errorf("trusted = %v %v %v, want only alice", bots[0].Trusted, bots[1].Trusted, bots[2].Trusted)
	}
	l := bots[1].Limits
	if l == nil || l.Memory != 256<<20 || l.Processes != 16 || l.CPU != 2*time.Minute {
		t.Errorf("bob's caps = %+v, want his memory and processes over the event's cpu", l)
	}
	if bots[2].Limits != nil {
		t.Errorf("a built-in bot has its own caps %+v, want the event's", bots[2].Limits)
	}
}

func TestReasonText(t *testing.T) {
	t.Parallel()
	tests := []struct{ reason, want string }{
		{"last_standing", "last one standing"},
		{"turn_limit", "all turns played"},
		{"tie_second_player", "tie, won by the second player"},
		{"some_new_reason", "some new reason"},
	}
	for _, tt := range tests {
		if got := ReasonText(tt.reason); got != tt.want {
			t.Errorf("ReasonText(%q) = %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// TestCheckRefusesUnknownStoredOptions: options that did not come through
// CheckAIOptions (another program wrote them) stop the check with the
// options that are allowed.
func TestCheckRefusesUnknownStoredOptions(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"bot.sh": "echo READY\n"})
	ai, err := s.db.AddAI(storage.AI{Name: "odd", Game: "grip", SourceDir: dir, RunCmd: "sh bot.sh", Options: "speed=fast"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Check(context.Background(), ai.ID, CheckOptions{})
	if err == nil || !strings.Contains(err.Error(), "can only set coords=rc|xy") {
		t.Fatalf("check of an AI with unknown options: %v", err)
	}
}

func TestCheckAIOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		game, text, want, err string
	}{
		{"grip", "", "", ""},
		{"grip", "coords=xy", "coords=xy", ""},
		{"grip", " coords=rc ", "coords=rc", ""},
		{"battle2048", "protocol=beta", "protocol=beta", ""},
		{"grip", "coords=xy,coords=rc", "", "given twice"},
		{"grip", "coords", "", "write KEY=VALUE"},
		{"grip", "coords=", "", "write KEY=VALUE"},
		{"grip", "turn_ms=5", "", "can only set coords=rc|xy"},
		{"battle2048", "coords=xy", "", "can only set protocol=final|beta"},
		{"cloud", "transport=tcp", "", "cannot carry game options"},
		{"cloud", "deterministic=yes", "deterministic=yes", ""},
		{"grip", "deterministic=no coords=xy", "coords=xy deterministic=no", ""},
		{"grip", "deterministic=maybe", "", "want yes or no"},
	}
	for _, tt := range tests {
		got, err := CheckAIOptions(tt.game, tt.text)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("CheckAIOptions(%s, %q) error %v, want %q", tt.game, tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CheckAIOptions(%s, %q) = %q, %v; want %q", tt.game, tt.text, got, err, tt.want)
		}
	}
	got, err := SetAIOptions("grip", "coords=xy", []string{"coords="})
	if err != nil || got != "" {
		t.Errorf("SetAIOptions removing coords = %q, %v", got, err)
	}
}

// TestEntryBotDeterministic: built-ins and AIs marked deterministic=yes
// play as deterministic seats; the mark is no game option, so it never
// reaches the game's options.
func TestEntryBotDeterministic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		command, options string
		det              bool
		opts             engine.Options
	}{
		{"builtin:grip/greedy", "", true, nil},
		{"python3 bot.py", "", false, nil},
		{"python3 bot.py", "deterministic=yes", true, nil},
		{"python3 bot.py", "coords=xy deterministic=yes", true, engine.Options{"coords": "xy"}},
		{"python3 bot.py", "deterministic=no coords=xy", false, engine.Options{"coords": "xy"}},
	}
	for _, tt := range tests {
		b := EntryBot(storage.Entry{Name: "x", Command: tt.command, Options: tt.options}, runner.DefaultLimits)
		if b.Deterministic != tt.det || !maps.Equal(b.Options, tt.opts) {
			t.Errorf("EntryBot(%q, %q): deterministic %v, options %v; want %v, %v", tt.command, tt.options, b.Deterministic, b.Options, tt.det, tt.opts)
		}
	}
}

func TestParseDeadline(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)
	tests := []struct {
		text string
		want time.Time
		err  bool
	}{
		{"", time.Time{}, false},
		{"2026-11-27 17:00", time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC), false},
		{"2026-11-27T17:00:30", time.Date(2026, 11, 27, 17, 0, 30, 0, time.UTC), false},
		{"2026-11-27T17:00:00+01:00", time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC), false},
		{"17:00", time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC), false},
		{"friday", time.Time{}, true},
		{"25:00", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := ParseDeadline(tt.text, now)
		if (err != nil) != tt.err || !got.Equal(tt.want) {
			t.Errorf("ParseDeadline(%q) = %v, %v; want %v (error %v)", tt.text, got, err, tt.want, tt.err)
		}
	}
}

// TestPlanWords: the plan line says what Create would start. A paced
// event's length comes from its pace, never from unpaced games played
// here lately (the line once said "about 7s" and "a game lasts at least
// 38s" at once).
func TestPlanWords(t *testing.T) {
	t.Parallel()
	league := Plan{Format: event.League, Entries: 8, Seats: 4, Games: 840, AtOnce: 3}
	measured := league
	measured.PerGame, measured.Measured = 2*time.Second, 5
	paced := measured
	paced.Pace = 10
	sprt := Plan{Format: event.SPRT, Entries: 2, Seats: 2, Games: 500, Fillers: 1}
	for _, tt := range []struct {
		name string
		p    Plan
		want string
	}{
		{"nothing measured yet", league, "A league of 8 entries, 4 per game: 840 games; how long they take shows once the first games are played."},
		{"measured", measured, "A league of 8 entries, 4 per game: 840 games, about 9m at 3 at once (games of this game took 2s each lately)."},
		{"paced", paced, "A league of 8 entries, 4 per game: 840 games, played at 10 turns a second to be watched, so a game of 300 turns lasts 30s."},
		{"hours", Plan{Format: event.League, Entries: 30, Seats: 4, Games: 6600, AtOnce: 1, PerGame: time.Second, Measured: 9}, "A league of 30 entries, 4 per game: 6600 games, about 1h50m at 1 at once (games of this game took 1s each lately)."},
		{"whole hours", Plan{Format: event.League, Entries: 30, Seats: 4, Games: 7000, AtOnce: 1, PerGame: time.Second, Measured: 9}, "A league of 30 entries, 4 per game: 7000 games, about 2h at 1 at once (games of this game took 1s each lately)."},
		{"sprt with a filler", sprt, "A sprt of 2 entries and 1 filler bot(s), 2 per game: at most 500 games (it stops as soon as the test decides); how long they take shows once the first games are played."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Words(); got != tt.want {
				t.Errorf("Words() =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestPlanLearnsFromUnpacedGamesOfTheGame: the plan's time per game is
// learnt from games of the same game played as fast as the bots answer,
// never from a paced demo's (the first class league once read "72 games,
// about 17m" after the demo; they took 100 s) nor another game's.
func TestPlanLearnsFromUnpacedGamesOfTheGame(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	played := func(game string, pace float64, each time.Duration) int {
		t.Helper()
		entries := []string{"builtin:" + game + "/greedy", "builtin:" + game + "/random"}
		if game == "grip" {
			entries = append(entries, entries...) // four players a game
		}
		ev, _, err := s.CreateEvent(EventSpec{Game: game, Format: event.League, Games: 1, Seed: 1, SeedSet: true, Pace: pace,
			Entries: entries})
		if err != nil {
			t.Fatal(err)
		}
		ms, err := s.DB().Matches(ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			ranks := make([]int, len(m.Game.Seats))
			for i := range ranks {
				ranks[i] = i + 1
			}
			if err := s.DB().FinishMatch(m.ID, engine.Result{Ranks: ranks}, nil, each); err != nil {
				t.Fatal(err)
			}
		}
		return len(ms)
	}
	played("battle2048", 4, 100*time.Second)    // the demo, paced
	played("grip", 0, 30*time.Second)           // another game
	n := played("battle2048", 0, 2*time.Second) // unpaced: what counts
	p, err := s.PlanEvent(EventSpec{Game: "battle2048", Format: event.League, Games: 1, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.PerGame != 2*time.Second || p.Measured != n {
		t.Errorf("the plan learnt %v a game over %d games, want 2s over the %d unpaced games of battle2048", p.PerGame, p.Measured, n)
	}
}

// TestCheckCatchesAnOccasionalLateAnswer: a bot late on one answer past
// what one short check game asks of it fails the check, which plays game
// after game until the bot has answered checkAnswers times, and says how
// many it played; a bot never late passes after as many answers.
func TestCheckCatchesAnOccasionalLateAnswer(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	s := openTemp(t)
	for _, tc := range []struct {
		name string
		late int // the answer, counted over the check's games, that comes late; 0: none
		pass bool
	}{
		{"late once", 70, false},
		{"never late", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each game starts the bot anew: the count of its answers is
			// kept in a file, which only a trusted AI may write outside
			// its scratch folder.
			count := filepath.Join(t.TempDir(), "answers")
			bot := fmt.Sprintf(`import sys, time
n = 0
try:
    n = int(open(%q).read())
except Exception:
    pass
print('READY', flush=True)
for line in sys.stdin:
    if line.strip() == 'EOD':
        n += 1
        open(%q, 'w').write(str(n))
        if n == %d:
            time.sleep(2)
        print('N', flush=True)
`, count, count, tc.late)
			dir := filepath.Join(t.TempDir(), "bot")
			runnertest.WriteFiles(t, dir, map[string]string{"bot.py": bot})
			reg, err := s.Register(NewAI{Name: strings.ReplaceAll(tc.name, " ", "-"), Game: "grip", Dir: dir, Trusted: true})
			if err != nil {
				t.Fatal(err)
			}
			// Limits ten times the game's: a busy machine (a CPU hog of
			// twice its cores beside the tests) makes no answer of the
			// punctual bot late, and the late one sleeps 2 s, past them.
			res, err := s.Check(context.Background(), reg.AI.ID, CheckOptions{TimeScale: 10})
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed() != tc.pass {
				t.Fatalf("passed %v, want %v: %+v (%s)", res.Passed(), tc.pass, res.Report.Items, res.PlayedWords())
			}
			if !tc.pass && res.Games < 2 {
				t.Errorf("caught in the first game (%s): the test needs the late answer past one game", res.PlayedWords())
			}
			if tc.pass && (res.Answers < checkAnswers || res.Games < 2) {
				t.Errorf("a pass after %d answers in %d games, want at least %d answers over more than one game", res.Answers, res.Games, checkAnswers)
			}
			if !strings.Contains(res.PlayedWords(), fmt.Sprintf("%d game", res.Games)) {
				t.Errorf("the check does not say how many games it played: %q", res.PlayedWords())
			}
		})
	}
}
