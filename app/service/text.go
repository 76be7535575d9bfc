package service

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ShortHash is the first 12 characters of a content hash, as shown.
func ShortHash(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// FirstError picks the line of a build log most likely to say what is
// wrong.
func FirstError(log string) string {
	lines := strings.Split(log, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "$ ") {
			continue // the command itself, which may say -Werror
		}
		ll := strings.ToLower(l)
		if strings.Contains(ll, "error") || strings.Contains(ll, "not installed") || strings.Contains(ll, "cannot") {
			return strings.TrimSpace(l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return ""
}

// WhenText is a build time: the clock for today, the date otherwise.
func WhenText(t time.Time) string {
	now := time.Now()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// Visible makes a name shown on one line (a file, an AI, a folder, a
// command, an error naming them) safe for a terminal and a label: control
// characters (C0, DEL, C1), bidi controls and other invisible formatting
// characters, line and paragraph separators and bytes that are not UTF-8
// are written as escapes a person can read: ESC as \x1b, a newline as \n,
// U+202E (right-to-left override) as \u202e. Everything else, backslashes
// included, is unchanged, so ordinary names read as they are.
func Visible(s string) string { return visible(s, false) }

// VisibleText is Visible for text shown on several lines (a bot's stderr,
// a build log): newlines and tabs stay, so the text keeps its shape, but
// not escape sequences, carriage returns or bidi overrides.
func VisibleText(s string) string { return visible(s, true) }

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
