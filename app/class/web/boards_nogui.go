//go:build nogui

package web

import (
	"errors"
	"fmt"
	"image"

	"ringside/engine"
	"ringside/engine/games"
)

// boards are a game's steps as a build without the desktop app knows
// them (-tags nogui: the command line without cgo, for macOS): it counts
// steps and turns for the pages and the follow poll, but has no renderer
// to draw a board with.
type boards struct{ turns []int }

// marker is a timeline marker; this build computes none.
type marker struct {
	Step, At   int
	Kind, Text string
}

func prepareBoards(log *engine.Log) (*boards, error) {
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, err
	}
	rp, err := engine.Expand(g, log)
	if err != nil {
		return nil, fmt.Errorf("expand the replay: %w", err)
	}
	b := &boards{turns: make([]int, len(rp.Steps))}
	for i, st := range rp.Steps {
		b.turns[i] = st.Turn
	}
	return b, nil
}

func (b *boards) Steps() int { return len(b.turns) }

func (b *boards) Turn(step int) int {
	if step < 0 || step >= len(b.turns) {
		return 0
	}
	return b.turns[step]
}

func (b *boards) Markers() []marker { return nil }

// errNoBoards says why a frame is missing, to the teacher's log and the
// page.
var errNoBoards = errors.New("this Ringside was built without the desktop app (-tags nogui), which draws the boards: serve the class from a full build to show them")

func renderBoard(*boards, int) (image.Image, error) { return nil, errNoBoards }
