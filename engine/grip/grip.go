// Package grip is Grip, the game of JavaChallenge2015: four players on an
// 18×18 board of 6×6 blocks drop rows of blocks under each other until one
// is left. The rules are those of RULES.md §1; the protocol for bot authors
// is docs/grip.md.
package grip

import (
	"time"

	"ringside/engine"
)

// Board geometry.
const (
	Size      = 18 // squares per side
	BlockSize = 3  // squares per block side
	Blocks    = 6  // blocks per side
	Seats     = 4  // players in every game
)

// Timer values of RULES.md §1.
const (
	attackStep = 4  // a block at block distance n gets timer 4n
	attackWait = 3  // S after an attack: the attacker sits out two own turns
	fallenTime = 19 // ticks a fallen block stays down
)

// Option keys.
const (
	OptTurnMS   = "turn_ms"
	OptReadyMS  = "ready_ms"
	OptMaxTurns = "max_turns"
	OptCoords   = "coords"
	OptStart    = "start"
)

// Values of the coords option.
const (
	CoordsRC = "rc" // row then column, as the rule texts say
	CoordsXY = "xy" // column then row, as the 2015 referee sent
)

// maxMaxTurns limits the max_turns option, so a typo cannot start a game that
// never ends; a single wait is capped at engine.MaxWaitMillis.
const maxMaxTurns = 1000000

// Game is Grip. Its zero value is ready to use.
type Game struct{}

// New returns the Grip game for the registry.
func New() *Game { return &Game{} }

var info = engine.Info{
	ID:   "grip",
	Name: "Grip",
	Description: "JavaChallenge2015. Four players stand on an 18×18 board made of 6×6 blocks " +
		"of 3×3 squares and take turns one after another. On its turn a player moves one square, " +
		"attacks or waits. An attack drops the whole line of blocks in the direction the player " +
		"faces, the nearer ones sooner, and whoever stands on a block when it falls is out. " +
		"The last player standing wins; after 1000 turns (250 each) the survivors draw.",
	MinSeats: Seats,
	MaxSeats: Seats,
	MaxReply: MaxReply,
	Options: []engine.Option{
		{Key: OptTurnMS, Default: "100",
			Doc: "Milliseconds a bot has to answer each turn (the 2015 contest used 100)."},
		{Key: OptReadyMS, Default: "1000",
			Doc: "Milliseconds a bot has to print READY after it starts."},
		{Key: OptMaxTurns, Default: "1000",
			Doc: "Global turns before the game ends in a draw of the survivors (4 turns = one round; 1000 = 250 each)."},
		{Key: OptCoords, Default: CoordsRC, Choices: []string{CoordsRC, CoordsXY}, PerSeat: true,
			Doc: "Order of a player's position in the turn input: rc = row then column (as the rule texts say), " +
				"xy = column then row (what the 2015 referee actually sent; bots written for the original arena need it)."},
		{Key: OptStart, Default: "",
			Doc: "Start position as row,column,facing for players 0 to 3 separated by /, " +
				"e.g. 14,0,D/17,14,L/10,14,U/5,2,R (rows and columns 0..17, facing U R D L, " +
				"players at least 4 apart); empty draws one from the game seed."},
	},
}

// Info describes Grip and its options.
func (*Game) Info() engine.Info { return info }

// config is the validated options of one match.
type config struct {
	turn     time.Duration
	ready    time.Duration
	maxTurns int
	xy       [Seats]bool // per seat: its position lines column first
}

// New validates the options and starts a match. players must name the four
// seats.
func (*Game) New(opts engine.Options, players []string, seed int64) (engine.State, error) {
	return NewState(opts, players, seed)
}

// NewState is Game.New with the concrete type, for renderers and tests that
// use the accessors.
func NewState(opts engine.Options, players []string, seed int64) (*State, error) {
	if err := info.CheckPlayers(len(players)); err != nil {
		return nil, err
	}
	get := func(key string) string { return info.Value(opts, key) }
	var cfg config
	var err error
	if cfg.turn, err = engine.MillisOption(OptTurnMS, get(OptTurnMS)); err != nil {
		return nil, err
	}
	if cfg.ready, err = engine.MillisOption(OptReadyMS, get(OptReadyMS)); err != nil {
		return nil, err
	}
	if cfg.maxTurns, err = engine.IntOption(OptMaxTurns, get(OptMaxTurns), 1, maxMaxTurns, "turns"); err != nil {
		return nil, err
	}
	coords := engine.Toggle{Key: OptCoords, Off: CoordsRC, OffMeans: "row first", On: CoordsXY, OnMeans: "column first"}
	for seat := range Seats {
		if cfg.xy[seat], err = info.SeatToggle(opts, coords, seat); err != nil {
			return nil, err
		}
	}
	var start [Seats]Piece
	if s := get(OptStart); s != "" {
		if start, err = ParseStart(s); err != nil {
			return nil, err
		}
	} else {
		start = GenerateStart(seed)
	}
	names := make([]string, Seats)
	copy(names, players)
	return newState(cfg, start, names), nil
}

var builtins = engine.Builtins{Game: info.ID, Bots: []engine.BotMaker{
	{Name: BotRandom, New: func(seed int64) engine.Bot { return NewRandomBot(seed) }},
	{Name: BotGreedy, New: func(seed int64) engine.Bot { return NewGreedyBot(seed) }},
	{Name: BotSearch, New: func(seed int64) engine.Bot { return NewSearchBot(seed) }},
}}

// Bots lists Grip's built-in bots.
func (*Game) Bots() []string { return builtins.Names() }

// NewBot makes a built-in bot.
func (*Game) NewBot(name string, seed int64) (engine.Bot, error) { return builtins.New(name, seed) }
