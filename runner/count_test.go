package runner

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// jsonTags reads "turn_no" as Cloud does, for the counter's tests.
type jsonTags struct{}

func (jsonTags) InputTurn(input string) (int64, bool) { return jsonTags{}.ReplyTurn(input) }
func (jsonTags) ReplyTurn(line string) (int64, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &m) != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(string(m["turn_no"]), 10, 64)
	return n, err == nil
}

func TestReplyCount(t *testing.T) {
	// Each event happens one millisecond after the one before, unless it
	// names the moment it arrived (a line read late by Ringside).
	type ev struct {
		state int    // > 0: the state of this turn is sent
		line  string // otherwise a reply line arrives
		at    int    // when it arrived, in ms, if not now
		stale bool   // what the counter must say of the line
	}
	tests := []struct {
		name string
		evs  []ev
	}{
		{"in step", []ev{{state: 1}, {line: "a"}, {state: 2}, {line: "b"}}},
		{"late once, back in step", []ev{{state: 1}, {state: 2}, {line: "late 1", stale: true}, {line: "2"}, {state: 3}, {line: "3"}}},
		{"late twice over", []ev{{state: 1}, {state: 2}, {state: 3}, {line: "1", stale: true}, {line: "2", stale: true}, {line: "3"}}},
		{"late, arrived before the next state", []ev{{state: 1}, {line: "late 1"}, {state: 2}, {line: "2"}}},
		{"a second line answers nothing", []ev{{state: 1}, {line: "1"}, {line: "extra", stale: true}, {state: 2}, {line: "2"}}},
		{"nothing before the first state", []ev{{line: "hello", stale: true}, {state: 1}, {line: "1"}}},
		// The extra line arrived before state 2 was written, but was read
		// after: it answers nothing and leaves state 2 to its answer.
		{"read after the next state, arrived before", []ev{{state: 1}, {line: "1"}, {line: "extra", at: 3, stale: true}, {state: 2}, {line: "2"}}},
		{"tagged, after a state left unanswered", []ev{{state: 1}, {state: 2}, {line: `{"turn_no":2}`}, {state: 3}, {line: "3"}}},
		{"tagged with an older turn", []ev{{state: 1}, {state: 2}, {line: `{"turn_no":1}`, stale: true}, {line: `{"turn_no":2}`}}},
		{"tagged with a later turn: the game judges it", []ev{{state: 1}, {line: `{"turn_no":5}`}, {state: 2}, {line: "2"}}},
		{"tagged with a turn long gone", []ev{{state: 1}, {state: 2}, {state: 3}, {state: 4}, {state: 5}, {state: 6}, {state: 7}, {state: 8}, {state: 9}, {state: 10},
			{line: `{"turn_no":1}`, stale: true}, {line: `{"turn_no":10}`}}},
		{"untagged, a state left unanswered shifts the count", []ev{{state: 1}, {state: 2}, {line: "meant for 2", stale: true}, {state: 3}, {line: "meant for 3", stale: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newReplyCount()
			c.tagged(jsonTags{})
			base := time.Unix(1000, 0)
			for i, e := range tt.evs {
				now := base.Add(time.Duration(i+1) * time.Millisecond)
				if e.state > 0 {
					c.state(`{"turn_no":`+strconv.Itoa(e.state)+`,"bots":{}}`, now)
					continue
				}
				if e.at > 0 {
					now = base.Add(time.Duration(e.at)*time.Millisecond - time.Microsecond)
				}
				if got := c.stale(e.line, now); got != e.stale {
					t.Errorf("event %d, line %q: stale = %v, want %v", i, e.line, got, e.stale)
				}
			}
		})
	}
}

func TestReplyCountReset(t *testing.T) {
	c := newReplyCount()
	now := time.Now()
	c.state("s1", now)
	c.state("s2", now.Add(time.Millisecond))
	// A new connection: it is sent the current state again.
	c.reset()
	c.state("s2", now.Add(2*time.Millisecond))
	if c.stale("answer", now.Add(3*time.Millisecond)) {
		t.Errorf("after a reconnection the first line is not the answer to the state resent")
	}
}

func TestLoginText(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		user  string // "" with ok false: not a login
		ok    bool
	}{
		{"one line", []string{`{"message_type":"login","user_token":"u","game_token":"g"}`}, "u", true},
		{"the seed's two lines", []string{`{"message_type":"login", "user_token":"u",`, `"game token":"g"}`}, "u", true},
		{"one key a line", []string{"{", `"message_type": "login",`, `"user_token": "u",`, `"game_token": "g"`, "}"}, "u", true},
		{"blank lines first", []string{"", "  ", `{"message_type":"login","user_token":"u","game_token":"g"}`}, "u", true},
		{"not an object", []string{`hello`}, "", false},
		{"an object, not a login", []string{`{"message_type":"logout"}`}, "", false},
		{"an unfinished string cannot go on", []string{`{"message_type":"login", "user_token":"u`, `", "game_token":"g"}`}, "", false},
		{"garbage after a beginning", []string{`{"message_type":`, `]`}, "", false},
		{"trailing text", []string{`{"message_type":"login","user_token":"u","game_token":"g"} x`}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lt loginText
			var user, game string
			var done, ok bool
			for i, l := range tt.lines {
				user, game, done, ok = lt.add(l)
				if done && i < len(tt.lines)-1 {
					if ok {
						t.Fatalf("a login after line %d of %d", i+1, len(tt.lines))
					}
					break
				}
			}
			if !done && tt.ok {
				t.Fatalf("the lines did not make a message")
			}
			if ok != tt.ok || user != tt.user || (ok && game != "g") {
				t.Errorf("login = %q %q %v, want %q %v", user, game, ok, tt.user, tt.ok)
			}
		})
	}
	// A message that never ends is given up, within bounds.
	var lt loginText
	for i := range maxLoginLines {
		if _, _, done, _ := lt.add(`{"a":[`); done {
			if i+1 != maxLoginLines {
				t.Errorf("an endless object given up after %d lines, want %d", i+1, maxLoginLines)
			}
			return
		}
	}
	t.Errorf("an endless object was never given up")
}

func TestSeatOf(t *testing.T) {
	users := []string{"aaaa", "bbbb"}
	for _, tt := range []struct {
		user, game string
		want       int
	}{
		{"aaaa", "gg", 0}, {"bbbb", "gg", 1}, {"bbbb", "gx", -1}, {"cccc", "gg", -1}, {"", "", -1}, {"aaa", "gg", -1},
	} {
		if got := seatOf(users, "gg", tt.user, tt.game); got != tt.want {
			t.Errorf("seatOf(%q, %q) = %d, want %d", tt.user, tt.game, got, tt.want)
		}
	}
}

// FuzzLoginText feeds the login reader arbitrary lines: it never holds
// more than its bounds, and a login that is one valid JSON text is read
// the same whether it comes on one line or split where the seed splits.
func FuzzLoginText(f *testing.F) {
	f.Add("{\"message_type\":\"login\", \"user_token\":\"123abcd\",\n\"game token\":\"1234abcd\"}", "u", "g")
	f.Add("{\n\n\"a\":[1,2\n", "", "")
	f.Add("\"x\n}\n{", "\x00", "\xff")
	f.Fuzz(func(t *testing.T, data, user, game string) {
		var lt loginText
		for _, l := range strings.Split(data, "\n") {
			lt.add(l)
			if lt.lines > maxLoginLines || len(lt.buf) > maxLoginBytes+len(l)+1 {
				t.Fatalf("holding %d lines, %d bytes", lt.lines, len(lt.buf))
			}
		}
		u, _ := json.Marshal(user)
		g, _ := json.Marshal(game)
		one := `{"message_type":"login","user_token":` + string(u) + `,"game token":` + string(g) + `}`
		wantU, wantG, _ := parseLogin([]byte(one))
		var split loginText
		split.add(`{"message_type":"login", "user_token":` + string(u) + `,`)
		gotU, gotG, done, ok := split.add(`"game token":` + string(g) + `}`)
		if !done || !ok || gotU != wantU || gotG != wantG {
			t.Errorf("split login = %q %q %v %v, want %q %q", gotU, gotG, done, ok, wantU, wantG)
		}
	})
}
