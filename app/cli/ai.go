package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"ringside/app/service"
	"ringside/engine/event"
	"ringside/runner/build"
	"ringside/storage"
)

// aiHelp is "ringside help ai"; its options are written from the option
// lists that declare the subcommands' flags.
func aiHelp() string {
	return `Registers contestants' programs (AIs) from their source folders, builds them
and keeps every successful build as a numbered revision.

  ringside ai add --name N --game G --dir D [--build CMD] [--run CMD] [--no-watch]
                 [--trusted] [--limits CAPS] [--option KEY=VALUE]...
      Registers the program in folder D for game G and builds it once. What is
      not given is guessed from the files (go.mod → go build, a Makefile → make,
      *.cpp → g++, *.java → javac, Cargo.toml → cargo, *.py → python3, …) and
      the guess is printed with its reasons. Where several languages are
      present it weighs the evidence: a contest's own run.sh or compile.sh
      first, then which language has an entry point (C, C++ and Go files that
      each have a main are separate programs, not one bot), then the number of
      files. A --run you give is always used; the guess then only chooses the
      build. A run command that cannot find what the build makes (java
      SampleAI after javac -d out) is refused with the command that would.
      Commands are split like a shell splits words but
      never run through a shell (write sh -c '…' for one); in a build command,
      words with * ? [ are expanded against the folder's files (** is any
      number of folders). The run command runs in the revision's folder, so
      ./bot means the built program. Unless --no-watch, "ringside watch"
      rebuilds the AI whenever the folder changes. Its games run in the
      sandbox (docs/sandbox.md) unless --trusted: only for programs you wrote
      or read, since a trusted bot runs with your rights, files and
      environment. --limits changes the sandbox's caps for this AI, e.g.
      --limits "memory=1G cpu=5m" (keys: memory, processes, cpu, filesize,
      scratch, files). --option sets a game option for this AI's seat
      alone, in every game it plays: the protocol it was written for.
      Grip: coords=xy sends positions column first, as the 2015 referee
      did (the rule text, and Ringside's default, say row first); Battle
      2048: protocol=beta leaves out the Turn line, as the beta rules did.
      Any game: deterministic=yes says the AI decides from its input and
      RINGSIDE_SEED alone; events created afterwards record its seat as
      deterministic in every replay, and "replay diff" calls a difference
      at a seat not so marked (nor a built-in) expected noise.
  ringside ai new --game G --lang L --dir D --name N [--no-watch]
      Copies a small working bot for game G in language L (python, cpp, java,
      go) into the new or empty folder D, registers it as N and builds it.
  ringside ai edit NAME [--name N] [--game G] [--dir D] [--build CMD] [--run CMD] [--watch|--no-watch]
                 [--trusted|--sandboxed] [--limits CAPS] [--option KEY=VALUE]...
      Changes what is given (--limits "" goes back to the default caps;
      --option KEY= removes that option); a new folder or new commands are
      checked as for add and built at once. The revisions built so far stay.
  ringside ai pin NAME rN
      Events (and compare and play) use revision N of the AI from now on
      instead of its current revision; the watcher goes on building new
      revisions, which wait. For a tournament's freeze.
  ringside ai unpin NAME
      The current revision plays again.
  ringside ai diff NAME rA rB
      What changed from revision A to revision B: the files that make a
      revision, added, removed or changed with their line counts, then the
      unified diff of each text file (binary files give their size).
  ringside ai list
      Every AI: game, language, current revision, last build, watched.
  ringside ai show NAME
      One AI's folder, commands, revisions, the files that make a revision
      (and those left out, with why) and the last build log.
  ringside ai build NAME [--force]
      Builds now. Unchanged sources make no new revision: the revision they
      match plays again (a change undone after a failed build plays the
      revision it restores). --force rebuilds a failed build anyway. A failed
      build keeps the current revision playing and prints the compiler's
      output.
  ringside ai check NAME [--seed N] [--time-scale X] [--opt KEY=VALUE]...
      Builds if needed, then plays short games with the current revision
      against the game's random built-in bots, until it has answered 120
      times (an answer late once in 40 turns is caught), and says how many
      it played and plainly whether the program starts, does its handshake,
      answers in time and answers validly — with the first problem of each
      kind. It warns when a Grip
      bot looks confused: at least 5 of its moves, and half or more of them,
      went nowhere (off the board, into a fallen block, next to another
      player), which is what a bot that reads its position in the other
      order does; the warning says which --option would fix that.
  ringside ai revisions NAME
      Every build, failed ones included, oldest first.
  ringside ai remove NAME [--files]
      Forgets the AI and its revisions (results of events stay). --files also
      deletes the built revisions' folders (never the source folder).

Only source counts. Each build copies the folder to a fresh folder and
builds there, so nothing is ever written into the source folder. Left out of
the copy and of the revision's hash: .git and caches, editor temporary files,
build outputs (bot, out/, target/, *.class, *.o); what the folder's
.gitignore or .ringsideignore leave out (glob lines: # comments, ! keeps, a
trailing / means a folder, a slash inside matches from the folder's top, **
is any number of folders); and data and output files: *.csv *.tsv *.log
*.txt *.out *.md *.pdf, images and archives, unless the build or run command
names the file or a line such as !book.txt in .ringsideignore keeps it
(CMakeLists.txt and requirements.txt are always kept). "ai show" lists the
files that make the revision and those left out, with why. Python and
JavaScript have nothing to build, so their build is a syntax check of every
script (python3 -m py_compile, its byte code kept out of the folder; node
--check): a script with a syntax error is a failed build and never plays. Revisions
live beside the database, in a folder that belongs to it alone
(ringside-data/revisions/NAME-ID/HASH/ beside ringside.db). A build may take 2
minutes (--timeout on add, edit, build and check changes that for one run).

Options of add and new:
` + optionsHelp(2, 21, newAIOptions(new(newAIArgs))) + `
Options of add alone:
` + optionsHelp(2, 21, aiAddOptions(new(aiAddArgs))) + `
Options of new alone:
` + optionsHelp(2, 21, aiNewOptions(new(string))) + `
Options of edit (what is not given stays as it is):
` + optionsHelp(2, 21, aiEditOptions(new(aiEditArgs))) + `
Options of build:
` + optionsHelp(2, 21, aiBuildOptions(new(bool), new(time.Duration))) + `
Options of check:
` + optionsHelp(2, 21, aiCheckOptions(new(aiCheckArgs))) + `
Options of remove:
` + optionsHelp(2, 21, aiRemoveOptions(new(bool))) + `

Every subcommand takes:
` + optionsHelp(2, 21, []option{dbOption(new(string))})
}

func init() {
	register(&command{
		name: "ai", usage: "add|new|edit|list|show|build|check|revisions|pin|unpin|diff|remove [ARGS]",
		summary: "register, build and check contestants' programs",
		help:    func() string { return aiHelp() },
		run:     runAI,
	})
}

func runAI(c *cli, args []string) error {
	const subs = "add, new, edit, list, show, build, check, revisions, pin, unpin, diff or remove"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("ai: say what to do: %s (see \"ringside help ai\")", subs)
	}
	sub := map[string]func(*cli, []string) error{
		"add": aiAdd, "new": aiNew, "edit": aiEdit, "list": aiList, "show": aiShow, "build": aiBuild,
		"check": aiCheck, "revisions": aiRevisions, "remove": aiRemove, "pin": aiPin, "unpin": aiUnpin, "diff": aiDiff,
	}
	f, ok := sub[args[0]]
	if !ok {
		return usagef("ai: unknown subcommand %q: %s", args[0], subs)
	}
	return f(c, args[1:])
}

// nameArg parses flags around one NAME argument: "ai show NAME --db x"
// and "ai show --db x NAME" both work.
func nameArg(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) > 1 {
		return "", usagef("ai: unexpected argument %q", pos[1])
	}
	if len(pos) == 0 || strings.TrimSpace(pos[0]) == "" {
		return "", usagef("ai: name the AI (\"ringside ai list\" shows the names)")
	}
	return pos[0], nil
}

// withAI opens the database and finds the AI called name for fn.
func withAI(dbPath, name string, fn func(s *service.Service, st service.AIStatus) error) error {
	return withService(dbPath, findAI(name, fn))
}

// withReadAI is withAI for commands that only read.
func withReadAI(dbPath, name string, fn func(s *service.Service, st service.AIStatus) error) error {
	return withReadService(dbPath, findAI(name, fn))
}

func findAI(name string, fn func(s *service.Service, st service.AIStatus) error) func(s *service.Service) error {
	return func(s *service.Service) error {
		st, err := s.AI(name)
		if err != nil {
			return err
		}
		return fn(s, st)
	}
}

// interrupted is a context that ends on Ctrl-C.
func interrupted() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// newAIArgs are the flags "ai add" and "ai new" share.
type newAIArgs struct {
	name, game, dir, limits string
	noWatch, trusted        bool
	timeout                 time.Duration
}

// newAIOptions are the flags "ai add" and "ai new" share, declared into a
// and written in the help.
func newAIOptions(a *newAIArgs) []option {
	return []option{
		stringOption(&a.name, "name", "N", "", "the name shown in standings, e.g. alice", required),
		stringOption(&a.game, "game", "G", "", `the game ("ringside games" lists them)`, required),
		stringOption(&a.dir, "dir", "D", "", "the folder with the program's sources", required),
		boolOption(&a.noWatch, "no-watch", `do not rebuild when the folder changes ("ringside watch")`),
		boolOption(&a.trusted, "trusted", "run its games without the sandbox"),
		stringOption(&a.limits, "limits", "CAPS", "", "the sandbox's caps for this AI", service.DefaultLimitsText()),
		durationOption(&a.timeout, "timeout", "DURATION", build.DefaultBuildTimeout, "the longest its first build may take"),
	}
}

// newAIFlags are the flags "ai add" and "ai new" share, parsed.
type newAIFlags struct {
	name, game, dir, db, limits *string
	noWatch, trusted            *bool
	timeout                     *time.Duration
}

// newAIFlagSet is the flag set of "ai add" or "ai new" (cmd) with the
// flags they share.
func (c *cli) newAIFlagSet(cmd string) (*flag.FlagSet, newAIFlags) {
	fs := c.flags(cmd)
	a := new(newAIArgs)
	declare(fs, newAIOptions(a))
	return fs, newAIFlags{name: &a.name, game: &a.game, dir: &a.dir, noWatch: &a.noWatch, timeout: &a.timeout, db: dbFlag(fs),
		trusted: &a.trusted, limits: &a.limits}
}

// aiAddArgs are the flags of "ai add" alone.
type aiAddArgs struct {
	build, run string
	options    listFlag
}

// aiAddOptions are the flags of "ai add" alone.
func aiAddOptions(a *aiAddArgs) []option {
	return []option{
		stringOption(&a.build, "build", "CMD", "", "the build command", "guessed from the files"),
		stringOption(&a.run, "run", "CMD", "", "the run command, run in the revision's folder", "guessed from the files"),
		listOption(&a.options, "option", "KEY=VALUE", "a game option for this AI's seat alone (repeatable)", "none: the game's own"),
	}
}

// aiNewOptions are the flags of "ai new" alone.
func aiNewOptions(lang *string) []option {
	return []option{stringOption(lang, "lang", "L", "", "the template's language: python, cpp, java or go", required)}
}

// aiEditArgs are the flags of "ai edit"; its strings are read through
// the flag set, since an empty one (--limits "") is a change too.
type aiEditArgs struct {
	name, game, dir, build, run, limits string
	watch, noWatch, trusted, sandboxed  bool
	timeout                             time.Duration
	options                             listFlag
}

// aiEditOptions are the flags of "ai edit", declared into a and written in
// the help.
func aiEditOptions(a *aiEditArgs) []option {
	const same = "unchanged"
	return []option{
		stringOption(&a.name, "name", "N", "", "a new name", same),
		stringOption(&a.game, "game", "G", "", "another game", same),
		stringOption(&a.dir, "dir", "D", "", "another source folder", same),
		stringOption(&a.build, "build", "CMD", "", "another build command", same),
		stringOption(&a.run, "run", "CMD", "", "another run command", same),
		stringOption(&a.limits, "limits", "CAPS", "", `other caps ("" goes back to the default caps)`, same),
		boolOption(&a.watch, "watch", "rebuild when the folder changes", same),
		boolOption(&a.noWatch, "no-watch", "do not rebuild when the folder changes", same),
		boolOption(&a.trusted, "trusted", "run its games without the sandbox", same),
		boolOption(&a.sandboxed, "sandboxed", "run its games in the sandbox", same),
		listOption(&a.options, "option", "KEY=VALUE", "set a game option for its seat (KEY= removes it; repeatable)", same),
		durationOption(&a.timeout, "timeout", "DURATION", build.DefaultBuildTimeout, "the longest the build after a change may take"),
	}
}

// aiBuildOptions are the flags of "ai build".
func aiBuildOptions(force *bool, timeout *time.Duration) []option {
	return []option{
		boolOption(force, "force", "rebuild a failed build anyway"),
		durationOption(timeout, "timeout", "DURATION", build.DefaultBuildTimeout, "the longest the build may take"),
	}
}

// aiCheckArgs are the flags of "ai check".
type aiCheckArgs struct {
	seed    int64
	scale   float64
	timeout time.Duration
	opts    listFlag
}

// aiCheckOptions are the flags of "ai check".
func aiCheckOptions(a *aiCheckArgs) []option {
	return []option{
		int64Option(&a.seed, "seed", "N", 1, "the check game's seed"),
		floatOption(&a.scale, "time-scale", "X", event.DefaultTimeScale, "multiply every time limit by X"),
		listOption(&a.opts, "opt", "KEY=VALUE", "a game option on top of the check's short game (repeatable)", "none"),
		durationOption(&a.timeout, "timeout", "DURATION", build.DefaultBuildTimeout, "the longest the build may take"),
	}
}

// aiRemoveOptions are the flags of "ai remove".
func aiRemoveOptions(files *bool) []option {
	return []option{boolOption(files, "files", "also delete the built revisions' folders (never the source folder)")}
}

// parseNoArgs parses flags that take no positional argument.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

func aiAdd(c *cli, args []string) error {
	fs, f := c.newAIFlagSet("ai add")
	var add aiAddArgs
	declare(fs, aiAddOptions(&add))
	buildCmd, run := &add.build, &add.run
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(*f.name) == "":
		return usagef("ai: --name is required (the name shown in standings, e.g. --name alice)")
	case *f.game == "":
		return usagef("ai: --game is required (one of %s)", service.GameIDs())
	case *f.dir == "":
		return usagef("ai: --dir is required: the folder with the program's sources")
	}
	return withService(*f.db, func(s *service.Service) error {
		reg, err := s.Register(service.NewAI{Name: *f.name, Game: *f.game, Dir: *f.dir, Build: *buildCmd,
			BuildSet: isSet(fs, "build"), Run: *run, Watch: !*f.noWatch, Trusted: *f.trusted, Limits: *f.limits,
			Options: strings.Join(add.options, " ")})
		if err != nil {
			return err
		}
		return c.registered(s, reg, *f.timeout)
	})
}

// registered prints what was guessed and stored, then builds the new AI
// and prints how it went.
func (c *cli) registered(s *service.Service, reg service.Registered, timeout time.Duration) error {
	ai := reg.AI
	if g := reg.Guess; g != nil {
		fmt.Fprintf(c.stdout, "guessed %s: %s\n", g.Language, g.Why)
	}
	fmt.Fprintf(c.stdout, "  build: %s\n  run:   %s\n", vis(service.BuildText(ai)), vis(ai.RunCmd))
	if ai.Options != "" {
		fmt.Fprintf(c.stdout, "  options: %s\n", vis(service.AIOptionsShown(ai.Options)))
	}
	w := "watched: \"ringside watch\" rebuilds it on every change"
	if !ai.Watch {
		w = "not watched: build it with \"ringside ai build " + vis(ai.Name) + "\""
	}
	fmt.Fprintf(c.stdout, "added AI %s (%s), %s\n", vis(ai.Name), ai.Game, w)
	return c.build(s, ai.ID, service.BuildOptions{Timeout: timeout},
		fmt.Sprintf("AI %s is added, but its first build failed (output above): fix the sources and run \"ringside ai build %s\", or change a wrong command with \"ringside ai edit %s --build CMD --run CMD\"", ai.Name, ai.Name, ai.Name))
}

// build builds an AI and prints how it went; failed is the error when the
// build fails.
func (c *cli) build(s *service.Service, id int64, opt service.BuildOptions, failed string) error {
	ctx, stop := interrupted()
	defer stop()
	out, err := s.Build(ctx, id, opt)
	if err != nil {
		return err
	}
	if err := printBuild(c.stdout, out); err != nil {
		return errors.New(failed)
	}
	return nil
}

// printBuild says how a build went; failing builds print their log and
// return an error.
func printBuild(w io.Writer, out service.BuildOutcome) error {
	ai := out.AI
	short := service.ShortHash
	switch {
	case out.Unchanged && out.Failed():
		fmt.Fprintf(w, "%s: unchanged since the failed build of %s; its output:\n%s\n", vis(ai.Name),
			out.Rev.Created.Format("15:04:05"), indent(out.Rev.BuildLog))
		return fmt.Errorf("build failed")
	case out.Unchanged:
		fmt.Fprintf(w, "%s: unchanged, revision %d (%s) is current\n", vis(ai.Name), out.Rev.Number, short(out.Rev.Hash))
	case !out.Failed() && ai.BuildCmd == "":
		checked := ""
		if c := build.ScriptCheck(ai.RunCmd); c != "" {
			checked = " (syntax checked with " + c + ")"
		}
		fmt.Fprintf(w, "%s: revision %d (%s): nothing to build, the sources are kept as they are%s\n  folder: %s\n",
			vis(ai.Name), out.Rev.Number, short(out.Rev.Hash), checked, vis(out.Rev.ArtifactDir))
	case !out.Failed():
		fmt.Fprintf(w, "%s: built revision %d (%s) in %v\n  folder: %s\n", vis(ai.Name), out.Rev.Number, short(out.Rev.Hash),
			out.Result.Took.Round(10*time.Millisecond), vis(out.Rev.ArtifactDir))
	default:
		stays := "the current revision stays current"
		if ai.Current == 0 {
			stays = "it has no revision to play yet"
		}
		fmt.Fprintf(w, "%s: build failed; %s. Output:\n%s\n", vis(ai.Name), stays, indent(out.Rev.BuildLog))
		return fmt.Errorf("build failed")
	}
	return nil
}

// indent shows a multi-line text (a build log) under its heading, its
// escape sequences made visible (service.VisibleText).
func indent(s string) string {
	s = service.VisibleText(strings.TrimRight(s, "\n"))
	return "  | " + strings.ReplaceAll(s, "\n", "\n  | ")
}

func orText(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func orDash(s string) string { return orText(s, "-") }

// vis is a name as shown on one line (service.Visible).
func vis(s string) string { return service.Visible(s) }

func aiNew(c *cli, args []string) error {
	fs, f := c.newAIFlagSet("ai new")
	lang := new(string)
	declare(fs, aiNewOptions(lang))
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *f.game == "" || *lang == "" || *f.dir == "" || *f.name == "" {
		return usagef("ai new: --game, --lang, --dir and --name are all required (templates: %s)", strings.Join(service.Templates(), ", "))
	}
	return withService(*f.db, func(s *service.Service) error {
		reg, err := s.NewFromTemplate(*f.name, *f.game, *lang, *f.dir, !*f.noWatch)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "copied the %s template for %s into %s\n", *lang, *f.game, reg.AI.SourceDir)
		return c.registered(s, reg, *f.timeout)
	})
}

func aiEdit(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai edit")
	var a aiEditArgs
	declare(fs, aiEditOptions(&a))
	var e service.AIEdit
	// Switches set in pairs: --watch or --no-watch, --trusted or --sandboxed.
	switches := []struct {
		on, off *bool
		onName  string
		offName string
		dst     **bool
	}{
		{&a.watch, &a.noWatch, "watch", "no-watch", &e.Watch},
		{&a.trusted, &a.sandboxed, "trusted", "sandboxed", &e.Trusted},
	}
	timeout := &a.timeout
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	for _, sw := range switches {
		if *sw.on && *sw.off {
			return usagef("ai edit: give --%s or --%s, not both", sw.onName, sw.offName)
		}
		if *sw.on || *sw.off {
			*sw.dst = sw.on
		}
	}
	for flagName, dst := range map[string]**string{"name": &e.Name, "game": &e.Game, "dir": &e.Dir, "build": &e.Build, "run": &e.Run, "limits": &e.Limits} {
		if isSet(fs, flagName) {
			v := fs.Lookup(flagName).Value.String()
			*dst = &v
		}
	}
	if e == (service.AIEdit{}) && len(a.options) == 0 {
		return usagef("ai edit: say what to change: --name, --game, --dir, --build, --run, --watch, --no-watch, --trusted, --sandboxed, --limits or --option")
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		if len(a.options) > 0 {
			game := st.AI.Game
			if e.Game != nil {
				game = *e.Game
			}
			opts, err := service.SetAIOptions(game, st.AI.Options, a.options)
			if err != nil {
				return err
			}
			e.Options = &opts
		}
		ed, err := s.EditAI(st.AI.ID, e)
		if err != nil {
			return err
		}
		ai := ed.AI
		fmt.Fprintf(c.stdout, "AI %s saved\n  game:   %s\n  folder: %s\n  build:  %s\n  run:    %s\n  watched: %v\n  sandbox: %s\n  options: %s\n",
			ai.Name, ai.Game, ai.SourceDir, service.BuildText(ai), ai.RunCmd, ai.Watch, service.AISandboxText(ai), service.AIOptionsShown(ai.Options))
		if !ed.Rebuild {
			return nil
		}
		return c.build(s, ai.ID, service.BuildOptions{Timeout: *timeout},
			ai.Name+" is saved, but the build with the new settings failed (output above)")
	})
}

func aiList(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai list")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	return withReadService(*dbPath, func(s *service.Service) error {
		ais, err := s.AIs()
		if err != nil {
			return err
		}
		var rows [][]string
		for _, st := range ais {
			cur, last := "-", "never built"
			if st.Current != nil {
				cur = fmt.Sprintf("r%d", st.Current.Number)
			}
			if st.Pinned != nil {
				cur = fmt.Sprintf("r%d pinned", st.Pinned.Number)
			}
			if st.Last != nil {
				last = fmt.Sprintf("%s %s", st.Last.Status, st.Last.Created.Format("2006-01-02 15:04"))
				if !st.LastFailed() && st.Last.Status == storage.BuildFailed {
					last = fmt.Sprintf("ok %s (as r%d)", st.AI.CurrentSince.Format("2006-01-02 15:04"), st.Current.Number)
				}
			}
			watched := "no"
			switch {
			case st.AI.Missing:
				watched = "folder missing"
			case st.AI.Watch:
				watched = "yes"
			}
			rows = append(rows, []string{st.AI.Name, st.AI.Game, orDash(st.AI.Language), cur, last, watched})
		}
		return c.printTable("NAME\tGAME\tLANGUAGE\tREVISION\tLAST BUILD\tWATCHED", rows,
			"no AIs yet: add one with \"ringside ai add\" or start from a template with \"ringside ai new\"")
	})
}

func aiShow(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai show")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withReadAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		ai, w := st.AI, c.stdout
		fmt.Fprintf(w, "AI %s\n  game:      %s\n  language:  %s\n  folder:    %s", vis(ai.Name), ai.Game, orDash(ai.Language), vis(ai.SourceDir))
		if ai.Missing {
			fmt.Fprint(w, " (missing)")
		}
		fmt.Fprintf(w, "\n  build:     %s\n  run:       %s\n  watched:   %v\n  sandbox:   %s\n  options:   %s\n  added:     %s\n",
			vis(service.BuildText(ai)), vis(ai.RunCmd), ai.Watch, service.AISandboxText(ai), vis(service.AIOptionsShown(ai.Options)),
			ai.Created.Format("2006-01-02 15:04"))
		if cur := st.Current; cur == nil {
			fmt.Fprintln(w, "  current:   none (no successful build yet)")
		} else {
			fmt.Fprintf(w, "  current:   revision %d (%s), built %s\n  revision folder: %s\n", cur.Number, service.ShortHash(cur.Hash),
				cur.Created.Format("2006-01-02 15:04:05"), vis(cur.ArtifactDir))
		}
		if p := st.Pinned; p != nil {
			fmt.Fprintf(w, "  pinned:    revision %d (%s): events play it, not the current revision (\"ringside ai unpin %s\" ends that)\n",
				p.Number, service.ShortHash(p.Hash), vis(ai.Name))
		}
		fmt.Fprintf(w, "  builds:    %d (%d failed)\n", len(st.Revisions), st.Failed)
		printSources(w, s.SourceFiles(ai))
		if last := st.Last; last != nil {
			what := string(last.Status)
			if last.Status == storage.BuildOK {
				what = fmt.Sprintf("revision %d, ok", last.Number)
			}
			if last.Status == storage.BuildFailed && !st.LastFailed() {
				what += fmt.Sprintf(", since undone: the sources are those of revision %d again", st.Current.Number)
			}
			fmt.Fprintf(w, "last build (%s, %s):\n%s\n", what, last.Created.Format("2006-01-02 15:04:05"), indent(last.BuildLog))
		}
		return nil
	})
}

// printSources lists the files that make an AI's revision and those left
// out, with why.
func printSources(w io.Writer, src service.Sources) {
	const most = 40
	if src.Problem != "" {
		fmt.Fprintf(w, "  files:     cannot be listed: %s\n", vis(src.Problem))
		return
	}
	fmt.Fprintf(w, "  files:     %d make a revision (the folder as it is now):\n", len(src.Files))
	for i, f := range src.Files {
		if i == most {
			fmt.Fprintf(w, "    … and %d more\n", len(src.Files)-most)
			break
		}
		fmt.Fprintf(w, "    %s\n", vis(f))
	}
	if len(src.LeftOut) == 0 {
		return
	}
	fmt.Fprintf(w, "  left out:  %d (see \"ringside help ai\": .gitignore, .ringsideignore, data files)\n", len(src.LeftOut))
	for i, l := range src.LeftOut {
		if i == most {
			fmt.Fprintf(w, "    … and %d more\n", len(src.LeftOut)-most)
			break
		}
		fmt.Fprintf(w, "    %s  (%s)\n", vis(l.Path), vis(l.Why))
	}
}

func aiRevisions(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai revisions")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withReadAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		if len(st.Revisions) == 0 {
			fmt.Fprintf(c.stdout, "%s has never been built: \"ringside ai build %s\"\n", st.AI.Name, st.AI.Name)
			return nil
		}
		var rows [][]string
		for _, r := range st.Revisions {
			num, where := "-", r.ArtifactDir
			if r.Status == storage.BuildOK {
				num = fmt.Sprintf("r%d", r.Number)
				if r.ID == st.AI.Current {
					num += " *"
				}
				if r.ID == st.AI.Pinned {
					num += " pinned"
				}
			} else {
				where = service.FirstError(r.BuildLog)
			}
			rows = append(rows, []string{num, service.ShortHash(r.Hash), string(r.Status), r.Created.Format("2006-01-02 15:04:05"), where})
		}
		if err := c.printTable("REVISION\tHASH\tSTATUS\tBUILT\tFOLDER / FIRST ERROR", rows, ""); err != nil {
			return err
		}
		if st.Pinned != nil {
			fmt.Fprintf(c.stdout, "* the current revision; pinned: events play r%d\n", st.Pinned.Number)
			return nil
		}
		fmt.Fprintln(c.stdout, "* plays now (the current revision)")
		return nil
	})
}

func aiRemove(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai remove")
	files := new(bool)
	declare(fs, aiRemoveOptions(files))
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		rm, err := s.RemoveAI(st.AI.ID, *files)
		if err != nil {
			return err
		}
		if !*files {
			fmt.Fprintf(c.stdout, "removed AI %s (its built revisions stay in %s; --files deletes them)\n", rm.AI.Name, rm.Dir)
			return nil
		}
		fmt.Fprintf(c.stdout, "removed AI %s and its revisions folder %s\n", rm.AI.Name, rm.Dir)
		if len(rm.Kept) > 0 {
			fmt.Fprintf(c.stdout, "kept %d revision folder(s) built by an older Ringside, which other databases in that folder may share:\n  %s\n",
				len(rm.Kept), strings.Join(rm.Kept, "\n  "))
		}
		return nil
	})
}

func aiBuild(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai build")
	force, timeout := new(bool), new(time.Duration)
	declare(fs, aiBuildOptions(force, timeout))
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		return c.build(s, st.AI.ID, service.BuildOptions{Force: *force, Timeout: *timeout},
			st.AI.Name+": the build failed (output above)")
	})
}

func aiCheck(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai check")
	var a aiCheckArgs
	declare(fs, aiCheckOptions(&a))
	seed, scale, timeout := &a.seed, &a.scale, &a.timeout
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	if *scale <= 0 {
		return usagef("ai check: --time-scale must be above 0, got %v", *scale)
	}
	extra, err := parseOpts(a.opts)
	if err != nil {
		return err
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		ctx, stop := interrupted()
		defer stop()
		res, err := s.Check(ctx, st.AI.ID, service.CheckOptions{Seed: *seed, TimeScale: *scale, Options: extra, Timeout: *timeout})
		if err != nil {
			return err
		}
		printCheck(c.stdout, res)
		if !res.Passed() {
			return fmt.Errorf("%s does not pass the check (first problems above)", st.AI.Name)
		}
		return nil
	})
}

// printCheck writes a check's report in plain words.
func printCheck(w io.Writer, res service.CheckResult) {
	const row = "  %-20s %s\n"
	switch {
	case res.BuildErr != nil:
		fmt.Fprintf(w, row, "builds", "no: "+oneLine(res.BuildErr.Error()))
		return
	case res.Build.Failed():
		fmt.Fprintf(w, row, "builds", "no: the build failed:\n"+indent(res.Build.Rev.BuildLog))
		return
	}
	ai, rev := res.Build.AI, res.Revision
	fmt.Fprintf(w, "check %s (%s, revision %d, %s)\n", vis(ai.Name), ai.Game, rev.Number, service.ShortHash(rev.Hash))
	fmt.Fprintf(w, row, "builds", "ok")
	fmt.Fprintf(w, row, "sandbox", res.Sandbox)
	if ai.Options != "" {
		fmt.Fprintf(w, row, "options", service.AIOptionsShown(ai.Options))
	}
	rep := res.Report
	if rep == nil {
		return
	}
	for _, it := range rep.Items {
		verdict := it.Text
		if !it.OK {
			verdict = "no: " + it.Text
		}
		fmt.Fprintf(w, row, it.What, strings.ReplaceAll(service.VisibleText(verdict), "\n", "\n  | "))
	}
	for _, warn := range res.Warnings {
		text := warn.Text
		if warn.Option != "" {
			text += " If that is it: ringside ai edit " + ai.Name + " --option " + warn.Option
		}
		fmt.Fprintf(w, row, "warning", vis(text))
	}
	if played := res.PlayedWords(); played != "" {
		fmt.Fprintf(w, "played %s\n", played)
	}
	if res.Passed() {
		fmt.Fprintln(w, "ok: ready to play")
	}
}

// revisionArgs parses flags around NAME and n revisions (rN).
func revisionArgs(fs *flag.FlagSet, args []string, n int, usage string) (string, []int, error) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return "", nil, err
	}
	if len(pos) != n+1 {
		return "", nil, usagef("%s: write %s", fs.Name(), usage)
	}
	var revs []int
	for _, p := range pos[1:] {
		r, err := service.ParseRevision(p)
		if err != nil {
			return "", nil, usagef("%s: %v", fs.Name(), err)
		}
		revs = append(revs, r)
	}
	return pos[0], revs, nil
}

func aiPin(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai pin")
	name, revs, err := revisionArgs(fs, args, 1, "ringside ai pin NAME rN")
	if err != nil {
		return err
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		rev, err := s.PinAI(st.AI.ID, revs[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s is pinned to revision %d (%s): events, compare and play use it; new builds wait until \"ringside ai unpin %s\"\n",
			st.AI.Name, rev.Number, service.ShortHash(rev.Hash), st.AI.Name)
		return nil
	})
}

func aiUnpin(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai unpin")
	name, err := nameArg(fs, args)
	if err != nil {
		return err
	}
	return withAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		was, err := s.UnpinAI(st.AI.ID)
		if err != nil {
			return err
		}
		cur := "none yet"
		if st.Current != nil {
			cur = fmt.Sprintf("revision %d", st.Current.Number)
		}
		if !was {
			fmt.Fprintf(c.stdout, "%s was not pinned; its current revision plays (%s)\n", st.AI.Name, cur)
			return nil
		}
		fmt.Fprintf(c.stdout, "%s is no longer pinned: its current revision plays (%s)\n", st.AI.Name, cur)
		return nil
	})
}

func aiDiff(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("ai diff")
	name, revs, err := revisionArgs(fs, args, 2, "ringside ai diff NAME rA rB, e.g. ai diff alice r1 r2")
	if err != nil {
		return err
	}
	return withReadAI(*dbPath, name, func(s *service.Service, st service.AIStatus) error {
		d, err := s.DiffRevisions(st.AI.ID, revs[0], revs[1])
		if err != nil {
			return err
		}
		printDiff(c.stdout, d)
		return nil
	})
}

// printDiff writes the file list of a revision diff, then the text diffs.
func printDiff(w io.Writer, d service.RevisionDiff) {
	fmt.Fprintf(w, "%s: revision %d (%s) → revision %d (%s): %d file(s) changed, %d the same\n", vis(d.AI.Name),
		d.From.Number, service.ShortHash(d.From.Hash), d.To.Number, service.ShortHash(d.To.Hash), len(d.Files), d.Same)
	for _, f := range d.Files {
		fmt.Fprintf(w, "  %-8s %s  %s\n", f.Kind, vis(f.Path), service.ChangeText(f))
	}
	for _, f := range d.Files {
		if f.Unified != "" {
			fmt.Fprint(w, "\n", service.VisibleText(f.Unified))
		}
	}
}
