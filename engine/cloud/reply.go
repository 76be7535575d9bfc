package cloud

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// order is one bot's accepted command for a turn. The zero order stays
// and does not fire.
type order struct {
	move   byte // 'u', 'd', 'l', 'r', 's' (0 means 's')
	fire   bool
	target Point
}

func (o order) moveByte() byte {
	if o.move == 0 {
		return 's'
	}
	return o.move
}

func (o order) delta() Point {
	switch o.move {
	case 'u':
		return Point{0, -1}
	case 'd':
		return Point{0, 1}
	case 'l':
		return Point{-1, 0}
	case 'r':
		return Point{1, 0}
	}
	return Point{}
}

// reply is a parsed reply line.
type reply struct {
	orders map[int]order // by bot index, only the seat's own live bots
	notes  []string      // the parts that were ignored, and why
	err    string        // set when nothing of the line could be used
}

// invalid is the verdict rule: a malformed line, or one whose every part
// was ignored. A reply that is partly right is accepted (its faults are
// still reported in Detail and an error status line).
func (r reply) invalid() bool { return r.err != "" || (len(r.orders) == 0 && len(r.notes) > 0) }

// maxNotes caps the faults listed for one reply, so a reply with thousands
// of bad keys does not make a megabyte error line.
const maxNotes = 12

func (r reply) detail() string {
	if r.err != "" {
		return r.err + "; all your bots stay"
	}
	if len(r.notes) == 0 {
		return ""
	}
	notes := r.notes
	more := ""
	if len(notes) > maxNotes {
		more = fmt.Sprintf("; and %d more", len(notes)-maxNotes)
		notes = notes[:maxNotes]
	}
	return "ignored: " + strings.Join(notes, "; ") + more
}

// shortQuote quotes a key from a reply for a message, cut to a sane length.
func shortQuote(s string) string { return strconv.Quote(cut(s)) }

// cut shortens a piece of a reply for a message.
func cut(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:24]) + "…"
	}
	return s
}

// botIndex finds a bot by id ("bot1" is index 0).
func (s *State) botIndex(id string) (int, bool) {
	num, ok := strings.CutPrefix(id, "bot")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > len(s.bots) || "bot"+strconv.Itoa(n) != id {
		return 0, false
	}
	return n - 1, true
}

// replyTurn reads the "turn_no" a reply may carry.
func replyTurn(line string) (int64, bool) {
	if !strings.Contains(line, `"turn_no"`) {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &m) != nil {
		return 0, false
	}
	raw, ok := m["turn_no"]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
	return n, err == nil
}

// parseReply reads seat's reply to the current turn: a JSON object of
// commands by bot id, e.g. {"bot1":{"move":"u","fire":[3,4]}}, optionally
// tagged with "turn_no".
func (s *State) parseReply(seat int, line string) reply {
	var r reply
	if len(line) > MaxReply {
		detail, _ := (Game{}).Info().LongReply(line)
		r.err = detail
		return r
	}
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "{") {
		r.err = "malformed reply: not a JSON object"
		return r
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(trimmed), &m); err != nil {
		r.err = "malformed reply: " + err.Error()
		return r
	}
	cur := int64(s.turn + 1)
	if raw, ok := m["turn_no"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
		switch {
		case err != nil:
			r.err = fmt.Sprintf("malformed reply: turn_no %s is not a whole number", cut(string(raw)))
			return r
		case n != cur:
			r.err = fmt.Sprintf("reply is for turn %d but this is turn %d", n, cur)
			return r
		}
		delete(m, "turn_no")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Bot ids in number order, anything else after them: the notes must
	// come out the same way every time.
	sort.Slice(keys, func(i, j int) bool {
		bi, oki := s.botIndex(keys[i])
		bj, okj := s.botIndex(keys[j])
		switch {
		case oki && okj:
			return bi < bj
		case oki != okj:
			return oki
		}
		return keys[i] < keys[j]
	})
	r.orders = map[int]order{}
	for _, k := range keys {
		i, ok := s.botIndex(k)
		if !ok {
			r.notes = append(r.notes, fmt.Sprintf("there is no bot %s", shortQuote(k)))
			continue
		}
		b := &s.bots[i]
		switch {
		case b.player != seat:
			r.notes = append(r.notes, fmt.Sprintf("%s is not your bot", k))
			continue
		case !b.alive() && b.time > 0:
			r.notes = append(r.notes, fmt.Sprintf("%s is dead (back in %d turns)", k, b.time))
			continue
		case !b.alive():
			r.notes = append(r.notes, fmt.Sprintf("%s is dead (back as soon as a cell is free)", k))
			continue
		}
		o, note := s.parseCommand(b, m[k])
		if note != "" {
			r.notes = append(r.notes, k+": "+note)
		}
		if o != nil {
			r.orders[i] = *o
		}
	}
	return r
}

// parseCommand reads one bot's {"move":…,"fire":…}. A malformed move or
// fire drops the whole command (nil); a well-formed shot at a cell the bot
// cannot hit drops only the shot.
func (s *State) parseCommand(b *bot, raw json.RawMessage) (*order, string) {
	var c map[string]json.RawMessage
	if err := json.Unmarshal(raw, &c); err != nil || c == nil {
		return nil, "command is not an object like {\"move\":\"u\",\"fire\":[3,4]}"
	}
	o := order{move: 's'}
	if mv, ok := c["move"]; ok && string(mv) != "null" {
		var str string
		if json.Unmarshal(mv, &str) != nil || len(str) != 1 || !strings.Contains("udlrsIL", str) {
			return nil, fmt.Sprintf("move %s is not one of \"u\", \"d\", \"l\", \"r\", \"s\"", cut(string(mv)))
		}
		o.move = str[0]
		if o.move == 'I' || o.move == 'L' {
			// The seed prints left as "I" (a capital i standing for l);
			// clients copy either that or a capital L.
			o.move = 'l'
		}
	}
	if fr, ok := c["fire"]; ok {
		var raw []json.RawMessage
		if json.Unmarshal(fr, &raw) != nil || (len(raw) != 0 && len(raw) != 2) || !numbers(raw) {
			return nil, fmt.Sprintf("fire %s is not [x,y] or []", cut(string(fr)))
		}
		if len(raw) == 2 {
			xy := [2]json.Number{json.Number(raw[0]), json.Number(raw[1])}
			// Any two numbers are a well-formed shot; only whole numbers
			// naming a cell within range hit anything. Numbers beyond
			// what an int holds (or fractions) drop the shot, not the
			// move, like any other cell the bot cannot hit.
			x, errX := strconv.ParseInt(string(xy[0]), 10, 64)
			y, errY := strconv.ParseInt(string(xy[1]), 10, 64)
			at := "[" + cut(string(xy[0])) + "," + cut(string(xy[1])) + "]"
			switch {
			case !wholeNumber(xy[0]) || !wholeNumber(xy[1]):
				return &o, fmt.Sprintf("shot at %s dropped: x and y must be whole numbers", at)
			case errX != nil || errY != nil || !s.fld.in(Point{int(x), int(y)}):
				return &o, fmt.Sprintf("shot at %s dropped: it is off the %d×%d field", at, s.fld.w, s.fld.h)
			}
			to := Point{int(x), int(y)}
			if why := s.canFire(b.pos, to); why != "" {
				return &o, fmt.Sprintf("shot at %s dropped: it %s", at, why)
			}
			o.fire, o.target = true, to
		}
	}
	return &o, ""
}

// wholeNumber reports whether a JSON number has no fraction or exponent,
// however many digits it has.
func wholeNumber(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }

// numbers reports whether every item is a JSON number (not a string that
// holds one).
func numbers(items []json.RawMessage) bool {
	for _, it := range items {
		if len(it) == 0 || (it[0] != '-' && (it[0] < '0' || it[0] > '9')) {
			return false
		}
	}
	return true
}
