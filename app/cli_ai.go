package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"ringside/assets"
	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

const aiHelp = `Registers contestants' programs (AIs) from their source folders, builds them
and keeps every successful build as a numbered revision.

  ringside ai add --name N --game G --dir D [--build CMD] [--run CMD] [--no-watch]
      Registers the program in folder D for game G and builds it once. What is
      not given is guessed from the files (go.mod → go build, a Makefile → make,
      *.cpp → g++, *.java → javac, Cargo.toml → cargo, *.py → python3, …) and
      the guess is printed. Commands are split like a shell splits words but
      never run through a shell (write sh -c '…' for one); in a build command,
      words with * ? [ are expanded against the folder's files (** is any
      number of folders). The run command runs in the revision's folder, so
      ./bot means the built program. Unless --no-watch, "ringside watch"
      rebuilds the AI whenever the folder changes.
  ringside ai new --game G --lang L --dir D --name N [--no-watch]
      Copies a small working bot for game G in language L (python, cpp, java,
      go) into the new or empty folder D, registers it as N and builds it.
  ringside ai list
      Every AI: game, language, current revision, last build, watched.
  ringside ai show NAME
      One AI's folder, commands, revisions and last build log.
  ringside ai build NAME [--force]
      Builds now. Unchanged sources make no new revision (--force rebuilds a
      failed build anyway). A failed build keeps the previous revision playing
      and prints the compiler's output.
  ringside ai check NAME [--seed N] [--time-scale X] [--opt KEY=VALUE]...
      Builds if needed, then plays one short game against the game's random
      built-in bots and says plainly whether the program starts, does its
      handshake, answers in time and answers validly — with the first
      problem of each kind.
  ringside ai revisions NAME
      Every build, failed ones included, oldest first.
  ringside ai remove NAME [--files]
      Forgets the AI and its revisions (results of events stay). --files also
      deletes the built revisions' folders.

Each build copies the folder (without .git, build outputs such as bot, out/,
target/, *.class, *.o, and editor temporary files) to a fresh folder and
builds there, so nothing is ever written into the source folder. Revisions
live beside the database in revisions/NAME/HASH/. A build may take 2 minutes
(--timeout on add, build and check changes that for one run).

Every subcommand takes:
` + dbHelp

func init() {
	register(&command{
		name: "ai", usage: "add|new|list|show|build|check|revisions|remove [ARGS]",
		summary: "register, build and check contestants' programs",
		help:    aiHelp,
		run:     runAI,
	})
}

func runAI(c *cli, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("ai: say what to do: add, new, list, show, build, check, revisions or remove (see \"ringside help ai\")")
	}
	sub := map[string]func(*cli, []string) error{
		"add": aiAdd, "new": aiNew, "list": aiList, "show": aiShow, "build": aiBuild,
		"check": aiCheck, "revisions": aiRevisions, "remove": aiRemove,
	}
	f, ok := sub[args[0]]
	if !ok {
		return usagef("ai: unknown subcommand %q: add, new, list, show, build, check, revisions or remove", args[0])
	}
	return f(c, args[1:])
}

// nameArg parses flags around one NAME argument: "ai show NAME --db x"
// and "ai show --db x NAME" both work.
func nameArg(fs *flag.FlagSet, args []string) (string, error) {
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := parse(fs, args); err != nil {
		return "", err
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
		if err := parse(fs, fs.Args()[1:]); err != nil {
			return "", err
		}
	}
	if fs.NArg() > 0 {
		return "", usagef("ai: unexpected argument %q", fs.Arg(0))
	}
	if name == "" {
		return "", usagef("ai: name the AI (\"ringside ai list\" shows the names)")
	}
	return name, nil
}

// ---- the service that app's CLI and UI share ----

// revisionsDir is where an AI's revisions are kept.
func revisionsDir(dataDir string, ai storage.AI) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, ai.Name)
	if safe != ai.Name || strings.Trim(safe, ".") == "" {
		safe = fmt.Sprintf("%s-%d", safe, ai.ID)
	}
	return filepath.Join(dataDir, "revisions", safe)
}

// buildOutcome is what buildAI did.
type buildOutcome struct {
	Rev       storage.Revision // the new revision, or the known one when Unchanged
	Unchanged bool
	Result    runner.BuildResult
}

// buildAI builds an AI's sources and stores the result as a revision:
// numbered when it succeeded, failed (with its log) otherwise. Unchanged
// sources make no revision; neither does a failed build of the very sources
// that failed last time, unless force.
func buildAI(ctx context.Context, db *storage.DB, dataDir string, ai storage.AI, force bool, timeout time.Duration) (buildOutcome, error) {
	// The desktop app builds on a click while its watcher may build the same
	// AI: one at a time, so the second sees the first's revision as known
	// instead of storing the same sources twice.
	unlock := lockAIBuild(ai.ID)
	defer unlock()
	if st, err := os.Stat(ai.SourceDir); err != nil || !st.IsDir() {
		if !ai.Missing {
			ai.Missing = true
			_ = db.UpdateAI(ai)
		}
		return buildOutcome{}, fmt.Errorf("AI %s: its source folder %s is gone; put it back or remove the AI", ai.Name, ai.SourceDir)
	}
	if ai.Missing {
		ai.Missing = false
		if err := db.UpdateAI(ai); err != nil {
			return buildOutcome{}, err
		}
	}
	revs, err := db.Revisions(ai.ID)
	if err != nil {
		return buildOutcome{}, err
	}
	var known storage.Revision
	res, err := runner.Build(ctx, runner.BuildSpec{
		SourceDir: ai.SourceDir, BuildCmd: ai.BuildCmd, RunCmd: ai.RunCmd,
		OutDir: revisionsDir(dataDir, ai), Timeout: timeout,
		Known: func(hash string) bool {
			if r, err := db.RevisionByHash(ai.ID, hash); err == nil {
				if _, err := os.Stat(r.ArtifactDir); err == nil {
					known = r
					return true
				}
				return false // its folder was deleted: build it again
			}
			if n := len(revs); n > 0 && !force && revs[n-1].Hash == hash && revs[n-1].Status == storage.BuildFailed {
				known = revs[n-1]
				return true
			}
			return false
		},
	})
	if err != nil {
		return buildOutcome{}, fmt.Errorf("AI %s: %w", ai.Name, err)
	}
	if res.Unchanged {
		return buildOutcome{Rev: known, Unchanged: true, Result: res}, nil
	}
	rev := storage.Revision{AIID: ai.ID, Hash: res.Hash, Status: storage.BuildOK, BuildLog: res.Log,
		ArtifactDir: res.Dir, RunCmd: ai.RunCmd}
	if !res.OK {
		rev.Status = storage.BuildFailed
	}
	rev, err = db.AddRevision(rev)
	if err != nil {
		return buildOutcome{}, err
	}
	return buildOutcome{Rev: rev, Result: res}, nil
}

// aiBuildLocks holds one mutex per AI ID for buildAI.
var aiBuildLocks sync.Map

func lockAIBuild(id int64) (unlock func()) {
	m, _ := aiBuildLocks.LoadOrStore(id, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// resolveAIBot finds the AI called name and returns the bot that runs its
// current revision (the newest successful build). found is false when no
// AI has that name, so a caller can treat name as a command line instead;
// an AI without a successful build is an error.
func resolveAIBot(db *storage.DB, name string) (bot runner.Bot, found bool, err error) {
	ai, err := db.AIByName(name)
	if errors.Is(err, storage.ErrNotFound) {
		return runner.Bot{}, false, nil
	}
	if err != nil {
		return runner.Bot{}, false, err
	}
	e, err := aiEntry(db, ai, 0)
	if err != nil {
		return runner.Bot{}, true, err
	}
	return runner.Bot{Name: e.Name, Command: e.Command, Dir: e.Dir}, true, nil
}

// revisionBot is the bot that plays one revision of an AI.
func revisionBot(ai storage.AI, rev storage.Revision) runner.Bot {
	return runner.RevisionBot(fmt.Sprintf("%s r%d", ai.Name, rev.Number), rev.RunCmd, rev.ArtifactDir)
}

// preflightMatch is a short game with the bot in seat 0 and the game's
// random built-in bots in the other seats.
func preflightMatch(g engine.Game, bot runner.Bot, seed int64, extra engine.Options) runner.Match {
	info := g.Info()
	opts := engine.Options{}
	for _, o := range info.Options {
		switch o.Key {
		case "max_turns": // Grip: global turns, 4 per round
			opts[o.Key] = "80"
		case "rounds", "turns":
			opts[o.Key] = "30"
		}
	}
	for k, v := range extra {
		opts[k] = v
	}
	m := runner.Match{Game: g, Options: opts, Seed: seed, Bots: []runner.Bot{bot}}
	opponent := "random"
	if bots := g.Bots(); len(bots) > 0 && !aiHasString(bots, opponent) {
		opponent = bots[0]
	}
	for len(m.Bots) < info.MinSeats {
		m.Bots = append(m.Bots, runner.Bot{Name: "random", Command: runner.BuiltinPrefix + info.ID + "/" + opponent})
	}
	return m
}

func aiHasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ---- subcommands ----

func aiAdd(c *cli, args []string) error {
	fs := c.flags("ai")
	name := fs.String("name", "", "")
	game := fs.String("game", "", "")
	dir := fs.String("dir", "", "")
	build := fs.String("build", "", "")
	run := fs.String("run", "", "")
	noWatch := fs.Bool("no-watch", false, "")
	timeout := fs.Duration("timeout", runner.DefaultBuildTimeout, "")
	dbPath := dbFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("ai add: unexpected argument %q", fs.Arg(0))
	}
	buildSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "build" {
			buildSet = true
		}
	})
	return withDB(*dbPath, func(db *storage.DB) error {
		_, err := registerAI(c, db, *dbPath, *name, *game, *dir, *build, buildSet, *run, !*noWatch, *timeout)
		return err
	})
}

// registerAI checks, guesses, stores and builds a new AI, printing what it
// guessed and how the first build went.
func registerAI(c *cli, db *storage.DB, dbPath, name, game, dir, build string, buildSet bool, run string,
	watch bool, timeout time.Duration) (storage.AI, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return storage.AI{}, usagef("ai: --name is required (the name shown in standings, e.g. --name alice)")
	case strings.HasPrefix(name, runner.BuiltinPrefix):
		return storage.AI{}, usagef("ai: the name %q starts with %q, which is kept for built-in bots", name, runner.BuiltinPrefix)
	case game == "":
		return storage.AI{}, usagef("ai: --game is required (one of %s)", gameIDs())
	case dir == "":
		return storage.AI{}, usagef("ai: --dir is required: the folder with the program's sources")
	}
	if _, err := games.Get(game); err != nil {
		return storage.AI{}, usageError{err.Error()}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return storage.AI{}, err
	}
	lang := ""
	if !buildSet || run == "" {
		g, err := runner.GuessCommands(abs)
		if err != nil {
			return storage.AI{}, err
		}
		lang = g.Language
		if !buildSet {
			build = g.Build
		}
		if run == "" {
			run = g.Run
		}
		fmt.Fprintf(c.stdout, "guessed %s: %s\n", g.Language, g.Why)
	}
	if err := runner.CheckCommands(abs, build, run); err != nil {
		return storage.AI{}, err
	}
	showBuild := build
	if showBuild == "" {
		showBuild = "(nothing to build)"
	}
	fmt.Fprintf(c.stdout, "  build: %s\n  run:   %s\n", showBuild, run)
	ai, err := db.AddAI(storage.AI{Name: name, Game: game, Language: lang, SourceDir: abs,
		BuildCmd: build, RunCmd: run, Watch: watch})
	if err != nil {
		return storage.AI{}, err
	}
	w := "watched: \"ringside watch\" rebuilds it on every change"
	if !watch {
		w = "not watched: build it with \"ringside ai build " + name + "\""
	}
	fmt.Fprintf(c.stdout, "added AI %s (%s), %s\n", ai.Name, ai.Game, w)
	dataDir, err := dataDir(dbPath)
	if err != nil {
		return ai, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out, err := buildAI(ctx, db, dataDir, ai, false, timeout)
	if err != nil {
		return ai, err
	}
	if err := printBuild(c.stdout, ai, out); err != nil {
		return ai, fmt.Errorf("AI %s is added, but its first build failed (output above); fix it and run \"ringside ai build %s\"", ai.Name, ai.Name)
	}
	return ai, nil
}

// printBuild says how a build went; failing builds print their log and
// return an error.
func printBuild(w io.Writer, ai storage.AI, out buildOutcome) error {
	switch {
	case out.Unchanged && out.Rev.Status == storage.BuildFailed:
		fmt.Fprintf(w, "%s: unchanged since the failed build of %s; its output:\n%s\n", ai.Name,
			out.Rev.Created.Format("15:04:05"), indent(out.Rev.BuildLog))
		return errors.New("build failed")
	case out.Unchanged:
		fmt.Fprintf(w, "%s: unchanged, revision %d (%s) is current\n", ai.Name, out.Rev.Number, short(out.Rev.Hash))
	case out.Rev.Status == storage.BuildOK && ai.BuildCmd == "":
		fmt.Fprintf(w, "%s: revision %d (%s): nothing to build, the sources are kept as they are\n  folder: %s\n",
			ai.Name, out.Rev.Number, short(out.Rev.Hash), out.Rev.ArtifactDir)
	case out.Rev.Status == storage.BuildOK:
		fmt.Fprintf(w, "%s: built revision %d (%s) in %v\n  folder: %s\n", ai.Name, out.Rev.Number, short(out.Rev.Hash),
			out.Result.Took.Round(10*time.Millisecond), out.Rev.ArtifactDir)
	default:
		fmt.Fprintf(w, "%s: build failed; the previous revision stays current. Output:\n%s\n", ai.Name, indent(out.Rev.BuildLog))
		return errors.New("build failed")
	}
	return nil
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  | " + strings.ReplaceAll(s, "\n", "\n  | ")
}

func aiNew(c *cli, args []string) error {
	fs := c.flags("ai")
	name := fs.String("name", "", "")
	game := fs.String("game", "", "")
	lang := fs.String("lang", "", "")
	dir := fs.String("dir", "", "")
	noWatch := fs.Bool("no-watch", false, "")
	timeout := fs.Duration("timeout", runner.DefaultBuildTimeout, "")
	dbPath := dbFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("ai new: unexpected argument %q", fs.Arg(0))
	}
	if *game == "" || *lang == "" || *dir == "" || *name == "" {
		return usagef("ai new: --game, --lang, --dir and --name are all required (templates: %s)", strings.Join(templateList(), ", "))
	}
	if err := copyTemplate(*game, *lang, *dir); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "copied the %s template for %s into %s\n", *lang, *game, *dir)
	return withDB(*dbPath, func(db *storage.DB) error {
		_, err := registerAI(c, db, *dbPath, *name, *game, *dir, "", false, "", !*noWatch, *timeout)
		return err
	})
}

// templateList names every template as GAME/LANGUAGE.
func templateList() []string {
	var out []string
	gameDirs, _ := fs.ReadDir(assets.Templates, "templates")
	for _, g := range gameDirs {
		langs, _ := fs.ReadDir(assets.Templates, "templates/"+g.Name())
		for _, l := range langs {
			out = append(out, g.Name()+"/"+l.Name())
		}
	}
	sort.Strings(out)
	return out
}

// copyTemplate writes the template of game and lang into dir, which must
// be new or empty so that nobody's work is overwritten.
func copyTemplate(game, lang, dir string) error {
	root := "templates/" + game + "/" + lang
	if _, err := fs.Stat(assets.Templates, root); err != nil {
		return usagef("ai new: no template for game %q in language %q (templates: %s)", game, lang, strings.Join(templateList(), ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("ai new: %s is not empty; give a new or empty folder so nothing is overwritten", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ai new: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("ai new: %w", err)
	}
	return fs.WalkDir(assets.Templates, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if rel == "" {
			return nil
		}
		to := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(rel, ".template")))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := assets.Templates.ReadFile(p)
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if strings.HasPrefix(string(data), "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(to, data, mode); err != nil {
			return fmt.Errorf("ai new: write %s: %w", path.Base(to), err)
		}
		return nil
	})
}

func aiList(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("ai list: unexpected argument %q", fs.Arg(0))
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ais, err := db.ListAIs()
		if err != nil {
			return err
		}
		if len(ais) == 0 {
			fmt.Fprintln(c.stdout, "no AIs yet: add one with \"ringside ai add\" or start from a template with \"ringside ai new\"")
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tGAME\tLANGUAGE\tREVISION\tLAST BUILD\tWATCHED")
		for _, ai := range ais {
			revs, err := db.Revisions(ai.ID)
			if err != nil {
				return err
			}
			cur, last := "-", "never built"
			for _, r := range revs {
				if r.Status == storage.BuildOK {
					cur = fmt.Sprintf("r%d", r.Number)
				}
			}
			if n := len(revs); n > 0 {
				last = fmt.Sprintf("%s %s", revs[n-1].Status, revs[n-1].Created.Format("2006-01-02 15:04"))
			}
			watched := "no"
			switch {
			case ai.Missing:
				watched = "folder missing"
			case ai.Watch:
				watched = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", ai.Name, ai.Game, orDash(ai.Language), cur, last, watched)
		}
		return tw.Flush()
	})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func aiShow(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ai, err := db.AIByName(name)
		if err != nil {
			return err
		}
		revs, err := db.Revisions(ai.ID)
		if err != nil {
			return err
		}
		w := c.stdout
		fmt.Fprintf(w, "AI %s\n  game:      %s\n  language:  %s\n  folder:    %s", ai.Name, ai.Game, orDash(ai.Language), ai.SourceDir)
		if ai.Missing {
			fmt.Fprint(w, " (missing)")
		}
		fmt.Fprintf(w, "\n  build:     %s\n  run:       %s\n  watched:   %v\n  added:     %s\n",
			orDash(ai.BuildCmd), ai.RunCmd, ai.Watch, ai.Created.Format("2006-01-02 15:04"))
		var cur *storage.Revision
		failed := 0
		for i := range revs {
			if revs[i].Status == storage.BuildOK {
				cur = &revs[i]
			} else {
				failed++
			}
		}
		if cur == nil {
			fmt.Fprintln(w, "  current:   none (no successful build yet)")
		} else {
			fmt.Fprintf(w, "  current:   revision %d (%s), built %s\n  revision folder: %s\n", cur.Number, short(cur.Hash),
				cur.Created.Format("2006-01-02 15:04:05"), cur.ArtifactDir)
		}
		fmt.Fprintf(w, "  builds:    %d (%d failed)\n", len(revs), failed)
		if n := len(revs); n > 0 {
			last := revs[n-1]
			fmt.Fprintf(w, "last build (%s, %s):\n%s\n", last.Status, last.Created.Format("2006-01-02 15:04:05"), indent(last.BuildLog))
		}
		return nil
	})
}

func aiRevisions(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ai, err := db.AIByName(name)
		if err != nil {
			return err
		}
		revs, err := db.Revisions(ai.ID)
		if err != nil {
			return err
		}
		if len(revs) == 0 {
			fmt.Fprintf(c.stdout, "%s has never been built: \"ringside ai build %s\"\n", ai.Name, ai.Name)
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "REVISION\tHASH\tSTATUS\tBUILT\tFOLDER / FIRST ERROR")
		for _, r := range revs {
			num, where := "-", r.ArtifactDir
			if r.Status == storage.BuildOK {
				num = fmt.Sprintf("r%d", r.Number)
			} else {
				where = firstError(r.BuildLog)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", num, short(r.Hash), r.Status, r.Created.Format("2006-01-02 15:04:05"), where)
		}
		return tw.Flush()
	})
}

// firstError picks the line of a build log most likely to say what is
// wrong.
func firstError(log string) string {
	lines := strings.Split(log, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "$ ") {
			continue // the command itself, which may say -Werror
		}
		ll := strings.ToLower(l)
		if strings.Contains(ll, "error") || strings.Contains(ll, "not installed") || strings.Contains(ll, "cannot") {
			return strings.TrimSpace(l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return ""
}

func aiRemove(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	files := fs.Bool("files", false, "")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ai, err := db.AIByName(name)
		if err != nil {
			return err
		}
		if err := db.RemoveAI(ai.ID); err != nil {
			return err
		}
		dataDir, err := dataDir(*dbPath)
		if err != nil {
			return err
		}
		dir := revisionsDir(dataDir, ai)
		if *files {
			if err := os.RemoveAll(dir); err != nil {
				return fmt.Errorf("AI %s is removed, but its revisions folder could not be deleted: %w", ai.Name, err)
			}
			fmt.Fprintf(c.stdout, "removed AI %s and its revisions folder %s\n", ai.Name, dir)
			return nil
		}
		fmt.Fprintf(c.stdout, "removed AI %s (its built revisions stay in %s; --files deletes them)\n", ai.Name, dir)
		return nil
	})
}

func aiBuild(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	force := fs.Bool("force", false, "")
	timeout := fs.Duration("timeout", runner.DefaultBuildTimeout, "")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ai, err := db.AIByName(name)
		if err != nil {
			return err
		}
		dataDir, err := dataDir(*dbPath)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		out, err := buildAI(ctx, db, dataDir, ai, *force, *timeout)
		if err != nil {
			return err
		}
		if err := printBuild(c.stdout, ai, out); err != nil {
			return fmt.Errorf("%s: the build failed (output above)", ai.Name)
		}
		return nil
	})
}

func aiCheck(c *cli, args []string) error {
	fs := c.flags("ai")
	dbPath := dbFlag(fs)
	seed := fs.Int64("seed", 1, "")
	scale := fs.Float64("time-scale", 1, "")
	timeout := fs.Duration("timeout", runner.DefaultBuildTimeout, "")
	var opts listFlag
	fs.Var(&opts, "opt", "")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	if *scale <= 0 {
		return usagef("ai check: --time-scale must be above 0, got %v", *scale)
	}
	extra, err := parseOpts(opts)
	if err != nil {
		return err
	}
	return withDB(*dbPath, func(db *storage.DB) error {
		ai, err := db.AIByName(name)
		if err != nil {
			return err
		}
		g, err := games.Get(ai.Game)
		if err != nil {
			return err
		}
		dataDir, err := dataDir(*dbPath)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return runAICheck(ctx, c.stdout, db, dataDir, ai, g, *seed, *scale, extra, *timeout)
	})
}

// runAICheck builds ai if needed and plays its preflight game, writing the
// report in plain words to w. The error says when the AI does not pass or
// the check could not run; the CLI and the desktop app share it.
func runAICheck(ctx context.Context, w io.Writer, db *storage.DB, dataDir string, ai storage.AI, g engine.Game,
	seed int64, scale float64, extra engine.Options, timeout time.Duration) error {
	out, err := buildAI(ctx, db, dataDir, ai, false, timeout)
	if err != nil {
		fmt.Fprintf(w, "  %-20s no: %v\n", "builds", err)
		return fmt.Errorf("%s does not pass the check", ai.Name)
	}
	if (out.Unchanged && out.Rev.Status == storage.BuildFailed) || (!out.Unchanged && out.Rev.Status != storage.BuildOK) {
		fmt.Fprintf(w, "  %-20s no: the build failed:\n%s\n", "builds", indent(out.Rev.BuildLog))
		return fmt.Errorf("%s does not pass the check", ai.Name)
	}
	rev := out.Rev
	fmt.Fprintf(w, "check %s (%s, revision %d, %s)\n", ai.Name, ai.Game, rev.Number, short(rev.Hash))
	fmt.Fprintf(w, "  %-20s ok\n", "builds")
	fmt.Fprintf(w, "  %-20s %s\n", "sandbox", sandboxSummary(runner.Sandbox{}))
	m := preflightMatch(g, revisionBot(ai, rev), seed, extra)
	m.TimeScale = scale
	rep, err := runner.Preflight(ctx, m, 0)
	if err != nil {
		return fmt.Errorf("check %s: %w", ai.Name, err)
	}
	printCheck(w, rep)
	if !rep.OK() {
		return fmt.Errorf("%s does not pass the check (first problems above)", ai.Name)
	}
	return nil
}

func printCheck(w io.Writer, rep *runner.CheckReport) {
	for _, it := range rep.Items {
		verdict := it.Text
		if !it.OK {
			verdict = "no: " + it.Text
		}
		fmt.Fprintf(w, "  %-20s %s\n", it.What, strings.ReplaceAll(verdict, "\n", "\n  | "))
	}
	if rep.Rank > 0 && rep.Answers > 0 {
		fmt.Fprintf(w, "played %d turns against built-in random bots: rank %d of %d\n", rep.Turns, rep.Rank, rep.Seats)
	}
	if rep.OK() {
		fmt.Fprintln(w, "ok: ready to play")
	}
}
