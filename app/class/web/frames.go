package web

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"net/http"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/games"
)

// prepared is a game's replay made ready to draw: a re-simulation of its
// steps (prepareBoards), done once per game, and for a game in play
// once per step count it reaches, however many people watch it.
type prepared struct {
	f     *boards
	steps int  // the steps it was made from
	done  bool // the game is over: its replay no longer grows
}

// replayOf reads a game's replay: the finished game's, or the turns saved
// so far of a game in play (marked InProgress).
func (s *Site) replayOf(game int64) (*engine.Log, error) {
	log, err := s.svc.Replay(game)
	if errors.Is(err, service.ErrNotFound) {
		log, err = s.svc.LiveReplay(game)
		if errors.Is(err, service.ErrNotFound) {
			// It may have ended between the two reads.
			log, err = s.svc.Replay(game)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read the replay of game %d: %w", game, err)
	}
	return log, nil
}

// framesOf is game's replay prepared to draw, from the cache when the
// game is over or has not moved since it was prepared.
func (s *Site) framesOf(game int64) (*boards, error) {
	s.mu.Lock()
	c, ok := s.frames[game]
	s.mu.Unlock()
	if ok && c.done {
		return c.f, nil
	}
	log, err := s.replayOf(game)
	if err != nil {
		return nil, err
	}
	// One preparation at a time: a class that reloads the page when a
	// step comes in waits for one re-simulation, not one each.
	s.prep.Lock()
	defer s.prep.Unlock()
	s.mu.Lock()
	c, ok = s.frames[game]
	s.mu.Unlock()
	if ok && (c.done || (log.InProgress && c.steps >= len(log.Steps))) {
		return c.f, nil
	}
	// The boards name the players as the desktop viewer does.
	f, err := prepareBoards(service.ShownLog(log))
	if err != nil {
		return nil, fmt.Errorf("prepare the replay of game %d: %w", game, err)
	}
	s.simulated.Add(1)
	s.mu.Lock()
	if ok && !log.InProgress {
		// The finished game's last frame may show what the game in play's
		// did not (its result): its frames are drawn anew.
		for k := range s.pngs {
			if k.game == game {
				delete(s.pngs, k)
			}
		}
	}
	s.frames[game] = prepared{f: f, steps: len(log.Steps), done: !log.InProgress}
	s.mu.Unlock()
	return f, nil
}

// frame is game's step drawn as PNG, from the cache when drawn before
// among as many steps; final says the game is over, so the frame never
// changes (a game in play's boards say how many steps are known).
func (s *Site) frame(game int64, step int) (b []byte, final bool, err error) {
	f, err := s.framesOf(game)
	if err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	final = s.frames[game].done
	s.mu.Unlock()
	step = max(0, min(step, f.Steps()-1))
	k := frameKey{game, step, f.Steps()}
	s.mu.Lock()
	b, ok := s.pngs[k]
	s.mu.Unlock()
	if ok {
		return b, final, nil
	}
	img, err := renderBoard(f, step)
	if err != nil {
		return nil, false, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, false, fmt.Errorf("encode frame %d of game %d: %w", step, game, err)
	}
	s.mu.Lock()
	if len(s.pngs) >= maxCachedFrames {
		clear(s.pngs)
	}
	s.pngs[k] = buf.Bytes()
	s.mu.Unlock()
	return buf.Bytes(), final, nil
}

// cacheFrame tells browsers how long they may keep a frame: a finished
// game's for an hour, a game in play's not at all (its boards change as
// steps come in).
func cacheFrame(w http.ResponseWriter, final bool, scope string) {
	if final {
		w.Header().Set("Cache-Control", scope+", max-age=3600")
		return
	}
	w.Header().Set("Cache-Control", scope+", no-cache")
}

// expanded is a game's replay as "replay export" writes it.
func (s *Site) expanded(game int64) (*engine.Replay, error) {
	log, err := s.replayOf(game)
	if err != nil {
		return nil, err
	}
	g, err := games.Get(log.Game)
	if err != nil {
		return nil, err
	}
	rp, err := engine.Expand(g, log)
	if err != nil {
		return nil, fmt.Errorf("expand the replay of game %d: %w", game, err)
	}
	return rp, nil
}
