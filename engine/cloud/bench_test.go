package cloud

import (
	"testing"

	"ringside/engine"
)

// BenchmarkGameHunters plays one default game (4 players × 6 bots, 30×30,
// 300 turns) in process with four hunters: every state line rendered and
// read by the bots, every reply parsed and applied.
func BenchmarkGameHunters(b *testing.B) {
	for b.Loop() {
		play(b, engine.Options{}, []engine.Bot{newHunterBot(1), newHunterBot(2), newHunterBot(3), newHunterBot(4)}, 7)
	}
}

// BenchmarkGameRandom is the same with four random bots.
func BenchmarkGameRandom(b *testing.B) {
	for b.Loop() {
		play(b, engine.Options{}, []engine.Bot{newRandomBot(1), newRandomBot(2), newRandomBot(3), newRandomBot(4)}, 7)
	}
}

// BenchmarkExpand is the engine's share alone: re-simulating the log of a
// four-hunter game into a full replay (every input rendered, every reply
// parsed, every turn resolved), as the replay viewer does.
func BenchmarkExpand(b *testing.B) {
	_, log := play(b, engine.Options{}, []engine.Bot{newHunterBot(1), newHunterBot(2), newHunterBot(3), newHunterBot(4)}, 7)
	for b.Loop() {
		if _, err := engine.Expand(New(), log); err != nil {
			b.Fatal(err)
		}
	}
}
