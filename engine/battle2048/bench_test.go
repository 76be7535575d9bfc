package battle2048

import (
	"testing"
	"time"

	"ringside/engine"
)

// BenchmarkFullGame replays the replies of the 1000-round golden game
// coop_full_1000_a (2002 answers) through a fresh state: the engine's
// whole cost of a full game, inputs included, without any bot.
func BenchmarkFullGame(b *testing.B) {
	tr := loadTrace(b, "coop_full_1000_a")
	replies := make([][]engine.Reply, len(tr.Records))
	for i, r := range tr.Records {
		replies[i] = []engine.Reply{{Status: engine.Answered, Line: lineOf(r.RawOutput, r.AIOutput),
			Elapsed: time.Duration(r.Runtime * float64(time.Millisecond))}}
	}
	players := []string{"a", "b"}
	for b.Loop() {
		st, err := NewState(nil, players)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; !st.Done(); i++ {
			st.Asks()
			st.Apply(replies[i])
		}
		if st.Result().Turns != 1001 {
			b.Fatalf("result %+v", st.Result())
		}
	}
}

// BenchmarkRulesOnly plays the same 1000-round game on the rules alone:
// the 2000 moves are parsed once beforehand, and each iteration slides,
// scores and places the attack tiles, without rendering any input text.
// It isolates the game logic from the protocol text that BenchmarkFullGame
// also pays for.
func BenchmarkRulesOnly(b *testing.B) {
	tr := loadTrace(b, "coop_full_1000_a")
	var opening [Seats]Cell
	var moves []Move
	for i, r := range tr.Records {
		line := lineOf(r.RawOutput, r.AIOutput)
		if i < Seats {
			c, err := ParseOpening(line)
			if err != nil {
				b.Fatal(err)
			}
			opening[i] = c
			continue
		}
		m, err := ParseMove(line)
		if err != nil {
			b.Fatal(err)
		}
		moves = append(moves, m)
	}
	for b.Loop() {
		var boards [Seats]Board
		var scores [Seats]int64
		for seat, c := range opening {
			boards[1-seat][c.Row][c.Col] = 1
		}
		for h, m := range moves {
			seat := h % Seats
			if !boards[seat].CanMove() {
				b.Fatalf("half-turn %d: stuck", h)
			}
			next, _, gain := boards[seat].Slide(m.Dir)
			boards[seat] = next
			scores[seat] += gain
			for _, c := range m.Cells {
				boards[1-seat][c.Row][c.Col] = uint8(m.V)
			}
		}
		if scores[0] == 0 && scores[1] == 0 {
			b.Fatal("no score")
		}
	}
}
