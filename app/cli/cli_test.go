package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/runnertest"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = Run(args, strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

func TestHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI("help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for name := range commands {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("overview lacks %q", name)
		}
		code, text, errs := runCLI("help", name)
		if code != 0 || !strings.Contains(text, "usage: ringside "+name) {
			t.Errorf("help %s: exit %d, %q %q", name, code, text, errs)
		}
	}
	_, text, _ := runCLI("help", "play")
	for _, want := range []string{"--game", "--bot", "--seed", "--opt", "--replay", "builtin:GAME/NAME", "Exit status"} {
		if !strings.Contains(text, want) {
			t.Errorf("help play lacks %q", want)
		}
	}
}

func TestGamesLists(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI("games")
	if code != 0 {
		t.Fatal(code)
	}
	for _, g := range games.All() {
		in := g.Info()
		if !strings.Contains(out, in.ID+" — ") {
			t.Errorf("games lacks %s", in.ID)
		}
		for _, o := range in.Options {
			if !strings.Contains(out, o.Key) {
				t.Errorf("games lacks %s option %s", in.ID, o.Key)
			}
		}
	}
}

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
	runnertest.NeedPython(t)
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
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

// TestNoLocaleNoise: under Debian's default locale in containers
// (C.UTF-8) and plain C, commands print nothing but their own output:
// Fyne no longer complains that it cannot read the locale.
func TestNoLocaleNoise(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	// A display number nothing listens on, as a DISPLAY left over from
	// another login names: Fyne's driver would panic on it.
	stale := -1
	for n := 4711; n < 4800; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); os.IsNotExist(err) {
			stale = n
			break
		}
	}
	for _, display := range []string{"", fmt.Sprintf(":%d", stale), fmt.Sprintf("unix:%d.0", stale), "wayland only"} {
		for _, args := range [][]string{nil, {"--db", filepath.Join(t.TempDir(), "x.db")}, {"view", "game.json"}} {
			// The test build's driver is headless: without the check it
			// would run the app until killed.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, exe, args...)
			cmd.Env = env
			switch display {
			case "":
			case "wayland only":
				// This build draws through X11, so a Wayland session
				// without XWayland is no display either.
				cmd.Env = append(slices.Clip(env), "WAYLAND_DISPLAY=wayland-4711")
			default:
				cmd.Env = append(slices.Clip(env), "DISPLAY="+display)
			}
			var out, errs bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errs
			err := cmd.Run()
			if err == nil || strings.Count(errs.String(), "\n") != 1 || !strings.Contains(errs.String(), "no display") ||
				!strings.Contains(errs.String(), "ringside help") {
				t.Errorf("ringside %v with DISPLAY %q: %v, stderr %q", args, display, err, errs.String())
			}
		}
	}
}

// A build without the desktop app (-tags nogui: the command line alone,
// without cgo, as macOS's is cross-built) runs every command, and where a
// window is asked for says so instead of failing to link or crashing.
func TestNoGUIBuild(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(t.TempDir(), "ringside-nogui")
	build := exec.Command("go", "build", "-tags", "nogui", "-o", exe, "ringside")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags nogui: %v\n%s", err, out)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "this build has no desktop app"},
		{[]string{"view", "game.json"}, 2, "this build has no desktop app"},
		{[]string{"games"}, 0, "grip"},
	} {
		cmd := exec.Command(exe, tt.args...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != tt.code || !strings.Contains(string(out), tt.want) {
			t.Errorf("ringside %v: exit %d, %q; want exit %d and %q", tt.args, cmd.ProcessState.ExitCode(), out, tt.code, tt.want)
		}
	}
}
