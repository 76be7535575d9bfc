package app

import (
	"os/exec"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringside/runner"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"ringside/app/replay"
)

// TestViewReplayFile opens a replay written by "ringside play --replay" in
// the viewer, and refuses files that are not replays with a clear message.
func TestViewReplayFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "game.json")
	exe, _ := runner.Executable()
	if out, err := exec.Command(exe, "play", "--game", "grip", "--seed", "4", "--replay", file, "--time-scale", "5",
		"--bot", "builtin:grip/greedy", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random",
		"--bot", "builtin:grip/random").CombinedOutput(); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	var a fyne.App
	onUI(func() { a = test.NewTempApp(t) })
	var err error
	onUI(func() {
		w, e := NewReplayFileWindow(a, file)
		err = e
		if e == nil {
			v := w.Content().(*replay.Viewer)
			if v.Steps() < 2 {
				t.Errorf("viewer has %d steps", v.Steps())
			}
			w.Close()
		}
	})
	if err != nil {
		t.Fatalf("open replay file: %v", err)
	}

	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"hello": 1}`), 0o644)
	notJSON := filepath.Join(dir, "notjson.txt")
	os.WriteFile(notJSON, []byte("U\nD\n"), 0o644)
	for path, want := range map[string]string{
		bad:                        "not a Ringside replay",
		notJSON:                    "is not a replay file",
		filepath.Join(dir, "none"): "no such file",
	} {
		var err error
		onUI(func() { _, err = NewReplayFileWindow(a, path) })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", filepath.Base(path), err, want)
		}
	}
}
