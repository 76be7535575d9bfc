package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ringside/app/service"
	"ringside/runner"
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
