package grip

import (
	"math/rand/v2"
	"testing"

	"ringside/engine"
)

// benchState is a game past its handshake, started from a fixed position.
func benchState(b *testing.B) *State {
	start, err := ParseStart("14,0,D/17,14,L/10,14,U/5,2,R")
	if err != nil {
		b.Fatal(err)
	}
	s := newState(config{turn: 100, ready: 1000, maxTurns: 1000}, start, []string{"a", "b", "c", "d"})
	s.ready = true
	return s
}

// BenchmarkGame plays whole games with random moves and no attacks, so
// every game lasts the full 1000 turns.
func BenchmarkGame(b *testing.B) {
	// The rules alone: no input text, no reply parsing.
	b.Run("rules", func(b *testing.B) {
		benchGames(b, func(s *State, rng *rand.Rand) {
			for !s.Done() {
				s.play(Directions[rng.IntN(4)])
			}
		})
	})
	// Through the contract: every turn's input rendered, the reply parsed.
	b.Run("asks+apply", func(b *testing.B) {
		replies := make([]engine.Reply, 1)
		benchGames(b, func(s *State, rng *rand.Rand) {
			for !s.Done() {
				asks := s.Asks()
				replies[0] = engine.Reply{Status: engine.Answered, Line: commandLines[rng.IntN(4)][:1]}
				s.Apply(replies[:len(asks)])
			}
		})
	})
	// Uniform over U R D L A N, like the sample AI: blocks fall and games
	// end early.
	b.Run("rules-with-attacks", func(b *testing.B) {
		benchGames(b, func(s *State, rng *rand.Rand) {
			for !s.Done() {
				s.play(Commands[rng.IntN(len(Commands))])
			}
		})
	})
}

// benchGames has play play a whole game from benchState per iteration,
// with the same random numbers in every run, and reports the turns a game
// lasted. The turn loop is play's own, so no call per turn is timed.
func benchGames(b *testing.B, play func(s *State, rng *rand.Rand)) {
	rng := rand.New(rand.NewPCG(1, 2))
	turns := 0
	for b.Loop() {
		s := benchState(b)
		play(s, rng)
		turns += s.Turn()
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}

// BenchmarkTurn is one Asks and Apply with a move reply.
func BenchmarkTurn(b *testing.B) {
	s := benchState(b)
	replies := []engine.Reply{{Status: engine.Answered, Line: "U"}}
	i := 0
	for b.Loop() {
		if s.Done() {
			s = benchState(b)
		}
		asks := s.Asks()
		replies[0].Line = commandLines[i%4][:1]
		s.Apply(replies[:len(asks)])
		i++
	}
}

// BenchmarkGreedy is one greedy decision from a full input.
func BenchmarkGreedy(b *testing.B) {
	s := benchState(b)
	in := s.Input(0)
	g := knowing(1)
	for b.Loop() {
		feed(g, in)
	}
}

// BenchmarkInput renders one turn input.
func BenchmarkInput(b *testing.B) {
	s := benchState(b)
	s.blocks[2][3], s.blocks[4][4] = 11, -7
	for b.Loop() {
		_ = s.Input(1)
	}
}
