// A starting point for a Battle 2048 bot (Ringside game "battle2048"), in
// Go with the standard library only. Ringside builds it with
// "go build -o bot ." and runs ./bot.
//
// The protocol, in short (docs/battle2048.md has every detail). Read stdin,
// write stdout, one line at a time, and flush after every line.
//
//	opening:  one line "0" or "1", your player number. Answer "r c": the
//	          cell (rows and columns 1..5) of the OPPONENT's board that
//	          starts with a 2.
//	turn:     11 lines: "Turn TimeLeft MyScore OpponentScore", your 5 x 5
//	          board, the opponent's 5 x 5 board. A cell is an exponent: 0 is
//	          empty, 3 is an 8. (With protocol=beta the first line is left
//	          out; this bot tells the two apart by counting numbers.)
//	answer:   "Command M V r1 c1 ... rM cM" in one line, single spaces:
//	          Command is U R D or L and must change your board. X is the
//	          number of merges your slide makes; you then drop M tiles of 2^V
//	          on EMPTY cells of the opponent's board with M * 2^V = 2^(X+1)
//	          exactly (X = 0: always "1 1 r c").
//
// Any mistake (no change, wrong sum, an occupied cell, a late answer: 1 s
// per turn, 100 s in all) loses at once. A board that cannot move loses too.
// Debug output goes to stderr, never to stdout.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

const n = 5

type board [n][n]int

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	if !in.Scan() {
		return
	}
	fmt.Fprintln(out, "3 3") // the opening: the centre of the opponent's board
	out.Flush()
	for in.Scan() {
		head := strings.Fields(in.Text())
		var rows [][]int
		if len(head) == n { // protocol=beta: no header line
			rows = append(rows, numbers(head))
		}
		for len(rows) < 2*n && in.Scan() {
			rows = append(rows, numbers(strings.Fields(in.Text())))
		}
		if len(rows) < 2*n {
			return
		}
		var mine, opp board
		for i := 0; i < n; i++ {
			copy(mine[i][:], rows[i])
			copy(opp[i][:], rows[n+i])
		}
		d, merges := chooseSlide(mine)
		fmt.Fprintln(out, d+" "+attack(opp, merges))
		out.Flush()
	}
}

func numbers(words []string) []int {
	out := make([]int, len(words))
	for i, w := range words {
		out[i], _ = strconv.Atoi(w)
	}
	return out
}

// line returns the cells of line i for a slide toward d, starting from the
// side the tiles move to.
func line(d byte, i int) [n][2]int {
	var cells [n][2]int
	for j := 0; j < n; j++ {
		switch d {
		case 'L':
			cells[j] = [2]int{i, j}
		case 'R':
			cells[j] = [2]int{i, n - 1 - j}
		case 'U':
			cells[j] = [2]int{j, i}
		case 'D':
			cells[j] = [2]int{n - 1 - j, i}
		}
	}
	return cells
}

// slide returns the board after sliding toward d and the number of merges.
func slide(b board, d byte) (board, int) {
	var out board
	merges := 0
	for i := 0; i < n; i++ {
		cells := line(d, i)
		var tiles []int
		for _, c := range cells {
			if v := b[c[0]][c[1]]; v != 0 {
				tiles = append(tiles, v)
			}
		}
		var result []int
		for k := 0; k < len(tiles); k++ {
			if k+1 < len(tiles) && tiles[k] == tiles[k+1] {
				result = append(result, tiles[k]+1) // a merged tile does not merge again
				merges++
				k++
			} else {
				result = append(result, tiles[k])
			}
		}
		for j, c := range cells {
			if j < len(result) {
				out[c[0]][c[1]] = result[j]
			}
		}
	}
	return out, merges
}

// chooseSlide picks the slide with the most merges, then the most free
// cells. Some slide changes the board: Ringside does not ask otherwise.
func chooseSlide(b board) (string, int) {
	best, bestMerges, bestKey := "U", 0, -1
	for _, d := range []byte("URDL") {
		after, merges := slide(b, d)
		if after == b {
			continue
		}
		free := 0
		for _, row := range after {
			for _, v := range row {
				if v == 0 {
					free++
				}
			}
		}
		if key := merges*100 + free; key > bestKey {
			best, bestMerges, bestKey = string(d), merges, key
		}
	}
	return best, bestMerges
}

// attack drops one tile of 2^(merges+1) on an empty cell where it merges
// with nothing: a big lone tile is junk the opponent cannot use. (Many
// small tiles are legal too, M * 2^V = 2^(merges+1), but 2s merge easily.)
func attack(opp board, merges int) string {
	v := merges + 1
	bestR, bestC, bestEq := 0, 0, 5
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if opp[r][c] != 0 {
				continue
			}
			eq := 0
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				rr, cc := r+d[0], c+d[1]
				if rr >= 0 && rr < n && cc >= 0 && cc < n && opp[rr][cc] == v {
					eq++
				}
			}
			if eq < bestEq {
				bestR, bestC, bestEq = r, c, eq
			}
		}
	}
	return fmt.Sprintf("1 %d %d %d", v, bestR+1, bestC+1)
}
