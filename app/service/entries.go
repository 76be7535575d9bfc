package service

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// ResolveEntry turns what a person wrote for an entry into how it runs:
// NAME=COMMAND, a built-in bot (builtin:grip/greedy), a registered AI's
// name (its current revision) or NAME@rN (its revision N).
func (s *Service) ResolveEntry(spec, game string) (storage.Entry, error) {
	return s.resolveEntry(spec, game, time.Time{})
}

// resolveEntry is ResolveEntry for an event with a deadline: an AI's name
// plays the revision it had at the deadline (unless it is pinned).
func (s *Service) resolveEntry(spec, game string, deadline time.Time) (storage.Entry, error) {
	spec = strings.TrimSpace(spec)
	if name, cmd, ok := strings.Cut(spec, "="); ok && !strings.HasPrefix(spec, runner.BuiltinPrefix) {
		name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
		if name == "" || cmd == "" {
			return storage.Entry{}, Errorf(Invalid, "entry %q: write NAME=COMMAND", spec)
		}
		if _, err := runner.Split(cmd); err != nil {
			return storage.Entry{}, Errorf(Invalid, "entry %s: %v", name, err)
		}
		return storage.Entry{Name: name, Command: cmd}, nil
	}
	if rest, ok := strings.CutPrefix(spec, runner.BuiltinPrefix); ok {
		g, bot, _ := strings.Cut(rest, "/")
		if g != game {
			return storage.Entry{}, Errorf(Invalid, "entry %s is a bot for %s, not %s", spec, g, game)
		}
		gm, err := games.Get(game)
		if err != nil {
			return storage.Entry{}, (&Error{Code: Invalid, Message: err.Error(), Err: err}).withFix(FixListGames, "")
		}
		for _, b := range gm.Bots() {
			if b == bot {
				return storage.Entry{Name: spec, Command: spec}, nil
			}
		}
		return storage.Entry{}, (Errorf(Invalid, "entry %s: %s has no built-in bot %q (built-in bots: %s)", spec, game, bot, BuiltinList())).withFix(FixListGames, "")
	}
	name, want := spec, 0
	if base, num, ok := strings.Cut(spec, "@"); ok {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(num), "r"))
		if err != nil || n <= 0 {
			return storage.Entry{}, Errorf(Invalid, "entry %q: write AI@rN for revision N of an AI, e.g. alice@r3", spec)
		}
		name, want = strings.TrimSpace(base), n
	}
	ai, err := s.db.AIByName(name)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.Entry{}, (Errorf(Invalid, "entry %q is not NAME=COMMAND, a built-in bot or a registered AI", spec)).withFix(FixListAIs, "")
	}
	if err != nil {
		return storage.Entry{}, err
	}
	if ai.Game != game {
		return storage.Entry{}, Errorf(Invalid, "AI %s plays %s, not %s", ai.Name, ai.Game, game)
	}
	return s.aiEntry(ai, want, deadline)
}

// aiEntry is how revision want of ai plays (0: its pinned revision, else
// the one it had at the deadline, else its current revision). It is the
// one place that turns a stored revision into a bot, for events, compare,
// play and checks alike.
func (s *Service) aiEntry(ai storage.AI, want int, deadline time.Time) (storage.Entry, error) {
	var rev storage.Revision
	switch {
	case want == 0 && ai.Pinned != 0:
		var err error
		if rev, err = s.db.Revision(ai.Pinned); err != nil {
			return storage.Entry{}, wrap(Failed, err, "AI %s's pinned revision", ai.Name)
		}
	case want == 0 && !deadline.IsZero():
		var err error
		if rev, err = s.revisionAt(ai, deadline); err != nil {
			return storage.Entry{}, err
		}
	case want == 0:
		var err error
		if rev, err = s.currentRevision(ai); err != nil {
			return storage.Entry{}, err
		}
	default:
		revs, err := s.db.Revisions(ai.ID)
		if err != nil {
			return storage.Entry{}, err
		}
		for _, r := range revs {
			if r.Number == want && r.Status == storage.BuildOK {
				rev = r
			}
		}
		if rev.ID == 0 {
			return storage.Entry{}, (Errorf(Invalid, "AI %s has no revision %d", ai.Name, want)).withFix(FixRevisions, ai.Name)
		}
	}
	// Verified before it plays: a folder changed since it was built is
	// refused (or rebuilt from the sources).
	rev, err := s.verifiedRevision(ai, rev)
	if err != nil {
		return storage.Entry{}, err
	}
	return revisionEntry(ai, rev), nil
}

// revisionAt is the revision of ai that played at time t: its current
// revision if it became current by then, else its newest successful build
// from before t.
func (s *Service) revisionAt(ai storage.AI, t time.Time) (storage.Revision, error) {
	revs, err := s.db.Revisions(ai.ID)
	if err != nil {
		return storage.Revision{}, err
	}
	var best storage.Revision
	for _, r := range revs {
		if r.Status != storage.BuildOK || r.Created.After(t) {
			continue
		}
		if r.ID == ai.Current && !ai.CurrentSince.After(t) {
			return r, nil
		}
		if best.ID == 0 || r.Created.After(best.Created) || (r.Created.Equal(best.Created) && r.Number > best.Number) {
			best = r
		}
	}
	if best.ID == 0 {
		return storage.Revision{}, (Errorf(Invalid, "AI %s has no revision built before the deadline %s", ai.Name,
			t.Local().Format("2006-01-02 15:04"))).withFix(FixRevisions, ai.Name)
	}
	return best, nil
}

// revisionEntry is how one revision of an AI plays, with the AI's
// sandbox settings.
func revisionEntry(ai storage.AI, rev storage.Revision) storage.Entry {
	bot := revisionBot(ai, rev)
	return storage.Entry{Name: bot.Name, RevisionID: rev.ID, Command: bot.Command, Dir: bot.Dir,
		Trusted: ai.Trusted, Limits: ai.Limits, Options: ai.Options}
}

// EntryBot is the bot that plays an entry, its caps read on top of base
// (the event's).
func EntryBot(e storage.Entry, base sandbox.Limits) runner.Bot {
	b := runner.Bot{Name: e.Name, Command: e.Command, Dir: e.Dir, Trusted: e.Trusted, Options: entryOptions(e.Options),
		Deterministic: entryDeterministic(e.Command, e.Options)}
	if e.Limits != "" {
		// Stored limits were checked when the AI was saved; ones that no
		// longer read keep the event's caps, which are never looser.
		if l, err := runner.ParseLimits(e.Limits, base); err == nil {
			b.Limits = &l
		}
	}
	return b
}

// showSources sets each revision's bot to show its AI's source folder in
// place of the revision's copy in what it writes to stderr (a traceback
// naming the student's own file). bots[i] plays entries[i]; an entry
// whose revision or AI cannot be read keeps the copy's path.
func (s *Service) showSources(entries []storage.Entry, bots []runner.Bot) {
	for i, e := range entries {
		if e.RevisionID == 0 || i >= len(bots) {
			continue
		}
		rev, err := s.db.Revision(e.RevisionID)
		if err != nil || rev.AIID == 0 || rev.ArtifactDir != bots[i].Dir {
			continue
		}
		if ai, err := s.db.AI(rev.AIID); err == nil {
			bots[i].ShownDir = ai.SourceDir
		}
	}
}

// checkStarts tells, before any game, whether an entry's program can
// start: it is installed, or is a file that exists, and an interpreter's
// script is there. The error names the entry and what is missing.
func checkStarts(e storage.Entry) error {
	if strings.HasPrefix(strings.TrimSpace(e.Command), runner.BuiltinPrefix) {
		return nil
	}
	argv, err := runner.Split(e.Command)
	if err != nil {
		return Errorf(Invalid, "entry %s: %v", e.Name, err)
	}
	dir := e.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return wrap(Failed, err, "entry %s", e.Name)
		}
	} else if !folderExists(dir) {
		return Errorf(Failed, "entry %s cannot start: its folder %s is gone", e.Name, dir)
	}
	if err := runner.CheckRun(dir, argv, false); err != nil {
		return &Error{Code: Invalid, Message: fmt.Sprintf("entry %s cannot start: %v", e.Name, err), Err: err}
	}
	return nil
}

// BuiltinList names every built-in bot as builtin:GAME/NAME.
func BuiltinList() string {
	var out []string
	for _, g := range games.All() {
		for _, b := range g.Bots() {
			out = append(out, runner.BuiltinPrefix+g.Info().ID+"/"+b)
		}
	}
	return strings.Join(out, ", ")
}

// PlayBot turns a --bot of "ringside play" into a bot. A word that is no
// program on PATH but names a registered AI ("alice", "alice@r3") plays
// that AI's revision when the database at dbPath exists; play never
// creates a database. Anything else is a command line, and a program that
// cannot start plays as a crashed seat.
func PlayBot(dbPath, spec, game string) (runner.Bot, error) {
	bot := runner.Bot{Name: spec, Command: spec}
	word := strings.TrimSpace(spec)
	if word == "" || strings.ContainsAny(word, " \t/=") || strings.HasPrefix(word, runner.BuiltinPrefix) {
		return bot, nil
	}
	if _, err := exec.LookPath(word); err == nil {
		return bot, nil
	}
	if dbPath == "" {
		p, err := storage.DefaultPath()
		if err != nil {
			return bot, nil
		}
		dbPath = p
	}
	if _, err := os.Stat(dbPath); err != nil {
		return bot, nil
	}
	s, err := Open(dbPath)
	if err != nil {
		return bot, err
	}
	defer s.Close()
	name, _, _ := strings.Cut(word, "@")
	if _, err := s.db.AIByName(name); errors.Is(err, storage.ErrNotFound) {
		return bot, nil
	}
	e, err := s.ResolveEntry(word, game)
	if err != nil {
		return bot, err
	}
	return EntryBot(e, runner.DefaultLimits), nil
}
