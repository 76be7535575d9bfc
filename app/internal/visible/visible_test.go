package visible

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	for _, c := range []struct {
		in, one, text string // Line, Text
	}{
		{"alice", "alice", "alice"},
		{"bot.py", "bot.py", "bot.py"},
		{"élève ñ 日本 ✓", "élève ñ 日本 ✓", "élève ñ 日本 ✓"},
		{`back\slash`, `back\slash`, `back\slash`},
		{"\x1b[2J\x1b]0;pwned\a", `\x1b[2J\x1b]0;pwned\x07`, `\x1b[2J\x1b]0;pwned\x07`},
		{"evil\u202etxt.py", `evil\u202etxt.py`, `evil\u202etxt.py`},
		{"a\nb\tc\r", `a\nb\tc\r`, "a\nb\tc\\r"},
		{"\u2066\u2069\u200e\u200f\u061c\u200b\ufeff", `\u2066\u2069\u200e\u200f\u061c\u200b\ufeff`, `\u2066\u2069\u200e\u200f\u061c\u200b\ufeff`},
		{"\u2028\u2029", `\u2028\u2029`, `\u2028\u2029`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`, `c1 \u0085 \u009b`},
		{"del\x7f nul\x00", `del\x7f nul\x00`, `del\x7f nul\x00`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"tag \U000e0041", `tag \U000e0041`, `tag \U000e0041`},
		{"", "", ""},
	} {
		if got := Line(c.in); got != c.one {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.one)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

func FuzzVisible(f *testing.F) {
	for _, s := range []string{"alice", "\x1b[31mred", "a\u202eb", "x\ny\tz", "\xff", "日本\u2066"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			out := visible(s, lines)
			if !utf8.ValidString(out) {
				t.Fatalf("visible(%q, %v) = %q is not UTF-8", s, lines, out)
			}
			for _, r := range out {
				if lines && (r == '\n' || r == '\t') {
					continue
				}
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
					t.Fatalf("visible(%q, %v) = %q keeps %U", s, lines, out, r)
				}
			}
			if again := visible(out, lines); again != out {
				t.Fatalf("not stable: %q, then %q", out, again)
			}
			if !lines && strings.ContainsAny(out, "\n\r") {
				t.Fatalf("Line(%q) = %q has a line break", s, out)
			}
			if clean := strings.IndexFunc(s, func(r rune) bool { return hidden(r, 1, lines) }) < 0 && utf8.ValidString(s); clean && out != s {
				t.Fatalf("changed a clean text %q to %q", s, out)
			}
		}
	})
}
