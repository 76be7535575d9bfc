package engine

import (
	"strings"
	"testing"
)

func TestLongReply(t *testing.T) {
	in := Info{Name: "Grip", MaxReply: 64}
	for _, c := range []struct {
		name string
		line string
		want string // "" when the line is not too long
	}{
		{"short", "U", ""},
		{"exactly the bound", strings.Repeat("x", 64), ""},
		{"one byte over", strings.Repeat("x", 65), "reply of 65 bytes, longer than Grip's longest valid reply (64 bytes)"},
		{"cut by the runner", CutReply(strings.Repeat("x", 65536), 64, 65536), "reply of 65536 bytes, longer than Grip's longest valid reply (64 bytes)"},
		{"cut just over", CutReply(strings.Repeat("x", 65), 64, 65), "reply of 65 bytes, longer than Grip's longest valid reply (64 bytes)"},
		{"a mark in a short line counts nothing", "U…[cut: 99999 bytes]", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, long := in.LongReply(c.line)
			if got != c.want || long != (c.want != "") {
				t.Errorf("LongReply(%.40q) = %q, %v; want %q", c.line, got, long, c.want)
			}
		})
	}
	if _, long := (Info{Name: "Ping"}).LongReply(strings.Repeat("x", 1<<20)); long {
		t.Error("a game without a bound judged a line too long")
	}
}

// CutReply keeps the bound's bytes at most, never half a character, and
// what it returns is always longer than the bound.
func TestCutReply(t *testing.T) {
	for _, line := range []string{strings.Repeat("é", 40), strings.Repeat("x", 100), "€€€€€€€€€€€€€€€€€€€€€€€"} {
		for max := 1; max < len(line); max++ {
			got := CutReply(line, max, int64(len(line)))
			kept, _, _ := strings.Cut(got, cutMarkOpen)
			if len(kept) > max || !strings.HasPrefix(line, kept) || len(got) <= max || !strings.HasSuffix(got, cutMarkClose) {
				t.Fatalf("CutReply(%q, %d) = %q", line, max, got)
			}
			for _, r := range kept {
				if r == '\uFFFD' {
					t.Fatalf("CutReply(%q, %d) split a character: %q", line, max, got)
				}
			}
		}
	}
}
