package games

import (
	"strings"
	"testing"

	"ringside/engine"
)

// TestExpand re-simulates a log by the game it names, and refuses one
// that names no game of the registry with the games there are.
func TestExpand(t *testing.T) {
	log := &engine.Log{Game: "battle2048", Seed: 1, Players: []string{"a", "b"}, InProgress: true}
	rp, err := Expand(log)
	if err != nil {
		t.Fatal(err)
	}
	// The game's own defaults fill the options: the log was expanded by
	// Battle 2048, not merely labelled with its name.
	if rp.Format != engine.ReplayFormat || rp.Game != "battle2048" || rp.Options["rounds"] != "1000" || !rp.InProgress {
		t.Errorf("replay = %+v, want a battle2048 replay with its default options, in progress", rp)
	}
	_, err = Expand(&engine.Log{Game: "chess"})
	if err == nil || !strings.Contains(err.Error(), `unknown game "chess" (games: grip, battle2048, cloud)`) {
		t.Errorf("Expand of a chess log: %v, want the unknown game named with the games there are", err)
	}
}
