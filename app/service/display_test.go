package service

import (
	"slices"
	"testing"

	"ringside/engine"
)

// TestShownLog: the boards name players as the front ends do, a saved
// branch's branched seat by its bot, and the log itself is not changed.
func TestShownLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		log     engine.Log
		players []string
	}{
		{"built-ins and revisions", engine.Log{Players: []string{"builtin:grip/greedy", "alice r3", "builtin:grip/random#2"}},
			[]string{"greedy (built-in)", "alice r3", "random #2 (built-in)"}},
		{"a branch", engine.Log{Players: []string{"alice r3", "bob r1"}, Branch: &engine.Branched{Seat: 1, Bot: "builtin:grip/hunter"}},
			[]string{"alice r3", "hunter (built-in)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.log.Players)
			got := ShownLog(&tc.log)
			if !slices.Equal(got.Players, tc.players) {
				t.Errorf("players %q, want %q", got.Players, tc.players)
			}
			if !slices.Equal(tc.log.Players, before) {
				t.Errorf("the log's own players changed to %q", tc.log.Players)
			}
		})
	}
}
