// Package visible writes text a student chose (file and AI names, a bot's
// output) so that it cannot hide or fake anything on a terminal or in a
// label: control characters, bidi overrides and bytes that are not UTF-8
// become escapes a person can read.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line makes a name shown on one line (a file, an AI, a folder, a
// command, an error naming them) safe for a terminal and a label: control
// characters (C0, DEL, C1), bidi controls and other invisible formatting
// characters, line and paragraph separators and bytes that are not UTF-8
// are written as escapes a person can read: ESC as \x1b, a newline as \n,
// U+202E (right-to-left override) as \u202e. Everything else, backslashes
// included, is unchanged, so ordinary names read as they are.
func Line(s string) string { return visible(s, false) }

// Text is Line for text shown on several lines (a bot's stderr,
// a build log): newlines and tabs stay, so the text keeps its shape, but
// not escape sequences, carriage returns or bidi overrides.
func Text(s string) string { return visible(s, true) }

func visible(s string, lines bool) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if hidden(r, n, lines) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s // the common case: nothing to show
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !hidden(r, n, lines):
			b.WriteString(s[i : i+n])
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += n
	}
	return b.String()
}

// hidden tells whether rune r (n bytes of the text) is shown as an escape.
func hidden(r rune, n int, lines bool) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true // not UTF-8
	case lines && (r == '\n' || r == '\t'):
		return false
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		// Cc: C0, DEL, C1; Cf: the bidi controls (U+061C, U+200E,
		// U+200F, U+202A–U+202E, U+2066–U+2069), zero-width ones, the
		// byte order mark; Zl, Zp: U+2028, U+2029.
		return true
	}
	return false
}
