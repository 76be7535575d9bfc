package app

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"ringside/app/replay"
	"ringside/engine"
	"ringside/engine/games"
)

// openReplayWindow opens a stored game in the replay viewer. The game is
// re-simulated off the UI thread.
func openReplayWindow(u *UI, matchID int64) {
	u.goWork(func() {
		log, err := u.DB.Replay(matchID)
		if err != nil {
			uiDo(func() { u.showError("Cannot open the replay", err) })
			return
		}
		names := make([]string, len(log.Players))
		for i, p := range log.Players {
			names[i] = displayName(p)
		}
		title := fmt.Sprintf("Ringside · game %d · %s", matchID, strings.Join(names, " vs "))
		v, err := newViewerFor(log)
		uiDo(func() {
			if err != nil {
				u.showError("Cannot open the replay", err)
				return
			}
			w := showViewer(u.App, title, v)
			if u.Svc != nil {
				// What-if buttons above the viewer: branch the game or
				// ask another bot about the input shown.
				acts := newReplayActions(u, matchID, log, v)
				acts.win = w
				w.SetContent(container.NewBorder(acts.obj, nil, nil, nil, v))
			}
		})
	})
}

func newViewerFor(log *engine.Log) (*replay.Viewer, error) {
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, err
	}
	// Players by the names the app shows ("hunter (built-in)"); the
	// replay itself is not changed.
	shown := *log
	shown.Players = make([]string, len(log.Players))
	for i, p := range log.Players {
		shown.Players[i] = displayName(p)
	}
	return replay.NewViewer(g, &shown)
}

// showViewer puts a viewer in a window of its own, keys attached.
func showViewer(a fyne.App, title string, v *replay.Viewer) fyne.Window {
	w := a.NewWindow(title)
	w.SetIcon(Icon)
	w.SetContent(v)
	v.AttachKeys(w.Canvas())
	w.SetOnClosed(v.Close)
	// Fits a 1024×768 projector, like the main window.
	w.Resize(fyne.NewSize(1000, 700))
	w.Show()
	return w
}

// ReadReplayFile reads a replay written by "ringside play --replay" or
// "ringside replay export".
func ReadReplayFile(path string) (*engine.Log, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read replay: %w", err)
	}
	var rp engine.Replay
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, fmt.Errorf("%s is not a replay file (JSON: %v); write one with ringside play --replay FILE", path, err)
	}
	log, err := rp.Log()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return log, nil
}

// NewReplayFileWindow is "ringside view FILE": the viewer alone, on a
// replay file. Errors are returned before any window opens.
func NewReplayFileWindow(a fyne.App, path string) (fyne.Window, error) {
	log, err := ReadReplayFile(path)
	if err != nil {
		return nil, err
	}
	v, err := newViewerFor(log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a.SetIcon(Icon)
	return showViewer(a, "Ringside · "+path, v), nil
}
