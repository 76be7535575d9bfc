package runner

import (
	"fmt"
	"runtime"
	"strings"
)

// Split breaks a command line into words the way a POSIX shell does for
// simple words: blanks separate words, single quotes keep everything
// literally, double quotes keep everything but \" \\ \$ \`, and a
// backslash outside quotes escapes the next character. Nothing is expanded
// and no shell runs: "$HOME" stays "$HOME". On Windows the rules are
// Windows's (SplitFor).
func Split(line string) ([]string, error) { return SplitFor(line, runtime.GOOS) }

// SplitFor is Split with the rules of the system goos: on "windows" a
// backslash is an ordinary character (C:\Users\Some Teacher\bot.exe,
// .\bot.exe), only double quotes group ("" inside them is one "), and
// single quotes are ordinary too; elsewhere the POSIX rules.
func SplitFor(line, goos string) ([]string, error) {
	if goos == "windows" {
		return splitWindows(line)
	}
	return splitPOSIX(line)
}

func splitPOSIX(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	const (
		plain = iota
		single
		double
	)
	mode := plain
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch mode {
		case single:
			if c == '\'' {
				mode = plain
				continue
			}
			cur.WriteByte(c)
		case double:
			switch c {
			case '"':
				mode = plain
			case '\\':
				if i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
					cur.WriteByte(line[i])
				} else {
					cur.WriteByte(c)
				}
			default:
				cur.WriteByte(c)
			}
		default:
			switch c {
			case ' ', '\t', '\n', '\r':
				if inWord {
					words = append(words, cur.String())
					cur.Reset()
					inWord = false
				}
				continue
			case '\'':
				mode = single
			case '"':
				mode = double
			case '\\':
				if i+1 >= len(line) {
					return nil, fmt.Errorf("command %q ends with a lone backslash", line)
				}
				i++
				cur.WriteByte(line[i])
			default:
				cur.WriteByte(c)
			}
			inWord = true
		}
	}
	switch mode {
	case single:
		return nil, fmt.Errorf("command %q has an unclosed single quote", line)
	case double:
		return nil, fmt.Errorf("command %q has an unclosed double quote", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return nonEmpty(words)
}

func nonEmpty(words []string) ([]string, error) {
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command: give the program to run, e.g. \"python3 bot.py\"")
	}
	return words, nil
}

// splitWindows splits by Windows's rules (SplitFor).
func splitWindows(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"' && quoted && i+1 < len(line) && line[i+1] == '"':
			i++
			cur.WriteByte('"')
		case c == '"':
			quoted = !quoted
			inWord = true
		case !quoted && strings.IndexByte(" \t\n\r", c) >= 0:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("command %q has an unclosed double quote", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return nonEmpty(words)
}

// QuoteWord quotes s for Split when it holds anything but plain characters.
func QuoteWord(s string) string { return QuoteWordFor(s, runtime.GOOS) }

// QuoteWordFor quotes s for SplitFor with goos's rules.
func QuoteWordFor(s, goos string) string {
	if goos == "windows" {
		if s != "" && !strings.ContainsAny(s, " \t\n\r\"") {
			return s
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	if s != "" && !strings.ContainsAny(s, " \t\n\r'\"\\$`*?[#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// JoinCommand turns words back into a command line that Split reads as
// the same words.
func JoinCommand(words []string) string { return JoinCommandFor(words, runtime.GOOS) }

// JoinCommandFor is JoinCommand with goos's rules.
func JoinCommandFor(words []string, goos string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = QuoteWordFor(w, goos)
	}
	return strings.Join(q, " ")
}
