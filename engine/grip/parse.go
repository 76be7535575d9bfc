package grip

import (
	"fmt"
	"strings"
	"unicode"
)

// Commands are the letters a bot may answer.
const Commands = "URDLAN"

// trimmable is what the protocol strips from both ends of a line: blanks and
// control characters. It covers everything Java's String.trim removed (all
// characters up to U+0020), so replies the 2015 referee accepted are
// accepted here too.
func trimmable(r rune) bool {
	return r <= ' ' || unicode.IsSpace(r) || unicode.IsControl(r)
}

// TrimLine strips blanks and control characters from both ends of a line.
func TrimLine(line string) string { return strings.TrimFunc(line, trimmable) }

// IsReady reports whether line is the READY handshake: its trimmed text is
// exactly READY.
func IsReady(line string) bool { return TrimLine(line) == "READY" }

// MaxReply is the longest reply line Grip accepts, in bytes: a command is
// one letter, and the blanks trimmed around it and the extra tokens the
// rules ignore (a bot's own remark, "U chasing 2") get the rest. The
// golden traces' longest reply is 20 bytes. A longer line is invalid.
const MaxReply = 64

// maxQuoted caps how much of a bad reply an error message repeats.
const maxQuoted = 24

// ParseReply reads one turn reply. The line is trimmed of blanks and
// control characters at both ends and split on single spaces (a tab is not
// a separator); the first token must be exactly one of U R D L A N. Extra
// tokens are ignored; a line longer than MaxReply is invalid. When ok is false, cmd is 'N' and detail says what was
// wrong in plain words.
func ParseReply(line string) (cmd byte, detail string, ok bool) {
	if detail, long := info.LongReply(line); long {
		return 'N', detail, false
	}
	t := TrimLine(line)
	if t == "" {
		return 'N', "empty line; want one of U R D L A N", false
	}
	tok, _, _ := strings.Cut(t, " ")
	if len(tok) == 1 && strings.IndexByte(Commands, tok[0]) >= 0 {
		return tok[0], "", true
	}
	q := tok
	if len(q) > maxQuoted {
		q = q[:maxQuoted] + "…"
	}
	if len(tok) == 1 && strings.IndexByte("urdlan", tok[0]) >= 0 {
		return 'N', fmt.Sprintf("%q is not a command; commands are upper case: U R D L A N", q), false
	}
	return 'N', fmt.Sprintf("%q is not a command; want one of U R D L A N", q), false
}
