package cloud

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The built-in bots read the server's lines with this small reader rather
// than encoding/json: it knows the few shapes Cloud sends, skips anything
// else, and is several times faster, which matters when tests play
// hundreds of games. It accepts any valid JSON; on invalid input it
// reports failure and the bot ignores the line.

// reader walks one JSON text.
type reader struct {
	s     string
	i     int
	bad   bool
	depth int
}

// maxDepth bounds nesting so a hostile line cannot exhaust the stack.
const maxDepth = 64

func (r *reader) ws() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// eat consumes c (after blanks) if it is next.
func (r *reader) eat(c byte) bool {
	r.ws()
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

func (r *reader) want(c byte) {
	if !r.eat(c) {
		r.bad = true
	}
}

func (r *reader) peek() byte {
	r.ws()
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

// str reads a string.
func (r *reader) str() string {
	if !r.eat('"') {
		r.bad = true
		return ""
	}
	start, escaped := r.i, false
	for r.i < len(r.s) {
		switch c := r.s[r.i]; {
		case c == '\\':
			escaped = true
			r.i += 2
			continue
		case c == '"':
			raw := r.s[start:r.i]
			r.i++
			if !escaped {
				return raw
			}
			var out string
			if json.Unmarshal([]byte(`"`+raw+`"`), &out) != nil {
				r.bad = true
			}
			return out
		case c < 0x20:
			r.bad = true
			return ""
		}
		r.i++
	}
	r.bad = true
	return ""
}

// number consumes a JSON number and reports whether it is a whole one
// (no fraction, no exponent).
func (r *reader) number() (text string, whole bool) {
	r.ws()
	start := r.i
	digits := func() int {
		n := 0
		for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if r.i < len(r.s) && r.s[r.i] == '-' {
		r.i++
	}
	lead := r.i
	if n := digits(); n == 0 || (n > 1 && r.s[lead] == '0') {
		r.bad = true
		return "", false
	}
	whole = true
	if r.i < len(r.s) && r.s[r.i] == '.' {
		r.i++
		whole = false
		if digits() == 0 {
			r.bad = true
		}
	}
	if r.i < len(r.s) && (r.s[r.i] == 'e' || r.s[r.i] == 'E') {
		r.i++
		whole = false
		if r.i < len(r.s) && (r.s[r.i] == '+' || r.s[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			r.bad = true
		}
	}
	return r.s[start:r.i], whole
}

// num reads a whole number; a fraction, an exponent or an int overflow is
// bad.
func (r *reader) num() int {
	text, whole := r.number()
	n, err := strconv.Atoi(text)
	if !whole || err != nil {
		r.bad = true
	}
	return n
}

// object calls field for each key; field must consume the value.
func (r *reader) object(field func(key string)) {
	if r.depth++; r.depth > maxDepth {
		r.bad = true
	}
	r.want('{')
	if !r.bad && !r.eat('}') {
		for !r.bad {
			k := r.str()
			r.want(':')
			if r.bad {
				break
			}
			field(k)
			if r.eat(',') {
				continue
			}
			r.want('}')
			break
		}
	}
	r.depth--
}

// array calls item for each element; item must consume it.
func (r *reader) array(item func()) {
	if r.depth++; r.depth > maxDepth {
		r.bad = true
	}
	r.want('[')
	if !r.bad && !r.eat(']') {
		for !r.bad {
			item()
			if r.eat(',') {
				continue
			}
			r.want(']')
			break
		}
	}
	r.depth--
}

// skip consumes any value.
func (r *reader) skip() {
	switch c := r.peek(); {
	case c == '{':
		r.object(func(string) { r.skip() })
	case c == '[':
		r.array(r.skip)
	case c == '"':
		r.str()
	case c == '-' || (c >= '0' && c <= '9'):
		r.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(r.s[r.i:], lit) {
				r.i += len(lit)
				return
			}
		}
		r.bad = true
	}
}

// null consumes a null if it is next.
func (r *reader) null() bool {
	if r.peek() == 'n' && strings.HasPrefix(r.s[r.i:], "null") {
		r.i += 4
		return true
	}
	return false
}

// point reads [x,y]. It is the bulk of every state line, so it avoids
// the general array walk.
func (r *reader) point() [2]int {
	var p [2]int
	r.want('[')
	p[0] = r.num()
	r.want(',')
	p[1] = r.num()
	r.want(']')
	return p
}

func (r *reader) points() [][2]int {
	if r.null() {
		return nil
	}
	out := [][2]int{}
	r.want('[')
	if r.bad || r.eat(']') {
		return out
	}
	for !r.bad {
		out = append(out, r.point())
		if !r.eat(',') {
			r.want(']')
			break
		}
	}
	return out
}

// readLine reads a config, state or status line from the server.
func readLine(line string) (msgAny, bool) {
	var m msgAny
	r := &reader{s: line}
	r.object(func(k string) {
		switch k {
		case "user_id":
			m.UserID = r.str()
		case "width":
			m.Width = r.num()
		case "height":
			m.Height = r.num()
		case "bricks":
			m.Bricks = r.points()
		case "status":
			st := r.str()
			m.Status = &st
		case "turn_no":
			m.TurnNo = r.num()
		case "players":
			m.Players = map[string]int{}
			r.object(func(name string) { m.Players[name] = r.num() })
		case "bots":
			m.Bots = map[string]msgBot{}
			r.object(func(id string) {
				var b msgBot
				r.object(func(k string) {
					switch k {
					case "player":
						b.Player = r.str()
					case "position":
						b.Position = r.point()
					case "health":
						b.Health = r.num()
					case "time":
						b.Time = r.num()
					case "can_shoot":
						b.CanShoot = r.points()
					default:
						r.skip()
					}
				})
				m.Bots[id] = b
			})
		case "empty":
			m.Empty = r.points()
		default:
			r.skip()
		}
	})
	r.ws()
	return m, !r.bad && r.i == len(r.s)
}
