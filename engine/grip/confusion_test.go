package grip

import (
	"testing"

	"ringside/engine"
)

// moveLog is a Grip log from corners where seat 0 (at row 0, column 0)
// says cmds on its turns and the others wait.
func moveLog(cmds string) *engine.Log {
	log := &engine.Log{Game: "grip", Options: engine.Options{OptStart: "0,0,U/17,17,D/0,17,U/17,0,D"},
		Players: []string{"a", "b", "c", "d"}}
	ready := engine.LogStep{}
	for range Seats {
		ready.Replies = append(ready.Replies, engine.LogReply{Status: engine.Answered, Line: "READY"})
	}
	log.Steps = append(log.Steps, ready)
	for _, c := range cmds {
		log.Steps = append(log.Steps, engine.LogStep{Replies: []engine.LogReply{{Status: engine.Answered, Line: string(c)}}})
		for range Seats - 1 {
			log.Steps = append(log.Steps, engine.LogStep{Replies: []engine.LogReply{{Status: engine.Answered, Line: "N"}}})
		}
	}
	return log
}

func TestMoveStats(t *testing.T) {
	for _, tc := range []struct {
		cmds             string
		moves, cancelled int
		confused         bool
	}{
		{"", 0, 0, false},
		{"NANNN", 0, 0, false},    // no moves (the attack's wait forces N)
		{"DDRRUL", 6, 0, false},   // every move lands
		{"UUUUU", 5, 5, true},     // up from row 0: off the board each time
		{"ULULDRDR", 8, 4, false}, // four bumps are not confusion
		{"UUUUULLLLLDDDD", 14, 10, true},
		{"DDDDDDDDDDUUUUU", 15, 0, false},
	} {
		moves, cancelled, err := MoveStats(moveLog(tc.cmds), 0)
		if err != nil {
			t.Fatalf("%q: %v", tc.cmds, err)
		}
		if moves != tc.moves || cancelled != tc.cancelled || Confused(moves, cancelled) != tc.confused {
			t.Errorf("%q: %d moves, %d cancelled, confused %v; want %d, %d, %v", tc.cmds, moves, cancelled,
				Confused(moves, cancelled), tc.moves, tc.cancelled, tc.confused)
		}
	}
}
