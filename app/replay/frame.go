package replay

import (
	"fmt"
	"image"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"

	"ringside/engine"
	"ringside/engine/games"
)

// frameMu serialises RenderFrame: the boards and Fyne's software canvas
// are not safe for concurrent use, and a web server renders frames for
// many browsers at once.
var frameMu sync.Mutex

// Frames is a replay prepared for drawing single frames off screen, as the
// class server's browser viewer shows them: the same boards as the
// desktop viewer, drawn by Fyne's software renderer, so a frame in the
// browser is the frame the desktop shows. It needs no display.
type Frames struct {
	data  *replayData
	board board
}

// NewFrames reads a replay file's JSON (as "replay export" writes it) and
// re-simulates it once; Render then only draws.
func NewFrames(data []byte) (*Frames, error) {
	rp, err := engine.DecodeReplay(data)
	if err != nil {
		return nil, fmt.Errorf("the replay is %w", err)
	}
	log, err := rp.Log()
	if err != nil {
		return nil, fmt.Errorf("read the replay: %w", err)
	}
	return NewFramesOf(log)
}

// NewFramesOf prepares log's frames.
func NewFramesOf(log *engine.Log) (*Frames, error) {
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, fmt.Errorf("draw the replay: %w", err)
	}
	d, err := simulate(g, log)
	if err != nil {
		return nil, err
	}
	frameMu.Lock()
	defer frameMu.Unlock()
	if fyne.CurrentApp() == nil {
		// A server without the GUI (ringside class serve): the boards'
		// texts need a theme, which a headless app gives.
		test.NewApp()
	}
	return &Frames{data: d, board: newBoard(log.Game, log.Players)}, nil
}

// Steps is the number of steps (frames) of the replay.
func (f *Frames) Steps() int { return len(f.data.steps) }

// Turn is the game's turn at step (0-based), as the desktop viewer counts.
func (f *Frames) Turn(step int) int {
	if step < 0 || step >= len(f.data.turns) {
		return 0
	}
	return f.data.turns[step]
}

// Render draws the board after step (clamped to the replay) at size, the
// desktop viewer's board exactly.
func (f *Frames) Render(step int, size fyne.Size) image.Image {
	frameMu.Lock()
	defer frameMu.Unlock()
	c := software.NewCanvas()
	c.SetPadded(false)
	c.SetContent(f.board.Object())
	c.Resize(size)
	// Boards size their texts from the last layout (the tiles' numbers
	// follow the cell's side), so the step is shown once laid out at
	// size, as the desktop viewer shows it.
	n := len(f.data.steps)
	if n == 0 {
		f.board.Show(f.data.initial, nil)
	} else {
		step = max(0, min(step, n-1))
		f.board.Show(f.data.states[step], &f.data.steps[step])
	}
	return c.Capture()
}

// Marker is one of the timeline's markers, as the desktop timeline groups
// them (one per kind and step, or per group of steps in a long replay).
type Marker struct {
	Step  int     `json:"step"` // where a click seeks (0-based)
	At    int     `json:"at"`   // where it is drawn
	Last  int     `json:"last"`
	Kind  string  `json:"kind"`
	Text  string  `json:"text"` // the desktop timeline's hover text
	Count int     `json:"count"`
	Frac  float32 `json:"frac"`
	Slot  int     `json:"slot"`
	Slots int     `json:"slots"`
}

// Markers are the replay's timeline markers, computed by the desktop
// timeline's own code.
func (f *Frames) Markers() []Marker {
	t := &timeline{}
	t.compute(len(f.data.steps), f.data.turns, f.data.events)
	out := make([]Marker, len(t.marks))
	for i, m := range t.marks {
		out[i] = Marker{Step: m.step, At: m.at, Last: m.last, Kind: m.kind, Text: t.describe(m), Count: m.n,
			Frac: m.frac, Slot: m.slot, Slots: m.slots}
	}
	return out
}
