// Package event holds tournament formats as pure functions: who plays whom,
// in which seats, on which seeds, and what the results add up to. The
// runner plays the games and storage keeps them; nothing here does I/O.
package event

// Format names a kind of event.
type Format string

const (
	League   Format = "league"   // round robin, every pairing or group
	Bracket  Format = "bracket"  // single elimination
	Gauntlet Format = "gauntlet" // candidates against a field
	Swiss    Format = "swiss"    // rounds paired by score, no rematches
	SPRT     Format = "sprt"     // head-to-head until the test decides
)

// Formats lists every format in menu order.
var Formats = []Format{League, Bracket, Gauntlet, Swiss, SPRT}

// Entry is one competitor of an event, by index in Config.Entries.
type Entry struct {
	Name string `json:"name"`
	// Candidate marks the entries under test in a gauntlet (the others
	// form the field) and the first entry of an SPRT comparison.
	Candidate bool `json:"candidate,omitempty"`
	// Filler marks bots added only to fill seats; they are not ranked.
	Filler bool `json:"filler,omitempty"`
}

// Config is everything that fixes an event's schedule.
type Config struct {
	Format  Format  `json:"format"`
	Entries []Entry `json:"entries"`
	Seats   int     `json:"seats"` // seats per game (2 for battle2048, 4 for grip…)
	Games   int     `json:"games"` // seeds per pairing/group (league, gauntlet), best-of or seeds per heat (bracket), rounds (swiss), cap (sprt)
	Seed    int64   `json:"seed"`  // master seed; game seeds derive from it
	// Orders says how a multi-seat league seats each group: "" balanced
	// orders (OrdersBalanced), or "rotations" (OrdersRotations) for
	// leagues stored before balanced orders existed.
	Orders string `json:"orders,omitempty"`
	// SPRT parameters (Format SPRT): Elo0 and Elo1 are normalized Elo
	// (nElo); a zero Alpha or Beta means 0.05 (see SPRTTest).
	Elo0  float64 `json:"elo0,omitempty"`
	Elo1  float64 `json:"elo1,omitempty"`
	Alpha float64 `json:"alpha,omitempty"`
	Beta  float64 `json:"beta,omitempty"`
	// Test is the sequential test of an SPRT event: TestClassroom, or
	// TestElo (also "", as comparisons stored before the classroom test
	// existed). P1 is the classroom test's margin (0 means
	// rating.DefaultClassroomP1).
	Test string  `json:"test,omitempty"`
	P1   float64 `json:"p1,omitempty"`
}

// The sequential tests an SPRT event can run.
const (
	// TestClassroom decides an obvious difference in a few games: the
	// share of seed groups the candidate finishes ahead in (rating.Classroom).
	TestClassroom = "classroom"
	// TestElo is the chess engines' test on normalized Elo, for small
	// differences between strong programs (rating.SPRT).
	TestElo = "sprt"
)

// Game is one scheduled game.
type Game struct {
	Round int   `json:"round"` // 0-based round; adaptive formats add rounds as results come in
	Index int   `json:"index"` // position in the event's whole schedule, unique, 0-based
	Seats []int `json:"seats"` // entry index sitting in each seat
	Seed  int64 `json:"seed"`  // game seed; the games of a swap/rotation group share it
	Group int   `json:"group"` // games that share a seed with seats swapped/rotated share a group
}

// Outcome is a finished game's result as formats and standings need it.
type Outcome struct {
	Game  Game  `json:"game"`
	Ranks []int `json:"ranks"` // per seat, 1-based, ties share
}
