package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"ringside/app/service"
)

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Local().Format("15:04:05")
	},
	"inc":   func(i int) int { return i + 1 },
	"short": func(h string) string { return h[:min(12, len(h))] },
	// Points to two places at most (⅔ is 0.67), as a table on a phone
	// has room for.
	"pts": pointsText,
	// shown is an entry's name as the desktop app shows it.
	"shown": service.DisplayName,
}

// pointsText is points to two places at most.
func pointsText(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(f, 'f', 2, 64), "0"), ".")
}

// render writes a page with the plain-HTTP warning when it applies.
func (s *Site) render(w http.ResponseWriter, name string, data map[string]any) {
	data["Insecure"] = s.opt.Insecure
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		// The head is out already; say so in the page.
		fmt.Fprintf(w, "<p class=error>this page could not be drawn: %s</p>", template.HTMLEscapeString(err.Error()))
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Site) loginPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, "login.html", map[string]any{"Title": "Log in"})
}

// classPage lists the events the teacher published, with their standings.
func (s *Site) classPage(w http.ResponseWriter, r *http.Request) {
	evs, err := s.svc.PublishedEvents()
	if err != nil {
		s.fail(w, err)
		return
	}
	var views []*service.EventView
	var panels []eventPanel
	for _, e := range evs {
		v, err := s.svc.EventView(e.Event.ID)
		if err != nil {
			s.fail(w, err)
			return
		}
		views = append(views, v)
		panels = append(panels, s.panelOf(v))
	}
	s.render(w, "class.html", map[string]any{"Title": "The class", "Events": panels, "Refresh": anyRunning(views)})
}

// eventPage is one published event: standings, its games round by round
// (a bracket's rounds in order) and the games in play. An event the
// teacher did not publish does not exist here.
func (s *Site) eventPage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	evs, err := s.svc.PublishedEvents()
	if err != nil {
		s.fail(w, err)
		return
	}
	published := false
	for _, e := range evs {
		published = published || e.Event.ID == id
	}
	if !published {
		http.NotFound(w, r)
		return
	}
	v, err := s.svc.EventView(id)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.render(w, "event.html", map[string]any{"Title": v.Event.Name, "E": s.panelOf(v), "Rounds": rounds(v), "Refresh": anyRunning([]*service.EventView{v})})
}

// round is one round's games with the players' names.
type round struct {
	N     int
	Games []publicGame
}

type publicGame struct {
	Players []string
	Ranks   []int
	Status  service.GameStatus
}

func rounds(v *service.EventView) []round {
	var out []round
	for _, g := range v.Games {
		for len(out) <= g.Game.Round {
			out = append(out, round{N: len(out) + 1})
		}
		pg := publicGame{Status: g.Status, Players: entryNames(v.Event, g.Game.Seats)}
		if g.Result != nil {
			pg.Ranks = g.Result.Ranks
		}
		out[g.Game.Round].Games = append(out[g.Game.Round].Games, pg)
	}
	return out
}

// anyRunning says a page shows a game in play, so it refreshes itself.
func anyRunning(vs []*service.EventView) bool {
	for _, v := range vs {
		for _, g := range v.Games {
			if g.Status == service.GameRunning {
				return true
			}
		}
	}
	return false
}

// inPlay is a game in play of a published event as the class page shows
// it: its players and its newest step's board.
type inPlay struct {
	ID      int64
	Round   int
	Players []string
	Step    int // the newest step saved; -1: no step saved yet
	Turn    int // the game's turn at Step, as its board says it
}

// eventPanel is a published event on the class page.
type eventPanel struct {
	*service.EventView
	Bracket *bracketView
	InPlay  []inPlay
}

// panelOf is v with its bracket and its games in play. Each game in play
// is prepared once per step it reaches (framesOf), however many phones
// reload the page.
func (s *Site) panelOf(v *service.EventView) eventPanel {
	p := eventPanel{EventView: v, Bracket: bracketOf(v)}
	for _, g := range v.Games {
		if g.Status != service.GameRunning {
			continue
		}
		ip := inPlay{ID: g.ID, Round: g.Game.Round + 1, Players: entryNames(v.Event, g.Game.Seats), Step: -1}
		// A game with no step saved yet (the playing process saves every
		// LiveSaveEvery) has no board yet: the caption alone says it is
		// in play.
		if f, err := s.framesOf(g.ID); err == nil && f.Steps() > 0 {
			ip.Step = f.Steps() - 1
			ip.Turn = f.Turn(ip.Step)
		}
		p.InPlay = append(p.InPlay, ip)
	}
	return p
}

// entryNames are the display names of the entries in seats.
func entryNames(ev service.EventInfo, seats []int) []string {
	var out []string
	for _, e := range seats {
		if e >= 0 && e < len(ev.Entries) {
			out = append(out, service.DisplayName(ev.Entries[e].Name))
		}
	}
	return out
}

// publishedGame reports whether game is one of a published event's: only
// those games' boards are public (a student's comparisons are not).
func (s *Site) publishedGame(game int64) (bool, error) {
	evs, err := s.svc.PublishedEvents()
	if err != nil {
		return false, err
	}
	for _, e := range evs {
		v, err := s.svc.EventView(e.Event.ID)
		if err != nil {
			return false, err
		}
		for _, g := range v.Games {
			if g.ID == game {
				return true, nil
			}
		}
	}
	return false, nil
}

// publicFrame is a board of a published event's game: the class page's
// game in play. Boards only; no seat's input, output or stderr.
func (s *Site) publicFrame(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	name := r.PathValue("step")
	step, serr := strconv.Atoi(strings.TrimSuffix(name, ".png"))
	if err != nil || serr != nil || !strings.HasSuffix(name, ".png") {
		http.NotFound(w, r)
		return
	}
	ok, err := s.publishedGame(id)
	if err != nil {
		s.fail(w, err)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, final, err := s.frame(id, step)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	cacheFrame(w, final, "public")
	_, _ = w.Write(b)
}
