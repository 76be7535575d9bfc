package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/storage"
)

// AIStatus is an AI with what its builds say.
type AIStatus struct {
	AI storage.AI
	// Current is the revision that plays, nil before the first
	// successful build.
	Current *storage.Revision
	// Pinned is the revision events play instead of Current, nil when the
	// AI is not pinned.
	Pinned *storage.Revision
	// Last is the newest build, failed ones included.
	Last      *storage.Revision
	Revisions []storage.Revision // every build, oldest first
	Failed    int                // failed builds among them
	// Missing is the database's flag or, for an AI nobody watches, what a
	// look at the folder found: the flag is only set by builds and
	// watchers.
	Missing bool
}

// LastFailed reports whether the AI's sources, as far as anyone knows, are
// those of a failed build: the newest build failed after the current
// revision was chosen. A change undone after a failed build clears it.
func (st AIStatus) LastFailed() bool {
	return st.Last != nil && st.Last.Status == storage.BuildFailed && st.Last.Created.After(st.AI.CurrentSince)
}

// AIs lists every AI with its builds, by name.
func (s *Service) AIs() ([]AIStatus, error) {
	ais, err := s.db.ListAIs()
	if err != nil {
		return nil, err
	}
	out := make([]AIStatus, len(ais))
	for i, ai := range ais {
		if out[i], err = s.status(ai); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// AI finds an AI by name (any case) with its builds.
func (s *Service) AI(name string) (AIStatus, error) {
	ai, err := s.aiByName(name)
	if err != nil {
		return AIStatus{}, err
	}
	return s.status(ai)
}

// AIByID finds an AI by ID with its builds.
func (s *Service) AIByID(id int64) (AIStatus, error) {
	ai, err := s.db.AI(id)
	if err != nil {
		return AIStatus{}, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is no longer registered (removed meanwhile?)", id), Err: err}
	}
	return s.status(ai)
}

func (s *Service) aiByName(name string) (storage.AI, error) {
	ai, err := s.db.AIByName(strings.TrimSpace(name))
	if errors.Is(err, storage.ErrNotFound) {
		return storage.AI{}, (&Error{Code: NotFound, Message: fmt.Sprintf("AI %q is not registered", strings.TrimSpace(name)), Err: err}).withFix(FixListAIs, "")
	}
	return ai, err
}

func (s *Service) status(ai storage.AI) (AIStatus, error) {
	revs, err := s.db.Revisions(ai.ID)
	if err != nil {
		return AIStatus{}, err
	}
	st := AIStatus{AI: ai, Revisions: revs, Missing: ai.Missing || !folderExists(ai.SourceDir)}
	for i := range revs {
		r := &revs[i]
		if r.ID == ai.Current {
			st.Current = r
		}
		if r.ID == ai.Pinned {
			st.Pinned = r
		}
		if r.Status == storage.BuildFailed {
			st.Failed++
		}
		if st.Last == nil || !r.Created.Before(st.Last.Created) {
			st.Last = r
		}
	}
	return st, nil
}

func folderExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// NewAI is what registering an AI takes. Build and Run may be left for
// Ringside to guess from the files.
type NewAI struct {
	Name, Game, Dir string
	Build           string
	BuildSet        bool   // Build was given (an empty Build then means "nothing to build")
	Run             string // "" guesses
	Language        string // "" takes the guess's
	Watch           bool
	// Trusted runs the AI without the sandbox; Limits overrides the
	// sandbox's caps ("memory=512M cpu=2m"; see runner.ParseLimits).
	Trusted bool
	Limits  string
	// Options are game options for this AI's seat alone ("coords=xy"; see
	// CheckAIOptions).
	Options string
}

// Registered is a newly stored AI and, when commands were guessed, the
// guess.
type Registered struct {
	AI    storage.AI
	Guess *build.Guess
}

// Register checks an AI's name, game, folder and commands, guesses what
// was not given, and stores it. It does not build: call Build next.
func (s *Service) Register(a NewAI) (Registered, error) {
	a.Name = strings.TrimSpace(a.Name)
	if err := checkAIName(a.Name); err != nil {
		return Registered{}, err
	}
	if err := checkGame(a.Game); err != nil {
		return Registered{}, err
	}
	if strings.TrimSpace(a.Dir) == "" {
		return Registered{}, Errorf(Invalid, "choose the folder that holds the program's source files")
	}
	abs, err := filepath.Abs(strings.TrimSpace(a.Dir))
	if err != nil {
		return Registered{}, Errorf(Invalid, "folder %s: %v", a.Dir, err)
	}
	if old, err := s.db.AIByName(a.Name); err == nil {
		return Registered{}, Errorf(Conflict, "an AI named %q already exists: choose another name, or change that AI", old.Name).withFix(FixEdit, old.Name)
	}
	var reg Registered
	if !a.BuildSet || strings.TrimSpace(a.Run) == "" {
		// A run command the user gave is kept: the guess then only
		// chooses the build.
		g, err := build.GuessFor(abs, a.Run)
		if err != nil {
			return Registered{}, &Error{Code: Failed, Message: err.Error(), Err: err}
		}
		reg.Guess = &g
		if !a.BuildSet {
			a.Build = g.Build
		}
		if strings.TrimSpace(a.Run) == "" {
			a.Run = g.Run
		}
		if a.Language == "" {
			a.Language = g.Language
		}
	}
	limits, err := CheckLimits(a.Limits)
	if err != nil {
		return Registered{}, err
	}
	options, err := CheckAIOptions(a.Game, a.Options)
	if err != nil {
		return Registered{}, err
	}
	if err := build.CheckCommands(abs, a.Build, a.Run); err != nil {
		return Registered{}, &Error{Code: Failed, Message: err.Error(), Err: err}
	}
	ai, err := s.db.AddAI(storage.AI{Name: a.Name, Game: a.Game, Language: strings.TrimSpace(a.Language), SourceDir: abs,
		BuildCmd: strings.TrimSpace(a.Build), RunCmd: strings.TrimSpace(a.Run), Watch: a.Watch,
		Trusted: a.Trusted, Limits: limits, Options: options})
	if err != nil {
		return Registered{}, wrap(Failed, err, "register %s", a.Name)
	}
	reg.AI = ai
	return reg, nil
}

// Guess is what Ringside makes of a source folder (for a form to fill in);
// run, when given, is kept and only the build is guessed.
func (s *Service) Guess(dir, run string) (build.Guess, error) {
	abs, err := filepath.Abs(strings.TrimSpace(dir))
	if err != nil || strings.TrimSpace(dir) == "" {
		return build.Guess{}, Errorf(Invalid, "choose the folder that holds the program's source files")
	}
	g, err := build.GuessFor(abs, run)
	if err != nil {
		return build.Guess{}, &Error{Code: Failed, Message: err.Error(), Err: err}
	}
	return g, nil
}

// BuildText is an AI's build command in words, saying how a script with
// nothing to build is checked.
func BuildText(ai storage.AI) string {
	if ai.BuildCmd != "" {
		return ai.BuildCmd
	}
	if c := build.ScriptCheck(ai.RunCmd); c != "" {
		return "(nothing to build; syntax check: " + c + ")"
	}
	return "(nothing to build)"
}

// Sources is what of an AI's folder makes its revisions.
type Sources struct {
	Files   []string        // relative paths, sorted
	LeftOut []build.LeftOut // with why: ignore files, data files, build outputs
	Problem string          // why the folder could not be listed ("" when it could)
}

// SourceFiles lists the files of an AI's folder that a build takes now
// (its current revision's, unless the folder changed since) and those it
// leaves out, with why.
func (s *Service) SourceFiles(ai storage.AI) Sources {
	files, left, err := build.SourceFiles(ai.SourceDir, ai.BuildCmd, ai.RunCmd)
	if err != nil {
		return Sources{Problem: err.Error()}
	}
	return Sources{Files: files, LeftOut: left}
}

func checkAIName(name string) error {
	switch {
	case name == "":
		return Errorf(Invalid, "give the AI a name: the name shown in standings, e.g. alice")
	case strings.HasPrefix(name, runner.BuiltinPrefix):
		return Errorf(Invalid, "the name %q starts with %q, which is kept for built-in bots: choose another name", name, runner.BuiltinPrefix)
	case strings.ContainsAny(name, "=@\n"):
		return Errorf(Invalid, "the name %q has = or @, which entries use (alice@r3, NAME=COMMAND): choose another name", name)
	}
	return nil
}

func checkGame(id string) error {
	if id == "" {
		return (&Error{Code: Invalid, Message: "choose the game this AI plays (one of " + GameIDs() + ")"}).withFix(FixListGames, "")
	}
	if _, err := games.Get(id); err != nil {
		return (&Error{Code: Invalid, Message: err.Error(), Err: err}).withFix(FixListGames, "")
	}
	return nil
}

// GameIDs lists the games' IDs, comma-separated.
func GameIDs() string {
	var ids []string
	for _, g := range games.All() {
		ids = append(ids, g.Info().ID)
	}
	return strings.Join(ids, ", ")
}

// AIEdit is a change to an AI; nil fields stay as they are.
type AIEdit struct {
	Name, Game, Dir, Build, Run, Language, Limits *string
	Watch, Trusted                                *bool
	// Options replaces the AI's game options ("coords=xy"; "" for none).
	Options *string
}

// Edited is an AI after a change, and whether the change needs a new
// build (its folder or commands changed).
type Edited struct {
	AI      storage.AI
	Rebuild bool
}

// EditAI changes an AI. A new folder or new commands are checked like at
// registration; the revisions built so far stay.
func (s *Service) EditAI(id int64, e AIEdit) (Edited, error) {
	ai, err := s.db.AI(id)
	if err != nil {
		return Edited{}, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is no longer registered (removed meanwhile?)", id), Err: err}
	}
	old := ai
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	set(&ai.Name, e.Name)
	set(&ai.Game, e.Game)
	set(&ai.BuildCmd, e.Build)
	set(&ai.RunCmd, e.Run)
	set(&ai.Language, e.Language)
	if e.Dir != nil {
		abs, err := filepath.Abs(strings.TrimSpace(*e.Dir))
		if err != nil || strings.TrimSpace(*e.Dir) == "" {
			return Edited{}, Errorf(Invalid, "choose the folder that holds the program's source files")
		}
		ai.SourceDir = abs
	}
	if e.Watch != nil {
		ai.Watch = *e.Watch
	}
	if e.Trusted != nil {
		ai.Trusted = *e.Trusted
	}
	if e.Limits != nil {
		if ai.Limits, err = CheckLimits(*e.Limits); err != nil {
			return Edited{}, err
		}
	}
	if err := checkAIName(ai.Name); err != nil {
		return Edited{}, err
	}
	if err := checkGame(ai.Game); err != nil {
		return Edited{}, err
	}
	if e.Options != nil {
		ai.Options = *e.Options
	}
	if ai.Options, err = CheckAIOptions(ai.Game, ai.Options); err != nil {
		if e.Options == nil {
			return Edited{}, Errorf(Invalid, "%v; the AI's options were set for %s: change them too (--option KEY= removes one)", err, old.Game)
		}
		return Edited{}, err
	}
	if other, err := s.db.AIByName(ai.Name); err == nil && other.ID != ai.ID {
		return Edited{}, Errorf(Conflict, "an AI named %q already exists: choose another name", other.Name)
	}
	rebuild := ai.SourceDir != old.SourceDir || ai.BuildCmd != old.BuildCmd || ai.RunCmd != old.RunCmd
	if rebuild {
		if err := build.CheckCommands(ai.SourceDir, ai.BuildCmd, ai.RunCmd); err != nil {
			return Edited{}, &Error{Code: Failed, Message: err.Error(), Err: err}
		}
	}
	if ai.SourceDir != old.SourceDir {
		ai.Missing = false
	}
	if err := s.db.UpdateAI(ai); err != nil {
		return Edited{}, wrap(Failed, err, "save %s", ai.Name)
	}
	return Edited{AI: ai, Rebuild: rebuild}, nil
}

// PinAI makes events, compare and play use revision number of an AI
// instead of its current revision, until UnpinAI. The watcher goes on
// building new revisions; they just do not play.
func (s *Service) PinAI(id int64, number int) (storage.Revision, error) {
	st, err := s.AIByID(id)
	if err != nil {
		return storage.Revision{}, err
	}
	for _, r := range st.Revisions {
		if r.Number == number && r.Status == storage.BuildOK {
			if err := s.db.SetPin(id, r.ID); err != nil {
				return storage.Revision{}, wrap(Failed, err, "pin %s", st.AI.Name)
			}
			return r, nil
		}
	}
	return storage.Revision{}, (Errorf(Invalid, "AI %s has no revision %d", st.AI.Name, number)).withFix(FixRevisions, st.AI.Name)
}

// UnpinAI lets an AI's current revision play again. It reports whether
// the AI was pinned.
func (s *Service) UnpinAI(id int64) (bool, error) {
	ai, err := s.db.AI(id)
	if err != nil {
		return false, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is no longer registered (removed meanwhile?)", id), Err: err}
	}
	if ai.Pinned == 0 {
		return false, nil
	}
	return true, wrap(Failed, s.db.SetPin(id, 0), "unpin %s", ai.Name)
}

// ParseRevision reads a revision number as people write it: "r3" or "3".
func ParseRevision(text string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "r"))
	if err != nil || n <= 0 {
		return 0, Errorf(Invalid, "revision %q: write rN or N, e.g. r3 (\"ringside ai revisions NAME\" lists them)", text)
	}
	return n, nil
}

// Removed says what removing an AI deleted.
type Removed struct {
	AI storage.AI
	// Folders are the revision folders deleted; Kept those left because
	// they were built before revision folders belonged to one database
	// and another database may use them.
	Folders, Kept []string
	Dir           string // the AI's revisions folder in this database
}

// RemoveAI forgets an AI and its revisions; results of events it played
// stay. With files, the folders of its revisions that belong to this
// database are deleted too; never its source folder.
func (s *Service) RemoveAI(id int64, files bool) (Removed, error) {
	ai, err := s.db.AI(id)
	if err != nil {
		return Removed{}, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is no longer registered (removed meanwhile?)", id), Err: err}
	}
	revs, err := s.db.Revisions(id)
	if err != nil {
		return Removed{}, err
	}
	if err := s.db.RemoveAI(id); err != nil {
		return Removed{}, wrap(Failed, err, "remove %s", ai.Name)
	}
	out := Removed{AI: ai, Dir: s.db.RevisionsDir(ai)}
	if !files {
		return out, nil
	}
	out.Folders, out.Kept, err = s.db.RemoveRevisionFolders(ai, revs)
	if err != nil {
		return out, wrap(Failed, err, "%s is removed, but not all its revision folders could be deleted", ai.Name)
	}
	return out, nil
}

// BuildOptions tune one build.
type BuildOptions struct {
	Force   bool          // build sources that failed before again
	Timeout time.Duration // 0: build.DefaultBuildTimeout
}

// BuildOutcome is what a build did.
type BuildOutcome struct {
	AI storage.AI
	// Rev is the revision built, or the known one the sources matched
	// (Unchanged); a failed build is a revision with Status failed.
	Rev       storage.Revision
	Unchanged bool
	Result    build.BuildResult
}

// Failed reports whether the sources do not build (now or, unchanged,
// last time).
func (o BuildOutcome) Failed() bool { return o.Rev.Status == storage.BuildFailed }

// Build builds an AI's sources into a revision. Unchanged sources make no
// revision: the revision they match becomes current again (a reverted
// change plays the revision it reverts to). A failed build keeps the
// current revision; the same failed sources are not built again unless
// Force. One build of an AI runs at a time, across processes too, so two
// watchers never build the same sources twice.
func (s *Service) Build(ctx context.Context, id int64, opt BuildOptions) (BuildOutcome, error) {
	unlock := s.builds.lock(id)
	defer unlock()
	unlockFile, err := s.db.LockAI(ctx, id)
	if err != nil {
		return BuildOutcome{}, wrap(Failed, err, "build")
	}
	defer unlockFile()
	// Read the AI only now: the process that held the lock may have
	// changed it.
	ai, err := s.db.AI(id)
	if err != nil {
		return BuildOutcome{}, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is no longer registered (removed meanwhile?)", id), Err: err}
	}
	if !folderExists(ai.SourceDir) {
		if !ai.Missing {
			ai.Missing = true
			_ = s.db.UpdateAI(ai)
		}
		return BuildOutcome{AI: ai}, (&Error{Code: Failed, Message: fmt.Sprintf("%s: its source folder %s is gone; put it back or change the AI's folder", ai.Name, ai.SourceDir)}).withFix(FixEdit, ai.Name)
	}
	if ai.Missing {
		ai.Missing = false
		if err := s.db.UpdateAI(ai); err != nil {
			return BuildOutcome{AI: ai}, err
		}
	}
	var known storage.Revision
	res, err := build.Build(ctx, build.BuildSpec{
		SourceDir: ai.SourceDir, BuildCmd: ai.BuildCmd, RunCmd: ai.RunCmd,
		OutDir: s.db.RevisionsDir(ai), Timeout: opt.Timeout,
		Known: func(hash string) bool {
			if r, err := s.db.RevisionByHash(ai.ID, hash); err == nil {
				if _, err := os.Stat(r.ArtifactDir); err == nil {
					if s.checkRevision(r) != nil {
						return false // changed since built: build it again
					}
					known = r
					return true
				}
				return false // its folder was deleted: build it again
			}
			if r, err := s.db.FailedBuild(ai.ID, hash); err == nil && !opt.Force {
				known = r
				return true
			}
			return false
		},
	})
	var limit *build.LimitError
	if errors.As(err, &limit) {
		// A folder over a cap is the student's to fix, like a compile
		// error: it is kept as a failed build, so the AI's row, its
		// build log and "ai show" say why until the folder is fixed,
		// not only a message the next AI's build replaces.
		res = build.BuildResult{Hash: refusedHash(limit), Log: "The source folder was refused before building: " + limit.Error() + "\n"}
		err = nil
	}
	if err != nil {
		return BuildOutcome{AI: ai}, wrap(Failed, err, "%s", ai.Name)
	}
	out := BuildOutcome{AI: ai, Unchanged: res.Unchanged, Result: res}
	if res.Unchanged {
		out.Rev = known
		// Also when it is current already: a failed build since then no
		// longer describes the sources.
		if known.Status == storage.BuildOK {
			if err := s.db.SetCurrentRevision(ai.ID, known.ID); err != nil {
				return out, err
			}
		}
		out.AI, err = s.db.AI(ai.ID)
		return out, err
	}
	rev := storage.Revision{AIID: ai.ID, Hash: res.Hash, Status: storage.BuildOK, BuildLog: res.Log,
		ArtifactDir: res.Dir, RunCmd: ai.RunCmd, Digest: res.Digest}
	if !res.OK {
		rev.Status = storage.BuildFailed
	}
	if out.Rev, _, err = s.db.SaveBuild(rev); err != nil {
		return out, err
	}
	out.AI, err = s.db.AI(ai.ID)
	return out, err
}

// refusedHash stands for the sources of a folder refused before it was
// hashed: the same refusal is the same failed build, kept once.
func refusedHash(e *build.LimitError) string {
	sum := sha256.Sum256([]byte(e.Error()))
	return "refused-" + hex.EncodeToString(sum[:16])
}

// keyedMutex is one mutex per key, made on first use.
type keyedMutex struct{ m sync.Map }

func (k *keyedMutex) lock(key int64) (unlock func()) {
	m, _ := k.m.LoadOrStore(key, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// currentRevision is the revision of ai that plays, or an error saying it
// has none yet.
func (s *Service) currentRevision(ai storage.AI) (storage.Revision, error) {
	rev, err := s.db.CurrentRevision(ai.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.Revision{}, (&Error{Code: Invalid, Message: fmt.Sprintf("AI %s has no successful build yet", ai.Name), Err: err}).withFix(FixBuild, ai.Name)
	}
	return rev, err
}

// checkRevision verifies a successful revision's folder against its
// digest. A revision older than schema 11 has none: its folder is taken
// as it is at this first check (sealed read-only and its digest stored),
// so it is trusted as-is once and verified from then on.
func (s *Service) checkRevision(rev storage.Revision) error {
	if rev.Status != storage.BuildOK || rev.ArtifactDir == "" {
		return nil
	}
	if rev.Digest == "" {
		d, err := build.Seal(rev.ArtifactDir)
		if err != nil {
			return err
		}
		return s.db.SetRevisionDigest(rev.ID, d)
	}
	return build.VerifyRevision(rev.ArtifactDir, rev.Digest)
}

// verifiedRevision is rev once its folder verifies. A revision changed
// since it was built is refused; when the AI's sources still make it, it
// is built again from them first (and then plays as built).
func (s *Service) verifiedRevision(ai storage.AI, rev storage.Revision) (storage.Revision, error) {
	err := s.checkRevision(rev)
	if err == nil {
		return rev, nil
	}
	if !errors.Is(err, build.ErrTampered) {
		return rev, wrap(Failed, err, "revision %d of %s", rev.Number, ai.Name)
	}
	// Rebuild from the sources: when they still hash to this revision,
	// Known refuses the tampered folder and the build replaces it.
	if _, berr := s.Build(context.Background(), ai.ID, BuildOptions{}); berr == nil {
		if again, rerr := s.db.Revision(rev.ID); rerr == nil && again.Digest != "" && s.checkRevision(again) == nil {
			return again, nil
		}
	}
	return rev, (&Error{Code: Failed, Err: err, Message: fmt.Sprintf(
		"revision %d of %s was changed since it was built (its folder %s no longer matches): refused; "+
			"build it again from the AI's sources with \"ringside ai build --force %s\"",
		rev.Number, ai.Name, rev.ArtifactDir, ai.Name)}).withFix(FixBuild, ai.Name)
}

// verifyEntries verifies, before an event plays, the revision folder of
// each of its entries that is an AI's build (see verifiedRevision): the
// event may have been made long before, and a folder changed since is
// refused or rebuilt in place.
func (s *Service) verifyEntries(ev storage.Event) error {
	for _, e := range ev.Entries {
		if e.RevisionID == 0 {
			continue
		}
		rev, err := s.db.Revision(e.RevisionID)
		if err != nil || rev.AIID == 0 {
			continue // a plain command or a built-in bot
		}
		ai, err := s.db.AI(rev.AIID)
		if err != nil {
			continue // removed since: its folder, if kept, plays as stored
		}
		if _, err := s.verifiedRevision(ai, rev); err != nil {
			return err
		}
	}
	return nil
}

// revisionBot is the bot that plays one revision of an AI.
func revisionBot(ai storage.AI, rev storage.Revision) runner.Bot {
	return runner.RevisionBot(fmt.Sprintf("%s r%d", ai.Name, rev.Number), rev.RunCmd, rev.ArtifactDir)
}
