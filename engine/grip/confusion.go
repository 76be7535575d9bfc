package grip

import (
	"fmt"

	"ringside/engine"
)

// MoveStats re-plays a Grip log and counts, for one seat, the moves it
// asked for (U R D L while free to act) and how many of them went nowhere:
// off the board, into a fallen block or too close to another player. A bot
// that reads its position the wrong way round (x y for row column) keeps
// walking into the edge: most of its moves go nowhere.
func MoveStats(log *engine.Log, seat int) (moves, cancelled int, err error) {
	sim, err := engine.NewSim(New(), log)
	if err != nil {
		return 0, 0, err
	}
	st, ok := sim.State.(*State)
	if !ok {
		return 0, 0, fmt.Errorf("move stats: not a Grip game")
	}
	for sim.Next < len(log.Steps) && !st.Done() {
		before := st.Player(seat)
		_, step, err := sim.Step()
		if err != nil {
			return moves, cancelled, err
		}
		if len(step.Seats) != 1 || step.Seats[0].Seat != seat {
			continue
		}
		switch step.Seats[0].Action {
		case "U", "R", "D", "L":
			moves++
			after := st.Player(seat)
			if after.Row == before.Row && after.Col == before.Col {
				cancelled++
			}
		}
	}
	return moves, cancelled, nil
}

// Confused reports whether a seat's moves look like a bot that misreads
// the board: at least ConfusedMin moves went nowhere and they are at least
// half of its moves. A sensible bot rarely bumps into an edge or a
// neighbour more than now and then.
func Confused(moves, cancelled int) bool {
	return cancelled >= ConfusedMin && 2*cancelled >= moves
}

// ConfusedMin is the fewest moves gone nowhere that Confused calls
// confusion: a few bumps happen to any bot.
const ConfusedMin = 5
