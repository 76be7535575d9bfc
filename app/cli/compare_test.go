package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareDecides(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, errs := runCLI("compare", "--db", db, "--game", "battle2048",
		"--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--games", "600", "--elo1", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "builtin:battle2048/greedy is stronger than builtin:battle2048/random (95 % confidence, after ") {
		t.Errorf("compare said %q", out)
	}
	if !strings.Contains(out, "LLR") {
		t.Errorf("no numbers behind the sentence: %q", out)
	}
}

func TestCompareUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--db", db, "--game", "grip", "--entry", "builtin:grip/greedy"}, "exactly two --entry"},
		{[]string{"compare", "--db", db, "--game", "battle2048", "--entry", "nobody@r2", "--entry", "builtin:battle2048/random"}, `"nobody@r2" is not`},
		{[]string{"compare", "--db", db, "--game", "battle2048", "--entry", "x@rr", "--entry", "builtin:battle2048/random"}, "write AI@rN"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}
