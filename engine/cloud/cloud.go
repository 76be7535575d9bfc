// Package cloud is Cloud Contest 2 (main round): teams of bots run about a
// walled field and shoot at each other's bots; every kill earns 100 points,
// shared among the players who shot the victim. All players move at once,
// see only what their bots see, and log in with tokens over TCP (or stdio)
// before the game starts. The rules are in docs/cloud.md.
package cloud

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ringside/engine"
)

// Game is Cloud Contest 2 as an engine.Game.
type Game struct{}

// New returns the game.
func New() Game { return Game{} }

// Option keys and their defaults.
const (
	defaultSize    = 30
	defaultBots    = 6
	defaultLives   = 3
	defaultRange   = 3
	defaultVision  = 5
	defaultTurns   = 300
	defaultTurnMs  = 250
	defaultRespawn = 10
	defaultDensity = 8

	// MaxReply is the longest reply line the game accepts, in bytes: one
	// command for each of a player's bots (at most 100, the bots
	// option's bound), each at most 64 bytes even as Python's json.dumps
	// spaces it ("bot2500": {"move": "u", "fire": [99, 99]}, is 44), and
	// 1792 for the braces, "turn_no" and any blanks around them. Login
	// lines (tokens of 32 hex digits) fit as well. A longer line is
	// invalid: all the player's bots stay.
	MaxReply = 100*64 + 1792

	minSize, maxSize       = 5, 100
	maxDensity             = 40
	minPlayers, maxPlayers = 2, 8
)

// Info describes the game and its options.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:   "cloud",
		Name: "Cloud Contest",
		Description: "Cloud Contest 2 (main round): 2 to 8 players each steer a team of bots on a walled " +
			"30×30 field, all at once, seeing only what their bots see. Bots shoot at cells within range " +
			"before they move; three hits kill, a kill is worth 100 points shared among its shooters, and " +
			"dead bots come back ten turns later. Most points after 300 turns wins. Bots log in over TCP " +
			"(or stdio) with the tokens they are given and speak JSON lines.",
		MinSeats: minPlayers,
		MaxSeats: maxPlayers,
		Login:    Login{},
		MaxReply: MaxReply,
		Options: []engine.Option{
			{Key: "width", Default: strconv.Itoa(defaultSize), Doc: "field width in cells (5 to 100); x runs 0..width-1 left to right"},
			{Key: "height", Default: strconv.Itoa(defaultSize), Doc: "field height in cells (5 to 100); y runs 0..height-1 top to bottom"},
			{Key: "bots", Default: strconv.Itoa(defaultBots), Doc: "bots per player (1 to 100; all players' bots together may fill at most a quarter of the field's free cells)"},
			{Key: "lives", Default: strconv.Itoa(defaultLives), Doc: "lives of a bot, at the start and after each respawn (1 to 100); each hit takes one"},
			{Key: "range", Default: strconv.Itoa(defaultRange), Doc: "shooting range: a bot fires at a cell 1 to range steps away (Manhattan distance, 1 to 50)"},
			{Key: "vision", Default: strconv.Itoa(defaultVision), Doc: "a player sees every cell within this Manhattan distance of one of its live bots (0 to 100)"},
			{Key: "turns", Default: strconv.Itoa(defaultTurns), Doc: "number of turns; the game ends after the last (1 to 100000)"},
			{Key: "turn_ms", Default: strconv.Itoa(defaultTurnMs), Doc: "milliseconds a bot has to answer each turn (1 to 60000)"},
			{Key: "respawn", Default: strconv.Itoa(defaultRespawn), Doc: "turns a dead bot stays dead before it reappears (1 to 1000)"},
			{Key: "walls", Default: strconv.Itoa(defaultDensity), Doc: "walls: a density in % (0 to 40) drawn from the seed, symmetric between the players' start areas " +
				"and never cutting the field apart; or an explicit list of wall cells \"x,y;x,y;…\" (e.g. \"3,4;5,6\")"},
			{Key: "transport", Default: "tcp", Choices: []string{"tcp", "stdio"},
				Doc: "how bots connect: tcp (the contest's way: the bot connects to 127.0.0.1:{port} and logs in) or stdio (the same lines over stdin/stdout)"},
		},
	}
}

var builtins = engine.Builtins{Game: "cloud", Bots: []engine.BotMaker{
	{Name: "random", New: newRandomBot},
	{Name: "hunter", New: newHunterBot},
	{Name: "squad", New: func(seed int64) engine.Bot { return newSquadBot(seed) }},
}}

// Bots lists the built-in bots.
func (Game) Bots() []string { return builtins.Names() }

// NewBot makes a built-in bot.
func (Game) NewBot(name string, seed int64) (engine.Bot, error) { return builtins.New(name, seed) }

// New validates the options and players and sets up the field.
func (Game) New(opts engine.Options, players []string, seed int64) (engine.State, error) {
	cfg, err := parseConfig(opts, len(players))
	if err != nil {
		return nil, err
	}
	if err := checkPlayers(players); err != nil {
		return nil, err
	}
	return newState(cfg, players, seed)
}

// config is the validated options of one game. It never changes once made.
type config struct {
	width, height int
	bots          int
	lives         int
	rng           int // shooting range
	vision        int
	turns         int
	turnMs        int
	respawn       int
	density       int     // wall density in %, when walls is not a list
	wallList      []Point // explicit walls, when listed is true
	listed        bool
}

func checkPlayers(players []string) error {
	if err := (Game{}).Info().CheckPlayers(len(players)); err != nil {
		return err
	}
	seen := map[string]int{}
	for i, p := range players {
		if p == "" {
			return fmt.Errorf("player %d has an empty name; every player needs a name (it is the bot's user_id)", i+1)
		}
		if j, ok := seen[p]; ok {
			return fmt.Errorf("players %d and %d are both called %q; names must be unique (they are the bots' user_ids)", j+1, i+1, p)
		}
		seen[p] = i
	}
	return nil
}

// intOption reads one whole-number option within lo..hi.
func intOption(opts engine.Options, key string, def, lo, hi int, what string) (int, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("option %s=%q: want a whole number from %d to %d (%s)", key, v, lo, hi, what)
	}
	return n, nil
}

func parseConfig(opts engine.Options, players int) (*config, error) {
	if err := (Game{}).Info().CheckPlayers(players); err != nil {
		return nil, err
	}
	c := &config{}
	fields := []struct {
		key     string
		dst     *int
		def     int
		lo, hi  int
		meaning string
	}{
		{"width", &c.width, defaultSize, minSize, maxSize, "field width in cells"},
		{"height", &c.height, defaultSize, minSize, maxSize, "field height in cells"},
		{"bots", &c.bots, defaultBots, 1, 100, "bots per player"},
		{"lives", &c.lives, defaultLives, 1, 100, "lives per bot"},
		{"range", &c.rng, defaultRange, 1, 50, "shooting range"},
		{"vision", &c.vision, defaultVision, 0, 100, "vision distance"},
		{"turns", &c.turns, defaultTurns, 1, 100000, "turns per game"},
		{"turn_ms", &c.turnMs, defaultTurnMs, 1, 60000, "milliseconds per reply"},
		{"respawn", &c.respawn, defaultRespawn, 1, 1000, "turns a dead bot waits"},
	}
	for _, f := range fields {
		n, err := intOption(opts, f.key, f.def, f.lo, f.hi, f.meaning)
		if err != nil {
			return nil, err
		}
		*f.dst = n
	}
	walls, ok := opts["walls"]
	if !ok {
		walls = strconv.Itoa(defaultDensity)
	}
	if err := c.parseWalls(walls); err != nil {
		return nil, err
	}
	nwalls := len(c.wallList)
	if !c.listed {
		nwalls = c.width * c.height * c.density / 100
	}
	free := c.width*c.height - nwalls
	if need := players * c.bots; need*4 > free {
		return nil, fmt.Errorf("option bots=%d: %d players × %d bots = %d bots, but the %d×%d field has room for at most %d "+
			"(a quarter of its %d free cells); use fewer bots or a bigger field",
			c.bots, players, c.bots, need, c.width, c.height, free/4, free)
	}
	return c, nil
}

// parseWalls reads the walls option: a density in % or a list "x,y;x,y;…".
func (c *config) parseWalls(v string) error {
	s := strings.TrimSpace(v)
	if !strings.Contains(s, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > maxDensity {
			return fmt.Errorf("option walls=%q: want a density in %% from 0 to %d, or a list of wall cells like \"3,4;5,6\"", v, maxDensity)
		}
		c.density = n
		return nil
	}
	list, err := parseWallList(s, c.width, c.height)
	if err != nil {
		return err
	}
	c.wallList, c.listed = list, true
	return nil
}

// parseWallList reads "x,y;x,y;…" (spaces and a trailing ";" allowed,
// duplicates merged) and checks every cell is on the field.
func parseWallList(s string, w, h int) ([]Point, error) {
	seen := map[Point]bool{}
	var out []Point
	for i, item := range strings.Split(s, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		xs, ys, ok := strings.Cut(item, ",")
		x, errx := strconv.Atoi(strings.TrimSpace(xs))
		y, erry := strconv.Atoi(strings.TrimSpace(ys))
		if !ok || errx != nil || erry != nil {
			return nil, fmt.Errorf("option walls: item %d %q is not a cell \"x,y\" (write walls as \"x,y;x,y;…\", e.g. \"3,4;5,6\")", i+1, item)
		}
		if x < 0 || x >= w || y < 0 || y >= h {
			return nil, fmt.Errorf("option walls: wall %d at (%d,%d) is off the %d×%d field (x is 0..%d, y is 0..%d)", i+1, x, y, w, h, w-1, h-1)
		}
		p := Point{x, y}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// quote is a player name as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// turnTimeout is the reply limit of one turn.
func (c *config) turnTimeout() time.Duration { return time.Duration(c.turnMs) * time.Millisecond }
