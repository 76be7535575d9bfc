package service

import (
	"strings"

	"ringside/engine"
)

// DisplayName is an entry's name as the front ends show it: a built-in
// bot as "greedy (built-in)" rather than its command
// "builtin:grip/greedy" (a repeated one as "random #2 (built-in)"), and
// an AI's revision as "alice r3", as it is stored. The desktop app and
// the class server's pages both show names through it, so a student sees
// the names the projector shows.
func DisplayName(name string) string {
	rest, ok := strings.CutPrefix(name, BuiltinPrefix)
	if !ok {
		return name
	}
	_, bot, _ := strings.Cut(rest, "/")
	bot, repeat, _ := strings.Cut(bot, "#")
	if repeat != "" {
		return bot + " #" + repeat + " (built-in)"
	}
	return bot + " (built-in)"
}

// ShownLog is log with its players by the names the front ends show
// ("hunter (built-in)"; a saved branch names its branched seat's bot), as
// the boards draw them; the replay itself is not changed.
func ShownLog(log *engine.Log) *engine.Log {
	shown := *log
	names := PlayerNames(log)
	shown.Players = make([]string, len(names))
	for i, p := range names {
		shown.Players[i] = DisplayName(p)
	}
	return &shown
}
