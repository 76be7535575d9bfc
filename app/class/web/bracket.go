package web

import (
	"fmt"
	"slices"
	"strconv"

	"ringside/app/service"
	"ringside/engine/event"
)

// bracketView is a knockout drawn as HTML: its rounds side by side as
// columns, first round left, each match a box listing its entries by seed
// with the ones who went through marked. It is drawn from the same tree
// (event.Tree) the desktop app's bracket chart draws.
type bracketView struct {
	Rounds   []bracketColumn
	Champion string // "" until the final is decided
}

// bracketColumn is one round.
type bracketColumn struct {
	Title string
	Boxes []bracketBox
}

// bracketBox is one match, heat or a multi-seat round's byes.
type bracketBox struct {
	Rows   []bracketRow
	Footer string // "2 of 3 games", "bye", "decided by tiebreak"…
	Live   bool   // one of its games is in play
}

// bracketRow is one slot of a match.
type bracketRow struct {
	Seed   string // "1" for the best seed; "" for an empty slot
	Name   string
	Points string // "" until a game of the match is played
	// State is the row's class: "won" (went through), "out", "bye" (the
	// missing opponent of a first-round bye), "tbd" (waits on an earlier
	// match) or "" (still playing).
	State string
}

// bracketOf is v's bracket, or nil for an event that is no knockout or
// whose tree cannot be worked out (its standings then say why).
func bracketOf(v *service.EventView) *bracketView {
	if v.Event.Config.Format != event.Bracket {
		return nil
	}
	tree, err := event.Tree(v.Event.Config, v.Outcomes)
	if err != nil {
		return nil
	}
	name := func(e int) string {
		if e >= 0 && e < len(v.Event.Entries) {
			return service.DisplayName(v.Event.Entries[e].Name)
		}
		return "?"
	}
	running := map[int]bool{} // schedule index → in play
	for _, g := range v.Games {
		running[g.Game.Index] = g.Status == service.GameRunning
	}
	b := &bracketView{}
	for r, round := range tree.Rounds {
		col := bracketColumn{Title: roundTitle(r, len(tree.Rounds))}
		if len(round.Byes) > 0 {
			box := bracketBox{Footer: fmt.Sprintf("byes: through to round %d", r+2)}
			for _, e := range round.Byes {
				box.Rows = append(box.Rows, bracketRow{Seed: strconv.Itoa(e + 1), Name: name(e), State: "won"})
			}
			col.Boxes = append(col.Boxes, box)
		}
		for _, m := range round.Matches {
			col.Boxes = append(col.Boxes, matchBox(m, name, running))
		}
		b.Rounds = append(b.Rounds, col)
	}
	if tree.Champion >= 0 {
		b.Champion = name(tree.Champion)
	}
	return b
}

// matchBox is one match of the tree.
func matchBox(m event.Match, name func(int) string, running map[int]bool) bracketBox {
	box := bracketBox{Footer: matchFooter(m)}
	for _, g := range m.Games {
		box.Live = box.Live || running[g]
	}
	for k, e := range m.Entries {
		row := bracketRow{}
		switch {
		case e < 0 && m.Bye:
			row.Name, row.State = "bye", "bye"
		case e < 0:
			row.Name, row.State = "to be decided", "tbd"
		default:
			row.Seed, row.Name = strconv.Itoa(e+1), name(e)
			if m.Decided {
				row.State = "out"
				if slices.Contains(m.Advance, e) {
					row.State = "won"
				}
			}
		}
		if m.Played > 0 && k < len(m.Points) && e >= 0 {
			row.Points = pointsText(m.Points[k])
		}
		box.Rows = append(box.Rows, row)
	}
	return box
}

// matchFooter says how far a match is, or how it was decided when that
// was not by points.
func matchFooter(m event.Match) string {
	switch {
	case m.Bye:
		return "bye: through without playing"
	case m.Decided && m.Rule == "tiebreak":
		return "decided by a tiebreak"
	case m.Decided && m.Rule == "seed":
		return "level: the higher seed goes through"
	case m.Decided:
		return ""
	case len(m.Games) > 0:
		return fmt.Sprintf("%d of %d games played", m.Played, len(m.Games))
	}
	return ""
}

// roundTitle names round r of a knockout of rounds rounds, as the
// projector does.
func roundTitle(r, rounds int) string {
	switch rounds - 1 - r {
	case 0:
		return "Final"
	case 1:
		return "Semi-finals"
	case 2:
		return "Quarter-finals"
	}
	return fmt.Sprintf("Round %d", r+1)
}
