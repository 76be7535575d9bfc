package cloud

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"ringside/engine"
)

// The built-in bots see only the JSON lines, as any contestant's bot does:
// the login is done for them by the CLI's bot wrapper.

// botSeedStream separates a built-in bot's random numbers from the game's.
const botSeedStream = 0x636c6f7564626f74 // "cloudbot"

// msgBot is one bot of a state line.
type msgBot struct {
	Player   string   `json:"player"`
	Position [2]int   `json:"position"`
	Health   int      `json:"health"`
	Time     int      `json:"time"`
	CanShoot [][2]int `json:"can_shoot"`
}

// msgState is a state line.
type msgState struct {
	TurnNo  int               `json:"turn_no"`
	Players map[string]int    `json:"players"`
	Bots    map[string]msgBot `json:"bots"`
	Empty   [][2]int          `json:"empty"`
}

// msgConfig is the field config line.
type msgConfig struct {
	UserID string   `json:"user_id"`
	Width  int      `json:"width"`
	Height int      `json:"height"`
	Bricks [][2]int `json:"bricks"`
}

// command is what a built-in bot tells one of its bots.
type command struct {
	id     string
	move   byte
	fire   bool
	target Point
}

// policy chooses the commands for one state.
type policy interface {
	decide(c *client, st *msgState, mine []string) []command
}

// client is the protocol side shared by the built-in bots: it remembers
// the field config and turns state lines into command lines.
type client struct {
	rng    *rand.Rand
	me     string
	w, h   int
	wall   []bool // by y*w+x
	policy policy
}

func newClient(seed int64, p policy) *client {
	return &client{rng: rand.New(rand.NewPCG(uint64(seed), botSeedStream)), policy: p}
}

func newRandomBot(seed int64) engine.Bot { return newClient(seed, randomPolicy{}) }
func newHunterBot(seed int64) engine.Bot {
	return newClient(seed, &hunterPolicy{waypoint: map[string]Point{}, seen: map[Point]int{}, toward: map[Point][]int{}})
}

// Hello is empty: Cloud bots speak only when asked.
func (c *client) Hello() string { return "" }

// msgAny is any line from the server: a config, a state or a status.
type msgAny struct {
	msgConfig
	msgState
	Status *string `json:"status"`
}

// Feed reads one line: the config is remembered, status lines are
// ignored, and a state line is answered with the commands.
func (c *client) Feed(line string) string {
	m, ok := readLine(line)
	if !ok || m.Status != nil {
		return ""
	}
	switch {
	case m.UserID != "":
		c.me = m.UserID
		c.w, c.h = min(max(m.Width, 0), 1000), min(max(m.Height, 0), 1000)
		c.wall = make([]bool, c.w*c.h)
		for _, b := range m.Bricks {
			if p := (Point{b[0], b[1]}); c.in(p) {
				c.wall[c.idx(p)] = true
			}
		}
		return ""
	case m.TurnNo != 0 || m.Bots != nil:
		st := &m.msgState
		c.growField(st)
		var mine []string
		for _, id := range sortedIDs(st.Bots) {
			if b := st.Bots[id]; b.Player == c.me && b.Health > 0 {
				mine = append(mine, id)
			}
		}
		return commandLine(st.TurnNo, c.policy.decide(c, st, mine))
	}
	return ""
}

// growField makes sure every cell mentioned fits the field, in case no
// config came or it was wrong (the bot then plays as if the new cells had
// no walls).
func (c *client) growField(st *msgState) {
	w, h := c.w, c.h
	fit := func(p [2]int) {
		if p[0] >= 0 && p[1] >= 0 && p[0] < 1000 && p[1] < 1000 {
			w, h = max(w, p[0]+1), max(h, p[1]+1)
		}
	}
	for _, b := range st.Bots {
		fit(b.Position)
		for _, p := range b.CanShoot {
			fit(p)
		}
	}
	for _, p := range st.Empty {
		fit(p)
	}
	if w == c.w && h == c.h {
		return
	}
	wall := make([]bool, w*h)
	for i, v := range c.wall {
		if v {
			wall[(i/c.w)*w+i%c.w] = true
		}
	}
	c.w, c.h, c.wall = w, h, wall
}

func (c *client) in(p Point) bool   { return p.X >= 0 && p.X < c.w && p.Y >= 0 && p.Y < c.h }
func (c *client) open(p Point) bool { return c.in(p) && !c.wall[c.idx(p)] }

// sortedIDs orders bot ids by number ("bot2" before "bot10").
func sortedIDs(bots map[string]msgBot) []string {
	ids := make([]string, 0, len(bots))
	for id := range bots {
		ids = append(ids, id)
	}
	num := func(id string) int {
		n, err := strconv.Atoi(strings.TrimPrefix(id, "bot"))
		if err != nil {
			return -1
		}
		return n
	}
	sort.Slice(ids, func(i, j int) bool {
		if a, b := num(ids[i]), num(ids[j]); a != b {
			return a < b
		}
		return ids[i] < ids[j]
	})
	return ids
}

func commandLine(turn int, cmds []command) string {
	b := []byte(`{"turn_no":`)
	b = strconv.AppendInt(b, int64(turn), 10)
	for _, c := range cmds {
		b = append(b, `,"`...)
		b = append(b, c.id...)
		b = append(b, `":{"move":"`...)
		b = append(b, c.move)
		b = append(b, `","fire":`...)
		if c.fire {
			b = appendPoint(b, c.target)
		} else {
			b = append(b, "[]"...)
		}
		b = append(b, '}')
	}
	return string(append(b, "}\n"...))
}

// randomPolicy moves each bot at random and fires half the time at a
// random cell it can hit.
type randomPolicy struct{}

func (randomPolicy) decide(c *client, st *msgState, mine []string) []command {
	var out []command
	for _, id := range mine {
		b := st.Bots[id]
		cmd := command{id: id, move: "udlrs"[c.rng.IntN(5)]}
		if len(b.CanShoot) > 0 && c.rng.IntN(2) == 0 {
			t := b.CanShoot[c.rng.IntN(len(b.CanShoot))]
			cmd.fire, cmd.target = true, Point{t[0], t[1]}
		}
		out = append(out, cmd)
	}
	return out
}

// hunterPolicy focuses fire to kill (the weakest enemies in range first,
// exactly as many shots as needed), walks towards the nearest enemy it sees
// or saw lately, and otherwise sends each bot to its own random waypoint so
// the team spreads out and sees more.
type hunterPolicy struct {
	waypoint map[string]Point
	seen     map[Point]int   // last cells where enemies were seen → turn
	toward   map[Point][]int // walking distances to a waypoint; walls never move
}

// forget is how many turns a sighting is worth chasing.
const forget = 12

// look is what the hunter and the squad see in st: the cells living bots
// stand on, and the living enemies of player me in the order of their
// ids. It records the enemies' cells in seen with the turn, and forgets
// the cells st shows empty and sightings more than forget turns old.
func look(st *msgState, me string, seen map[Point]int) (enemies []foe, occupied map[Point]bool) {
	occupied = map[Point]bool{}
	for _, id := range sortedIDs(st.Bots) {
		b := st.Bots[id]
		if b.Health <= 0 {
			continue
		}
		p := Point{b.Position[0], b.Position[1]}
		occupied[p] = true
		if b.Player != me {
			enemies = append(enemies, foe{id: id, pos: p, health: b.Health, player: b.Player})
			seen[p] = st.TurnNo
		}
	}
	for _, e := range st.Empty {
		delete(seen, Point{e[0], e[1]})
	}
	for p, t := range seen {
		if st.TurnNo-t > forget {
			delete(seen, p)
		}
	}
	return enemies, occupied
}

func (h *hunterPolicy) decide(c *client, st *msgState, mine []string) []command {
	enemies, occupied := look(st, c.me, h.seen)

	sort.SliceStable(enemies, func(i, j int) bool { return enemies[i].health < enemies[j].health })
	fire := assignFire(st, mine, enemies)

	// Move: towards enemies (seen now or lately), else to a waypoint.
	var goals []Point
	for _, e := range enemies {
		goals = append(goals, e.pos)
	}
	if len(goals) == 0 {
		for p := range h.seen {
			goals = append(goals, p)
		}
		sortPoints(goals)
	}
	var toEnemy []int
	if len(goals) > 0 {
		toEnemy = c.distances(goals)
	}
	// Hold the ground one step inside the range, so an enemy stepping
	// back is still within reach; at range 1 that means next to it.
	hold := max(1, shootRange(st, mine)-1)
	taken := map[Point]bool{}
	var out []command
	for _, id := range mine {
		b := st.Bots[id]
		pos := Point{b.Position[0], b.Position[1]}
		cmd := command{id: id, move: 's'}
		if t, ok := fire[id]; ok {
			cmd.fire, cmd.target = true, t
		}
		var d []int
		switch {
		case toEnemy != nil:
			d = toEnemy
			if k := d[c.idx(pos)]; k >= 0 && k <= hold && len(enemies) > 0 {
				d = nil // close enough to shoot: hold the ground
			}
		default:
			d = h.towardWaypoint(c, id, pos)
		}
		if d != nil {
			cmd.move = downhill(c, pos, d, func(q Point) bool { return taken[q] || (occupied[q] && !foeAt(q, enemies)) })
		}
		if cmd.move == 's' {
			taken[pos] = true
		} else {
			d := orderDelta(cmd.move)
			taken[Point{pos.X + d.X, pos.Y + d.Y}] = true
		}
		out = append(out, cmd)
	}
	return out
}

// towardWaypoint is the distance map toward bot id's waypoint, a new one
// when it has none, is there or the waypoint is walled; nil when the
// bot at pos cannot reach it (it gets another next turn).
func (h *hunterPolicy) towardWaypoint(c *client, id string, pos Point) []int {
	wp, ok := h.waypoint[id]
	if !ok || wp == pos || !c.open(wp) {
		wp = c.randomCell()
		h.waypoint[id] = wp
	}
	d := h.toward[wp]
	if len(d) != c.w*c.h {
		if len(h.toward) > 64 {
			clear(h.toward)
		}
		d = c.distances([]Point{wp})
		h.toward[wp] = d
	}
	if d[c.idx(pos)] < 0 {
		delete(h.waypoint, id)
		return nil
	}
	return d
}

// downhill is the move from pos that brings a bot nearest by distance
// map d, to an open cell that blocked does not refuse; 's' when none is
// nearer. Among equals the first of u, d, l, r wins.
func downhill(c *client, pos Point, d []int, blocked func(Point) bool) byte {
	best, bestD := byte('s'), d[c.idx(pos)]
	for k, st := range steps {
		q := Point{pos.X + st.X, pos.Y + st.Y}
		if !c.open(q) || blocked(q) {
			continue
		}
		if dq := d[c.idx(q)]; dq >= 0 && dq < bestD {
			best, bestD = "udlr"[k], dq
		}
	}
	return best
}

// assignFire is how the hunter and the squad shoot: my bots (ids in mine)
// kill the enemies they can, in the order given, each with exactly the
// shots it needs, spending first the shooters that reach the fewest
// enemies; the shooters left over wear down the weakest enemy they reach,
// the first in order among equals. It maps each shooter to its target.
func assignFire(st *msgState, mine []string, order []foe) map[string]Point {
	// Which enemies each of my bots can hit.
	reach := map[string]map[Point]bool{}
	for _, id := range mine {
		set := map[Point]bool{}
		for _, q := range st.Bots[id].CanShoot {
			set[Point{q[0], q[1]}] = true
		}
		reach[id] = set
	}
	options := func(id string) int {
		n := 0
		for _, o := range order {
			if reach[id][o.pos] {
				n++
			}
		}
		return n
	}
	fire := map[string]Point{}
	left := map[string]int{}
	for _, e := range order {
		left[e.id] = e.health
		var can []string
		for _, id := range mine {
			if _, busy := fire[id]; !busy && reach[id][e.pos] {
				can = append(can, id)
			}
		}
		if len(can) < e.health {
			continue
		}
		sort.SliceStable(can, func(i, j int) bool { return options(can[i]) < options(can[j]) })
		for _, id := range can[:e.health] {
			fire[id] = e.pos
		}
		left[e.id] = 0
	}
	for _, id := range mine {
		if _, busy := fire[id]; busy {
			continue
		}
		best := -1
		for i, e := range order {
			if reach[id][e.pos] && left[e.id] > 0 && (best < 0 || left[e.id] < left[order[best].id]) {
				best = i
			}
		}
		if best >= 0 {
			fire[id] = order[best].pos
			left[order[best].id]--
		}
	}
	return fire
}

// foe is an enemy bot a hunter sees.
type foe struct {
	id     string
	pos    Point
	health int
	gun    float64 // how much it counts in a fight (squad)
	player string
}

func foeAt(p Point, foes []foe) bool {
	for _, e := range foes {
		if e.pos == p {
			return true
		}
	}
	return false
}

func orderDelta(m byte) Point { return order{move: m}.delta() }

func (c *client) idx(p Point) int { return p.Y*c.w + p.X }

// distances is the walking distance from the nearest goal to every cell
// (-1 where unreachable), walls blocking and bots not.
func (c *client) distances(goals []Point) []int {
	d := make([]int, c.w*c.h)
	for i := range d {
		d[i] = -1
	}
	var queue []Point
	for _, g := range goals {
		if c.open(g) && d[c.idx(g)] < 0 {
			d[c.idx(g)] = 0
			queue = append(queue, g)
		}
	}
	for k := 0; k < len(queue); k++ {
		p := queue[k]
		for _, s := range steps {
			q := Point{p.X + s.X, p.Y + s.Y}
			if c.open(q) && d[c.idx(q)] < 0 {
				d[c.idx(q)] = d[c.idx(p)] + 1
				queue = append(queue, q)
			}
		}
	}
	return d
}

func (c *client) randomCell() Point {
	for range 100 {
		p := Point{c.rng.IntN(c.w), c.rng.IntN(c.h)}
		if c.open(p) {
			return p
		}
	}
	return Point{c.w / 2, c.h / 2}
}

// shootRange reads the shooting range off the state, since the config
// does not tell it: the farthest cell any of mine can fire at. 3 (the
// default) when none of them can fire anywhere.
func shootRange(st *msgState, mine []string) int {
	r := 0
	for _, id := range mine {
		b := st.Bots[id]
		for _, q := range b.CanShoot {
			r = max(r, abs(q[0]-b.Position[0])+abs(q[1]-b.Position[1]))
		}
	}
	if r == 0 {
		return 3
	}
	return r
}
