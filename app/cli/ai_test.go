package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/engine"
	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// toolchains says which programs each template language needs.
var toolchains = map[string][]string{
	"python": {"python3"},
	"cpp":    {"g++"},
	"java":   {"javac", "java"},
	"go":     {"go"},
}

// checkScale is the time scale of the checks that must pass: ten times
// the game's limits, so that a busy machine (a CPU hog of twice its
// cores beside the tests) makes no answer of a quick bot late.
const checkScale = "10"

func missingTool(lang string) string {
	for _, p := range toolchains[lang] {
		if _, err := exec.LookPath(p); err != nil {
			return p
		}
	}
	return ""
}

// TestAITemplates copies every template with "ai new", builds it with its
// toolchain and runs "ai check": each must build, start in the sandbox and
// answer validly and in time.
func TestAITemplates(t *testing.T) {
	t.Parallel()
	list := service.Templates()
	if len(list) != 12 {
		t.Errorf("templates = %v, want 3 games × 4 languages", list)
	}
	root := t.TempDir()
	db := filepath.Join(root, "ringside.db")
	for _, tmpl := range list {
		game, lang, _ := strings.Cut(tmpl, "/")
		t.Run(game+"-"+lang, func(t *testing.T) {
			if _, ok := toolchains[lang]; !ok {
				t.Fatalf("no toolchain known for template language %q", lang)
			}
			if tool := missingTool(lang); tool != "" {
				t.Skipf("%s is not installed: the %s template cannot be built here", tool, lang)
			}
			dir := filepath.Join(root, game+"-"+lang)
			name := game + "-" + lang
			code, out, errs := runCLI("ai", "new", "--game", game, "--lang", lang, "--dir", dir, "--name", name, "--db", db)
			if code != 0 {
				t.Fatalf("ai new: exit %d\n%s%s", code, out, errs)
			}
			if !strings.Contains(out, "guessed "+map[string]string{"python": "python", "cpp": "cpp", "java": "java", "go": "go"}[lang]) ||
				!strings.Contains(out, "revision 1") {
				t.Errorf("ai new output:\n%s", out)
			}
			// A generous time scale: the machine runs other tests meanwhile
			// (or a CPU hog of twice its cores: a turn of Grip's went past
			// 400 ms) and a JVM starts slowly; the check is about the
			// protocol.
			code, out, errs = runCLI("ai", "check", name, "--db", db, "--time-scale", checkScale)
			if code != 0 || !strings.Contains(out, "ok: ready to play") {
				t.Fatalf("ai check: exit %d\n%s%s", code, out, errs)
			}
			// The check ran it as every game will: in the sandbox.
			if sandbox.Supported && !strings.Contains(out, "Sandbox: on") {
				t.Errorf("ai check did not run the template in the sandbox:\n%s", out)
			}
			for _, f := range []string{"bot", "out", "target"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("the template folder has %s after building: builds must not write there", f)
				}
			}
			// Twice the same game, move for move: the template draws its
			// randomness from RINGSIDE_SEED.
			opts := map[string][]string{"grip": {"--opt", "max_turns=120"}, "cloud": {"--opt", "turns=40"},
				"battle2048": {"--opt", "rounds=60"}}[game]
			opponent := map[string]string{"grip": "builtin:grip/greedy", "cloud": "builtin:cloud/hunter",
				"battle2048": "builtin:battle2048/greedy"}[game]
			var plays []string
			for i := range 2 {
				replay := filepath.Join(root, fmt.Sprintf("%s-%d.json", name, i))
				args := append([]string{"play", "--game", game, "--seed", "11", "--time-scale", "4", "--db", db,
					"--replay", replay, "--bot", name, "--bot", opponent}, opts...)
				if game == "grip" {
					args = append(args, "--bot", "builtin:grip/random", "--bot", name)
				}
				if code, out, errs := runCLI(args...); code != 0 {
					t.Fatalf("play: exit %d\n%s%s", code, out, errs)
				}
				plays = append(plays, movesOf(t, replay))
			}
			if plays[0] != plays[1] {
				a, b := strings.Split(plays[0], "\n"), strings.Split(plays[1], "\n")
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Errorf("the same seed played two different games: at line %d of the moves %q, then %q", i+1, a[i], b[i])
						break
					}
				}
				if len(a) != len(b) {
					t.Errorf("the same seed played two different games: %d and %d lines of moves", len(a), len(b))
				}
			}
		})
	}
}

// movesOf is a replay's moves, verdicts and result without the measured
// times: what two plays of a deterministic game have alike.
func movesOf(t *testing.T, path string) string {
	t.Helper()
	rp := fixture.ReadReplay(t, path)
	var b strings.Builder
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			fmt.Fprintf(&b, "%d %d %s %s\n", st.Turn, s.Seat, s.Action, s.Verdict)
		}
	}
	fmt.Fprintf(&b, "result %v %s %d\n", rp.Result.Ranks, rp.Result.Reason, rp.Result.Turns)
	return b.String()
}

func TestAICommands(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db := filepath.Join(root, "r.db")
	src := filepath.Join(root, "pybot")
	if code, out, errs := runCLI("ai", "new", "--game", "battle2048", "--lang", "python", "--dir", src, "--name", "py",
		"--db", db, "--no-watch"); code != 0 {
		t.Fatalf("ai new: %d %s %s", code, out, errs)
	}
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "main.py"), []byte("print('3 3')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("ai", "add", "--name", "Other", "--game", "battle2048", "--dir", other, "--db", db)
	if code != 0 || !strings.Contains(out, "guessed python") || !strings.Contains(out, "run:   python3 main.py") ||
		!strings.Contains(out, "revision 1") {
		t.Fatalf("ai add: %d\n%s%s", code, out, errs)
	}

	checks := []struct {
		args []string
		want []string
	}{
		{[]string{"ai", "list", "--db", db}, []string{"NAME", "Other", "py ", "battle2048", "python", "r1", "ok 20", "yes", "no"}},
		{[]string{"ai", "show", "py", "--db", db}, []string{"AI py", "folder:    " + src, "run:       python3 bot.py", "current:   revision 1", "nothing to build"}},
		{[]string{"ai", "show", "--db", db, "OTHER"}, []string{"AI Other"}},
		{[]string{"ai", "build", "py", "--db", db}, []string{"unchanged, revision 1"}},
		{[]string{"ai", "revisions", "py", "--db", db}, []string{"r1", "ok", filepath.Join(root, "r-data", "revisions", "py-")}},
	}
	for _, c := range checks {
		code, out, errs := runCLI(c.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}

	// A new file is a change: revision 2.
	if err := os.WriteFile(filepath.Join(other, "run.sh"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI("ai", "build", "Other", "--db", db)
	if code != 0 || !strings.Contains(out, "built revision 2") && !strings.Contains(out, "revision 2") {
		t.Errorf("build after a change: %d\n%s", code, out)
	}

	bot, found, err := resolveFromDB(t, db, "py")
	if err != nil || !found {
		t.Fatalf("resolveAIBot: %v %v", found, err)
	}
	if bot.Command != "python3 bot.py" || !strings.HasPrefix(bot.Dir, filepath.Join(root, "r-data", "revisions", "py-")) {
		t.Errorf("bot = %+v", bot)
	}
	if _, found, err := resolveFromDB(t, db, "builtin:grip/random"); found || err != nil {
		t.Errorf("a command is not an AI: found=%v err=%v", found, err)
	}

	usage := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ai"}, 2, "say what to do"},
		{[]string{"ai", "frobnicate"}, 2, `unknown subcommand "frobnicate"`},
		{[]string{"ai", "add", "--game", "grip", "--dir", other, "--db", db}, 2, "--name is required"},
		{[]string{"ai", "add", "--name", "x", "--dir", other, "--db", db}, 2, "--game is required"},
		{[]string{"ai", "add", "--name", "x", "--game", "chess", "--dir", other, "--db", db}, 2, `unknown game "chess"`},
		{[]string{"ai", "add", "--name", "x", "--game", "grip", "--db", db}, 2, "--dir is required"},
		{[]string{"ai", "add", "--name", "x", "--game", "grip", "--dir", filepath.Join(root, "nope"), "--db", db}, 1, "no such folder"},
		{[]string{"ai", "add", "--name", "PY", "--game", "grip", "--dir", other, "--db", db}, 1,
			`an AI named "py" already exists: choose another name, or change that AI ("ringside ai edit py" changes its folder, commands or options)`},
		{[]string{"ai", "add", "--name", "x", "--game", "grip", "--dir", other, "--build", "nosuch-cc-4711 x.c", "--run", "./x", "--db", db}, 1,
			"nosuch-cc-4711 is not installed"},
		{[]string{"ai", "add", "--name", "builtin:me", "--game", "grip", "--dir", other, "--db", db}, 2, "kept for built-in bots"},
		{[]string{"ai", "new", "--game", "grip", "--lang", "cobol", "--dir", filepath.Join(root, "c"), "--name", "c", "--db", db}, 2,
			`no template for game "grip" in language "cobol"`},
		{[]string{"ai", "new", "--game", "grip", "--lang", "python", "--dir", other, "--name", "c", "--db", db}, 1, "is not empty"},
		{[]string{"ai", "new", "--game", "grip", "--db", db}, 2, "are all required"},
		{[]string{"ai", "show", "--db", db}, 2, "name the AI"},
		{[]string{"ai", "show", "nobody", "--db", db}, 1, `AI "nobody"`},
		{[]string{"ai", "show", "py", "extra", "--db", db}, 2, `unexpected argument "extra"`},
		{[]string{"ai", "check", "py", "--time-scale", "0", "--db", db}, 2, "--time-scale must be above 0"},
		{[]string{"ai", "list", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"watch", "--debounce", "0", "--db", db}, 2, "must be above 0"},
	}
	for _, u := range usage {
		code, _, errs := runCLI(u.args...)
		if code != u.code || !strings.Contains(errs, u.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q on one line", u.args, code, errs, u.code, u.want)
		}
	}

	otherRevs := filepath.Join(root, "r-data", "revisions", "Other-2")
	if _, err := os.Stat(otherRevs); err != nil {
		t.Fatalf("Other's revisions are not in %s: %v", otherRevs, err)
	}
	code, out, errs = runCLI("ai", "remove", "Other", "--files", "--db", db)
	if code != 0 || !strings.Contains(out, "removed AI Other") {
		t.Fatalf("remove: %d %s %s", code, out, errs)
	}
	if _, err := os.Stat(otherRevs); err == nil {
		t.Errorf("--files left the revisions folder")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("remove must never touch the source folder: %v", err)
	}
	if code, out, _ := runCLI("ai", "list", "--db", db); code != 0 || strings.Contains(out, "Other") {
		t.Errorf("list after remove:\n%s", out)
	}
	for _, cmd := range []string{"ai", "watch"} {
		if code, out, _ := runCLI("help", cmd); code != 0 || len(out) < 400 {
			t.Errorf("help %s is missing or short:\n%s", cmd, out)
		}
	}
}

func resolveFromDB(t *testing.T, path, name string) (runner.Bot, bool, error) {
	t.Helper()
	s, err := service.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AI(name); service.ErrorCode(err) == service.NotFound {
		return runner.Bot{}, false, nil
	}
	e, err := s.ResolveEntry(name, "battle2048")
	return service.EntryBot(e, runner.DefaultLimits), true, err
}

// TestRevertedSourcesPlayTheRevisionTheyRestore is the revert case: an AI
// at r3 saves a syntax error, then the student restores r1's file. Every
// command and the game must name and play revision 1.
func TestRevertedSourcesPlayTheRevisionTheyRestore(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "erin")
	write := func(content string) { runnertest.WriteFiles(t, src, map[string]string{"bot.py": content}) }
	write(fixture.PyBot(1))
	mustRingside(t, "ai", "add", "--name", "erin", "--game", "grip", "--dir", src, "--no-watch", "--db", db)
	for v := 2; v <= 3; v++ {
		write(fixture.PyBot(v))
		if out := mustRingside(t, "ai", "build", "erin", "--db", db); !strings.Contains(out, "revision "+string(rune('0'+v))) {
			t.Fatalf("build of version %d: %s", v, out)
		}
	}
	write(fixture.PyBot(3) + "\nthis is not python(\n")
	ringside(t, "ai", "build", "erin", "--db", db) // a broken revision or a failed build: either way not r1
	write(fixture.PyBot(1))
	if out := mustRingside(t, "ai", "build", "erin", "--db", db); !strings.Contains(out, "unchanged, revision 1") {
		t.Errorf("build after the revert: %s", out)
	}
	if out := mustRingside(t, "ai", "show", "erin", "--db", db); !strings.Contains(out, "current:   revision 1 ") {
		t.Errorf("ai show after the revert:\n%s", out)
	}
	if out := mustRingside(t, "ai", "check", "erin", "--db", db, "--time-scale", checkScale); !strings.Contains(out, "revision 1,") ||
		!strings.Contains(out, "ok: ready to play") {
		t.Errorf("ai check after the revert:\n%s", out)
	}
	out := mustRingside(t, "play", "--game", "grip", "--seed", "3", "--opt", "max_turns=40", "--time-scale", "4", "--db", db,
		"--bot", "erin", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	var res playResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("play output: %v\n%s", err, out)
	}
	if s := res.Seats[0]; s.Bot != "erin r1" || s.Verdicts["crashed"] != 0 || s.Verdicts["ok"] == 0 {
		t.Errorf("play --bot erin: seat 0 = %+v, want erin r1 answering", s)
	}
}

// TestTwoDatabasesKeepTheirRevisions: "ai remove sam --files" in classB.db
// must not touch the revisions of class.db's sam in the same folder.
func TestTwoDatabasesKeepTheirRevisions(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	a, b := filepath.Join(root, "class.db"), filepath.Join(root, "classB.db")
	addPyBot(t, filepath.Join(root, "sam"), "sam", a, b)
	folder := func(db string) string {
		out := mustRingside(t, "ai", "show", "sam", "--db", db)
		_, after, ok := strings.Cut(out, "revision folder: ")
		if !ok {
			t.Fatalf("ai show names no revision folder:\n%s", out)
		}
		return strings.TrimSpace(strings.SplitN(after, "\n", 2)[0])
	}
	fa, fb := folder(a), folder(b)
	if fa == fb {
		t.Fatalf("both databases keep sam in %s", fa)
	}
	mustRingside(t, "ai", "remove", "sam", "--files", "--db", b)
	if _, err := os.Stat(fb); err == nil {
		t.Errorf("classB's revision folder %s survived --files", fb)
	}
	if _, err := os.Stat(fa); err != nil {
		t.Fatalf("class.db's revision folder is gone after removing classB's sam: %v", err)
	}
	if out := mustRingside(t, "ai", "check", "sam", "--db", a, "--time-scale", checkScale); !strings.Contains(out, "ok: ready to play") {
		t.Errorf("class.db's sam after classB's removal:\n%s", out)
	}
}

// TestGripCoordsOption: an AI carries coords=xy for its own seat. ai check
// warns about the confused bot without it and says which option fixes it;
// with it the warning is gone, ai show shows it, and the seat gets x y in
// play and in events while the other seats keep row column.
func TestGripCoordsOption(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "walker")
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.XYBot})
	mustRingside(t, "ai", "add", "--name", "walker", "--game", "grip", "--dir", src, "--no-watch", "--db", db)

	out := mustRingside(t, "ai", "check", "walker", "--time-scale", checkScale, "--db", db)
	if !strings.Contains(out, "looks confused") || !strings.Contains(out, "ringside ai edit walker --option coords=xy") {
		t.Errorf("ai check of a bot that reads x y, sent row column: no confusion warning:\n%s", out)
	}
	if !strings.Contains(out, "ok: ready to play") {
		t.Errorf("a warning must not fail the check:\n%s", out)
	}

	// Options the game does not let one seat set are refused with the
	// ones it does.
	for _, tc := range []struct{ opt, want string }{
		{"coords=yx", `option coords="yx": want one of rc, xy`},
		{"protocol=beta", "an AI of grip can only set coords=rc|xy"},
		{"turn_ms=200", "an AI of grip can only set coords=rc|xy"},
		{"coords", "write KEY=VALUE"},
	} {
		code, _, errs := ringside(t, "ai", "edit", "walker", "--option", tc.opt, "--db", db)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("ai edit --option %s: exit %d, %q; want an error with %q", tc.opt, code, errs, tc.want)
		}
	}
	code, _, errs := ringside(t, "ai", "add", "--name", "other", "--game", "grip", "--dir", src, "--option", "coords=zz", "--db", db)
	if code == 0 || !strings.Contains(errs, "want one of rc, xy") {
		t.Errorf("ai add --option coords=zz: exit %d, %q", code, errs)
	}

	mustRingside(t, "ai", "edit", "walker", "--option", "coords=xy", "--db", db)
	if out := mustRingside(t, "ai", "show", "walker", "--db", db); !strings.Contains(out, "options:   coords=xy (this AI's seat only)") {
		t.Errorf("ai show does not show the option:\n%s", out)
	}
	out = mustRingside(t, "ai", "check", "walker", "--time-scale", checkScale, "--db", db)
	if strings.Contains(out, "looks confused") || !strings.Contains(out, "ok: ready to play") {
		t.Errorf("ai check with coords=xy:\n%s", out)
	}

	// play: the AI's seat gets column first, the others row first.
	replay := filepath.Join(root, "game.json")
	mustRingside(t, "play", "--game", "grip", "--seed", "1", "--opt", "max_turns=40", "--time-scale", "4", "--db", db, "--replay", replay,
		"--bot", "builtin:grip/random", "--bot", "walker", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	checkSeatCoords(t, fixture.ReadReplay(t, replay), 1)

	// An event: the entry keeps the option; its games' replays have it.
	// A gauntlet of one group: four games, each seat once.
	out = mustRingside(t, "event", "create", "--game", "grip", "--format", "gauntlet", "--games", "1", "--seed", "5",
		"--opt", "max_turns=24", "--time-scale", "4", "--entry", "walker", "--entry", "builtin:grip/random", "--entry", "builtin:grip/greedy",
		"--entry", "builtin:grip/random", "--candidate", "builtin:grip/greedy", "--db", db)
	id := regexp.MustCompile(`event (\d+):`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("event create: %s", out)
	}
	if out := mustRingside(t, "event", "show", id[1], "--db", db); !strings.Contains(out, "walker r1 (coords=xy)") {
		t.Errorf("event show does not show the entry's option:\n%s", out)
	}
	mustRingside(t, "event", "run", id[1], "--db", db)
	show := mustRingside(t, "event", "show", id[1], "--db", db)
	m := regexp.MustCompile(`(?m)^(\d+)\s+1\s`).FindStringSubmatch(show)
	if m == nil {
		t.Fatalf("no first match in:\n%s", show)
	}
	rp := exportReplay(t, db, m[1])
	seat := -1
	for i, p := range rp.Players {
		if p == "walker r1" {
			seat = i
		}
	}
	if seat < 0 {
		t.Fatalf("walker r1 is not in the game: %v", rp.Players)
	}
	checkSeatCoords(t, rp, seat)
}

func exportReplay(t *testing.T, db, match string) *engine.Replay {
	t.Helper()
	out := mustRingside(t, "replay", "export", match, "--db", db)
	var rp *engine.Replay
	if err := json.Unmarshal([]byte(out), &rp); err != nil {
		t.Fatalf("replay export: %v\n%.300s", err, out)
	}
	return rp
}

// checkSeatCoords checks, in each seat's first turn input, the line of
// player 3 (who has not moved yet): seat xy reads it column first, the
// others row first; and that the replay records the option for that seat
// alone.
func checkSeatCoords(t *testing.T, rp *engine.Replay, xy int) {
	t.Helper()
	if rp.Options[fmt.Sprintf("coords@%d", xy)] != "xy" || rp.Options["coords"] != "rc" {
		t.Errorf("replay options %v: want coords=rc and coords@%d=xy", rp.Options, xy)
	}
	start := strings.Split(rp.Start, "/")
	if len(start) != 4 {
		t.Fatalf("replay start %q", rp.Start)
	}
	p3 := strings.Split(start[3], ",") // row, column, facing
	if p3[0] == p3[1] {
		t.Fatalf("player 3 starts at %v: choose a seed where row and column differ", p3)
	}
	seen := map[int]bool{}
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			lines := strings.Split(s.Input, "\n")
			if s.Input == "" || seen[s.Seat] || len(lines) < 12 {
				continue
			}
			seen[s.Seat] = true
			got := strings.Fields(lines[11])[:2]
			want := []string{p3[0], p3[1]}
			if s.Seat == xy {
				want = []string{p3[1], p3[0]}
			}
			if got[0] != want[0] || got[1] != want[1] {
				t.Errorf("seat %d read player 3 at %v, want %v (the xy seat is %d)", s.Seat, got, want, xy)
			}
		}
	}
	// A loaded machine may make a bot miss its READY; the xy seat and
	// one other are enough to compare.
	if !seen[xy] || len(seen) < 2 {
		t.Errorf("turn inputs of seats %v in the replay, want the xy seat %d and another", seen, xy)
	}
}

// TestBattle2048ProtocolOption: a Battle 2048 AI may carry protocol=beta;
// its seat gets the boards without the Turn line.
func TestBattle2048ProtocolOption(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "beta")
	// It places the opening tile, then never answers a turn: its first
	// turn input is all that is looked at.
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": "import sys\nsys.stdin.readline()\nprint('1 1', flush=True)\nfor line in sys.stdin:\n    pass\n"})
	mustRingside(t, "ai", "add", "--name", "beta", "--game", "battle2048", "--dir", src, "--no-watch",
		"--option", "protocol=beta", "--db", db)
	code, _, errs := ringside(t, "ai", "edit", "beta", "--option", "coords=xy", "--db", db)
	if code == 0 || !strings.Contains(errs, "an AI of battle2048 can only set protocol=final|beta") {
		t.Errorf("coords on a battle2048 AI: exit %d, %q", code, errs)
	}
	replay := filepath.Join(root, "game.json")
	mustRingside(t, "play", "--game", "battle2048", "--seed", "1", "--opt", "rounds=3", "--time-scale", "4", "--db", db, "--replay", replay,
		"--bot", "builtin:battle2048/random", "--bot", "beta")
	rp := fixture.ReadReplay(t, replay)
	if rp.Options["protocol@1"] != "beta" || rp.Options["protocol"] != "final" {
		t.Errorf("replay options %v", rp.Options)
	}
	checkBeta(t, rp, 1)

	// compare: the same through an SPRT event; beta sits in both seats.
	mustRingside(t, "compare", "--game", "battle2048", "--entry", "beta", "--entry", "builtin:battle2048/random",
		"--games", "2", "--opt", "rounds=3", "--time-scale", "4", "--db", db)
	show := mustRingside(t, "event", "show", "1", "--db", db)
	if !strings.Contains(show, "entries: beta r1 (protocol=beta), builtin:battle2048/random") {
		t.Errorf("compare's event:\n%s", show)
	}
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\s+\d+\s+\d+\s`).FindAllStringSubmatch(show, -1) {
		rp := exportReplay(t, db, m[1])
		seat := 0
		if rp.Players[1] == "beta r1" {
			seat = 1
		}
		if rp.Options[fmt.Sprintf("protocol@%d", seat)] != "beta" || rp.Options[fmt.Sprintf("protocol@%d", 1-seat)] != "" {
			t.Errorf("match %s: players %v, options %v", m[1], rp.Players, rp.Options)
		}
		checkBeta(t, rp, seat)
	}
}

// checkBeta checks that the beta seat's turn inputs are the ten board
// lines without a Turn line, and that every other turn input has one.
func checkBeta(t *testing.T, rp *engine.Replay, beta int) {
	t.Helper()
	betaTurns := 0
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			lines := strings.Split(strings.TrimSuffix(s.Input, "\n"), "\n")
			if len(lines) < 10 {
				continue // the opening
			}
			first := strings.Fields(lines[0])
			switch {
			case s.Seat == beta && (len(lines) != 10 || len(first) != 5):
				t.Errorf("beta seat's turn input %q", s.Input)
			case s.Seat == beta:
				betaTurns++
			case len(lines) != 11 || len(first) != 4:
				t.Errorf("final seat's turn input %q", s.Input)
			}
		}
	}
	if betaTurns == 0 {
		t.Errorf("the beta seat got no turn input: %+v", rp.Steps)
	}
}

// pyBuild writes version v of a Python bot and builds it, returning the
// build's output.
func pyBuild(t *testing.T, db, src, name string, v int) string {
	t.Helper()
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(v)})
	return mustRingside(t, "ai", "build", name, "--db", db)
}

// TestPinAndUnpin: a pinned AI plays its pin in events while builds go on;
// ai show and ai list say so; unpinning lets the current revision play.
func TestPinAndUnpin(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "pia")
	addPyBot(t, src, "pia", db)
	pyBuild(t, db, src, "pia", 2)

	for _, tc := range []struct{ args []string }{
		{[]string{"ai", "pin", "pia", "r9"}},
		{[]string{"ai", "pin", "pia", "rx"}},
		{[]string{"ai", "pin", "pia"}},
		{[]string{"ai", "pin", "nobody", "r1"}},
	} {
		if code, _, errs := ringside(t, append(tc.args, "--db", db)...); code == 0 || errs == "" {
			t.Errorf("%v: exit %d, %q; want an error", tc.args, code, errs)
		}
	}
	code, _, errs := ringside(t, "ai", "pin", "pia", "r9", "--db", db)
	if code == 0 || !strings.Contains(errs, "AI pia has no revision 9") {
		t.Errorf("pin to a missing revision: %q", errs)
	}
	if out := mustRingside(t, "ai", "pin", "pia", "r1", "--db", db); !strings.Contains(out, "pia is pinned to revision 1") {
		t.Errorf("ai pin: %s", out)
	}
	if out := pyBuild(t, db, src, "pia", 3); !strings.Contains(out, "revision 3") {
		t.Errorf("a pinned AI still builds new revisions: %s", out)
	}
	show := mustRingside(t, "ai", "show", "pia", "--db", db)
	if !strings.Contains(show, "pinned:    revision 1") || !strings.Contains(show, "current:   revision 3") {
		t.Errorf("ai show of a pinned AI:\n%s", show)
	}
	if out := mustRingside(t, "ai", "list", "--db", db); !strings.Contains(out, "r1 pinned") {
		t.Errorf("ai list of a pinned AI:\n%s", out)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r1,") {
		t.Errorf("an event of a pinned AI plays %q, want pia r1", entries)
	}
	if out := mustRingside(t, "ai", "unpin", "pia", "--db", db); !strings.Contains(out, "no longer pinned: its current revision plays (revision 3)") {
		t.Errorf("ai unpin: %s", out)
	}
	if out := mustRingside(t, "ai", "unpin", "pia", "--db", db); !strings.Contains(out, "was not pinned") {
		t.Errorf("ai unpin twice: %s", out)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("after unpin an event plays %q, want pia r3", entries)
	}
}

// TestDiffRevisions: ai diff lists added, removed and changed files with
// line counts, gives binary files' sizes, and prints unified diffs.
func TestDiffRevisions(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "dia")
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1), "old.py": "x = 1\n", "notes.txt": "data, left out\n"})
	mustRingside(t, "ai", "add", "--name", "dia", "--game", "grip", "--dir", src, "--no-watch", "--db", db)
	if err := os.Remove(filepath.Join(src, "old.py")); err != nil {
		t.Fatal(err)
	}
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(2), "helper.py": "def f():\n    return 2\n",
		"table.bin": "\x00\x01\x02\x03", "notes.txt": "changed, still left out\n"})
	mustRingside(t, "ai", "build", "dia", "--db", db)

	out := mustRingside(t, "ai", "diff", "dia", "r1", "r2", "--db", db)
	for _, want := range []string{
		"dia: revision 1 (", "4 file(s) changed, 0 the same",
		"  changed  bot.py  +1 -1 lines",
		"  added    helper.py  +2 -0 lines",
		"  removed  old.py  +0 -1 lines",
		"  added    table.bin  binary, 4 bytes",
		"--- r1/bot.py\n+++ r2/bot.py\n@@ -1,5 +1,5 @@\n import sys\n-# version 1\n+# version 2\n",
		"--- r1/old.py\n+++ r2/old.py\n@@ -1 +0,0 @@\n-x = 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ai diff dia r1 r2: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "notes.txt") {
		t.Errorf("a left-out file is in the diff:\n%s", out)
	}
	if out := mustRingside(t, "ai", "diff", "dia", "2", "r2", "--db", db); !strings.Contains(out, "0 file(s) changed, 3 the same") {
		t.Errorf("diff of a revision with itself:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"r1", "r7"}, "AI dia has no revision 7"},
		{[]string{"r1"}, "write ringside ai diff NAME rA rB"},
		{[]string{"r1", "latest"}, `revision "latest": write rN`},
	} {
		code, _, errs := ringside(t, append(append([]string{"ai", "diff", "dia"}, tc.args...), "--db", db)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("ai diff dia %v: exit %d, %q; want %q", tc.args, code, errs, tc.want)
		}
	}
}

// hogBot is a Battle 2048 bot that takes 300 MB before its first move.
const hogBot = `import sys
x = bytearray(300 * 1024 * 1024)
for line in sys.stdin:
    pass
`

// TestAILimitsAndTrust sets an AI's caps and trust through the binary and
// plays it: a cap below what the bot takes loses it its game, trust runs
// it outside the sandbox, and both are shown where the AI is.
func TestAILimitsAndTrust(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	db := filepath.Join(t.TempDir(), "t.db")
	dir := filepath.Join(t.TempDir(), "hog")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": hogBot})
	mustRingside(t, "ai", "add", "--name", "hog", "--game", "battle2048", "--dir", dir, "--no-watch",
		"--limits", "memory=64M", "--db", db)
	if out := mustRingside(t, "ai", "show", "hog", "--db", db); !strings.Contains(out, "sandbox:   on, with memory=64M") {
		t.Errorf("ai show does not say the cap:\n%s", out)
	}
	play := func() seatResult {
		t.Helper()
		out := mustRingside(t, "play", "--game", "battle2048", "--bot", "hog", "--bot", "builtin:battle2048/random",
			"--seed", "1", "--db", db)
		var res playResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("play printed %q: %v", out, err)
		}
		return res.Seats[0]
	}
	if s := play(); s.Verdicts["crashed"] != 1 || s.Sandbox != "on" {
		t.Errorf("hog under a 64M cap: %+v, want crashed in the sandbox", s)
	}
	mustRingside(t, "ai", "edit", "hog", "--trusted", "--limits", "", "--db", db)
	if s := play(); s.Verdicts["crashed"] != 0 || s.Sandbox != "trusted" {
		t.Errorf("trusted hog: %+v, want it to play outside the sandbox", s)
	}
	code, _, errs := ringside(t, "ai", "edit", "hog", "--trusted", "--sandboxed", "--db", db)
	if code != 2 || !strings.Contains(errs, "not both") {
		t.Errorf("--trusted --sandboxed: exit %d, %q", code, errs)
	}
}

// TestNamesShownVisibly: file names, an AI name and a folder holding
// escape sequences, a newline and U+202E reach the terminal as readable
// escapes through "ai add", "ai show", "ai list", "ai build" and an error
// naming them, never as the bytes a terminal would act on.
func TestNamesShownVisibly(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db := filepath.Join(root, "r.db")
	src := filepath.Join(root, "folder\x1b[2J")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"main.py":                 "print('3 3')\n",
		"evil\x1b]0;pwned\a.txt":  "x",
		"gnp.\u202etxt":           "x",
		"two\nlines.txt":          "x",
		"bell\x07\u2066hidden.md": "x",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	name := "al\u202eice\x1b[31m"
	raw := func(s string) bool { return strings.ContainsAny(s, "\x1b\a\u202e\u2066") }
	for _, c := range []struct {
		args []string
		code int
		want []string // in stdout or stderr
	}{
		{[]string{"ai", "add", "--name", name, "--game", "battle2048", "--dir", src, "--db", db, "--no-watch"}, 0,
			[]string{`added AI al\u202eice\x1b[31m`}},
		{[]string{"ai", "show", name, "--db", db}, 0,
			[]string{`AI al\u202eice\x1b[31m`, `folder\x1b[2J`, `evil\x1b]0;pwned\x07.txt`, `gnp.\u202etxt`, `two\nlines.txt`, `bell\x07\u2066hidden.md`}},
		{[]string{"ai", "list", "--db", db}, 0, []string{`al\u202eice\x1b[31m`}},
		{[]string{"ai", "build", name, "--db", db}, 0, []string{`al\u202eice\x1b[31m: unchanged`}},
		{[]string{"ai", "show", "bob\x1b[2J\nx", "--db", db}, 1, []string{`bob\x1b[2J\nx`}},
		{[]string{"ai", "add", "--name", "x", "--game", "grip", "--dir", src + "/no\x1b[1mne", "--db", db}, 1, []string{`no\x1b[1mne`}},
	} {
		code, out, errs := runCLI(c.args...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d\n%s%s", c.args, code, c.code, out, errs)
		}
		if raw(out) || raw(errs) || strings.Contains(out, "two\nlines") {
			t.Errorf("%q: a name reached the terminal raw:\n%q\n%q", c.args, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errs, w) {
				t.Errorf("%q: output lacks %s:\n%s%s", c.args, w, out, errs)
			}
		}
	}
}
