package event

import (
	"fmt"
	"slices"
	"strings"

	"ringside/engine/rating"
)

// Validate reports, in words meant for the organiser, why cfg cannot make
// an event: an unknown format, too few entries, more seats than entrants
// (add filler bots), a games count that makes no sense for the format, or
// unusable SPRT parameters.
func Validate(cfg Config) error {
	if !slices.Contains(Formats, cfg.Format) {
		names := make([]string, len(Formats))
		for i, f := range Formats {
			names[i] = string(f)
		}
		return fmt.Errorf("unknown format %q (formats: %s)", cfg.Format, strings.Join(names, ", "))
	}
	f := cfg.Format
	n, s := len(cfg.Entries), cfg.Seats
	if s < 2 {
		return fmt.Errorf("%s: seats is %d; every game has at least 2 seats", f, s)
	}
	if n < 2 {
		return fmt.Errorf("%s: %d entries; an event needs at least 2", f, n)
	}
	ranked := 0
	for i, e := range cfg.Entries {
		if e.Candidate && e.Filler {
			return fmt.Errorf("%s: entry %d (%s) is marked both candidate and filler; a filler is never ranked, so it cannot be under test", f, i, e.Name)
		}
		if !e.Filler {
			ranked++
		}
	}
	if ranked == 0 {
		return fmt.Errorf("%s: every entry is a filler bot; add at least one entry to rank", f)
	}
	if cfg.Games < 1 {
		return fmt.Errorf("%s: games is %d; %s must be at least 1", f, cfg.Games, gamesMeaning(f))
	}
	if n < s && (f == League || f == Bracket) {
		return fmt.Errorf("%s: %d entries for %d-seat games; add %d filler bot%s (entries marked filler: they take seats but are not ranked)",
			f, n, s, s-n, plural(s-n))
	}
	var err error
	switch f {
	case League:
		err = validateLeague(cfg)
	case Gauntlet:
		err = validateGauntlet(cfg)
	case Bracket:
		err = validateBracket(cfg)
	case Swiss:
		err = validateSwiss(cfg)
	case SPRT:
		err = validateSPRT(cfg)
	}
	return err
}

// gamesMeaning says what Config.Games counts in a format.
func gamesMeaning(f Format) string {
	switch f {
	case Bracket:
		return "the best-of length of a match (or seeds per heat)"
	case Swiss:
		return "the number of rounds"
	case SPRT:
		return "the most games to play"
	}
	return "the number of seeds per pairing or group"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func tooBig(f Format, games int, what string) error {
	if games > MaxGames {
		return fmt.Errorf("%s: %s makes %d games, more than the %d an event may hold; lower games or use a Swiss event", f, what, games, MaxGames)
	}
	return nil
}

func validateLeague(cfg Config) error {
	if cfg.Orders != OrdersBalanced && cfg.Orders != OrdersRotations {
		return fmt.Errorf("league: unknown seat orders %q; leave it out for balanced orders, or write %q", cfg.Orders, OrdersRotations)
	}
	if cfg.Seats > 2 && cfg.Orders == OrdersBalanced {
		if _, ok := balancedSize(cfg); !ok {
			return fmt.Errorf("league: found no balanced seat order design for %d entries in %d-seat games; add or remove an entry (a filler bot), or use a Swiss or gauntlet event", len(cfg.Entries), cfg.Seats)
		}
	}
	return tooBig(League, leagueSize(cfg), fmt.Sprintf("%d entries with %d seeds each", len(cfg.Entries), cfg.Games))
}

// leagueSize returns the number of games of a league.
func leagueSize(cfg Config) int {
	n, s := len(cfg.Entries), cfg.Seats
	if s == 2 {
		return n * (n - 1) * cfg.Games // C(n,2) pairings · 2 games · seeds
	}
	if cfg.Orders != OrdersRotations {
		size, _ := balancedSize(cfg)
		return size
	}
	if groups := binomial(n, s, MaxFullGroups); groups <= MaxFullGroups {
		return groups * s * cfg.Games
	}
	return n * s * cfg.Games
}

// gauntletSize returns the number of games of a gauntlet.
func gauntletSize(cfg Config) int {
	cands, field := split(cfg)
	s := cfg.Seats
	per := 2 * len(field)
	if s > 2 {
		groups := binomial(len(field), s-1, MaxFullGroups)
		if groups > MaxFullGroups {
			groups = len(field)
		}
		per = groups * s
	}
	return len(cands) * per * cfg.Games
}

func validateGauntlet(cfg Config) error {
	cands, field := split(cfg)
	s := cfg.Seats
	if len(cands) == 0 {
		return fmt.Errorf("gauntlet: no entry is marked candidate; mark the entries under test")
	}
	if len(field) < s-1 {
		need := s - 1 - len(field)
		return fmt.Errorf("gauntlet: a %d-seat game needs %d field entries (not candidates) besides its candidate, and there are %d; add %d filler bot%s",
			s, s-1, len(field), need, plural(need))
	}
	return tooBig(Gauntlet, gauntletSize(cfg), fmt.Sprintf("%d candidates against %d field entries with %d seeds", len(cands), len(field), cfg.Games))
}

func validateBracket(cfg Config) error {
	n, s := len(cfg.Entries), cfg.Seats
	if s == 2 {
		if cfg.Games%2 == 0 {
			return fmt.Errorf("bracket: games is %d; a match is best of an odd number (1, 3, 5…), played as (games+1)/2 seat-swapped pairs", cfg.Games)
		}
		return tooBig(Bracket, (n-1)*(cfg.Games+1+2*MaxTiebreakPairs), fmt.Sprintf("best of %d", cfg.Games))
	}
	if s%2 == 1 {
		return fmt.Errorf("bracket: heats of %d seats cannot send exactly half through; use a league or gauntlet for odd seat counts", s)
	}
	if half := s / 2; n%half != 0 {
		need := half - n%half
		return fmt.Errorf("bracket: %d entries cannot fill %d-seat heats where the top %d go through; add %d filler bot%s",
			n, s, half, need, plural(need))
	}
	return tooBig(Bracket, n*s*cfg.Games, fmt.Sprintf("%d seeds per heat", cfg.Games))
}

func validateSwiss(cfg Config) error {
	n := len(cfg.Entries)
	if cfg.Seats != 2 {
		return fmt.Errorf("swiss: pairs entrants by score, so it needs 2-seat games; run a league or a bracket for %d-seat games", cfg.Seats)
	}
	most := n - 1 + n%2
	if cfg.Games > most {
		return fmt.Errorf("swiss: %d rounds for %d entries; at most %d rounds can avoid rematches (use a league for a full round robin)", cfg.Games, n, most)
	}
	return nil
}

func validateSPRT(cfg Config) error {
	if cfg.Seats < 2 {
		return fmt.Errorf("sprt: compares two entries, so games need at least 2 seats, not %d", cfg.Seats)
	}
	if len(cfg.Entries) != cfg.Seats {
		return fmt.Errorf("sprt: needs the candidate, the base and %d filler(s) for %d-seat games: %d entries, not %d",
			cfg.Seats-2, cfg.Seats, cfg.Seats, len(cfg.Entries))
	}
	if cfg.Entries[0].Filler || cfg.Entries[1].Filler {
		return fmt.Errorf("sprt: filler bots are not ranked, so they cannot be compared")
	}
	for _, e := range cfg.Entries[2:] {
		if !e.Filler {
			return fmt.Errorf("sprt: compares exactly 2 entries (the candidate first, then the base); %s would be a third: make it a filler", e.Name)
		}
	}
	if cfg.Entries[1].Candidate && !cfg.Entries[0].Candidate {
		return fmt.Errorf("sprt: the candidate (%s) must be the first entry", cfg.Entries[1].Name)
	}
	size := len(CompareSeatings(cfg.Seats))
	if cfg.Seats == 2 && (cfg.Games < 2 || cfg.Games%2 != 0) {
		return fmt.Errorf("sprt: games is %d; the cap must be an even number of at least 2 (games are played in seat-swapped pairs), e.g. %d",
			cfg.Games, max(2, cfg.Games+cfg.Games%2))
	}
	if cfg.Games < size {
		return fmt.Errorf("sprt: games is %d; %d-seat games are played in groups of %d on one seed, so the cap must be at least %d",
			cfg.Games, cfg.Seats, size, size)
	}
	if err := tooBig(SPRT, cfg.Games, "the game cap"); err != nil {
		return err
	}
	switch cfg.Test {
	case TestClassroom:
		return ClassroomTest(cfg).Check()
	case "", TestElo:
		return SPRTTest(cfg).Check()
	}
	return fmt.Errorf("sprt: unknown test %q (classroom or sprt)", cfg.Test)
}

// ClassroomTest returns the classroom test an SPRT event runs when its
// Test is TestClassroom; zero values take the defaults.
func ClassroomTest(cfg Config) rating.Classroom {
	t := rating.Classroom{P1: cfg.P1, Alpha: cfg.Alpha, Beta: cfg.Beta}
	if t.P1 == 0 {
		t.P1 = rating.DefaultClassroomP1
	}
	if t.Alpha == 0 {
		t.Alpha = DefaultAlpha
	}
	if t.Beta == 0 {
		t.Beta = DefaultBeta
	}
	return t
}

// SPRTTest returns the test an SPRT event runs: Elo0 and Elo1 are
// normalized Elo (fastchess's "normalized" model), and a zero Alpha or Beta
// means DefaultAlpha or DefaultBeta.
func SPRTTest(cfg Config) rating.SPRT {
	t := rating.SPRT{Elo0: cfg.Elo0, Elo1: cfg.Elo1, Alpha: cfg.Alpha, Beta: cfg.Beta}
	if t.Alpha == 0 {
		t.Alpha = DefaultAlpha
	}
	if t.Beta == 0 {
		t.Beta = DefaultBeta
	}
	return t
}
