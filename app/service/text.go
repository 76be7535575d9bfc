package service

import (
	"strings"
	"time"

	"ringside/app/internal/visible"
)

// ShortHash is the first 12 characters of a content hash, as shown.
func ShortHash(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// FirstError picks the line of a build log most likely to say what is
// wrong.
func FirstError(log string) string {
	lines := strings.Split(log, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "$ ") {
			continue // the command itself, which may say -Werror
		}
		ll := strings.ToLower(l)
		if strings.Contains(ll, "error") || strings.Contains(ll, "not installed") || strings.Contains(ll, "cannot") {
			return strings.TrimSpace(l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return ""
}

// WhenText is a build time: the clock for today, the date otherwise.
func WhenText(t time.Time) string {
	now := time.Now()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// Visible makes a name shown on one line safe for a terminal and a
// label (see visible.Line): the front ends call it through the service.
func Visible(s string) string { return visible.Line(s) }

// VisibleText is Visible for text shown on several lines (visible.Text).
func VisibleText(s string) string { return visible.Text(s) }
