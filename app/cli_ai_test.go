package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/runner"
	"ringside/runner/build"
	"ringside/storage"
)

// toolchains says which programs each template language needs.
var toolchains = map[string][]string{
	"python": {"python3"},
	"cpp":    {"g++"},
	"java":   {"javac", "java"},
	"go":     {"go"},
}

func missingTool(lang string) string {
	for _, p := range toolchains[lang] {
		if _, err := exec.LookPath(p); err != nil {
			return p
		}
	}
	return ""
}

// TestAITemplates copies every template with "ai new", builds it with its
// toolchain and runs "ai check": each must build, start and answer validly
// and in time.
func TestAITemplates(t *testing.T) {
	list := templateList()
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
			// and a JVM starts slowly; the check is about the protocol.
			code, out, errs = runCLI("ai", "check", name, "--db", db, "--time-scale", "4")
			if code != 0 || !strings.Contains(out, "ok: ready to play") {
				t.Fatalf("ai check: exit %d\n%s%s", code, out, errs)
			}
			for _, f := range []string{"bot", "out", "target"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("the template folder has %s after building: builds must not write there", f)
				}
			}
		})
	}
}

func TestAICommands(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: this test registers a Python bot")
	}
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
		{[]string{"ai", "revisions", "py", "--db", db}, []string{"r1", "ok", filepath.Join(root, "revisions", "py")}},
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
	if bot.Command != "python3 bot.py" || !strings.HasPrefix(bot.Dir, filepath.Join(root, "revisions", "py")) {
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
		{[]string{"ai", "add", "--name", "py", "--game", "grip", "--dir", other, "--db", db}, 1, `an AI named "py" already exists`},
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

	code, out, errs = runCLI("ai", "remove", "Other", "--files", "--db", db)
	if code != 0 || !strings.Contains(out, "removed AI Other") {
		t.Fatalf("remove: %d %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(root, "revisions", "Other")); err == nil {
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
	db, err := openDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return resolveAIBot(db, name)
}

// watchRig runs an aiWatcher over a fresh database.
type watchRig struct {
	db     *storage.DB
	root   string
	events chan buildEvent
	stop   func()
	done   chan error
}

func newWatchRig(t testing.TB) *watchRig {
	t.Helper()
	root := t.TempDir()
	db, err := openDB(filepath.Join(root, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	r := &watchRig{db: db, root: root, events: make(chan buildEvent, 100), done: make(chan error, 1)}
	t.Cleanup(func() {
		if r.stop != nil {
			r.stop()
			<-r.done
		}
		db.Close()
	})
	return r
}

func (r *watchRig) start(t testing.TB, debounce time.Duration) {
	t.Helper()
	s, err := newAIWatcher(r.db, r.root, debounce, build.DefaultBuildTimeout)
	if err != nil {
		t.Fatal(err)
	}
	s.syncEvery = 200 * time.Millisecond
	s.OnBuild = func(ev buildEvent) { r.events <- ev }
	s.OnError = func(err error) { t.Errorf("watch: %v", err) }
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.done <- s.run(ctx) }()
}

// add registers an AI and builds it once.
func (r *watchRig) add(t testing.TB, name, game string, files map[string]string) (storage.AI, string) {
	t.Helper()
	dir := filepath.Join(r.root, "src-"+name)
	writeAIFiles(t, dir, files)
	g, err := build.GuessCommands(dir)
	if err != nil {
		t.Fatal(err)
	}
	ai, err := r.db.AddAI(storage.AI{Name: name, Game: game, Language: g.Language, SourceDir: dir, BuildCmd: g.Build, RunCmd: g.Run, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := buildAI(context.Background(), r.db, r.root, ai, false, 0)
	if err != nil || out.Rev.Status != storage.BuildOK {
		t.Fatalf("first build of %s: %v\n%s", name, err, out.Rev.BuildLog)
	}
	return ai, dir
}

// next waits for the next build of name, skipping others' builds.
func (r *watchRig) next(t testing.TB, name string) buildEvent {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev := <-r.events:
			if ev.AI.Name == name {
				return ev
			}
		case <-deadline:
			t.Fatalf("no build of %s within a minute", name)
		}
	}
}

func writeAIFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const goBotSource = `package main

import (
	"bufio"
	"fmt"
	"os"
)

// version %d
func main() {
	in := bufio.NewScanner(os.Stdin)
	fmt.Println("READY")
	for in.Scan() {
		if in.Text() == "EOD" {
			fmt.Println("N")
		}
	}
}
`

func pyBotSource(v int) string {
	return fmt.Sprintf("import sys\n# version %d\nprint('READY', flush=True)\nfor line in sys.stdin:\n    if line.strip() == 'EOD':\n        print('N', flush=True)\n", v)
}

func TestAIWatcherBuildsRevisions(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: this test watches a Python bot too")
	}
	r := newWatchRig(t)
	goAI, goDir := r.add(t, "gobot", "grip", map[string]string{"go.mod": "module bot\n\ngo 1.21\n", "main.go": fmt.Sprintf(goBotSource, 1)})
	pyAI, pyDir := r.add(t, "pybot", "grip", map[string]string{"bot.py": pyBotSource(1)})
	r.start(t, build.DefaultDebounce)
	for _, name := range []string{"gobot", "pybot"} {
		if ev := r.next(t, name); ev.Err != nil || !ev.Out.Unchanged || ev.Out.Rev.Number != 1 {
			t.Fatalf("catch-up build of %s: %+v", name, ev)
		}
	}
	wantRev := func(ev buildEvent, n int, what string) {
		t.Helper()
		if ev.Err != nil || ev.Out.Unchanged || ev.Out.Rev.Status != storage.BuildOK || ev.Out.Rev.Number != n {
			t.Fatalf("%s: want revision %d, got %+v (err %v)\n%s", what, n, ev.Out.Rev, ev.Err, ev.Out.Rev.BuildLog)
		}
		t.Logf("%s: %s save → revision ready %v (build %v)", what, ev.AI.Name, ev.Ready.Sub(ev.Saved).Round(time.Millisecond),
			ev.Out.Result.Took.Round(time.Millisecond))
	}

	// A plain save.
	writeAIFiles(t, goDir, map[string]string{"main.go": fmt.Sprintf(goBotSource, 2)})
	wantRev(r.next(t, "gobot"), 2, "plain save")

	// An atomic save: temporary file renamed over the original.
	tmp := filepath.Join(pyDir, ".bot.py.tmp")
	if err := os.WriteFile(tmp, []byte(pyBotSource(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(pyDir, "bot.py")); err != nil {
		t.Fatal(err)
	}
	wantRev(r.next(t, "pybot"), 2, "atomic save")

	// 100 writes in a burst: one build.
	for i := range 100 {
		writeAIFiles(t, pyDir, map[string]string{"bot.py": pyBotSource(100 + i)})
	}
	wantRev(r.next(t, "pybot"), 3, "burst")
	select {
	case ev := <-r.events:
		t.Fatalf("a second build after one burst: %+v", ev)
	case <-time.After(4 * build.DefaultDebounce):
	}

	// A broken edit: a failed build with the compiler's output; revision 2
	// stays current.
	writeAIFiles(t, goDir, map[string]string{"main.go": "package main\n\nfunc main() { fmt.Println(\"x\") }\n"})
	ev := r.next(t, "gobot")
	if ev.Err != nil || ev.Out.Rev.Status != storage.BuildFailed || ev.Out.Rev.Number != 0 ||
		!strings.Contains(ev.Out.Rev.BuildLog, "undefined: fmt") {
		t.Fatalf("broken edit: %+v\n%s", ev.Out.Rev, ev.Out.Rev.BuildLog)
	}
	if cur, err := r.db.LatestRevision(goAI.ID); err != nil || cur.Number != 2 {
		t.Fatalf("current revision after a failed build: %+v %v", cur, err)
	}
	if !strings.Contains(ev.describe(), "build failed, the previous revision stays current") {
		t.Errorf("describe = %q", ev.describe())
	}
	writeAIFiles(t, goDir, map[string]string{"main.go": fmt.Sprintf(goBotSource, 3)})
	wantRev(r.next(t, "gobot"), 3, "fixed")

	// Files in a new subfolder are watched.
	writeAIFiles(t, pyDir, map[string]string{"lib/helper.py": "X = 1\n"})
	first := r.next(t, "pybot")
	if first.Out.Rev.Status != storage.BuildOK || first.Out.Unchanged {
		t.Fatalf("new subfolder: %+v", first)
	}
	n := first.Out.Rev.Number
	writeAIFiles(t, pyDir, map[string]string{"lib/helper.py": "X = 2\n"})
	wantRev(r.next(t, "pybot"), n+1, "save in a new subfolder")

	// Build outputs never land in the watched folders.
	for _, dir := range []string{goDir, pyDir} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == "bot" || e.Name() == "out" || strings.HasPrefix(e.Name(), ".build-") {
				t.Errorf("%s holds %s", dir, e.Name())
			}
		}
	}

	// Every revision stays runnable: the two Go revisions play each other.
	revs, err := r.db.Revisions(goAI.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ok []storage.Revision
	for _, rv := range revs {
		if rv.Status == storage.BuildOK {
			ok = append(ok, rv)
		}
	}
	if len(ok) != 3 {
		t.Fatalf("gobot has %d good revisions, want 3", len(ok))
	}
	code, out, errs := runCLI("play", "--game", "grip", "--seed", "2", "--opt", "max_turns=40",
		"--bot", revisionBot(goAI, ok[0]).Command, "--bot", revisionBot(goAI, ok[2]).Command,
		"--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	if code != 0 || strings.Contains(out, `"crashed":1`) || strings.Contains(out, `"invalid":1`) {
		t.Errorf("revisions 1 and 3 playing: %d\n%s%s", code, out, errs)
	}

	// The folder deleted: the AI is marked missing.
	if err := os.RemoveAll(pyDir); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ai, err := r.db.AI(pyAI.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ai.Missing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the deleted folder's AI is not marked missing")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// An AI added while watching is picked up.
	_, newDir := r.add(t, "late", "grip", map[string]string{"main.py": pyBotSource(1)})
	if ev := r.next(t, "late"); !ev.Out.Unchanged {
		t.Fatalf("catch-up build of a new AI: %+v", ev)
	}
	writeAIFiles(t, newDir, map[string]string{"main.py": pyBotSource(2)})
	wantRev(r.next(t, "late"), 2, "AI added while watching")
}

// BenchmarkSaveToRevision measures the time from a save to the revision
// being stored, with the default debounce, for a Go bot (go build) and a
// Python bot (nothing to build).
func BenchmarkSaveToRevision(b *testing.B) {
	for _, lang := range []string{"go", "python"} {
		b.Run(lang, func(b *testing.B) {
			if tool := missingTool(lang); tool != "" {
				b.Skipf("%s is not installed", tool)
			}
			r := newWatchRig(b)
			files, file, src := map[string]string{"go.mod": "module bot\n", "main.go": fmt.Sprintf(goBotSource, 0)}, "main.go",
				func(v int) string { return fmt.Sprintf(goBotSource, v) }
			if lang == "python" {
				files, file, src = map[string]string{"bot.py": pyBotSource(0)}, "bot.py", pyBotSource
			}
			_, dir := r.add(b, "bench", "grip", files)
			r.start(b, build.DefaultDebounce)
			r.next(b, "bench") // catch-up
			v := 1
			var total time.Duration
			for b.Loop() {
				v++
				writeAIFiles(b, dir, map[string]string{file: src(v)})
				ev := r.next(b, "bench")
				if ev.Out.Rev.Status != storage.BuildOK {
					b.Fatalf("build failed: %s", ev.Out.Rev.BuildLog)
				}
				total += ev.Ready.Sub(ev.Saved)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(v-1), "ms/save-to-revision")
		})
	}
}
