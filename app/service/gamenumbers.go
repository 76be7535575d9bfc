package service

import (
	"fmt"

	"ringside/engine/event"
)

// Games are numbered within their event for people: a class's league
// starts at game 1 whatever was played before in the database. The
// database's id (the match id) stays what commands take ("ringside
// replay export ID"), so where both matter both are said.

// GameNumber is game g's number within its event, from 1.
func GameNumber(g event.Game) int { return g.Index + 1 }

// GameLabel names a game for a person and for the commands that take its
// id: "game 3 (id 27)".
func GameLabel(g event.Game, id int64) string {
	return fmt.Sprintf("game %d (id %d)", GameNumber(g), id)
}

// GameLabelOf is GameLabel of stored game id (match id), or "game id"
// when it cannot be read.
func (s *Service) GameLabelOf(id int64) string {
	m, err := s.db.Match(id)
	if err != nil {
		return fmt.Sprintf("game id %d", id)
	}
	label := GameLabel(m.Game, id)
	if ev, err := s.db.Event(m.EventID); err == nil {
		label += " of " + ev.Name
	}
	return label
}
