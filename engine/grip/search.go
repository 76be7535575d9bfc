package grip

import (
	"math"
	"math/rand/v2"
)

// BotSearch is the name of the searching built-in bot.
const BotSearch = "search"

// SearchBot looks a few turns ahead with the game's own rules. For each of
// its commands it plays the game on: the other players move as the greedy
// bot would in their place (without its random tie-breaks), and on its own
// next turns it tries every command again, searchDepth own turns deep.
// Each line of play then runs on for rolloutTurns more global turns with
// everybody playing greedy, and the position is valued by who fell (when),
// who is doomed on a falling block with no way off, and the greedy bot's
// judgement of its own square. It sees falls and traps several turns
// before the one-turn greedy bot does, both its own and its opponents'.
//
// Like the greedy bot it works out the coords order from its own moves and
// plays greedy until it knows it.
type SearchBot struct {
	g     *GreedyBot // parses the input and learns the coords order
	rng   *rand.Rand
	depth int
	roll  int
	lines []string
}

// Search parameters: own turns searched, and global turns of greedy play
// after the last of them. A default turn (depth 3) plays at most 216
// lines, each some 50 global turns long. Longer rollouts judge an attack
// by what it leads to a few own turns later (blocks falling next to a
// dodging opponent, an opponent stuck waiting after its own attack): 40
// turns instead of 16 took search from 46 to 64 of 200 games ahead of
// both greedy bots, for about twice the time. With fewer players on the
// board a global turn costs less and a fall needs a longer plan (a line
// of fallen blocks beside a dodging opponent, then an attack along its
// own line), so the rollouts grow to 1.5 times as long with three players
// left and 2.5 times with two; the most CPU time of one turn stays where
// four players are up.
const (
	searchDepth  = 3
	rolloutTurns = 40
)

// NewSearchBot returns a searching bot seeded with seed (for breaking
// ties between equal lines).
func NewSearchBot(seed int64) *SearchBot {
	return &SearchBot{
		g:     NewGreedyBot(seed),
		rng:   rand.New(rand.NewPCG(uint64(seed), 0x736561726368)), // "search"
		depth: searchDepth,
		roll:  rolloutTurns,
	}
}

// Hello returns the READY line.
func (*SearchBot) Hello() string { return "READY\n" }

// Feed collects input lines and answers at EOD.
func (b *SearchBot) Feed(line string) string {
	return feedInput(b.g, &b.lines, line, b.decide)
}

// Values of a position at the end of a line of play.
const (
	valueFallen = -100000.0 // the bot itself fell; later is better
	valueWin    = 20000.0   // everybody else fell
	valueKill   = 3000.0    // per opponent fallen
	valueDoomed = 2000.0    // per opponent on a falling block it cannot leave
	valueMyDoom = -50000.0  // the bot itself stands on such a block
)

// valuePressure weighs the opponents' own view of their squares: an
// opponent hemmed in by lines of attack, edges and fallen blocks is
// closer to a fall.
const valuePressure = 0.3

func (b *SearchBot) decide(v view) byte {
	me := v.players[v.id]
	if !me.alive || me.wait > 0 {
		return 'N'
	}
	// Until the coords order is known, search both readings, keep the
	// worse value of each command and favour a move that succeeds under
	// both, which teaches the order (as the greedy bot does).
	unsure := b.g.xy == 0
	roots := []*State{stateOf(&v)}
	var alt view
	if unsure {
		alt = swapped(v)
		roots = append(roots, stateOf(&alt))
	}
	best, bestVal := byte('N'), math.Inf(-1)
	for i := range len(Commands) {
		cmd := Commands[i]
		val := math.Inf(1)
		for _, root := range roots {
			s := *root
			val = min(val, b.line(&s, v.id, cmd, b.depth))
		}
		if unsure && moves(&v, cmd) && moves(&alt, cmd) {
			val += scoreProbe
		}
		val += b.rng.Float64() * 0.01
		if val > bestVal {
			best, bestVal = cmd, val
		}
	}
	return best
}

// line plays cmd for me on s, then the others until me's next turn, and
// returns the value of the best continuation.
func (b *SearchBot) line(s *State, me int, cmd byte, depth int) float64 {
	s.play(cmd)
	return b.others(s, me, depth)
}

// others plays the other players' turns up to me's next one as the model
// has them, and goes on from there: a rollout at the last depth, every
// command of me's otherwise.
func (b *SearchBot) others(s *State, me int, depth int) float64 {
	for !s.done && !s.players[me].Fallen && s.turn%Seats != me {
		s.play(modelCommand(s))
	}
	if s.done || s.players[me].Fallen {
		return value(s, me)
	}
	if depth <= 1 {
		roll := b.roll
		switch {
		case s.left == 3:
			roll = b.roll * 3 / 2
		case s.left <= 2:
			roll = b.roll * 5 / 2
		}
		for range roll {
			if s.done || s.players[me].Fallen {
				break
			}
			s.play(modelCommand(s))
		}
		return value(s, me)
	}
	if s.players[me].Wait > 0 {
		// Sitting out after an attack is no decision: it costs no depth,
		// so the search sees an attack, the wait and the next attack.
		return b.line(s, me, 'N', depth)
	}
	best := math.Inf(-1)
	for i := range len(Commands) {
		c := *s
		best = max(best, b.line(&c, me, Commands[i], depth-1))
	}
	return best
}

// value judges s for player me.
func value(s *State, me int) float64 {
	p := s.players[me]
	if p.Fallen {
		return valueFallen + float64(p.FellAt)
	}
	val := 0.0
	left := 0
	for i, o := range s.players {
		if i == me {
			continue
		}
		if o.Fallen {
			val += valueKill
			continue
		}
		left++
		if doomed(s, i) {
			val += valueDoomed
			continue
		}
		ov := viewOf(s, i)
		val -= valuePressure * greedyBest(&ov)
	}
	if left == 0 {
		return valueWin + val
	}
	if doomed(s, me) {
		return valueMyDoom + val
	}
	// The greedy bot's judgement of the square: lines of attack, edges,
	// fallen neighbours.
	v := viewOf(s, me)
	return val + greedyBest(&v)
}

// doomed reports whether player i stands on a block that falls before it
// can get off.
func doomed(s *State, i int) bool {
	p := s.players[i]
	k := s.blocks[p.Row/BlockSize][p.Col/BlockSize]
	if k <= 0 {
		return false
	}
	v := viewOf(s, i)
	// Own turns it still has before the fall, after any wait.
	until := (i - s.turn%Seats + Seats) % Seats // global turns to its next turn
	acts := 0
	for t := until; t < k; t += Seats {
		acts++
	}
	acts -= p.Wait
	return exitAny(&v, p.Row, p.Col, k) > acts
}

// modelCommand is what the turn player of s is taken to do: the greedy
// bot's choice without its random tie-breaks.
func modelCommand(s *State) byte {
	seat := s.turn % Seats
	p := s.players[seat]
	if p.Fallen || p.Wait > 0 {
		return 'N'
	}
	v := viewOf(s, seat)
	best, bestScore := byte('N'), math.Inf(-1)
	for i := range len(Commands) {
		if sc := modelGreedy.score(&v, Commands[i]); sc > bestScore {
			best, bestScore = Commands[i], sc
		}
	}
	return best
}

// greedyBest is the greedy bot's value of its best command in v.
func greedyBest(v *view) float64 {
	best := math.Inf(-1)
	for i := range len(Commands) {
		best = max(best, modelGreedy.score(v, Commands[i]))
	}
	return best
}

// modelGreedy scores commands for the model; its score does not touch its
// random source.
var modelGreedy = &GreedyBot{}

// stateOf builds a state to play on from a turn input. The turn limit is
// unknown to a bot and far away most of the game, so lines play as if
// there were none.
func stateOf(v *view) *State {
	s := &State{cfg: config{maxTurns: math.MaxInt}, turn: v.turn, ready: true}
	s.blocks = v.blocks
	for r := range s.blocks {
		for _, k := range s.blocks[r] {
			if k != 0 {
				s.busy++
			}
		}
	}
	for i, p := range v.players {
		s.players[i] = Player{Piece: Piece{Row: p.r, Col: p.c, Dir: p.dir}, Wait: p.wait, Fallen: !p.alive, FellAt: -1, Last: 'N'}
		if p.alive {
			s.left++
		} else {
			s.players[i].Row, s.players[i].Col = -100, -100
		}
	}
	return s
}

// viewOf is the input player seat would get from s, already parsed.
func viewOf(s *State, seat int) view {
	v := view{id: seat, turn: s.turn, blocks: s.blocks}
	for i, p := range s.players {
		v.players[i] = botPlayer{r: p.Row, c: p.Col, dir: p.Dir, wait: p.Wait, alive: !p.Fallen}
	}
	return v
}
