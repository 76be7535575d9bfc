package cloud

import (
	"fmt"
	"strings"
	"testing"
)

// The longest reply the rules allow fits MaxReply: a command for each of
// 100 bots (the bots option's bound) with the highest ids a field can
// have and two-digit targets, spaced as Python's json.dumps spaces it,
// and tagged with the last turn's number.
func TestMaxReplyFitsTheLongestValidReply(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"turn_no": 100000`)
	for id := 2401; id <= 2500; id++ {
		fmt.Fprintf(&b, `, "bot%d": {"move": "u", "fire": [99, 99]}`, id)
	}
	b.WriteString("}")
	if b.Len() > MaxReply {
		t.Errorf("the longest valid reply has %d bytes, MaxReply is %d", b.Len(), MaxReply)
	}
}

// A reply longer than MaxReply is invalid as a whole: every bot stays.
func TestLongReplyIgnored(t *testing.T) {
	s := tiny(t, 2, nil, "aa.#.", "...b.", "#...b")
	cmd := `{"bot1":{"move":"r"}}`
	if r := s.parseReply(0, cmd+strings.Repeat(" ", MaxReply-len(cmd))); r.invalid() || len(r.orders) != 1 {
		t.Fatalf("a reply of MaxReply bytes: %+v", r)
	}
	r := s.parseReply(0, cmd+strings.Repeat(" ", MaxReply-len(cmd)+1))
	want := fmt.Sprintf("reply of %d bytes, longer than Cloud Contest's longest valid reply (%d bytes); all your bots stay", MaxReply+1, MaxReply)
	if !r.invalid() || len(r.orders) != 0 || r.detail() != want {
		t.Fatalf("a reply of MaxReply+1 bytes: %+v, detail %q", r, r.detail())
	}
}
