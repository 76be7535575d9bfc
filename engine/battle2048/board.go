package battle2048

import (
	"encoding/binary"
	"strconv"
)

// Size is the number of rows and of columns of a board.
const Size = 5

// Board is one player's 5×5 board of exponents: 0 is an empty cell and
// a > 0 is a tile worth 2^a. Index it as b[row][col], both zero-based.
type Board [Size][Size]uint8

// Cell is a position on a board, zero-based (the protocol's "r c" minus 1).
type Cell struct {
	Row, Col int
}

// OnBoard reports whether c lies inside a board.
func (c Cell) OnBoard() bool {
	return c.Row >= 0 && c.Row < Size && c.Col >= 0 && c.Col < Size
}

// Dir is a slide direction.
type Dir uint8

// The four directions, in the order of RULES.md (U R D L).
const (
	Up Dir = iota
	Right
	Down
	Left
)

// Dirs lists every direction.
var Dirs = [4]Dir{Up, Right, Down, Left}

// String returns the protocol letter: "U", "R", "D" or "L".
func (d Dir) String() string {
	if d <= Left {
		return "URDL"[d : d+1]
	}
	return "dir(" + strconv.Itoa(int(d)) + ")"
}

// lines[d][i][k] is the k-th cell of line i when sliding towards d, counted
// from the side the tiles move to: processing in this order is what makes
// "2 2 2" become "4 2" (the pair nearest the wall merges first).
var lines = func() (t [4][Size][Size]Cell) {
	for i := 0; i < Size; i++ {
		for k := 0; k < Size; k++ {
			t[Up][i][k] = Cell{k, i}
			t[Down][i][k] = Cell{Size - 1 - k, i}
			t[Left][i][k] = Cell{i, k}
			t[Right][i][k] = Cell{i, Size - 1 - k}
		}
	}
	return t
}()

// Slide moves every tile towards d as RULES.md §2 says and returns the new
// board, the number of merges X and the points they score (each merge adds
// the merged tile's value). The move changed the board if and only if next
// differs from b.
func (b *Board) Slide(d Dir) (next Board, merges int, gain int64) {
	for i := range lines[d] {
		line := &lines[d][i]
		n := 0         // cells of the output line filled so far
		fresh := false // the last output tile came from a merge in this move
		for k := range line {
			v := b[line[k].Row][line[k].Col]
			if v == 0 {
				continue
			}
			if n > 0 && !fresh {
				last := line[n-1]
				if next[last.Row][last.Col] == v {
					next[last.Row][last.Col] = v + 1
					merges++
					gain += int64(1) << (v + 1)
					fresh = true
					continue
				}
			}
			next[line[n].Row][line[n].Col] = v
			n++
			fresh = false
		}
	}
	return next, merges, gain
}

// CanSlide reports whether sliding towards d changes the board.
func (b *Board) CanSlide(d Dir) bool {
	for i := range lines[d] {
		line := &lines[d][i]
		for k := 1; k < Size; k++ {
			v := b[line[k].Row][line[k].Col]
			if v == 0 {
				continue
			}
			w := b[line[k-1].Row][line[k-1].Col]
			if w == 0 || w == v {
				return true
			}
		}
	}
	return false
}

// CanMove reports whether some direction changes the board. A player whose
// board cannot move loses before it is asked.
func (b *Board) CanMove() bool {
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			v := b[r][c]
			if v == 0 {
				continue
			}
			// A tile can go somewhere if a neighbour is empty or equal.
			if r > 0 && (b[r-1][c] == 0 || b[r-1][c] == v) ||
				r < Size-1 && (b[r+1][c] == 0 || b[r+1][c] == v) ||
				c > 0 && (b[r][c-1] == 0 || b[r][c-1] == v) ||
				c < Size-1 && (b[r][c+1] == 0 || b[r][c+1] == v) {
				return true
			}
		}
	}
	return false
}

// Empty counts the empty cells.
func (b *Board) Empty() int {
	n := 0
	for r := range b {
		for _, v := range b[r] {
			if v == 0 {
				n++
			}
		}
	}
	return n
}

// rowsMax is the room putRows needs: three digits and a separator per
// cell.
const rowsMax = 4 * Size * Size

// cellText[last][v] is exponent v in decimal followed by its separator
// (a space, or "\n" when last is 1), packed little-endian so putRows writes
// a cell with one store; cellLen[v] is how many of those bytes count.
var cellText, cellLen = func() (text [2][256]uint32, n [256]uint8) {
	for v := range 256 {
		digits := strconv.Itoa(v)
		n[v] = uint8(len(digits) + 1)
		for last, sep := range []string{" ", "\n"} {
			var w uint32
			for k, ch := range []byte(digits + sep) {
				w |= uint32(ch) << (8 * k)
			}
			text[last][v] = w
		}
	}
	return text, n
}()

// putRows writes the board as the protocol sends it (five lines of five
// space-separated exponents, each line ending in "\n") into buf from index
// i, and returns the index after it. buf must have rowsMax bytes free.
// Inputs are built every half-turn, hence the table.
func (b *Board) putRows(buf []byte, i int) int {
	buf = buf[:i+rowsMax]
	for r := range b {
		row := &b[r]
		for c := 0; c < Size-1; c++ {
			binary.LittleEndian.PutUint32(buf[i:], cellText[0][row[c]])
			i += int(cellLen[row[c]])
		}
		binary.LittleEndian.PutUint32(buf[i:], cellText[1][row[Size-1]])
		i += int(cellLen[row[Size-1]])
	}
	return i
}

// String is the board in the protocol's row format.
func (b Board) String() string {
	var buf [rowsMax]byte
	return string(buf[:b.putRows(buf[:], 0)])
}
