//go:build !nogui

package web

import (
	"image"

	"fyne.io/fyne/v2"

	"ringside/app/replay"
	"ringside/engine"
)

// boards are a game's steps ready to draw, by the desktop viewer's own
// renderer (replay.Frames). A build without the desktop app (-tags
// nogui) has boards_nogui.go instead.
type boards = replay.Frames

func prepareBoards(log *engine.Log) (*boards, error) { return replay.NewFramesOf(log) }

// frameSize is the size frames are drawn at: the desktop viewer's board
// at a size that fits a laptop's browser and scales down on a phone.
var frameSize = fyne.NewSize(640, 480)

func renderBoard(f *boards, step int) (image.Image, error) { return f.Render(step, frameSize), nil }
