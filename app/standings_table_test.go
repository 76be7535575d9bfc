package app

import (
	"strings"
	"testing"

	"ringside/engine/event"
	"ringside/storage"
)

// TestStandingsMarkTrusted: an entry that ran without the sandbox is
// marked in the standings, and the note says what the mark means.
func TestStandingsMarkTrusted(t *testing.T) {
	tests := []struct {
		name      string
		ev        storage.Event
		wantMarks []bool
	}{
		{"sandboxed", storage.Event{Entries: []storage.Entry{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2"}}}, []bool{false, false}},
		{"one AI trusted", storage.Event{Entries: []storage.Entry{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2", Trusted: true}}}, []bool{false, true}},
		{"trusted event", storage.Event{Trusted: true, Entries: []storage.Entry{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2"}}}, []bool{true, true}},
	}
	table := event.Table{Seats: 2, Rows: []event.Standing{{Entry: 1, Name: "bob r2", Rank: 1, Games: 2}, {Entry: 0, Name: "alice r1", Rank: 2, Games: 2}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *standingsTable
			onUI(func() {
				s = newStandingsTable()
				s.set(tt.ev, table, nil)
			})
			any := false
			for row, r := range table.Rows {
				name := s.cell(row, 1)
				want := tt.wantMarks[r.Entry]
				any = any || want
				if strings.HasSuffix(name, " (trusted)") != want {
					t.Errorf("%s shows as %q, trusted %v", r.Name, name, want)
				}
			}
			if strings.Contains(s.note.Text, "(trusted) marks") != any {
				t.Errorf("note = %q", s.note.Text)
			}
		})
	}
}
