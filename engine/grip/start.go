package grip

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Piece is a player's square and facing: 'U', 'R', 'D' or 'L'.
type Piece struct {
	Row, Col int
	Dir      byte
}

// Directions in the order the start generator draws them.
const Directions = "URDL"

// MinStartDistance is the smallest Manhattan distance between two players
// at the start (the rule texts: "more than 3").
const MinStartDistance = 4

// startExample is quoted in error messages so a user sees the format.
const startExample = "14,0,D/17,14,L/10,14,U/5,2,R"

// step returns the row and column change of a move in direction d.
func step(d byte) (dr, dc int) {
	switch d {
	case 'U':
		return -1, 0
	case 'D':
		return 1, 0
	case 'L':
		return 0, -1
	case 'R':
		return 0, 1
	}
	return 0, 0
}

func manhattan(r1, c1, r2, c2 int) int {
	return abs(r1-r2) + abs(c1-c2)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func onBoard(r, c int) bool { return r >= 0 && r < Size && c >= 0 && c < Size }

// ParseStart reads the start option: "r,c,D/r,c,D/r,c,D/r,c,D" for players
// 0..3, row then column counted from 0, D one of U R D L. It refuses a
// square off the board and players closer than MinStartDistance.
func ParseStart(s string) ([Seats]Piece, error) {
	var out [Seats]Piece
	parts := strings.Split(s, "/")
	if len(parts) != Seats {
		return out, fmt.Errorf("option start: want %d players as row,column,facing separated by \"/\", e.g. %s; got %d part(s) in %q",
			Seats, startExample, len(parts), s)
	}
	for i, part := range parts {
		f := strings.Split(part, ",")
		if len(f) != 3 {
			return out, fmt.Errorf("option start: player %d is %q; want row,column,facing such as 14,0,D", i, part)
		}
		r, err1 := strconv.Atoi(f[0])
		c, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return out, fmt.Errorf("option start: player %d is %q; row and column must be whole numbers, as in 14,0,D", i, part)
		}
		if r < 0 || r >= Size {
			return out, fmt.Errorf("option start: player %d at row %d is off the %d×%d board (rows and columns are 0..%d)", i, r, Size, Size, Size-1)
		}
		if c < 0 || c >= Size {
			return out, fmt.Errorf("option start: player %d at column %d is off the %d×%d board (rows and columns are 0..%d)", i, c, Size, Size, Size-1)
		}
		if len(f[2]) != 1 || strings.IndexByte(Directions, f[2][0]) < 0 {
			return out, fmt.Errorf("option start: player %d faces %q; want one of U, R, D, L", i, f[2])
		}
		out[i] = Piece{Row: r, Col: c, Dir: f[2][0]}
		for j := range i {
			if d := manhattan(r, c, out[j].Row, out[j].Col); d < MinStartDistance {
				return out, fmt.Errorf("option start: players %d (row %d, column %d) and %d (row %d, column %d) are %d apart; every two players must be at least %d apart (Manhattan distance)",
					j, out[j].Row, out[j].Col, i, r, c, d, MinStartDistance)
			}
		}
	}
	return out, nil
}

// FormatStart writes a start in the format ParseStart reads.
func FormatStart(p [Seats]Piece) string {
	var b strings.Builder
	for i, x := range p {
		if i > 0 {
			b.WriteByte('/')
		}
		fmt.Fprintf(&b, "%d,%d,%c", x.Row, x.Col, x.Dir)
	}
	return b.String()
}

// GenerateStart draws a start from seed the way RULES.md §1 says: each
// player in turn on a square drawn uniformly from those at least
// MinStartDistance from every player already placed, facing a direction
// drawn uniformly.
func GenerateStart(seed int64) [Seats]Piece {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x67726970737461)) // "gripsta"
	var out [Seats]Piece
	free := make([]int, 0, Size*Size)
	for i := range out {
		free = free[:0]
		for sq := range Size * Size {
			r, c := sq/Size, sq%Size
			ok := true
			for j := range i {
				if manhattan(r, c, out[j].Row, out[j].Col) < MinStartDistance {
					ok = false
					break
				}
			}
			if ok {
				free = append(free, sq)
			}
		}
		// Three players rule out at most 3×25 of the 324 squares, so free
		// is never empty.
		sq := free[rng.IntN(len(free))]
		out[i] = Piece{Row: sq / Size, Col: sq % Size, Dir: Directions[rng.IntN(len(Directions))]}
	}
	return out
}
