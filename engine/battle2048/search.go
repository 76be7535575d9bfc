package battle2048

import (
	"math/rand/v2"

	"ringside/engine"
)

// BotSearch is the searching built-in bot.
const BotSearch = "search"

// NewSearchBot returns the "search" bot. For each slide it works out its
// attack: every split of 2^(X+1) into equal tiles, up to 16 of them, each
// tile put where it leaves the opponent the worst best slide, the split
// that leaves the opponent's two-ply outlook worst winning, and a split
// that leaves the opponent unable to move winning the game at once. Then
// it plays the opponent's answer as the greedy bot would (its slide and
// its attack on this bot's board) and values the slide by its own best
// two-ply outlook after that answer, the merges it made, and how badly
// placed the opponent is after its slide.
func NewSearchBot(seed int64) engine.Bot {
	return &reader{p: &searchPolicy{
		rng:   rand.New(rand.NewPCG(uint64(seed), botPCG)),
		model: &greedyPolicy{rng: rand.New(rand.NewPCG(uint64(seed), botPCG+1))},
	}}
}

type searchPolicy struct {
	rng   *rand.Rand
	model *greedyPolicy // the opponent, as the search imagines it
}

// Weights of the search bot's choice of slide.
const (
	searchAttackWeight = 2 // per point of the opponent's position after its answer
	searchMergeWeight  = 8 // per merge (each one scores and strengthens the attack)
	searchRough        = 1 // per step of exponent between unequal neighbours
)

func (p *searchPolicy) opening() Cell {
	// A corner is where a lone 2 is least in the way of merges; the
	// opponent's opening tile is theirs to choose anyway.
	return Cell{p.rng.IntN(2) * (Size - 1), p.rng.IntN(2) * (Size - 1)}
}

func (p *searchPolicy) turn(me, opp *Board) (Dir, int, []Cell) {
	bestDir, bestVal, bestX := Dir(0), 0, -1
	var bestV int
	var bestCells []Cell
	for _, d := range Dirs {
		next, x, _ := me.Slide(d)
		if next == *me {
			continue
		}
		v, cells, hurt := attack(opp, x)
		var val int
		if hurt == stuckValue {
			val = 1 << 40 // the opponent cannot move: it loses before its turn
		} else {
			after := *opp
			for _, c := range cells {
				after[c.Row][c.Col] = uint8(v)
			}
			// The opponent's answer as the greedy bot would play it: its
			// slide, then its attack on my board.
			od, ov, ocells := p.model.turn(&after, &next)
			mine := next
			for _, c := range ocells {
				if c.OnBoard() && mine[c.Row][c.Col] == 0 {
					mine[c.Row][c.Col] = uint8(ov)
				}
			}
			theirs, _, _ := after.Slide(od)
			val = reply(&mine) + searchMergeWeight*x - searchAttackWeight*sBest(&theirs)
		}
		if bestX < 0 || val > bestVal || val == bestVal && p.rng.IntN(2) == 0 {
			bestDir, bestVal, bestX, bestV, bestCells = d, val, x, v, cells
		}
	}
	if bestX < 0 {
		return Up, 1, nil
	}
	return bestDir, bestV, bestCells
}

// reply is the value of b for its owner about to move: its best slide,
// valued by best after the slide (so two plies of its own), or stuckValue.
// It is measure.best with a term of its own; sharing that loop would make
// the measures call each other, and Go would then move every board they
// look at to the heap.
func reply(b *Board) int {
	v := stuckValue
	for _, d := range Dirs {
		next, x, _ := b.Slide(d)
		if next == *b {
			continue
		}
		v = max(v, sEval(&next)+2*weightPair*x+searchMeasure.worstTile(&next)/4)
	}
	return v
}

// attack splits 2^(x+1) into as many equal tiles as there is room for
// (several small tiles crowd a board more than one big one), tries the
// splits from most tiles to fewest, places each tile on the cell that
// leaves the opponent the worst best slide, and returns the split that
// hurts most together with that value for the opponent.
func attack(opp *Board, x int) (v int, cells []Cell, hurt int) {
	empty := opp.Empty()
	first := true
	for val := 1; val <= x+1; val++ {
		k := x + 1 - val
		if k > 4 || 1<<k > empty {
			continue // more than 16 tiles, or no room for them
		}
		b := *opp
		placed, h := searchMeasure.placeTiles(&b, val, 1<<k)
		if h != stuckValue {
			h = reply(&b)
		}
		if first || h < hurt {
			v, cells, hurt, first = val, placed, h, false
		}
	}
	return v, cells, hurt
}

// sBest is measure.best with the search bot's static measure.
func sBest(b *Board) int { return searchMeasure.best(b) }

// sEval is the search bot's static measure of a board for its owner:
// free cells and equal neighbours as the greedy bot counts them, less a
// cost for neighbours far apart in value (a small tile stuck between big
// ones takes many merges to clear).
func sEval(b *Board) int {
	score := 0
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			v := int(b[r][c])
			if v == 0 {
				score += weightEmpty
				continue
			}
			if c+1 < Size {
				if w := int(b[r][c+1]); w == v {
					score += weightPair
				} else if w != 0 {
					score -= searchRough * abs(w-v)
				}
			}
			if r+1 < Size {
				if w := int(b[r+1][c]); w == v {
					score += weightPair
				} else if w != 0 {
					score -= searchRough * abs(w-v)
				}
			}
		}
	}
	return score
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
