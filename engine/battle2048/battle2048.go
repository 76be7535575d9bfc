// Package battle2048 is Battle 2048, the game of AI Challenge 2018 at CODE
// FESTIVAL: two players slide the tiles of their own 5×5 2048 board and
// drop the tiles their merges earn onto the opponent's board, until one
// cannot move or 1000 rounds are over. The rules are those of RULES.md §2;
// the protocol for bot authors is docs/battle2048.md.
package battle2048

import (
	"strings"
	"time"

	"ringside/engine"
)

// Seats is the number of players of every game.
const Seats = 2

// Option keys.
const (
	OptInitMS   = "init_ms"
	OptTurnMS   = "turn_ms"
	OptTotalMS  = "total_ms"
	OptRounds   = "rounds"
	OptProtocol = "protocol"
)

// Values of the protocol option.
const (
	ProtocolFinal = "final" // a header line "Turn TimeLeft MyScore OpponentScore" before the boards
	ProtocolBeta  = "beta"  // the boards only, as the beta rule text shows
)

// Limits for the numeric options, so a typo cannot start a game that never
// ends; a single wait is capped at engine.MaxWaitMillis.
const (
	maxTotalMillis = 100000000
	maxRounds      = 1000000
)

// Game is Battle 2048. Its zero value is ready to use.
type Game struct{}

// New returns the Battle 2048 game for the registry.
func New() *Game { return &Game{} }

var info = engine.Info{
	ID:   "battle2048",
	Name: "Battle 2048",
	Description: "AI Challenge 2018 at CODE FESTIVAL. Each of two players has its own 5×5 board " +
		"of 2048 tiles. On its turn a player slides its board up, right, down or left; equal tiles " +
		"that meet merge and score their value. Then it drops tiles worth 2^(merges+1) in total onto " +
		"empty cells of the opponent's board. A player whose board cannot move, or whose slide " +
		"changes nothing, loses; after 1000 rounds the higher score wins and a tie goes to the " +
		"second player.",
	MinSeats: Seats,
	MaxSeats: Seats,
	MaxReply: MaxReply,
	Measured: maskTimeLeft,
	Options: []engine.Option{
		{Key: OptInitMS, Default: "1000",
			Doc: "Milliseconds a bot has for its opening answer (where to put the opponent's first tile)."},
		{Key: OptTurnMS, Default: "1000",
			Doc: "Milliseconds a bot has for each turn's answer."},
		{Key: OptTotalMS, Default: "100000",
			Doc: "Milliseconds a bot may spend on all its turns together (the opening does not count). " +
				"What is left is sent as TimeLeft and caps the wait of each turn."},
		{Key: OptRounds, Default: "1000",
			Doc: "Rounds before the game is decided on score (one round = one turn of each player)."},
		{Key: OptProtocol, Default: ProtocolFinal, Choices: []string{ProtocolFinal, ProtocolBeta}, PerSeat: true,
			Doc: "Turn input format: final = a line \"Turn TimeLeft MyScore OpponentScore\" then the boards " +
				"(the contest's final referee); beta = the ten board lines only (the beta rule text)."},
	},
}

// Info describes Battle 2048 and its options.
func (*Game) Info() engine.Info { return info }

// config is the validated options of one match.
type config struct {
	initMS, turnMS, totalMS int64
	rounds                  int
	beta                    [Seats]bool // per seat: it gets the beta input
}

// New validates the options and starts a match. players must name the two
// seats; the seed is not used (the game has no chance).
func (*Game) New(opts engine.Options, players []string, seed int64) (engine.State, error) {
	return NewState(opts, players)
}

// NewState is Game.New with the concrete type, for renderers and tests that
// use the accessors. Missing options take their defaults.
func NewState(opts engine.Options, players []string) (*State, error) {
	if err := info.CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	get := func(key string) string { return info.Value(opts, key) }
	initWait, err := engine.MillisOption(OptInitMS, get(OptInitMS))
	if err != nil {
		return nil, err
	}
	turnWait, err := engine.MillisOption(OptTurnMS, get(OptTurnMS))
	if err != nil {
		return nil, err
	}
	cfg := config{initMS: initWait.Milliseconds(), turnMS: turnWait.Milliseconds()}
	totalMS, err := engine.IntOption(OptTotalMS, get(OptTotalMS), 1, maxTotalMillis, "milliseconds")
	if err != nil {
		return nil, err
	}
	cfg.totalMS = int64(totalMS)
	if cfg.rounds, err = engine.IntOption(OptRounds, get(OptRounds), 1, maxRounds, "rounds"); err != nil {
		return nil, err
	}
	protocol := engine.Toggle{Key: OptProtocol, Off: ProtocolFinal, OffMeans: "with the Turn TimeLeft MyScore OpponentScore line",
		On: ProtocolBeta, OnMeans: "boards only"}
	for seat := range Seats {
		if cfg.beta[seat], err = info.SeatToggle(opts, protocol, seat); err != nil {
			return nil, err
		}
	}
	return &State{cfg: cfg, players: append([]string(nil), players...), placedOn: -1}, nil
}

var builtins = engine.Builtins{Game: info.ID, Bots: []engine.BotMaker{
	{Name: BotRandom, New: NewRandomBot},
	{Name: BotGreedy, New: NewGreedyBot},
	{Name: BotSearch, New: NewSearchBot},
}}

// Bots lists the built-in bots.
func (*Game) Bots() []string { return builtins.Names() }

// NewBot makes a built-in bot.
func (*Game) NewBot(name string, seed int64) (engine.Bot, error) { return builtins.New(name, seed) }

// ms turns a whole number of milliseconds into a Duration.
func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// maskTimeLeft blanks TimeLeft in a turn's header line ("Turn TimeLeft
// MyScore OpponentScore"): the time bank the runner measured, which two
// plays of one deterministic game need not share.
func maskTimeLeft(input string) (string, string) {
	head, rest, ok := strings.Cut(input, "\n")
	f := strings.Fields(head)
	if !ok || len(f) != 4 {
		return input, "" // the beta protocol, or an opening: no time in it
	}
	f[1] = "_"
	return strings.Join(f, " ") + "\n" + rest, "Battle 2048's TimeLeft"
}
