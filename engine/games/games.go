// Package games is the registry of Ringside's games.
package games

import (
	"fmt"
	"strings"

	"ringside/engine"
	"ringside/engine/battle2048"
	"ringside/engine/cloud"
	"ringside/engine/grip"
)

// All returns every game, in the order menus show them.
func All() []engine.Game {
	return []engine.Game{
		grip.New(),
		battle2048.New(),
		cloud.New(),
		// Each game package adds itself here.
	}
}

// Get finds a game by its ID.
func Get(id string) (engine.Game, error) {
	var ids []string
	for _, g := range All() {
		if g.Info().ID == id {
			return g, nil
		}
		ids = append(ids, g.Info().ID)
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", id, strings.Join(ids, ", "))
}

// Expand re-simulates log with the game it names: engine.Expand for a log
// whose game the caller does not hold.
func Expand(log *engine.Log) (*engine.Replay, error) {
	g, err := Get(log.Game)
	if err != nil {
		return nil, err
	}
	return engine.Expand(g, log)
}
