package cloud

// This file is the read-only view of a game for renderers and tests.

// Rules are the game's settings after validation.
type Rules struct {
	Width, Height int
	Bots          int // per player
	Lives         int
	Range         int // shooting range
	Vision        int
	Turns         int
	TurnMs        int
	Respawn       int
}

// Rules returns the game's settings.
func (s *State) Rules() Rules {
	c := s.cfg
	return Rules{Width: c.width, Height: c.height, Bots: c.bots, Lives: c.lives, Range: c.rng,
		Vision: c.vision, Turns: c.turns, TurnMs: c.turnMs, Respawn: c.respawn}
}

// Size returns the field's width and height.
func (s *State) Size() (w, h int) { return s.fld.w, s.fld.h }

// Walls returns the wall cells, by x then y.
func (s *State) Walls() []Point { return append([]Point(nil), s.fld.walls...) }

// IsWall reports whether p is a wall; cells off the field are not.
func (s *State) IsWall(p Point) bool { return s.fld.in(p) && s.fld.isWall(p) }

// Players returns the players' names, by seat.
func (s *State) Players() []string { return append([]string(nil), s.players...) }

// Points returns the players' points, by seat.
func (s *State) Points() []int { return append([]int(nil), s.points...) }

// BotInfo is one bot as a renderer sees it.
type BotInfo struct {
	ID     string // "bot1", …
	Player int    // seat of its owner
	Pos    Point  // its cell; for a dead bot, where it died
	Health int    // lives left; 0 when dead
	Time   int    // turns until a dead bot reappears; 0 while alive
}

// Alive reports whether the bot is on the field.
func (b BotInfo) Alive() bool { return b.Health > 0 }

// Bots returns every bot, in id order.
func (s *State) Bots() []BotInfo {
	out := make([]BotInfo, len(s.bots))
	for i, b := range s.bots {
		out[i] = BotInfo{ID: b.id, Player: b.player, Pos: b.pos, Health: b.health, Time: b.time}
	}
	return out
}

// Shot is one shot fired in the last turn.
type Shot struct {
	Bot    string // the shooter's id
	Player int    // the shooter's seat
	From   Point  // the shooter's cell before it moved
	Target Point
	Victim string // id of the live bot hit, "" when the cell held none
}

// Hit reports whether the shot took a life.
func (sh Shot) Hit() bool { return sh.Victim != "" }

// Shots returns the last turn's valid shots, in shooter id order.
func (s *State) Shots() []Shot { return append([]Shot(nil), s.shots...) }

// View is what one player sees: the cells within vision of its live bots,
// and the bots it is told about (its own, and others' live ones on those
// cells).
type View struct {
	Cells []Point // by x then y
	Bots  []BotInfo
}

// View returns what seat sees now, as its state line tells it.
func (s *State) View(seat int) View {
	var v View
	if seat < 0 || seat >= len(s.players) {
		return v
	}
	vis := s.visible(seat)
	for x := range s.fld.w {
		for y := range s.fld.h {
			if vis[y*s.fld.w+x] {
				v.Cells = append(v.Cells, Point{x, y})
			}
		}
	}
	for _, b := range s.Bots() {
		if b.Player == seat || (b.Alive() && vis[s.fld.idx(b.Pos)]) {
			v.Bots = append(v.Bots, b)
		}
	}
	return v
}

// Sees reports whether seat sees cell p now.
func (s *State) Sees(seat int, p Point) bool {
	if seat < 0 || seat >= len(s.players) || !s.fld.in(p) {
		return false
	}
	return s.visible(seat)[s.fld.idx(p)]
}

// Input returns the state line seat is sent this turn (with its newline).
func (s *State) Input(seat int) string { return s.input(seat, s.occupancy()) }
