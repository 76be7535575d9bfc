package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ringside/app/internal/fixture"
	"ringside/runner/sandbox"
)

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
	fixture.NeedPython(t)
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	db := filepath.Join(t.TempDir(), "t.db")
	dir := filepath.Join(t.TempDir(), "hog")
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": hogBot})
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
