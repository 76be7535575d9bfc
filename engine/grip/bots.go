package grip

import (
	"iter"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Names of the built-in bots.
const (
	BotRandom = "random"
	BotGreedy = "greedy"
)

// inputLines is how many lines a turn input has before EOD: id, turn, six
// block rows and four player lines.
const inputLines = 2 + Blocks + Seats

// RandomBot answers a command drawn uniformly from U R D L A N each turn,
// like the sample AI shipped with the 2015 referee. It does not read the
// board, so it works with either coords order.
type RandomBot struct {
	rng *rand.Rand
}

// NewRandomBot returns a random bot seeded with seed.
func NewRandomBot(seed int64) *RandomBot {
	return &RandomBot{rng: rand.New(rand.NewPCG(uint64(seed), 0x72616e646f6d))} // "random"
}

// Hello returns the READY line.
func (*RandomBot) Hello() string { return "READY\n" }

// Feed answers at EOD and stays quiet on the other input lines.
func (b *RandomBot) Feed(line string) string {
	if TrimLine(line) != "EOD" {
		return ""
	}
	return commandLines[b.rng.IntN(len(commandLines))]
}

// commandLines are the answers, ready to write, so bots do not allocate.
var commandLines = [...]string{"U\n", "R\n", "D\n", "L\n", "A\n", "N\n"}

func commandLine(c byte) string {
	return commandLines[strings.IndexByte(Commands, c)]
}

// GreedyBot plays a one-turn lookahead: it never stays on or steps onto a
// block that falls before it can act again when it has a choice, attacks
// when an opponent stands in its line of fire on a block that will fall
// while the opponent probably still stands there, and otherwise keeps away
// from lines opponents can attack it along, from the board edge and from
// fallen blocks.
//
// The bot is not told the coords order. Until its first move that changes
// its square shows which number is the row, it judges every command under
// both readings and prefers a move that succeeds under both; from then on
// it reads the input the right way round, so it plays coords=rc (the
// default) and coords=xy matches alike.
type GreedyBot struct {
	rng   *rand.Rand
	lines []string
	xy    int // 0 unknown, 1 rc, 2 xy
	// what it did last turn, to detect the coords order
	lastA, lastB int
	lastCmd      byte
	haveLast     bool
}

// NewGreedyBot returns a greedy bot seeded with seed (for breaking ties).
func NewGreedyBot(seed int64) *GreedyBot {
	return &GreedyBot{rng: rand.New(rand.NewPCG(uint64(seed), 0x677265656479))} // "greedy"
}

// Hello returns the READY line.
func (*GreedyBot) Hello() string { return "READY\n" }

// Feed collects input lines and answers at EOD.
func (b *GreedyBot) Feed(line string) string {
	return feedInput(b, &b.lines, line, b.decide)
}

// feedInput is the Feed of the greedy and search bots. It collects input
// lines in *lines and at EOD answers decide's command for the input as g
// parses it, or N when the input is short or unreadable; g remembers the
// command to learn the coords order from its effect.
func feedInput(g *GreedyBot, lines *[]string, line string, decide func(view) byte) string {
	line = TrimLine(line)
	if line != "EOD" {
		if len(*lines) >= 4*inputLines {
			// Someone is sending nonsense; keep only what can still matter.
			*lines = append((*lines)[:0], (*lines)[len(*lines)-inputLines:]...)
		}
		*lines = append(*lines, line)
		return ""
	}
	cmd := byte('N')
	if in := *lines; len(in) >= inputLines {
		if v, ok := g.parse(in[len(in)-inputLines:]); ok {
			cmd = decide(v)
		}
	}
	g.lastCmd = cmd
	*lines = (*lines)[:0]
	return commandLine(cmd)
}

// view is a parsed turn input.
type view struct {
	id      int
	turn    int
	blocks  [Blocks][Blocks]int
	players [Seats]botPlayer
}

type botPlayer struct {
	r, c  int
	dir   byte
	wait  int
	alive bool
}

func (b *GreedyBot) parse(lines []string) (view, bool) {
	var v view
	var err error
	if v.id, err = strconv.Atoi(lines[0]); err != nil || v.id < 0 || v.id >= Seats {
		return v, false
	}
	if v.turn, err = strconv.Atoi(lines[1]); err != nil {
		return v, false
	}
	for r := range Blocks {
		f := strings.Fields(lines[2+r])
		if len(f) != Blocks {
			return v, false
		}
		for c := range Blocks {
			if v.blocks[r][c], err = strconv.Atoi(f[c]); err != nil {
				return v, false
			}
		}
	}
	var raw [Seats][2]int
	for i := range Seats {
		f := strings.Fields(lines[2+Blocks+i])
		if len(f) != 4 || len(f[2]) != 1 {
			return v, false
		}
		x, err1 := strconv.Atoi(f[0])
		y, err2 := strconv.Atoi(f[1])
		w, err3 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil {
			return v, false
		}
		raw[i] = [2]int{x, y}
		v.players[i] = botPlayer{dir: f[2][0], wait: w, alive: x >= 0 && y >= 0}
	}
	b.learnOrder(raw[v.id], v.players[v.id].alive)
	for i := range Seats {
		p := &v.players[i]
		p.r, p.c = raw[i][0], raw[i][1]
		if b.xy == 2 {
			p.r, p.c = p.c, p.r
		}
		if p.alive && !onBoard(p.r, p.c) {
			return v, false
		}
	}
	return v, true
}

// learnOrder compares the bot's own two numbers with last turn's after a
// move: a move up or down changes the row, so whichever number changed is
// the row.
func (b *GreedyBot) learnOrder(me [2]int, alive bool) {
	if b.xy != 0 || !alive {
		return
	}
	if b.haveLast && strings.IndexByte("URDL", b.lastCmd) >= 0 {
		da, db := abs(me[0]-b.lastA), abs(me[1]-b.lastB)
		vertical := b.lastCmd == 'U' || b.lastCmd == 'D'
		switch {
		case da+db != 1:
			// The move was cancelled; nothing learnt.
		case (da == 1) == vertical:
			b.xy = 1
		default:
			b.xy = 2
		}
	}
	b.lastA, b.lastB, b.haveLast = me[0], me[1], true
}

// Weights of the greedy bot's score. Falling outweighs everything; a sure
// kill outweighs every positional concern.
const (
	scoreDeath    = -10000.0
	scoreKill     = 100.0
	scoreThreat   = -45.0
	scoreAlign    = 12.0
	scoreDoomed   = -30.0
	scoreAround   = -4.0
	scoreEdge     = -3.0
	scoreCentre   = -4.0
	scoreIdleShot = -6.0
	scoreProbe    = 20.0
	// greedyNoise bounds the random tie-break added to every score.
	greedyNoise = 0.5
)

// swapped is v read the other way round: every player's row as its
// column and its column as its row.
func swapped(v view) view {
	for i := range v.players {
		p := &v.players[i]
		p.r, p.c = p.c, p.r
	}
	return v
}

func (b *GreedyBot) decide(v view) byte {
	me := v.players[v.id]
	if !me.alive || me.wait > 0 {
		return 'N'
	}
	// Until the coords order is known, judge every command under both
	// readings and favour a move that succeeds under both, which teaches
	// the order.
	unsure := b.xy == 0
	var alt view
	if unsure {
		alt = swapped(v)
	}
	best, bestScore := byte('N'), math.Inf(-1)
	for i := range len(Commands) {
		cmd := Commands[i]
		sc := b.score(&v, cmd)
		if unsure {
			sc = min(sc, b.score(&alt, cmd))
			if moves(&v, cmd) && moves(&alt, cmd) {
				sc += scoreProbe
			}
		}
		sc += b.rng.Float64() * greedyNoise
		if sc > bestScore {
			best, bestScore = cmd, sc
		}
	}
	return best
}

// score values one command by the position it leaves the bot in.
func (b *GreedyBot) score(v *view, cmd byte) float64 {
	me := v.players[v.id]
	r, c, dir := me.r, me.c, me.dir
	attack := cmd == 'A'
	if strings.IndexByte("URDL", cmd) >= 0 {
		dir = cmd
		dr, dc := step(cmd)
		nr, nc := r+dr, c+dc
		if canEnter(v, v.id, nr, nc) {
			r, c = nr, nc
		}
	}
	// Own turns from now to the next one it can act on: 1, or 3 after an
	// attack (it sits out two).
	rounds := 1
	if attack {
		rounds = 3
	}
	br, bc := r/BlockSize, c/BlockSize
	sc := 0.0
	if k := v.blocks[br][bc]; k > 0 {
		// Own turns it can still act on before the block falls at the end
		// of turn T+k-1 (it acts on T+4, T+8, …), and the moves it needs to
		// get off.
		acts := (k-1)/4 - (rounds - 1)
		if acts <= 0 {
			return scoreDeath + float64(k)
		}
		need := exitAny(v, r, c, k)
		if need > acts {
			return scoreDeath/2 + float64(k)
		}
		sc += scoreDoomed * float64(need) / float64(acts)
	}
	// Opponents that can attack along a line through its block.
	for j, o := range v.players {
		if j == v.id || !o.alive {
			continue
		}
		obr, obc := o.r/BlockSize, o.c/BlockSize
		var n int
		var toward byte
		switch {
		case obr == br && obc != bc:
			n = abs(obc - bc)
			toward = 'R'
			if bc < obc {
				toward = 'L'
			}
		case obc == bc && obr != br:
			n = abs(obr - br)
			toward = 'D'
			if br < obr {
				toward = 'U'
			}
		default:
			continue
		}
		// Own turns this bot gets between the opponent's attack and its block
		// falling, minus those it must sit out.
		delay := o.wait
		if o.dir != toward {
			delay++ // the opponent must turn first
		}
		avail := n + delay - (rounds - 1)
		need := exitCost(v, r, c, toward == 'L' || toward == 'R')
		if need > avail {
			w := 1.0
			if o.dir != toward {
				w = 0.4
			}
			sc += scoreThreat * w / float64(n)
		}
	}
	if attack {
		sc += b.attackValue(v, r, c, dir)
	} else {
		// Facing an opponent's line sets up next turn's attack.
		sc += scoreAlign * float64(targets(v, r, c, dir))
	}
	// Fallen or falling neighbour blocks and the board edge cut escapes.
	edges, closed := sides(&v.blocks, br, bc)
	sc += scoreEdge*float64(edges) + scoreAround*float64(closed)
	if r%BlockSize == 1 && c%BlockSize == 1 {
		sc += scoreCentre
	}
	return sc
}

// attackValue is the expected kills of an attack from (r, c) facing dir.
func (b *GreedyBot) attackValue(v *view, r, c int, dir byte) float64 {
	_, dc := step(dir)
	val := 0.0
	// inFire leaves out opponents on falling blocks: the attack changes
	// nothing there.
	for o, n := range inFire(v, r, c, dir) {
		// The opponent acts n times before its block falls, less its wait;
		// it survives only by leaving the line sideways.
		acts := n - o.wait
		need := exitCost(v, o.r, o.c, dc != 0)
		if need > acts {
			val += scoreKill
		} else {
			p := 1.0
			for range acts - need + 1 {
				p *= 0.55
			}
			val += scoreKill * p
		}
	}
	if val == 0 {
		return scoreIdleShot
	}
	return val
}

// targets counts opponents standing on stable blocks in the line of fire
// from (r, c) facing dir.
func targets(v *view, r, c int, dir byte) int {
	n := 0
	for range inFire(v, r, c, dir) {
		n++
	}
	return n
}

// inFire yields the living opponents on stable blocks in the line of fire
// from (r, c) facing dir, each with how many blocks away it stands.
func inFire(v *view, r, c int, dir byte) iter.Seq2[botPlayer, int] {
	return func(yield func(botPlayer, int) bool) {
		dr, dc := step(dir)
		br, bc := r/BlockSize, c/BlockSize
		for j, o := range v.players {
			if j == v.id || !o.alive {
				continue
			}
			obr, obc := o.r/BlockSize, o.c/BlockSize
			n := 0
			switch {
			case dr == 0 && obr == br && (obc-bc)*dc > 0:
				n = abs(obc - bc)
			case dc == 0 && obc == bc && (obr-br)*dr > 0:
				n = abs(obr - br)
			default:
				continue
			}
			if v.blocks[obr][obc] != 0 {
				continue
			}
			if !yield(o, n) {
				return
			}
		}
	}
}

// exitCost is how many moves the player at (r, c) needs to leave its block
// sideways to an attack line that runs horizontally (or vertically), into a
// block that is neither fallen nor about to fall; 99 when there is none.
func exitCost(v *view, r, c int, horizontal bool) int {
	br, bc := r/BlockSize, c/BlockSize
	off, dbr, dbc := c%BlockSize, 0, 1
	if horizontal {
		off, dbr, dbc = r%BlockSize, 1, 0
	}
	best := 99
	// The block before (up or left) is off+1 moves away, the one after
	// (down or right) BlockSize-off.
	for _, side := range [2]struct{ sign, cost int }{{-1, off + 1}, {1, BlockSize - off}} {
		nbr, nbc := br+side.sign*dbr, bc+side.sign*dbc
		if nbr < 0 || nbr >= Blocks || nbc < 0 || nbc >= Blocks {
			continue
		}
		if k := v.blocks[nbr][nbc]; k < 0 || (k > 0 && k <= 8) {
			continue
		}
		best = min(best, side.cost)
	}
	return best
}

// sides counts the sides of block (br, bc) on the board edge, and those
// whose neighbour block has fallen or is to fall.
func sides(blocks *[Blocks][Blocks]int, br, bc int) (edges, closed int) {
	for _, d := range []byte(Directions) {
		dr, dc := step(d)
		nbr, nbc := br+dr, bc+dc
		if nbr < 0 || nbr >= Blocks || nbc < 0 || nbc >= Blocks {
			edges++
		} else if blocks[nbr][nbc] != 0 {
			closed++
		}
	}
	return edges, closed
}

// exitAny is how many moves the player at (r, c) needs to leave its block,
// which falls in k turns, for a neighbouring block that is neither fallen
// nor falling about as soon; 99 when there is none.
func exitAny(v *view, r, c, k int) int {
	br, bc := r/BlockSize, c/BlockSize
	ro, co := r%BlockSize, c%BlockSize
	best := 99
	for _, e := range [4]struct{ dbr, dbc, cost int }{
		{-1, 0, ro + 1}, {1, 0, BlockSize - ro}, {0, -1, co + 1}, {0, 1, BlockSize - co},
	} {
		nbr, nbc := br+e.dbr, bc+e.dbc
		if nbr < 0 || nbr >= Blocks || nbc < 0 || nbc >= Blocks {
			continue
		}
		if t := v.blocks[nbr][nbc]; t < 0 || (t > 0 && t <= k+attackStep) {
			continue
		}
		best = min(best, e.cost)
	}
	return best
}

// moves reports whether cmd is a move that changes the bot's square.
func moves(v *view, cmd byte) bool {
	if strings.IndexByte(Directions, cmd) < 0 {
		return false
	}
	me := v.players[v.id]
	dr, dc := step(cmd)
	return canEnter(v, v.id, me.r+dr, me.c+dc)
}

// canEnter applies the move rules: on the board, block not fallen, and
// more than 3 from every other player on the board.
func canEnter(v *view, me, r, c int) bool {
	if !onBoard(r, c) || v.blocks[r/BlockSize][c/BlockSize] < 0 {
		return false
	}
	for j, o := range v.players {
		if j != me && o.alive && manhattan(r, c, o.r, o.c) < MinStartDistance {
			return false
		}
	}
	return true
}
