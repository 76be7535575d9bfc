package cloud

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"ringside/engine"
)

// EventRespawn marks a dead bot coming back; its seat is the bot's owner.
// Cloud's other events are engine's kill, timeout, invalid, crash (one per
// disconnection) and end.
const EventRespawn = "respawn"

// bot is one bot. A dead bot (health 0) is off the field; pos is where it
// died until it reappears.
type bot struct {
	id     string
	player int
	pos    Point
	health int
	time   int // turns until it reappears; 0 while alive
}

func (b *bot) alive() bool { return b.health > 0 }

// State is one Cloud game. Its exported methods (Size, Walls, Bots, Shots,
// View …) are read-only views for renderers.
type State struct {
	cfg     *config // shared by clones, never changed
	fld     *field  // shared by clones, never changed
	players []string
	quoted  []string // players as JSON strings
	seed    int64
	turn    int // turns played; the next state sent has turn_no turn+1
	bots    []bot
	points  []int
	shots   []Shot // the last turn's shots
	closed  []bool // the seat's last reply was Closed: one crash event per disconnection
}

func newState(cfg *config, players []string, seed int64) (*State, error) {
	f, err := newField(cfg, len(players), seed)
	if err != nil {
		return nil, err
	}
	s := &State{
		cfg: cfg, fld: f, players: append([]string(nil), players...), seed: seed,
		points: make([]int, len(players)), closed: make([]bool, len(players)),
	}
	for _, p := range players {
		s.quoted = append(s.quoted, quote(p))
	}
	for p, cells := range f.start {
		for _, c := range cells {
			s.bots = append(s.bots, bot{id: "bot" + strconv.Itoa(len(s.bots)+1), player: p, pos: c, health: cfg.lives})
		}
	}
	return s, nil
}

// Done reports whether all turns have been played.
func (s *State) Done() bool { return s.turn >= s.cfg.turns }

// Turn is the turn_no of the state the bots are sent now (the last turn
// once the game is over).
func (s *State) Turn() int {
	if s.Done() {
		return s.turn
	}
	return s.turn + 1
}

// Clone copies the state; the field and options are shared because they
// never change.
func (s *State) Clone() engine.State {
	c := *s
	c.bots = append([]bot(nil), s.bots...)
	c.points = append([]int(nil), s.points...)
	c.shots = append([]Shot(nil), s.shots...)
	c.closed = append([]bool(nil), s.closed...)
	return &c
}

// Start is the wall layout as a walls option value, so a replay shows the
// field and an organiser can replay it with other seeds.
func (s *State) Start() string { return wallOption(s.fld.walls) }

// Intro is the field config line, sent once every bot has logged in and
// again on reconnection.
func (s *State) Intro(seat int) string {
	b := make([]byte, 0, 64+8*len(s.fld.walls))
	b = append(b, `{"user_id":`...)
	b = append(b, s.quoted[seat]...)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(s.fld.w), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(s.fld.h), 10)
	b = append(b, `,"bricks":`...)
	b = appendPoints(b, s.fld.walls)
	b = append(b, "}\n"...)
	return string(b)
}

// InputTurn reads the turn_no of a state line this game wrote, which
// starts with it.
func (s *State) InputTurn(input string) (int64, bool) {
	rest, ok := strings.CutPrefix(input, `{"turn_no":`)
	end := strings.IndexByte(rest, ',')
	if !ok || end <= 0 || strings.Trim(rest[:end], "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(rest[:end], 10, 64)
	return n, err == nil
}

// ReplyTurn reads the "turn_no" a reply may carry, as Asks' Expect and
// parseReply read it.
func (s *State) ReplyTurn(line string) (int64, bool) { return replyTurn(line) }

// Asks asks every seat at once for its commands.
func (s *State) Asks() []engine.Ask {
	if s.Done() {
		return nil
	}
	cur := int64(s.turn + 1)
	expect := func(line string) bool {
		n, ok := replyTurn(line)
		return !ok || n >= cur
	}
	asks := make([]engine.Ask, len(s.players))
	occ := s.occupancy()
	for seat := range s.players {
		asks[seat] = engine.Ask{Seat: seat, Input: s.input(seat, occ), Timeout: s.cfg.turnTimeout(), Expect: expect}
	}
	return asks
}

// Apply takes the seats' replies, in seat order, and plays the turn.
func (s *State) Apply(replies []engine.Reply) engine.Step {
	var step engine.Step
	if s.Done() {
		return step
	}
	turn := s.turn + 1
	orders := make([]order, len(s.bots))
	for seat := range s.players {
		r := engine.Reply{Status: engine.Gone}
		if seat < len(replies) {
			r = replies[seat]
		}
		ss := engine.SeatStep{Seat: seat, Action: "stay"}
		if r.Status != engine.Closed {
			s.closed[seat] = false
		}
		switch r.Status {
		case engine.Answered:
			rp := s.parseReply(seat, r.Line)
			for i, o := range rp.orders {
				orders[i] = o
			}
			if len(rp.orders) > 0 {
				ss.Action = s.action(rp.orders)
			}
			ss.Detail = rp.detail()
			if rp.invalid() {
				ss.Verdict = engine.Invalid
				step.Events = append(step.Events, engine.Event{Turn: turn, Kind: engine.EventInvalid, Seats: []int{seat},
					Text: fmt.Sprintf("%s: %s", s.players[seat], ss.Detail)})
			}
			if ss.Detail != "" {
				step.Send = append(step.Send, engine.Message{Seat: seat, Text: statusLine("error", ss.Detail)})
			}
		case engine.TimedOut:
			ss.Verdict = engine.Timeout
			ss.Detail = "no reply in time: all bots stay"
			step.Send = append(step.Send, engine.Message{Seat: seat, Text: statusLine("error", "turn timeout")})
			step.Events = append(step.Events, engine.Event{Turn: turn, Kind: engine.EventTimeout, Seats: []int{seat},
				Text: s.players[seat] + " timed out"})
		case engine.Closed:
			ss.Verdict = engine.Crashed
			ss.Detail = "disconnected: all bots stay until the bot connects again"
			if !s.closed[seat] {
				step.Events = append(step.Events, engine.Event{Turn: turn, Kind: engine.EventCrash, Seats: []int{seat},
					Text: s.players[seat] + " disconnected"})
			}
			s.closed[seat] = true
		default:
			ss.Verdict = engine.NotAsked
		}
		step.Seats = append(step.Seats, ss)
	}
	step.Events = append(step.Events, s.resolve(orders, turn)...)
	s.turn = turn
	if s.Done() {
		res := s.Result()
		var winners []int
		parts := make([]string, len(s.players))
		for p, r := range res.Ranks {
			if r == 1 {
				winners = append(winners, p)
			}
			parts[p] = fmt.Sprintf("%s %d", s.players[p], s.points[p])
		}
		step.Events = append(step.Events, engine.Event{Turn: turn, Kind: engine.EventEnd, Seats: winners,
			Text: fmt.Sprintf("after %d turns: %s", turn, strings.Join(parts, ", "))})
	}
	return step
}

// Result ranks the players by points; equal points share a rank.
func (s *State) Result() engine.Result {
	scores := make([]float64, len(s.points))
	for i, p := range s.points {
		scores[i] = float64(p)
	}
	return engine.Result{Ranks: engine.RanksByOrder(s.points), Reason: "turn_limit", Turns: s.turn, Scores: scores}
}

// statusLine is a {"status":…, "message":…} line, spelt as the seed
// spells its status lines (one blank after the comma), so a client that
// compares with the seed's {"status":"error", "message":"turn timeout"}
// character by character matches.
func statusLine(status, msg string) string {
	st, _ := json.Marshal(status)
	m, _ := json.Marshal(msg)
	return `{"status":` + string(st) + `, "message":` + string(m) + "}\n"
}

// action writes the accepted orders compactly: "bot1:u@3,4 bot2:s".
func (s *State) action(orders map[int]order) string {
	var b strings.Builder
	for i := range s.bots {
		o, ok := orders[i]
		if !ok {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.bots[i].id)
		b.WriteByte(':')
		b.WriteByte(o.moveByte())
		if o.fire {
			fmt.Fprintf(&b, "@%d,%d", o.target.X, o.target.Y)
		}
	}
	return b.String()
}

// occupancy maps each cell to the live bot on it, or -1.
func (s *State) occupancy() []int {
	occ := make([]int, s.fld.cells())
	for i := range occ {
		occ[i] = -1
	}
	for i := range s.bots {
		if s.bots[i].alive() {
			occ[s.fld.idx(s.bots[i].pos)] = i
		}
	}
	return occ
}

// resolve plays one turn: shots, deaths, moves, respawns.
func (s *State) resolve(orders []order, turn int) []engine.Event {
	var events []engine.Event
	f := s.fld
	n := len(s.players)

	// 1. Shots, all from the positions at the start of the turn.
	occ := s.occupancy()
	s.shots = nil
	hits := make([]int, len(s.bots))
	shotsBy := map[int][]int{} // victim → shots per player
	for i := range s.bots {
		b, o := &s.bots[i], orders[i]
		if !b.alive() || !o.fire {
			continue
		}
		sh := Shot{Bot: b.id, Player: b.player, From: b.pos, Target: o.target}
		if v := occ[f.idx(o.target)]; v >= 0 {
			sh.Victim = s.bots[v].id
			hits[v]++
			if shotsBy[v] == nil {
				shotsBy[v] = make([]int, n)
			}
			shotsBy[v][b.player]++
		}
		s.shots = append(s.shots, sh)
	}

	// 2. Deaths and points.
	died := make([]bool, len(s.bots))
	for v := range s.bots {
		if hits[v] == 0 {
			continue
		}
		b := &s.bots[v]
		b.health -= hits[v]
		if b.health > 0 {
			continue
		}
		b.health, b.time, died[v] = 0, s.cfg.respawn, true
		events = append(events, s.kill(v, shotsBy[v], turn))
	}

	// 3. Moves.
	s.move(orders)

	// 4. Respawns of the bots that were already dead.
	occ = nil
	for i := range s.bots {
		b := &s.bots[i]
		if b.alive() || died[i] {
			continue
		}
		if b.time > 0 {
			b.time--
		}
		if b.time > 0 {
			continue
		}
		if occ == nil {
			occ = s.occupancy()
		}
		if p, ok := s.respawnCell(i, turn, occ); ok {
			b.pos, b.health = p, s.cfg.lives
			occ[f.idx(p)] = i
			events = append(events, engine.Event{Turn: turn, Kind: EventRespawn, Seats: []int{b.player},
				Text: fmt.Sprintf("%s (%s) reappeared at %v", b.id, s.players[b.player], p)})
		}
	}
	return events
}

// kill shares the victim's 100 points and describes the kill. The
// event's seats are the players who scored, in seat order, then the
// victim's.
func (s *State) kill(v int, by []int, turn int) engine.Event {
	victim := s.bots[v]
	total := 0
	for _, k := range by {
		total += k
	}
	var seats []int
	var who []string
	for p, k := range by {
		if k == 0 {
			continue
		}
		if p == victim.player {
			who = append(who, "its own team")
			continue
		}
		pts := 100 * k / total
		s.points[p] += pts
		seats = append(seats, p)
		who = append(who, fmt.Sprintf("%s (+%d)", s.players[p], pts))
	}
	seats = append(seats, victim.player)
	return engine.Event{Turn: turn, Kind: engine.EventKill, Seats: seats,
		Text: fmt.Sprintf("%s (%s) killed at %v by %s", victim.id, s.players[victim.player], victim.pos, strings.Join(who, ", "))}
}

// move applies the moves of the live bots. A move off the field or into a
// wall fails. Bots trying to enter the same cell all stay. Then, until
// nothing changes: a bot moving into a cell whose bot stays, stays; two
// bots swapping cells both stay. Longer cycles (three or more bots each
// moving into the next one's cell) all move.
func (s *State) move(orders []order) {
	f := s.fld
	occ := s.occupancy()
	target := make([]Point, len(s.bots))
	moving := make([]bool, len(s.bots))
	entering := map[Point]int{}
	for i := range s.bots {
		b := &s.bots[i]
		if !b.alive() {
			continue
		}
		target[i] = b.pos
		d := orders[i].delta()
		if d == (Point{}) {
			continue
		}
		q := Point{b.pos.X + d.X, b.pos.Y + d.Y}
		if !f.open(q) {
			continue
		}
		target[i], moving[i] = q, true
		entering[q]++
	}
	for i := range s.bots {
		if moving[i] && entering[target[i]] > 1 {
			moving[i], target[i] = false, s.bots[i].pos
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range s.bots {
			if !moving[i] {
				continue
			}
			o := occ[f.idx(target[i])]
			if o < 0 || (moving[o] && target[o] != s.bots[i].pos) {
				continue
			}
			moving[i], target[i] = false, s.bots[i].pos
			changed = true
		}
	}
	for i := range s.bots {
		if moving[i] {
			s.bots[i].pos = target[i]
		}
	}
}

// respawnStream separates respawn draws from the wall generator's.
const respawnStream = 0x636c6f7564727370 // "cloudrsp"

// respawnCell draws the cell where bot i reappears: uniformly among the
// empty cells with the fewest live opponent bots within range. Each draw
// has its own generator, seeded by game seed, turn and bot, so a state
// carries no generator to copy.
func (s *State) respawnCell(i, turn int, occ []int) (Point, bool) {
	f := s.fld
	me := s.bots[i].player
	var cand []Point
	best := -1
	for c := range f.cells() {
		p := f.at(c)
		if f.wall[c] || occ[c] >= 0 {
			continue
		}
		k := 0
		for j := range s.bots {
			o := &s.bots[j]
			if o.alive() && o.player != me && dist(o.pos, p) <= s.cfg.rng {
				k++
			}
		}
		switch {
		case best < 0 || k < best:
			best, cand = k, append(cand[:0], p)
		case k == best:
			cand = append(cand, p)
		}
	}
	if len(cand) == 0 {
		return Point{}, false
	}
	rng := rand.New(rand.NewPCG(uint64(s.seed), respawnStream+uint64(turn)*1_000_003+uint64(i)))
	return cand[rng.IntN(len(cand))], true
}

// visible marks the cells seat sees.
func (s *State) visible(seat int) []bool {
	f := s.fld
	vis := make([]bool, f.cells())
	r := s.cfg.vision
	for i := range s.bots {
		b := &s.bots[i]
		if b.player != seat || !b.alive() {
			continue
		}
		for dy := -r; dy <= r; dy++ {
			y := b.pos.Y + dy
			if y < 0 || y >= f.h {
				continue
			}
			span := r - abs(dy)
			for x := max(0, b.pos.X-span); x <= min(f.w-1, b.pos.X+span); x++ {
				vis[y*f.w+x] = true
			}
		}
	}
	return vis
}

// input is the state line sent to seat; occ is the occupancy.
func (s *State) input(seat int, occ []int) string {
	f := s.fld
	vis := s.visible(seat)
	b := make([]byte, 0, 4096)
	b = append(b, `{"turn_no":`...)
	b = strconv.AppendInt(b, int64(s.turn+1), 10)
	b = append(b, `,"players":{`...)
	for p, q := range s.quoted {
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, q...)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(s.points[p]), 10)
	}
	b = append(b, `},"bots":{`...)
	first := true
	for i := range s.bots {
		bt := &s.bots[i]
		if bt.player != seat && (!bt.alive() || !vis[f.idx(bt.pos)]) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, bt.id...)
		b = append(b, `":{"player":`...)
		b = append(b, s.quoted[bt.player]...)
		b = append(b, `,"position":`...)
		b = appendPoint(b, bt.pos)
		b = append(b, `,"health":`...)
		b = strconv.AppendInt(b, int64(bt.health), 10)
		b = append(b, `,"time":`...)
		b = strconv.AppendInt(b, int64(bt.time), 10)
		b = append(b, `,"can_shoot":[`...)
		b = s.appendTargets(b, bt.pos)
		b = append(b, "]}"...)
	}
	b = append(b, `},"empty":[`...)
	first = true
	for x := range f.w {
		for y := range f.h {
			c := y*f.w + x
			if !vis[c] || f.wall[c] || occ[c] >= 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendPoint(b, Point{x, y})
		}
	}
	b = append(b, "]}\n"...)
	return string(b)
}

// canShoot lists the cells a bot may fire at: in the field, not a wall,
// 1 to range steps away, by x then y. A dead bot's are those around the
// cell where it died, as in the seed's example (dead bot2, time 7, four
// cells); it cannot fire until it is back, somewhere else.
func (s *State) canShoot(b *bot) []Point {
	var out []Point
	s.eachTarget(b.pos, func(q Point) { out = append(out, q) })
	return out
}

func (s *State) eachTarget(from Point, fn func(Point)) {
	r := s.cfg.rng
	for dx := -r; dx <= r; dx++ {
		span := r - abs(dx)
		for dy := -span; dy <= span; dy++ {
			q := Point{from.X + dx, from.Y + dy}
			if (dx != 0 || dy != 0) && s.fld.open(q) {
				fn(q)
			}
		}
	}
}

// appendTargets writes canShoot's cells as JSON list items, without
// building the list.
func (s *State) appendTargets(b []byte, from Point) []byte {
	first := true
	s.eachTarget(from, func(q Point) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendPoint(b, q)
	})
	return b
}

// canFire checks a target for a bot at from and says what is wrong with it.
func (s *State) canFire(from, to Point) string {
	switch {
	case !s.fld.in(to):
		return fmt.Sprintf("is off the %d×%d field", s.fld.w, s.fld.h)
	case to == from:
		return "is the bot's own cell"
	case dist(from, to) > s.cfg.rng:
		return fmt.Sprintf("is %d steps from %v, beyond range %d", dist(from, to), from, s.cfg.rng)
	case s.fld.isWall(to):
		return "is a wall"
	}
	return ""
}

func appendPoint(b []byte, p Point) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(p.X), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.Y), 10)
	return append(b, ']')
}

func appendPoints(b []byte, ps []Point) []byte {
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPoint(b, p)
	}
	return append(b, ']')
}
