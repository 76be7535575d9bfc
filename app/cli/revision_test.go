package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/runner"
	"ringside/storage"
)

// ringside runs the real binary and returns its exit status and output.
func ringside(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ringsideAs(t, exe, nil, args...)
}

// mustRingside runs the binary and fails the test unless it exits 0.
// addPyBot writes fixture.PyBot(1) into dir and registers it in each
// database as name, a Grip AI whose folder is not watched. It skips t
// without python3.
func addPyBot(t testing.TB, dir, name string, dbs ...string) {
	t.Helper()
	fixture.NeedPython(t)
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	for _, db := range dbs {
		mustRingside(t, "ai", "add", "--name", name, "--game", "grip", "--dir", dir, "--no-watch", "--db", db)
	}
}

func mustRingside(t testing.TB, args ...string) string {
	t.Helper()
	code, out, errs := ringside(t, args...)
	if code != 0 {
		t.Fatalf("ringside %v: exit %d\n%s%s", args, code, out, errs)
	}
	return out
}

// TestRevertedSourcesPlayTheRevisionTheyRestore is the revert case: an AI
// at r3 saves a syntax error, then the student restores r1's file. Every
// command and the game must name and play revision 1.
func TestRevertedSourcesPlayTheRevisionTheyRestore(t *testing.T) {
	fixture.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "erin")
	write := func(content string) { fixture.WriteFiles(t, src, map[string]string{"bot.py": content}) }
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
	if out := mustRingside(t, "ai", "check", "erin", "--db", db, "--time-scale", "4"); !strings.Contains(out, "revision 1,") ||
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
	if out := mustRingside(t, "ai", "check", "sam", "--db", a, "--time-scale", "4"); !strings.Contains(out, "ok: ready to play") {
		t.Errorf("class.db's sam after classB's removal:\n%s", out)
	}
}

// TestTwoWatchersMakeOneRevisionPerSource runs two "ringside watch" on one
// database while a student saves three versions: three revisions, each
// hash once, and no failed twins.
func TestTwoWatchersMakeOneRevisionPerSource(t *testing.T) {
	fixture.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "w.db"), filepath.Join(root, "wes")
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1)})
	mustRingside(t, "ai", "add", "--name", "wes", "--game", "grip", "--dir", src, "--db", db)
	exe, _ := runner.Executable()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var watchers []*exec.Cmd
	for range 2 {
		cmd := exec.CommandContext(ctx, exe, "watch", "--db", db, "--debounce", "100ms")
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		watchers = append(watchers, cmd)
	}
	defer func() {
		cancel()
		for _, w := range watchers {
			w.Wait()
		}
	}()
	time.Sleep(time.Second) // both are watching
	for v := 2; v <= 4; v++ {
		fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(v)})
		waitRevisions(t, db, "wes", v)
	}
	// A new file is a new source: one more revision, built once.
	fixture.WriteFiles(t, src, map[string]string{"corner.py": "CORNER = (0, 0)\n"})
	waitRevisions(t, db, "wes", 5)
	time.Sleep(time.Second) // time for the other watcher to store a twin, if it would

	s, err := storage.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ai, err := s.AIByName("wes")
	if err != nil {
		t.Fatal(err)
	}
	revs, err := s.Revisions(ai.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range revs {
		seen[string(r.Status)+" "+r.Hash]++
		if seen[string(r.Status)+" "+r.Hash] > 1 {
			t.Errorf("hash %s stored twice (%s)", r.Hash, r.Status)
		}
	}
	numbers := 0
	for _, r := range revs {
		if r.Status == storage.BuildOK {
			numbers++
		}
	}
	if numbers != 5 {
		t.Errorf("%d successful revisions, want 5 (versions 1–4 and the one with notes.txt)", numbers)
	}
}

// waitRevisions waits until the AI has n successful revisions.
func waitRevisions(t *testing.T, db, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		_, out, _ := ringside(t, "ai", "revisions", name, "--db", db)
		if strings.Count(out, " ok ") >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not reach %d revisions", name, n)
}

// TestEventRefusesEntriesThatCannotStart: a misspelt interpreter is found
// when the event is created, not after it lost every game.
func TestEventRefusesEntriesThatCannotStart(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(root, "e.db")
	fixture.WriteFiles(t, root, map[string]string{"bot.py": fixture.PyBot(1)})
	tests := []struct {
		entry string
		want  []string
	}{
		{"zed=pyhton3 bot.py", []string{"entry zed cannot start", "pyhton3 is not installed"}},
		{"zed=./no-such-bot", []string{"entry zed cannot start", "./no-such-bot"}},
		{"zed=python3 " + filepath.Join(root, "missing.py"), []string{"entry zed cannot start", "missing.py"}},
	}
	for _, tt := range tests {
		code, out, errs := ringside(t, "event", "create", "--db", db, "--game", "grip", "--entry", tt.entry,
			"--entry", "builtin:grip/random", "--filler", "builtin:grip/random")
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q, want 2 and one line", tt.entry, code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", tt.entry, errs, w)
			}
		}
		if strings.Contains(out, "event ") {
			t.Errorf("%s: an event was created: %s", tt.entry, out)
		}
	}
	if out := mustRingside(t, "event", "list", "--db", db); !strings.Contains(out, "no events yet") {
		t.Errorf("events after refused creates:\n%s", out)
	}
}

// TestNoLocaleNoise: under Debian's default locale in containers
// (C.UTF-8) and plain C, commands print nothing but their own output:
// Fyne no longer complains that it cannot read the locale.
func TestNoLocaleNoise(t *testing.T) {
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"C.UTF-8", "C", "POSIX", "de_DE.UTF-8"} {
		for _, args := range [][]string{{"help"}, {"games"}, {"db"}} {
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), "LANG="+lang, "LC_ALL=", "LC_MESSAGES=", "LANGUAGE=")
			var errs bytes.Buffer
			cmd.Stderr = &errs
			if err := cmd.Run(); err != nil || errs.Len() > 0 {
				t.Errorf("LANG=%s ringside %v: %v, stderr %q", lang, args, err, errs.String())
			}
		}
	}
}

// TestNoDisplay: the app without a display says so in one line and exits
// non-zero, instead of a driver's stack trace.
func TestNoDisplay(t *testing.T) {
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{nil, {"--db", filepath.Join(t.TempDir(), "x.db")}, {"view", "game.json"}} {
		cmd := exec.Command(exe, args...)
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
				env = append(env, kv)
			}
		}
		cmd.Env = env
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		if err == nil || strings.Count(errs.String(), "\n") != 1 || !strings.Contains(errs.String(), "no display") ||
			!strings.Contains(errs.String(), "ringside help") {
			t.Errorf("ringside %v without a display: %v, stderr %q", args, err, errs.String())
		}
	}
}
