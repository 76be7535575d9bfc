package cli

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestCompareDecides(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, errs := runCLI("compare", "--db", db, "--game", "battle2048",
		"--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--games", "600", "--elo1", "20", "--test", "sprt")
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

// TestCompareEveryGame runs the classroom test on every game, Grip with
// fillers in its other two seats: each decides that the greedy bot is
// stronger, far sooner than the 288 games the normalized-Elo SPRT needed
// for a 0–288 Battle 2048 comparison.
func TestCompareEveryGame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		game, a, b string
		args       []string
	}{
		{"grip", "builtin:grip/greedy", "builtin:grip/random", nil},
		{"battle2048", "builtin:battle2048/greedy", "builtin:battle2048/random", nil},
		{"battle2048", "builtin:battle2048/random", "builtin:battle2048/greedy", nil},
		{"grip", "builtin:grip/greedy", "builtin:grip/random", []string{"--filler", "builtin:grip/greedy"}},
	}
	for _, tc := range tests {
		db := filepath.Join(t.TempDir(), "c.db")
		args := append([]string{"compare", "--db", db, "--game", tc.game, "--entry", tc.a, "--entry", tc.b, "--seed", "1"}, tc.args...)
		code, out, errs := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		want := "stronger"
		if strings.Contains(tc.a, "random") {
			want = "weaker"
		}
		m := regexp.MustCompile(`^(\S+) is (stronger|weaker) than (\S+) \(.*after (\d+) games\)`).FindStringSubmatch(out)
		if m == nil || m[1] != tc.a || m[2] != want || m[3] != tc.b {
			t.Fatalf("%v said %q; want %s %s than %s", args, out, tc.a, want, tc.b)
		}
		if n, _ := strconv.Atoi(m[4]); n >= 288 || n < 1 {
			t.Errorf("%v: decided after %d games; want fewer than 288", args, n)
		}
		if tc.game == "grip" {
			// The fillers took the other seats and are not ranked.
			_, show, _ := runCLI("event", "show", "1", "--db", db)
			filler := "builtin:grip/random#2"
			if len(tc.args) > 0 {
				filler = "builtin:grip/greedy#2"
			}
			if !strings.Contains(show, filler) {
				t.Errorf("event show has no filler %s:\n%s", filler, show)
			}
		}
	}
}

func TestCompareUsage(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--db", db, "--game", "grip", "--entry", "builtin:grip/greedy"}, "exactly two --entry"},
		{[]string{"compare", "--db", db, "--game", "battle2048", "--entry", "nobody@r2", "--entry", "builtin:battle2048/random"}, `"nobody@r2" is not`},
		{[]string{"compare", "--db", db, "--game", "battle2048", "--entry", "x@rr", "--entry", "builtin:battle2048/random"}, "write AI@rN"},
		{[]string{"compare", "--db", db, "--game", "grip", "--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random", "--test", "coin"}, "write classroom or sprt"},
		{[]string{"compare", "--db", db, "--game", "grip", "--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random", "--p1", "0.4"}, "p1 0.4 must be above 0.5"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}
