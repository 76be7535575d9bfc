package replay

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		name         string
		in           string
		lines, chars int
		want         string
	}{
		{"short stays", "a\nb\n", 5, 100, "a\nb"},
		{"too many lines", "1\n2\n3\n4\n", 2, 100, "1\n2\n…"},
		{"exactly the lines", "1\n2\n", 2, 100, "1\n2"},
		{"too long", "abcdefgh", 5, 4, "abcd\n…"},
		{"no broken character", "ééé", 5, 3, "é\n…"},
		{"whole character at the cut", "éééé", 5, 4, "éé\n…"},
		{"mixed widths", "éxé€", 5, 7, "éxé\n…"},
		{"empty", "", 3, 3, ""},
		// A bot's stderr keeps its lines and tabs, not what a
		// terminal or the text layout would act on.
		{"escapes shown", "red \x1b[31mX\x1b[0m\n\tgnp.\u202etxt\r\n", 5, 100, "red \\x1b[31mX\\x1b[0m\n\tgnp.\\u202etxt\\r"},
		{"cut before shown", "\x1b\x1b\x1b\x1b", 5, 2, "\\x1b\\x1b\n…"},
	} {
		if got := excerpt(tc.in, tc.lines, tc.chars); got != tc.want {
			t.Errorf("%s: excerpt(%q, %d, %d) = %q, want %q", tc.name, tc.in, tc.lines, tc.chars, got, tc.want)
		}
	}
}

func TestHardWrap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cols int
		want string
	}{
		{"abcdef", 4, "abcd\nef"},
		{"abcd", 4, "abcd"},
		{"ab\ncdefghi", 3, "ab\ncde\nfgh\ni"},
		{"ééé", 2, "éé\né"},
		{"abc", 0, "abc"},
	} {
		if got := hardWrap(tc.in, tc.cols); got != tc.want {
			t.Errorf("hardWrap(%q, %d) = %q, want %q", tc.in, tc.cols, got, tc.want)
		}
	}
}

// FuzzHardWrap checks that wrapping only inserts line breaks and leaves
// no line longer than the columns.
func FuzzHardWrap(f *testing.F) {
	f.Add(`{"turn_no":1,"bots":{}}`, 7)
	f.Add("a\nbb\nccc", 2)
	f.Fuzz(func(t *testing.T, s string, cols int) {
		if !utf8.ValidString(s) || cols < 1 || cols > 500 {
			t.Skip()
		}
		got := hardWrap(s, cols)
		for _, line := range strings.Split(got, "\n") {
			if n := utf8.RuneCountInString(line); n > cols {
				t.Fatalf("line of %d characters at %d columns: %q", n, cols, line)
			}
		}
		if strings.ReplaceAll(got, "\n", "") != strings.ReplaceAll(s, "\n", "") {
			t.Fatalf("wrapping changed the text: %q → %q", s, got)
		}
		ex := excerpt(s, 3, cols)
		if !utf8.ValidString(ex) {
			t.Fatalf("excerpt broke a character: %q", ex)
		}
	})
}
