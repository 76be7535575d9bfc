package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"ringside/app/service"
	"ringside/engine/event"
)

// compare starts "did my change help?": a comparison of two of the
// student's own revisions, played on the teacher's machine with the
// teacher's limits (the event's defaults), one at a time per student.
func (s *Site) compare(w http.ResponseWriter, r *http.Request) {
	st, _ := StudentFrom(r.Context())
	ai, _, err := s.revisionsOf(st.AIID)
	if err != nil {
		s.fail(w, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	newer, err1 := strconv.Atoi(r.PostFormValue("new"))
	older, err2 := strconv.Atoi(r.PostFormValue("old"))
	if err1 != nil || err2 != nil || newer == older || !built(ai, newer) || !built(ai, older) {
		http.Error(w, "choose two different revisions of yours that built", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if s.comparing == nil {
		s.comparing = map[int64]bool{}
	}
	busy := s.comparing[st.AIID]
	s.comparing[st.AIID] = true
	s.mu.Unlock()
	if busy {
		http.Error(w, "a comparison of yours is still playing: wait for its verdict", http.StatusTooManyRequests)
		return
	}
	done := func() {
		s.mu.Lock()
		delete(s.comparing, st.AIID)
		s.mu.Unlock()
	}
	name := ai.AI.Name
	ev, _, err := s.svc.CreateEvent(service.EventSpec{Name: fmt.Sprintf("%s: r%d against r%d", name, newer, older),
		Game: ai.AI.Game, Format: event.SPRT, Entries: []string{fmt.Sprintf("%s@r%d", name, newer), fmt.Sprintf("%s@r%d", name, older)}})
	if err != nil {
		done()
		http.Error(w, "the comparison could not be made: "+err.Error(), http.StatusBadRequest)
		return
	}
	job, err := s.svc.EventJob(ev.ID, 0)
	if err != nil {
		done()
		s.fail(w, err)
		return
	}
	ctx := s.opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s.games.Add(1)
	go func() {
		defer s.games.Done()
		defer done()
		// The verdict is read from the stored games; a failure shows as
		// the event's state on the comparison's page.
		_ = job.Start(ctx)
	}()
	http.Redirect(w, r, fmt.Sprintf("/me/compare/%d", ev.ID), http.StatusSeeOther)
}

// built reports whether number is one of the AI's successful builds.
func built(ai service.AIView, number int) bool {
	for _, r := range ai.Revisions {
		if r.Number == number && r.Number > 0 {
			return true
		}
	}
	return false
}

// comparePage shows a comparison's progress and verdict. It is the
// student's only when every entry is one of their revisions; any other
// event is "not found".
func (s *Site) comparePage(w http.ResponseWriter, r *http.Request) {
	st, _ := StudentFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	_, mine, err := s.revisionsOf(st.AIID)
	if err != nil {
		s.fail(w, err)
		return
	}
	info, err := s.svc.EventInfo(id)
	if err != nil || info.Config.Format != event.SPRT || !allMine(info, mine) {
		http.NotFound(w, r)
		return
	}
	cv, err := s.svc.CompareView(id)
	if err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.svc.EventView(id)
	if err != nil {
		s.fail(w, err)
		return
	}
	done := 0
	for _, g := range v.Games {
		if g.Status == service.GameDone {
			done++
		}
	}
	over := info.Status == service.EventFinished || info.Status == service.EventCancelled
	s.render(w, "compare.html", map[string]any{"Title": info.Name, "C": cv, "Done": done, "All": len(v.Games), "Over": over, "Refresh": !over})
}

func allMine(info service.EventInfo, mine map[int64]bool) bool {
	n := 0
	for _, e := range info.Entries {
		if e.Filler {
			continue
		}
		if !mine[e.RevisionID] {
			return false
		}
		n++
	}
	return n > 0
}
