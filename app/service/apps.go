package service

import (
	"fmt"
	"strings"

	"ringside/storage"
)

// OpenApp records that a desktop app has the database open, so another
// app on it can say so (OtherAppsText). Close the session when the app
// closes the database.
func (s *Service) OpenApp() (*storage.AppSession, error) { return s.db.OpenAppSession() }

// OtherAppsText says which other desktop apps have the database open, in
// plain words, or "" when none does.
func (s *Service) OtherAppsText() (string, error) {
	others, err := s.db.OtherApps()
	if err != nil || len(others) == 0 {
		return "", err
	}
	var who []string
	for _, h := range others {
		who = append(who, fmt.Sprintf("process %d on %s, open since %s", h.PID, h.Host, h.Started.Format("15:04")))
	}
	what := "another Ringside window"
	if len(others) > 1 {
		what = fmt.Sprintf("%d other Ringside windows", len(others))
	}
	return fmt.Sprintf("This database is also open in %s (%s). Both show the same AIs and events; "+
		"an event plays in one window at a time, and the other shows who plays it.", what, strings.Join(who, "; ")), nil
}
