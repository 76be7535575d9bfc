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
