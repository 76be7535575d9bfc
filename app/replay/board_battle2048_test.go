package replay

import (
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/app/internal/paint"
	"ringside/engine"
	"ringside/engine/battle2048"
)

func TestBattleBoardDraws(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, battle2048.New(), battleLog(t))
	// A late step, where tiles are bigger and an attack was just placed.
	step := -1
	for i := len(d.steps) - 1; i >= 0; i-- {
		s := d.states[i].(*battle2048.State)
		if board, cells := s.LastAttack(); board >= 0 && len(cells) > 1 && len(d.steps[i].Seats) == 1 && d.steps[i].Seats[0].Verdict == engine.OK {
			step = i
			break
		}
	}
	if step < 0 {
		t.Fatal("no attack of two tiles or more in the game")
	}
	b, w := boardWindow(t, d, step, fyne.NewSize(760, 480))
	bb := b.(*battleBoard)
	s := d.states[step].(*battle2048.State)
	placedOn, cells := s.LastAttack()
	marked := map[battle2048.Cell]bool{}
	for _, c := range cells {
		marked[c] = true
	}
	for seat := range bb.sides {
		side := &bb.sides[seat]
		board := s.Board(seat)
		for r := range board {
			for c, e := range board[r] {
				want := ""
				if e > 0 {
					want = strconv.FormatInt(1<<e, 10)
				}
				if got := side.values[r][c].Text; got != want {
					t.Errorf("seat %d cell %d,%d: %q, want %q", seat, r, c, got, want)
				}
				fill, _ := tileColour(e, paint.DarkTheme())
				if paint.NRGBA(side.tiles[r][c].FillColor) != paint.NRGBA(fill) {
					t.Errorf("seat %d cell %d,%d: fill %v, want %v", seat, r, c, side.tiles[r][c].FillColor, fill)
				}
				hl := seat == placedOn && marked[battle2048.Cell{Row: r, Col: c}]
				if side.marks[r][c].Visible() != hl {
					t.Errorf("seat %d cell %d,%d: highlighted=%v, want %v", seat, r, c, side.marks[r][c].Visible(), hl)
				}
			}
		}
		if got, want := side.score.Text[:len("score ")+len(strconv.FormatInt(s.Score(seat), 10))], "score "+strconv.FormatInt(s.Score(seat), 10); got != want {
			t.Errorf("seat %d: score text %q, want %q", seat, side.score.Text, want)
		}
	}
	last, ok := s.LastMove()
	if !ok {
		t.Fatal("no last move")
	}
	if !bb.sides[last.Seat].arrow.Visible() || bb.sides[1-last.Seat].arrow.Visible() {
		t.Errorf("the direction arrow is not shown for the mover (seat %d) alone", last.Seat)
	}
	if want := map[battle2048.Dir]float32{battle2048.Up: 0, battle2048.Right: 90, battle2048.Down: 180, battle2048.Left: 270}[last.Move.Dir]; bb.sides[last.Seat].arrow.Angle != want {
		t.Errorf("arrow angle %v for %s, want %v", bb.sides[last.Seat].arrow.Angle, last.Move.Dir, want)
	}
	shot(t, w, "battle2048_board")
}

func TestBattleViewer(t *testing.T) {
	test.NewTempApp(t)
	v, w := newTestViewer(t, battle2048.New(), battleLog(t))
	v.Seek(v.Steps() * 2 / 3)
	shot(t, w, "battle2048")
	test.ApplyTheme(t, paint.Variant(theme.VariantLight))
	shot(t, w, "battle2048_light")
	test.ApplyTheme(t, test.Theme())
	// Every step draws without trouble, and the seat panel follows.
	for i := range v.Steps() {
		v.Seek(i)
		st := v.data.steps[i]
		if len(st.Asks) == 1 && v.panel.cards[st.Asks[0].Seat].inputText != st.Asks[0].Input {
			t.Fatalf("step %d: the seat panel does not show the input", i)
		}
	}
}

// TestBattleHeaderFits: at the widths a viewer window takes, the caption
// stays within the board and each side's "slid" note never covers its
// player's name or score.
func TestBattleHeaderFits(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, battle2048.New(), battleLog(t))
	step := len(d.steps) - 1 // game over: the longest caption
	for _, width := range []float32{520, 660, 760} {
		b, _ := boardWindow(t, d, step, fyne.NewSize(width, 480))
		bb := b.(*battleBoard)
		if c := rectOf(bb.caption); c.x+c.w > width {
			t.Errorf("width %v: caption %q ends at %v", width, bb.caption.Text, c.x+c.w)
		}
		for i, s := range bb.sides {
			if !s.slid.Visible() || s.slid.Text == "" {
				continue
			}
			note := rectOf(s.slid)
			for _, o := range []*canvas.Text{s.name, s.score} {
				if a := note.overlap(rectOf(o)); a > 0 {
					t.Errorf("width %v: side %d's note %q covers %q (%v units²)", width, i, s.slid.Text, o.Text, a)
				}
			}
		}
	}
}
