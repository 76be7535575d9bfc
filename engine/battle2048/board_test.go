package battle2048

import (
	"testing"
)

// boardOf reads values (2, 4, 8 … or 0 for '.') row by row.
func boardOf(t *testing.T, rows [Size][Size]int) Board {
	t.Helper()
	var b Board
	for r := range rows {
		for c, v := range rows[r] {
			if v == 0 {
				continue
			}
			e := uint8(0)
			for x := v; x > 1; x >>= 1 {
				if x&1 != 0 {
					t.Fatalf("%d is not a power of two", v)
				}
				e++
			}
			b[r][c] = e
		}
	}
	return b
}

// TestSeedExample is the worked example of seed 003: the board slides
// right and every row behaves as the rule text says.
func TestSeedExample(t *testing.T) {
	before := [Size][Size]int{
		{0, 4, 0, 4, 0},
		{4, 2, 0, 0, 0},
		{2, 2, 2, 0, 0},
		{4, 2, 0, 2, 0},
		{2, 2, 2, 2, 2},
	}
	after := [Size][Size]int{
		{0, 0, 0, 0, 8}, // 4 and 4 merge into 8
		{0, 0, 0, 4, 2}, // 4 and 2 keep their order
		{0, 0, 0, 2, 4}, // the pair at the right end merges first
		{0, 0, 0, 4, 4}, // 2+2 = 4 does not merge again with the 4
		{0, 0, 2, 4, 4}, // two pairs make two 4s, not an 8
	}
	merges := []int{1, 0, 1, 1, 2}
	gains := []int64{8, 0, 4, 4, 8}
	for r := range before {
		var row, want [Size][Size]int
		row[r], want[r] = before[r], after[r]
		b := boardOf(t, row)
		got, x, gain := b.Slide(Right)
		if got != boardOf(t, want) || x != merges[r] || gain != gains[r] {
			t.Errorf("row %d: got\n%v X=%d gain=%d, want\n%v X=%d gain=%d", r+1, got, x, gain, boardOf(t, want), merges[r], gains[r])
		}
	}
	b := boardOf(t, before)
	got, x, gain := b.Slide(Right)
	if got != boardOf(t, after) || x != 5 || gain != 24 {
		t.Errorf("whole board: got\n%v X=%d gain=%d", got, x, gain)
	}
}

// TestSlideLines checks single lines of exponents in all four directions:
// a row for L and R, a column for U and D. toStart is the line after
// sliding towards its first cell (left or up), toEnd towards its last.
func TestSlideLines(t *testing.T) {
	cases := []struct {
		line, toStart, toEnd [Size]uint8
		merges               int
		gain                 int64
	}{
		{[Size]uint8{2, 2, 3, 8, 8}, [Size]uint8{3, 3, 9, 0, 0}, [Size]uint8{0, 0, 3, 3, 9}, 2, 8 + 512},
		{[Size]uint8{1, 1, 1, 0, 0}, [Size]uint8{2, 1, 0, 0, 0}, [Size]uint8{0, 0, 0, 1, 2}, 1, 4},
		{[Size]uint8{1, 1, 1, 1, 1}, [Size]uint8{2, 2, 1, 0, 0}, [Size]uint8{0, 0, 1, 2, 2}, 2, 8},
		{[Size]uint8{1, 1, 2, 2, 0}, [Size]uint8{2, 3, 0, 0, 0}, [Size]uint8{0, 0, 0, 2, 3}, 2, 12},
		{[Size]uint8{2, 1, 1, 0, 0}, [Size]uint8{2, 2, 0, 0, 0}, [Size]uint8{0, 0, 0, 2, 2}, 1, 4},
		{[Size]uint8{1, 0, 0, 0, 1}, [Size]uint8{2, 0, 0, 0, 0}, [Size]uint8{0, 0, 0, 0, 2}, 1, 4},
		{[Size]uint8{3, 0, 3, 3, 0}, [Size]uint8{4, 3, 0, 0, 0}, [Size]uint8{0, 0, 0, 3, 4}, 1, 16},
		{[Size]uint8{12, 12, 0, 0, 0}, [Size]uint8{13, 0, 0, 0, 0}, [Size]uint8{0, 0, 0, 0, 13}, 1, 8192},
	}
	type dirCase struct {
		d      Dir
		column bool
		toEnd  bool
	}
	for _, tc := range cases {
		for _, dc := range []dirCase{{Left, false, false}, {Right, false, true}, {Up, true, false}, {Down, true, true}} {
			for k := 0; k < Size; k++ { // every row or column
				var b, want Board
				exp := tc.toStart
				if dc.toEnd {
					exp = tc.toEnd
				}
				for i := 0; i < Size; i++ {
					if dc.column {
						b[i][k], want[i][k] = tc.line[i], exp[i]
					} else {
						b[k][i], want[k][i] = tc.line[i], exp[i]
					}
				}
				got, x, gain := b.Slide(dc.d)
				if got != want || x != tc.merges || gain != tc.gain {
					t.Errorf("%v slid %s (line %d): got %v X=%d gain=%d, want %v X=%d gain=%d",
						tc.line, dc.d, k, got, x, gain, want, tc.merges, tc.gain)
				}
				if b.CanSlide(dc.d) != (got != b) {
					t.Errorf("%v %s: CanSlide=%v but the slide changed=%v", tc.line, dc.d, b.CanSlide(dc.d), got != b)
				}
			}
		}
	}
}

func TestCanMove(t *testing.T) {
	var checker Board
	for r := range checker {
		for c := range checker[r] {
			checker[r][c] = uint8(1 + (r+c)%2)
		}
	}
	oneGap := checker
	oneGap[2][2] = 0
	onePair := checker
	onePair[4][3], onePair[4][4] = 3, 3
	var single Board
	single[0][0] = 5
	cases := []struct {
		name string
		b    Board
		want bool
		dirs [4]bool // which of U R D L change the board
	}{
		{"empty board", Board{}, false, [4]bool{}},
		{"full checkerboard", checker, false, [4]bool{}},
		{"checkerboard with a hole", oneGap, true, [4]bool{true, true, true, true}},
		{"checkerboard with one equal pair", onePair, true, [4]bool{false, true, false, true}},
		{"single tile in the top left corner", single, true, [4]bool{false, true, true, false}},
	}
	for _, tc := range cases {
		if got := tc.b.CanMove(); got != tc.want {
			t.Errorf("%s: CanMove = %v, want %v", tc.name, got, tc.want)
		}
		for i, d := range Dirs {
			next, _, _ := tc.b.Slide(d)
			if (next != tc.b) != tc.dirs[i] || tc.b.CanSlide(d) != tc.dirs[i] {
				t.Errorf("%s: %s changes the board = %v, CanSlide = %v, want %v", tc.name, d, next != tc.b, tc.b.CanSlide(d), tc.dirs[i])
			}
		}
	}
}

func TestBoardString(t *testing.T) {
	var b Board
	b[0][0], b[4][4], b[2][1] = 1, 12, 33
	want := "1 0 0 0 0\n0 0 0 0 0\n0 33 0 0 0\n0 0 0 0 0\n0 0 0 0 12\n"
	if got := b.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDirString(t *testing.T) {
	for d, want := range []string{"U", "R", "D", "L"} {
		if got := Dir(d).String(); got != want {
			t.Errorf("Dir(%d) = %q, want %q", d, got, want)
		}
	}
	if got := Dir(9).String(); got != "dir(9)" {
		t.Errorf("Dir(9) = %q", got)
	}
}

func BenchmarkSlide(b *testing.B) {
	var board Board
	for r := range board {
		for c := range board[r] {
			board[r][c] = uint8((r*3 + c*7) % 4)
		}
	}
	for b.Loop() {
		for _, d := range Dirs {
			board, _, _ = board.Slide(d)
		}
	}
}
