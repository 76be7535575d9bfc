package runner

import (
	"encoding/json"
	"strconv"
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
