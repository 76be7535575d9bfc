package service

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
)

// AIOptions lists the game options an AI of game may carry for its own
// seat (Grip's coords, Battle 2048's protocol); nil for an unknown game.
func AIOptions(game string) []engine.Option {
	g, err := games.Get(game)
	if err != nil {
		return nil
	}
	return g.Info().PerSeatOptions()
}

// AIOptionsText names the options an AI of game may set, with their
// values: "coords=rc|xy", or "none" when it may set none.
func AIOptionsText(game string) string {
	var out []string
	for _, o := range AIOptions(game) {
		out = append(out, o.Key+"="+strings.Join(o.Choices, "|"))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// CheckAIOptions reads an AI's options, "KEY=VALUE" pairs separated by
// spaces or commas, for game, and returns them in the form they are
// stored ("coords=xy", sorted by key). Only options the game lets one seat
// set are allowed, with one of their values; anything else is refused
// with the options that are.
func CheckAIOptions(game, text string) (string, error) {
	opts, err := parseAIOptions(text)
	if err != nil {
		return "", err
	}
	known := AIOptions(game)
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if k == DeterministicOption {
			if v := opts[k]; v != "yes" && v != "no" {
				return "", Errorf(Invalid, "option %s=%q: want yes or no", k, v)
			}
			continue
		}
		i := slices.IndexFunc(known, func(o engine.Option) bool { return o.Key == k })
		if i < 0 {
			if len(known) == 0 {
				return "", Errorf(Invalid, "option %s: an AI of %s cannot carry game options (none of %s's options is per player)", k, game, game)
			}
			return "", Errorf(Invalid, "option %s: an AI of %s can only set %s", k, game, AIOptionsText(game))
		}
		if o := known[i]; len(o.Choices) > 0 && !slices.Contains(o.Choices, opts[k]) {
			return "", Errorf(Invalid, "option %s=%q: want one of %s", k, opts[k], strings.Join(o.Choices, ", "))
		}
	}
	return formatAIOptions(opts), nil
}

// SetAIOptions applies KEY=VALUE changes to an AI's stored options; KEY=
// (no value) removes KEY, so the event's setting applies again.
func SetAIOptions(game, old string, changes []string) (string, error) {
	opts, err := parseAIOptions(old)
	if err != nil {
		return "", err
	}
	for _, kv := range changes {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return "", Errorf(Invalid, "option %q: write KEY=VALUE, e.g. coords=xy (KEY= removes it)", kv)
		}
		if v == "" {
			delete(opts, k)
			continue
		}
		opts[k] = v
	}
	return CheckAIOptions(game, formatAIOptions(opts))
}

// parseAIOptions reads "k=v k2=v2" (or commas) without checking keys.
func parseAIOptions(text string) (engine.Options, error) {
	opts := engine.Options{}
	for _, kv := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return nil, Errorf(Invalid, "option %q: write KEY=VALUE, e.g. coords=xy", kv)
		}
		if _, dup := opts[k]; dup {
			return nil, Errorf(Invalid, "option %s given twice", k)
		}
		opts[k] = v
	}
	return opts, nil
}

func formatAIOptions(opts engine.Options) string {
	keys := slices.Sorted(maps.Keys(opts))
	for i, k := range keys {
		keys[i] = k + "=" + opts[k]
	}
	return strings.Join(keys, " ")
}

// DeterministicOption is the AI option by which a teacher says an AI
// decides from its input and the game's seed alone ("deterministic=yes"):
// its games then record its seat as deterministic (engine.Log), and a
// replay diff calls a difference there real rather than expected noise.
// It is an option of every game's AIs, and no game option: it never
// reaches the game.
const DeterministicOption = "deterministic"

// entryOptions are the stored options of an entry as game options; text
// that no longer reads (it was checked when saved) gives none.
func entryOptions(text string) engine.Options {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	opts, err := parseAIOptions(text)
	if err != nil {
		return nil
	}
	delete(opts, DeterministicOption)
	if len(opts) == 0 {
		return nil
	}
	return opts
}

// entryDeterministic tells whether an entry plays deterministically: a
// built-in bot (they decide from input and seed alone), or an AI marked
// deterministic=yes.
func entryDeterministic(command, options string) bool {
	if strings.HasPrefix(strings.TrimSpace(command), runner.BuiltinPrefix) {
		return true
	}
	opts, err := parseAIOptions(options)
	return err == nil && opts[DeterministicOption] == "yes"
}

// AIOptionsShown is an AI's options in words for a summary.
func AIOptionsShown(options string) string {
	if options == "" {
		return "none (the event's)"
	}
	return fmt.Sprintf("%s (this AI's seat only)", options)
}
