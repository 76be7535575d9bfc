package event

// The SPRT's defaults: the hypotheses in normalized Elo (H0: the candidate
// is at most Elo0 stronger; H1: at least Elo1), the error rates (used when
// Config.Alpha or Config.Beta is 0), and the most games to play.
const (
	DefaultElo0      = 0.0
	DefaultElo1      = 5.0
	DefaultAlpha     = 0.05
	DefaultBeta      = 0.05
	DefaultSPRTGames = 2000
	// DefaultClassroomGames is the most games of a classroom test: an
	// obvious difference decides in a few dozen, two equal bots in about
	// a hundred, so the cap only stops a long run of drawn groups.
	DefaultClassroomGames = 400
)

// DefaultTimeScale is the multiplier of every time limit when none is
// given: the games' own limits.
const DefaultTimeScale = 1.0

// TimeScale is the multiplier of time limits that scale asks for: scale,
// or DefaultTimeScale when it is unset (0; below 0 is no multiplier
// either). This is the one place "0 means 1" is decided: the service,
// storage and the runner all call it.
func TimeScale(scale float64) float64 {
	if scale <= 0 {
		return DefaultTimeScale
	}
	return scale
}

// DefaultGames is the Games of a format when none is given, for an event
// of entries entries (fillers included): two seeds per pairing or group in
// a league or gauntlet, best of 3 in a bracket, enough Swiss rounds to
// leave one undefeated entry plus one, and DefaultSPRTGames for an SPRT.
func DefaultGames(f Format, entries int) int {
	switch f {
	case Bracket:
		return 3
	case Swiss:
		r := 1
		for 1<<r < entries {
			r++
		}
		return r + 1
	case SPRT:
		return DefaultSPRTGames
	}
	return 2
}

// FillersNeeded is how many filler bots cfg needs besides its entries for
// its games to be full: a league or bracket needs a game's seats; a
// bracket of heats larger than two needs a multiple of the half of a heat
// that goes through; a gauntlet needs a game's seats less one in its field
// (the entries that are not candidates).
func FillersNeeded(cfg Config) int {
	n, s := len(cfg.Entries), cfg.Seats
	switch cfg.Format {
	case League:
		return max(0, s-n)
	case Bracket:
		need := max(0, s-n)
		if half := s / 2; s > 2 && s%2 == 0 && (n+need)%half != 0 {
			need += half - (n+need)%half
		}
		return need
	case SPRT:
		return max(0, s-2)
	case Gauntlet:
		field := 0
		for _, e := range cfg.Entries {
			if !e.Candidate {
				field++
			}
		}
		return max(0, s-1-field)
	}
	return 0
}
