package battle2048

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"ringside/engine"
)

// Names of the built-in bots.
const (
	BotRandom = "random" // a random legal slide and a random legal attack
	BotGreedy = "greedy" // looks one opponent tile ahead and attacks where it hurts most
)

// botPCG is the second PCG word of the bots' random streams, so a bot and
// a game seeded alike do not share a stream.
const botPCG = 0x2048b07

// policy is a bot's brain: where to put the opening tile and what to play
// on a turn. me and opp are the boards of the input.
type policy interface {
	opening() Cell
	turn(me, opp *Board) (Dir, int, []Cell)
}

// reader turns the input lines into the opening and the turns, for both
// protocols: after the opening line, a block whose first line has four
// numbers is a final-protocol input of 11 lines, otherwise a beta one of 10.
type reader struct {
	p       policy
	started bool
	want    int
	lines   []string
}

// Hello is empty: Battle 2048 bots say nothing before the opening.
func (r *reader) Hello() string { return "" }

// Feed takes one input line and answers once an input is complete.
func (r *reader) Feed(line string) string {
	line = strings.TrimRight(line, "\r")
	if !r.started {
		r.started = true
		c := r.p.opening()
		return strconv.Itoa(c.Row+1) + " " + strconv.Itoa(c.Col+1) + "\n"
	}
	if len(r.lines) == 0 {
		r.want = 2 * Size
		if len(strings.Fields(line)) == 4 {
			r.want++
		}
	}
	r.lines = append(r.lines, line)
	if len(r.lines) < r.want {
		return ""
	}
	rows := r.lines[len(r.lines)-2*Size:]
	var me, opp Board
	readRows(&me, rows[:Size])
	readRows(&opp, rows[Size:])
	r.lines = r.lines[:0]
	d, v, cells := r.p.turn(&me, &opp)
	return formatMove(d, v, cells)
}

// readRows fills b from five input rows; anything unreadable stays empty,
// so a bot never stops on odd input.
func readRows(b *Board, rows []string) {
	for i, row := range rows {
		for j, f := range strings.Fields(row) {
			if j >= Size {
				break
			}
			if n, err := strconv.Atoi(f); err == nil && n > 0 && n < 256 {
				b[i][j] = uint8(n)
			}
		}
	}
}

func formatMove(d Dir, v int, cells []Cell) string {
	if len(cells) == 0 {
		// No legal attack exists (it cannot happen after a legal slide);
		// answer something well formed anyway.
		cells = []Cell{{0, 0}}
	}
	m := Move{Dir: d, M: len(cells), V: v, Cells: cells}
	return m.String() + "\n"
}

// emptyCells lists the empty cells of b in row order.
func emptyCells(b *Board, dst []Cell) []Cell {
	for r := range b {
		for c, v := range b[r] {
			if v == 0 {
				dst = append(dst, Cell{r, c})
			}
		}
	}
	return dst
}

// NewRandomBot returns the "random" bot: a uniformly random slide among
// those that change the board, then a random legal attack (a random split
// of 2^(X+1) into equal tiles that fits, on random empty cells).
func NewRandomBot(seed int64) engine.Bot {
	return &reader{p: &randomPolicy{rng: rand.New(rand.NewPCG(uint64(seed), botPCG))}}
}

type randomPolicy struct{ rng *rand.Rand }

func (p *randomPolicy) opening() Cell {
	return Cell{p.rng.IntN(Size), p.rng.IntN(Size)}
}

func (p *randomPolicy) turn(me, opp *Board) (Dir, int, []Cell) {
	var legal []Dir
	for _, d := range Dirs {
		if me.CanSlide(d) {
			legal = append(legal, d)
		}
	}
	if len(legal) == 0 {
		return Up, 1, nil
	}
	d := legal[p.rng.IntN(len(legal))]
	_, x, _ := me.Slide(d)
	empty := emptyCells(opp, nil)
	// V from 1 to X+1 gives M = 2^(X+1-V) tiles; keep the splits that fit.
	var vs []int
	for v := 1; v <= x+1; v++ {
		if x+1-v < 6 && 1<<(x+1-v) <= len(empty) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return d, x + 1, nil
	}
	v := vs[p.rng.IntN(len(vs))]
	m := 1 << (x + 1 - v)
	p.rng.Shuffle(len(empty), func(i, j int) { empty[i], empty[j] = empty[j], empty[i] })
	return d, v, empty[:m]
}

// NewGreedyBot returns the "greedy" bot. It picks the slide whose board
// stays best even after the opponent drops a 2 on the worst cell, and it
// attacks with the split and cells that leave the opponent the worst best
// slide, winning outright when a placement leaves it unable to move.
func NewGreedyBot(seed int64) engine.Bot {
	return &reader{p: &greedyPolicy{rng: rand.New(rand.NewPCG(uint64(seed), botPCG))}}
}

type greedyPolicy struct{ rng *rand.Rand }

// Weights of the static evaluation: free cells keep a board alive, equal
// neighbours are merges to come.
const (
	weightEmpty = 10
	weightPair  = 4
	stuckValue  = -1000000
)

// static scores a board for the player who owns it.
func static(b *Board) int {
	score := 0
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			v := b[r][c]
			if v == 0 {
				score += weightEmpty
				continue
			}
			if c+1 < Size && b[r][c+1] == v {
				score += weightPair
			}
			if r+1 < Size && b[r+1][c] == v {
				score += weightPair
			}
		}
	}
	return score
}

// measure is a bot's static evaluation of a board for its owner. The
// greedy and search bots share their lookahead and differ in it; it is a
// value rather than a function so the hot loops call it directly and
// their boards stay on the stack.
type measure uint8

const (
	greedyMeasure measure = iota // static
	searchMeasure                // sEval
)

func (m measure) eval(b *Board) int {
	if m == searchMeasure {
		return sEval(b)
	}
	return static(b)
}

// best is the value of b for its owner about to move: the best eval after
// one legal slide plus its merges, or stuckValue when no slide changes b.
func (m measure) best(b *Board) int {
	v := stuckValue
	for _, d := range Dirs {
		next, x, _ := b.Slide(d)
		if next == *b {
			continue
		}
		v = max(v, m.eval(&next)+2*weightPair*x)
	}
	return v
}

// worstTile is best(b) after a 2 on the worst cell: the opponent's most
// common attack and a fair worst case, and a quick measure of how much
// room b keeps. It leaves b as it found it.
func (m measure) worstTile(b *Board) int {
	worst := m.best(b)
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if b[r][c] != 0 {
				continue
			}
			b[r][c] = 1
			worst = min(worst, m.best(b))
			b[r][c] = 0
		}
	}
	return worst
}

// placeTiles puts n tiles of exponent v on b one at a time, each on the
// empty cell that leaves b's owner the lowest best(b) (the first such
// cell in row order), and returns the cells and best(b) after the last
// tile. b must have n empty cells.
func (m measure) placeTiles(b *Board, v, n int) ([]Cell, int) {
	cells := make([]Cell, 0, n)
	val := 0
	for range n {
		pick, pickVal := Cell{-1, -1}, 0
		for r := 0; r < Size; r++ {
			for c := 0; c < Size; c++ {
				if b[r][c] != 0 {
					continue
				}
				b[r][c] = uint8(v)
				bv := m.best(b)
				b[r][c] = 0
				if pick.Row < 0 || bv < pickVal {
					pick, pickVal = Cell{r, c}, bv
				}
			}
		}
		b[pick.Row][pick.Col] = uint8(v)
		cells = append(cells, pick)
		val = pickVal
	}
	return cells, val
}

func (p *greedyPolicy) opening() Cell {
	return Cell{p.rng.IntN(Size), p.rng.IntN(Size)}
}

func (p *greedyPolicy) turn(me, opp *Board) (Dir, int, []Cell) {
	bestDir, bestVal, bestX := Dir(0), 0, -1
	for _, d := range Dirs {
		next, x, _ := me.Slide(d)
		if next == *me {
			continue
		}
		// The opponent's answer is unknown; a single 2 on the cell that
		// hurts most is its most common attack and a fair worst case.
		val := greedyMeasure.worstTile(&next) + 3*weightPair*x
		if bestX < 0 || val > bestVal || val == bestVal && p.rng.IntN(2) == 0 {
			bestDir, bestVal, bestX = d, val, x
		}
	}
	if bestX < 0 {
		return Up, 1, nil
	}
	v, cells := p.attack(opp, bestX)
	return bestDir, v, cells
}

// attack chooses the split of 2^(x+1) into equal tiles and their cells on
// opp: tiles are placed one at a time on the cell that leaves the opponent
// the worst best slide, and the split whose result is worst for it wins.
func (p *greedyPolicy) attack(opp *Board, x int) (int, []Cell) {
	empty := opp.Empty()
	bestV, bestVal := 0, 0
	var bestCells []Cell
	for v := x + 1; v >= 1; v-- {
		k := x + 1 - v
		if k >= 4 || 1<<k > empty { // more than 8 tiles: costly and rarely better
			break
		}
		b := *opp
		cells, val := greedyMeasure.placeTiles(&b, v, 1<<k)
		if bestCells == nil || val < bestVal {
			bestV, bestVal, bestCells = v, val, cells
		}
	}
	return bestV, bestCells
}
