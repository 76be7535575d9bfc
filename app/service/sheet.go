package service

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"ringside/engine/games"
)

// The results sheet: one HTML file for pupils and parents, printable and
// readable without a network (its style and charts are inline), with the
// standings in places, each student's games and a chart of each
// student's score as the games went.

// sheetEntry is one ranked entry's part of the sheet.
type sheetEntry struct {
	Place, Name, Results, Score, Points, Note string
	Games                                     int
	Chart                                     template.HTML // an inline SVG
	Played                                    []sheetGame
}

// sheetGame is one game as a student's list shows it.
type sheetGame struct {
	Number, Round int
	Against       string
	Place         string
	How           string
}

// sheetData is what the template fills in.
type sheetData struct {
	Title, Subtitle, ResultsHead, Order string
	Rows                                []sheetEntry
}

// WriteSheet writes event id's results sheet (see sheetTemplate).
func (s *Service) WriteSheet(w io.Writer, id int64) error {
	v, err := s.EventView(id)
	if err != nil {
		return err
	}
	return WriteSheet(w, v)
}

// WriteSheet writes v's results sheet: a self-contained HTML page.
func WriteSheet(w io.Writer, v *EventView) error {
	if v.TableErr != nil {
		return wrap(Failed, v.TableErr, "the results sheet of event %d", v.Event.ID)
	}
	t := v.Table
	d := sheetData{Title: v.Event.Name, ResultsHead: "Won · drawn · lost", Order: strings.TrimSpace(OrderNote(t))}
	if t.Seats > 2 {
		d.ResultsHead = "Places " + PlacesHeader(t.Seats)
	}
	done := 0
	for _, g := range v.Games {
		if g.Result != nil {
			done++
		}
	}
	state := "final standings"
	if !v.Event.Over() {
		state = fmt.Sprintf("standings so far (%d of %d games played)", done, len(v.Games))
	}
	d.Subtitle = fmt.Sprintf("%s · %s · %s", gameName(v.Event.Game), v.Event.Config.Format, state)
	names := make(map[int]string, len(v.Event.Entries))
	for _, e := range v.Event.Entries {
		names[e.Index] = e.Name
	}
	for i, r := range t.Rows {
		e := sheetEntry{Place: PlaceText(t.Rows, i), Name: r.Name, Games: r.Games, Points: Points(r.Points),
			Note: SeparationText(t.Rows, i, v.Event.Over())}
		e.Results = fmt.Sprintf("%d · %d · %d", r.Wins, r.Draws, r.Losses)
		if r.Places != nil {
			e.Results = PlacesText(r.Places, " · ")
		}
		e.Score = "–"
		if r.Games > 0 {
			e.Score = fmt.Sprintf("%.0f %%", 100*r.Score)
		}
		var scores []float64
		e.Played, scores = studentGames(v.Games, r.Entry, names)
		e.Chart = progressChart(scores)
		d.Rows = append(d.Rows, e)
	}
	return sheetTemplate().Execute(w, d)
}

// gameName is a game's name for people ("Grip"), its id when unknown.
func gameName(id string) string {
	if g, err := games.Get(id); err == nil {
		return g.Info().Name
	}
	return id
}

// studentGames lists entry's finished games in their order, and its
// running score (points per game, 0..1) after each.
func studentGames(games []GameView, entry int, names map[int]string) ([]sheetGame, []float64) {
	var out []sheetGame
	var running []float64
	total := 0.0
	for _, g := range games {
		if g.Result == nil || len(g.Result.Ranks) != len(g.Game.Seats) {
			continue
		}
		seat := -1
		var others []string
		for s, e := range g.Game.Seats {
			if e == entry && seat < 0 {
				seat = s
			} else {
				others = append(others, names[e])
			}
		}
		if seat < 0 {
			continue
		}
		ranks := g.Result.Ranks
		better, level := 0, 0
		for s, r := range ranks {
			switch {
			case s == seat:
			case r < ranks[seat]:
				better++
			case r == ranks[seat]:
				level++
			}
		}
		n := len(ranks)
		// Place p of n is worth (n − p)/(n − 1), seats sharing a rank
		// averaging the places they cover, as in the standings.
		total += (float64(n-1-better-level) + 0.5*float64(level)) / float64(n-1)
		running = append(running, total/float64(len(running)+1))
		place := Ordinal(better + 1)
		if level > 0 {
			place = "shared " + place
		}
		out = append(out, sheetGame{Number: GameNumber(g.Game), Round: g.Game.Round + 1,
			Against: strings.Join(others, ", "), Place: place, How: ReasonText(g.Result.Reason)})
	}
	return out, running
}

// progressChart draws a student's running score after each game as an
// inline SVG with its axes labelled: score 0–100 % up, games along.
func progressChart(scores []float64) template.HTML {
	const w, h, left, bottom, top, right = 360, 140, 40, 24, 10, 10
	pw, ph := float64(w-left-right), float64(h-top-bottom)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="score after each game">`, w, h, w, h)
	for _, p := range []int{0, 50, 100} {
		y := float64(top) + ph*(1-float64(p)/100)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" class="grid"/><text x="%d" y="%.1f" class="axis" text-anchor="end">%d %%</text>`,
			left, y, w-right, y, left-4, y+4, p)
	}
	n := len(scores)
	x := func(i int) float64 {
		if n <= 1 {
			return float64(left) + pw/2
		}
		return float64(left) + pw*float64(i)/float64(n-1)
	}
	if n > 0 {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="axis" text-anchor="middle">game 1</text>`, x(0), h-6)
		if n > 1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="axis" text-anchor="end">game %d</text>`, x(n-1), h-6, n)
		}
		pts := make([]string, n)
		for i, s := range scores {
			pts[i] = fmt.Sprintf("%.1f,%.1f", x(i), float64(top)+ph*(1-s))
		}
		fmt.Fprintf(&b, `<polyline points="%s" class="line"/>`, strings.Join(pts, " "))
		for _, p := range pts {
			xy := strings.Split(p, ",")
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" class="dot"/>`, xy[0], xy[1])
		}
	} else {
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="axis" text-anchor="middle">no games yet</text>`, w/2, h/2)
	}
	b.WriteString(`</svg>`)
	// Built here from numbers only: nothing a person typed is in it.
	return template.HTML(b.String())
}

// sheetTemplate is the page. Its style is inline; printed, a student's
// heading stays with its chart and a row is never split across pages.
// It is parsed at its first use, not when a process starts: every
// process of the ringside binary, each bot's launcher included, would
// pay for it.
var sheetTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("sheet").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}} · results</title>
<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #222; margin: 2em; max-width: 60em; }
h1 { margin-bottom: 0; }
.sub { color: #555; margin-top: .2em; }
table { border-collapse: collapse; margin: .8em 0; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: .3em .6em; text-align: left; }
th { background: #eef2f7; }
td.n, th.n { text-align: right; }
.note { color: #555; font-size: .9em; }
section { margin-top: 1.5em; }
.head { page-break-inside: avoid; break-inside: avoid; }
tr { page-break-inside: avoid; break-inside: avoid; }
.grid { stroke: #ddd; stroke-width: 1; }
.axis { font-size: 11px; fill: #555; }
.line { fill: none; stroke: #1f6fb2; stroke-width: 2; }
.dot { fill: #1f6fb2; }
@media print { body { margin: 0; } h2 { page-break-after: avoid; } }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="sub">{{.Subtitle}}</p>
<table>
<tr><th class="n">Place</th><th>Name</th><th class="n">Games</th><th class="n">Points</th><th class="n">{{.ResultsHead}}</th><th class="n">Score</th><th></th></tr>
{{range .Rows}}<tr><td class="n">{{.Place}}</td><td>{{.Name}}</td><td class="n">{{.Games}}</td><td class="n">{{.Points}}</td><td class="n">{{.Results}}</td><td class="n">{{.Score}}</td><td class="note">{{.Note}}</td></tr>
{{end}}</table>
<p class="note">{{.Order}}</p>
{{range .Rows}}<section>
<div class="head">
<h2>{{.Place}}. {{.Name}}</h2>
<p class="note">Score after each game (the share of the points won so far):</p>
{{.Chart}}
</div>
<table>
<tr><th class="n">Game</th><th class="n">Round</th><th>Against</th><th>Place</th><th>How it ended</th></tr>
{{range .Played}}<tr><td class="n">{{.Number}}</td><td class="n">{{.Round}}</td><td>{{.Against}}</td><td>{{.Place}}</td><td>{{.How}}</td></tr>
{{else}}<tr><td colspan="5">no games played yet</td></tr>
{{end}}</table>
</section>
{{end}}</body>
</html>
`))
})
