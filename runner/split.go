package runner

import (
	"fmt"
	"strings"
)

// Split breaks a command line into words the way a POSIX shell does for
// simple words: blanks separate words, single quotes keep everything
// literally, double quotes keep everything but \" \\ \$ \`, and a
// backslash outside quotes escapes the next character. Nothing is expanded
// and no shell runs: "$HOME" stays "$HOME".
func Split(line string) ([]string, error) {
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
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command: give the program to run, e.g. \"python3 bot.py\"")
	}
	return words, nil
}

// QuoteWord quotes s for Split when it holds anything but plain characters.
func QuoteWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\r'\"\\$`*?[#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// JoinCommand turns words back into a command line that Split reads as
// the same words.
func JoinCommand(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = QuoteWord(w)
	}
	return strings.Join(q, " ")
}
