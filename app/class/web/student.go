package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"ringside/app/service"
)

// myGame is one of the student's games as their page lists it.
type myGame struct {
	ID      int64
	Event   string
	Round   int
	Seat    int
	Players []string
	Status  service.GameStatus
	Place   int // 0 until finished
	Of      int
	Reason  string
	Problem service.Problems
}

// revisionsOf are the IDs of the student's AI's revisions: an entry is the
// student's when it plays one of them.
func (s *Site) revisionsOf(ai int64) (service.AIView, map[int64]bool, error) {
	v, err := s.svc.AIView(ai)
	if err != nil {
		return v, nil, err
	}
	ids := map[int64]bool{}
	for _, r := range v.Revisions {
		ids[r.ID] = true
	}
	return v, ids, nil
}

// gamesOf lists every game the student's AI plays in, in every event.
func (s *Site) gamesOf(ai int64) ([]myGame, error) {
	_, mine, err := s.revisionsOf(ai)
	if err != nil {
		return nil, err
	}
	evs, err := s.svc.Events()
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	var out []myGame
	for _, listed := range evs {
		// The list carries no entries: each event is read in full.
		ev, err := s.svc.EventInfo(listed.ID)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", listed.ID, err)
		}
		entries := map[int]bool{}
		for _, e := range ev.Entries {
			if e.RevisionID != 0 && mine[e.RevisionID] {
				entries[e.Index] = true
			}
		}
		if len(entries) == 0 {
			continue
		}
		v, err := s.svc.EventView(ev.ID)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", ev.ID, err)
		}
		for _, g := range v.Games {
			for seat, e := range g.Game.Seats {
				if entries[e] {
					out = append(out, gameOf(ev, g, seat))
				}
			}
		}
	}
	return out, nil
}

func gameOf(ev service.EventInfo, g service.GameView, seat int) myGame {
	m := myGame{ID: g.ID, Event: ev.Name, Round: g.Game.Round + 1, Seat: seat, Status: g.Status, Of: len(g.Game.Seats)}
	m.Players = entryNames(ev, g.Game.Seats)
	if g.Result != nil && seat < len(g.Result.Ranks) {
		m.Place, m.Reason = g.Result.Ranks[seat], g.Result.Reason
	}
	if seat < len(g.Problems) {
		m.Problem = g.Problems[seat]
	}
	return m
}

// ownGame is the student's game id with their seat; any game that is not
// theirs is "not found", the same answer as a game that does not exist,
// so a student learns nothing of other students' games.
func (s *Site) ownGame(r *http.Request) (myGame, bool) {
	st, _ := StudentFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return myGame{}, false
	}
	gs, err := s.gamesOf(st.AIID)
	if err != nil {
		return myGame{}, false
	}
	for _, g := range gs {
		if g.ID == id {
			return g, true
		}
	}
	return myGame{}, false
}

func (s *Site) mePage(w http.ResponseWriter, r *http.Request) {
	st, _ := StudentFrom(r.Context())
	ai, _, err := s.revisionsOf(st.AIID)
	if err != nil {
		s.fail(w, err)
		return
	}
	hs, err := s.svc.HandIns(st.AIID)
	if err != nil {
		s.fail(w, err)
		return
	}
	gs, err := s.gamesOf(st.AIID)
	if err != nil {
		s.fail(w, err)
		return
	}
	revs := make([]service.RevisionInfo, len(ai.Revisions))
	var numbers []int // successful builds, newest first: what a comparison may pit
	for i, rv := range ai.Revisions {
		revs[len(revs)-1-i] = rv // newest first
	}
	for _, rv := range revs {
		if rv.Number > 0 {
			numbers = append(numbers, rv.Number)
		}
	}
	// While a hand-in waits or builds the page reloads itself, so the
	// student sees the verdict without pressing reload; it stops when
	// every hand-in is done.
	s.render(w, "me.html", map[string]any{"Title": st.Name, "Student": st, "HandIns": hs, "Revisions": revs, "Built": numbers, "Games": gs,
		"Refresh": pending(hs)})
}

// pending reports whether a hand-in is still queued or building.
func pending(hs []service.HandInView) bool {
	for _, h := range hs {
		if h.State == service.HandInQueued || h.State == service.HandInBuilding {
			return true
		}
	}
	return false
}

func (s *Site) gamePage(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownGame(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := s.framesOf(g.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.render(w, "game.html", map[string]any{"Title": fmt.Sprintf("Game %d", g.ID), "Game": g, "Steps": f.Steps(), "Markers": f.Markers(),
		"Playing": g.Status == service.GameRunning})
}

// stepsJSON is how far the student's game is: the viewer polls it to
// follow a game in play. The count comes from the prepared replay, so a
// class of followers costs one re-simulation per step, not per poll.
func (s *Site) stepsJSON(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownGame(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := s.framesOf(g.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	playing := s.svc.GamePlaying(g.ID)
	if !playing {
		// It may have ended after the replay was read: the count is then
		// the finished game's.
		if f, err = s.framesOf(g.ID); err != nil {
			s.fail(w, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "private, no-store")
	writeJSON(w, map[string]any{"steps": f.Steps(), "playing": playing})
}

// seatStep is the student's own seat in one step: what their program read,
// answered and printed on stderr. Other seats' lines never leave.
type seatStep struct {
	Turn   int     `json:"turn"`
	Asked  bool    `json:"asked"`
	Input  string  `json:"input"`
	Reply  *string `json:"reply"`
	Status string  `json:"status"`
	Stderr string  `json:"stderr"`
	Note   string  `json:"note,omitempty"`
}

func (s *Site) seatJSON(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownGame(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	rp, err := s.expanded(g.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := make([]seatStep, len(rp.Steps))
	for i, st := range rp.Steps {
		out[i].Turn = st.Turn
		for _, seat := range st.Seats {
			if seat.Seat == g.Seat {
				out[i] = seatStep{Turn: st.Turn, Asked: !seat.Unasked, Input: seat.Input, Reply: seat.Reply,
					Status: seat.Status, Stderr: seat.Stderr, Note: seat.Note}
			}
		}
		for _, n := range st.Noise {
			if n.Seat == g.Seat {
				out[i].Stderr += n.Line + "\n"
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "private, no-store")
	writeJSON(w, map[string]any{"seat": g.Seat, "steps": out})
}

func (s *Site) framePNG(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownGame(r)
	name := r.PathValue("step")
	step, err := strconv.Atoi(strings.TrimSuffix(name, ".png"))
	if !ok || err != nil || !strings.HasSuffix(name, ".png") {
		http.NotFound(w, r)
		return
	}
	b, final, err := s.frame(g.ID, step)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	cacheFrame(w, final, "private")
	_, _ = w.Write(b)
}

func (s *Site) fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, service.ErrNotFound) {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}
