package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/games"
)

// openReplayWindow opens a game in the replay viewer: a stored game, or
// a game being played, which the viewer then follows turn by turn. The
// game is re-simulated off the UI thread.
func openReplayWindow(u *UI, matchID int64) {
	if feed, ok := u.Svc.Live().Follow(matchID); ok {
		openLiveWindow(u, matchID, feed)
		return
	}
	u.goWork(func() {
		label := u.Svc.GameLabelOf(matchID) // "game 3 (id 27) of …", read off the UI thread
		log, err := u.Svc.Replay(matchID)
		if errors.Is(err, service.ErrNotFound) {
			if u.Svc.GamePlaying(matchID) {
				// Played by another process: follow the turns it saves.
				closed := make(chan struct{})
				followSaved(u, matchID, closed, func(v *replay.Viewer, title string) {
					w := showViewer(u.App, fmt.Sprintf("Ringside · %s · %s", label, title), v)
					w.SetOnClosed(func() {
						v.Close()
						close(closed)
					})
				})
				return
			}
		}
		if err != nil {
			uiDo(func() { u.showError("Cannot open the replay", err) })
			return
		}
		names := make([]string, len(log.Players))
		for i, p := range log.Players {
			names[i] = displayName(p)
		}
		title := fmt.Sprintf("Ringside · %s · %s", label, strings.Join(names, " vs "))
		p, err := prepareFor(log)
		uiDo(func() {
			if err != nil {
				u.showError("Cannot open the replay", err)
				return
			}
			v := p.Viewer()
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

// prepareFor re-simulates log for the viewer, with its players by the
// names the app shows; it may run off the UI thread.
func prepareFor(log *engine.Log) (*replay.Prepared, error) {
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, err
	}
	return replay.Prepare(g, shownLog(log))
}

// newViewerFor makes the viewer of log on the UI thread.
func newViewerFor(log *engine.Log) (*replay.Viewer, error) {
	p, err := prepareFor(log)
	if err != nil {
		return nil, err
	}
	return p.Viewer(), nil
}

// shownLog is log with its players by the names the app shows ("hunter
// (built-in)", service.ShownLog: the class server's pages draw the same);
// the replay itself is not changed.
func shownLog(log *engine.Log) *engine.Log { return service.ShownLog(log) }

// openLiveWindow opens a game being played in this process in a viewer
// that follows it.
func openLiveWindow(u *UI, matchID int64, feed *service.LiveFeed) {
	closed := make(chan struct{})
	u.goWork(func() {
		defer feed.Close()
		label := u.Svc.GameLabelOf(matchID)
		var eventID int64
		if m, err := u.Svc.DB().Match(matchID); err == nil {
			eventID = m.EventID
		}
		var w fyne.Window // set on the UI thread
		var v *replay.Viewer
		final := followLive(u, feed, closed, func(nv *replay.Viewer, title string) {
			v = nv
			w = showViewer(u.App, fmt.Sprintf("Ringside · %s · %s", label, title), v)
			w.SetOnClosed(func() {
				v.Close()
				close(closed)
			})
		})
		if final == nil || u.Svc == nil {
			return
		}
		// Over and saved: the what-if buttons of a stored replay.
		uiDo(func() {
			select {
			case <-closed:
				return
			default:
			}
			acts := newReplayActions(u, matchID, final, v)
			acts.win = w
			top := acts.obj
			if eventID != 0 {
				top = container.NewVBox(nextLiveRow(u, eventID, matchID, w), acts.obj)
			}
			w.SetContent(container.NewBorder(top, nil, nil, nil, v))
		})
	})
}

// nextLiveRow offers, in the window of a live game that has ended, the
// next game of its event in play: short games end before anyone catches
// one from the games list, and the window should not go dead with the
// game. Watching it closes this window (w).
func nextLiveRow(u *UI, eventID, matchID int64, w fyne.Window) fyne.CanvasObject {
	note := newLineLabel("This game is over.")
	watch := widget.NewButtonWithIcon("Watch the next game live", theme.MediaPlayIcon(), func() {
		next, ok := nextLiveGame(u, eventID, matchID)
		if !ok {
			note.SetText("No other game of this event is in play now: try again in a moment.")
			return
		}
		openReplayWindow(u, next)
		w.Close()
	})
	watch.Importance = widget.HighImportance
	return container.NewBorder(nil, nil, watch, nil, note)
}

// nextLiveGame is the game of event eventID in play here, other than
// matchID, that comes first in the event's schedule.
func nextLiveGame(u *UI, eventID, matchID int64) (int64, bool) {
	var next service.LiveGame
	found := false
	for _, g := range u.Svc.Live().Games(eventID) {
		if g.Match != matchID && (!found || g.Index < next.Index) {
			next, found = g, true
		}
	}
	return next.Match, found
}

// liveFrame is the shortest time between two updates of a live viewer:
// a fast game's steps are shown a frame's worth at a time.
const liveFrame = time.Second / 60

// followLive makes a live viewer for feed's game and keeps it up to date
// until the game ends, stop closes or the app closes; show puts the new
// viewer on screen (on the UI thread). It runs off the UI thread, where
// it also re-simulates the game when it opens and when it ends; each
// batch of steps is simulated on the UI thread, in Append, a frame's
// worth at a time. It returns the finished game's log, or nil when the
// game was stopped or the viewer closed before the game ended.
func followLive(u *UI, feed *service.LiveFeed, stop <-chan struct{}, show func(v *replay.Viewer, title string)) *engine.Log {
	var v *replay.Viewer
	var last time.Time
	for {
		select {
		case <-feed.C:
		case <-stop:
			return nil
		case <-u.ctx.Done():
			return nil
		}
		up := feed.Take()
		if v == nil {
			var log *engine.Log
			switch {
			case up.Final != nil:
				log = up.Final // over before the viewer was made: the plain replay
			case up.Header.Game == "" && up.Ended:
				return nil // stopped before it started
			case up.Header.Game == "":
				continue // handed to a worker, bots still starting
			default:
				head := up.Header
				head.Steps = up.Steps
				head.InProgress = true
				log = &head
			}
			if v = openViewer(u, log, stop, show); v == nil {
				return nil
			}
			if up.Ended {
				if up.Final == nil {
					uiDo(func() { v.Stopped(up.Stopped) })
				}
				return up.Final
			}
			last = time.Now()
			continue
		}
		if len(up.Steps) > 0 {
			uiDo(func() {
				// A step that does not fit ends live mode: said once.
				if err := v.Append(up.Steps); err != nil {
					u.showError("Cannot follow the game", err)
				}
			})
		}
		if up.Ended {
			if up.Final == nil {
				uiDo(func() { v.Stopped(up.Stopped) })
				return nil
			}
			p, err := prepareFor(up.Final)
			if err != nil {
				uiDo(func() { u.showError("Cannot show the finished game", err) })
				return nil
			}
			uiDo(func() { v.FinishPrepared(p) })
			return up.Final
		}
		// At most one update a frame; steps played meanwhile come in the
		// next Take together.
		if wait := liveFrame - time.Since(last); wait > 0 {
			time.Sleep(wait)
		}
		last = time.Now()
	}
}

// openViewer re-simulates log off the UI thread, then makes its viewer and
// has show put it on screen on the UI thread. It returns the viewer, or
// nil when the log cannot be shown (said in a dialog) or stop or the app
// closed first.
func openViewer(u *UI, log *engine.Log, stop <-chan struct{}, show func(v *replay.Viewer, title string)) *replay.Viewer {
	p, err := prepareFor(log)
	if err != nil {
		uiDo(func() { u.showError("Cannot show the game", err) })
		return nil
	}
	made := make(chan *replay.Viewer, 1)
	uiDo(func() {
		v := p.Viewer()
		show(v, strings.Join(v.Players(), " vs "))
		made <- v
	})
	select {
	case v := <-made:
		return v
	case <-stop:
	case <-u.ctx.Done():
	}
	return nil
}

// followSaved follows a game played by another process through the turns
// it saves about once a second (service.LiveReplay), reading them off the
// UI thread, until the game ends, stop closes or the app closes; show
// puts the viewer on screen. When the game is over its stored replay
// replaces the turns so far.
func followSaved(u *UI, matchID int64, stop <-chan struct{}, show func(v *replay.Viewer, title string)) {
	var v *replay.Viewer
	have := 0
	t := time.NewTicker(service.LiveSaveEvery / 2)
	defer t.Stop()
	for {
		log, err := u.Svc.LiveReplay(matchID)
		switch {
		case errors.Is(err, service.ErrNotFound):
			// Over, reset, or no turn saved yet.
			if u.Svc.GamePlaying(matchID) {
				break // started: its first turns are on their way
			}
			final, ferr := u.Svc.Replay(matchID)
			switch {
			case ferr == nil && v == nil:
				openViewer(u, final, stop, show)
			case ferr == nil:
				if p, err := prepareFor(final); err == nil {
					uiDo(func() { v.FinishPrepared(p) })
				}
			case v != nil:
				uiDo(func() { v.Stopped("the game stopped before its end; it is played again when its event resumes") })
			default:
				uiDo(func() { u.showError("Cannot open the game", ferr) })
			}
			return
		case err != nil:
			uiDo(func() { u.showError("Cannot follow the game", err) })
			return
		case v == nil:
			if v = openViewer(u, log, stop, show); v == nil {
				return
			}
			have = len(log.Steps)
		case len(log.Steps) > have:
			steps := log.Steps[have:]
			have = len(log.Steps)
			uiDo(func() {
				if err := v.Append(steps); err != nil {
					u.showError("Cannot follow the game", err)
				}
			})
		}
		select {
		case <-t.C:
		case <-stop:
			return
		case <-u.ctx.Done():
			return
		}
	}
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
	rp, err := engine.DecodeReplay(data)
	if err != nil {
		return nil, fmt.Errorf("%s is %w; write one with ringside play --replay FILE", path, err)
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
	if log.InProgress {
		v.Stopped("exported while the game was in play: the turns so far")
	}
	a.SetIcon(Icon)
	return showViewer(a, "Ringside · "+path, v), nil
}
