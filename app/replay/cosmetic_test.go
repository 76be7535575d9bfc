package replay

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"ringside/engine"
	"ringside/engine/cloud"
	"ringside/engine/grip"
)

// TestCaptionsCountToTheGamesLength: the board's caption, the seat
// panel's header and the counter all count to the turn the game really
// ended on, never the max_turns option.
func TestCaptionsCountToTheGamesLength(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		name    string
		g       engine.Game
		log     *engine.Log
		caption func(*Viewer) string
	}{
		{"grip", grip.New(), gripLog(t), func(v *Viewer) string { return v.board.(*gripBoard).caption.Text }},
		{"cloud", cloud.New(), playLog(t, cloud.New(), engine.Options{"turns": "90", "transport": "stdio"}, 11, "hunter", "random"),
			func(v *Viewer) string { return v.board.(*cloudBoard).caption.Text }},
	} {
		v, _ := newTestViewer(t, tc.g, tc.log)
		last := v.data.steps[v.Steps()-1].Turn
		limit := 0
		switch st := v.data.states[0].(type) {
		case *grip.State:
			limit = st.MaxTurns()
		case *cloud.State:
			limit = st.Rules().Turns
		}
		if tc.name == "grip" && last >= limit {
			t.Fatalf("%s: the game ran to its limit (%d of %d turns): the test needs one that ends early", tc.name, last, limit)
		}
		for _, i := range []int{v.Steps() / 3, v.Steps() - 1} {
			v.Seek(i)
			want := fmt.Sprintf("Turn %d of %d", v.data.steps[i].Turn, last)
			if c := tc.caption(v); !strings.Contains(c, want) {
				t.Errorf("%s step %d: caption %q, want it to contain %q (the counter says %q)", tc.name, i, c, want, v.position.Text)
			}
			if want := fmt.Sprintf("turn %d / %d", v.data.steps[i].Turn, last); !strings.HasPrefix(v.position.Text, want) {
				t.Errorf("%s step %d: counter %q, want %q", tc.name, i, v.position.Text, want)
			}
			if want := fmt.Sprintf("Turn %d of %d", v.data.steps[i].Turn, last); v.panel.header.Text != want {
				t.Errorf("%s step %d: panel header %q, want %q", tc.name, i, v.panel.header.Text, want)
			}
		}
	}
}

// TestTimelineHoverAgreesWithCounter hovers every marker of a game after
// seeking to it: the hover text names the step and turn the counter shows.
func TestTimelineHoverAgreesWithCounter(t *testing.T) {
	test.NewTempApp(t)
	v, _ := newTestViewer(t, grip.New(), gripLog(t))
	tl := v.timeline
	width := tl.Size().Width
	if len(tl.marks) == 0 {
		t.Fatal("no markers")
	}
	for _, m := range tl.marks {
		x := tl.xOf(m.at, width)
		test.TapAt(tl, fyne.NewPos(x, tlTrackH/2))
		i := tl.markAt(x, tlTrackH/2, width)
		tl.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x, tlTrackH/2)}})
		// "turn 40 / 367 · step 41 / 370" names turn 40, step 41.
		var turn, of, step, steps int
		if _, err := fmt.Sscanf(v.position.Text, "turn %d / %d · step %d / %d", &turn, &of, &step, &steps); err != nil {
			t.Fatalf("counter %q: %v", v.position.Text, err)
		}
		want := fmt.Sprintf("turn %d, step %d ·", turn, step)
		if tl.marks[i].step == v.Step() && !strings.HasPrefix(tl.hover, want) {
			t.Errorf("marker at step %d: hover %q, counter %q: want the hover to start %q", m.step, tl.hover, v.position.Text, want)
		}
	}
}

// longCloudLog is a 300-turn four-player Cloud game: kills and respawns in
// most turns.
func longCloudLog(t testing.TB) *engine.Log {
	return playLog(t, cloud.New(), engine.Options{"turns": "300", "transport": "stdio"}, 3, "hunter", "random", "squad", "random")
}

// TestCloudTimelineReadable: a 300-turn Cloud game's markers are grouped,
// so each kind's markers stand apart even on a 1024-unit window, and a
// group's hover says how many events it holds.
func TestCloudTimelineReadable(t *testing.T) {
	test.NewTempApp(t)
	v, w := newTestViewer(t, cloud.New(), longCloudLog(t))
	w.Resize(fyne.NewSize(1024, 768))
	tl := v.timeline
	width := tl.Size().Width
	byKind := map[string][]float32{}
	events := 0
	for _, m := range tl.marks {
		byKind[m.kind] = append(byKind[m.kind], tl.xOf(m.at, width))
		events += m.n
	}
	if got := len(v.data.events); events != got {
		t.Errorf("markers hold %d events, the game has %d", events, got)
	}
	if len(byKind[engine.EventKill]) < 10 {
		t.Fatalf("only %d kill markers: the test needs a busy game", len(byKind[engine.EventKill]))
	}
	for kind, xs := range byKind {
		sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
		for i := 1; i < len(xs); i++ {
			if gap := xs[i] - xs[i-1]; gap < 3*tlMarkW {
				t.Errorf("%s markers %v units apart at width %v: a solid wall", kind, gap, width)
				break
			}
		}
	}
	// A grouped marker says what it holds and where.
	for _, m := range tl.marks {
		if m.n < 2 {
			continue
		}
		x := tl.xOf(m.at, width)
		top, h := m.band()
		tl.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x, top+h-1)}})
		if i := tl.markAt(x, top+h-1, width); tl.marks[i].step != m.step || tl.marks[i].kind != m.kind {
			continue
		}
		want := fmt.Sprintf("steps %d–%d · %s ×%d: ", m.step+1, m.last+1, m.kind, m.n)
		if !strings.Contains(tl.hover, want) {
			t.Errorf("hover %q, want it to contain %q", tl.hover, want)
		}
		break
	}
}

// TestCloudLegendNamesNeverOverlap: long player names are cut with an
// ellipsis in the middle, so no chip runs into the next one or into the
// Vision selector, and names that differ only at the end still differ.
func TestCloudLegendNamesNeverOverlap(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, cloud.New(), cloudLog(t))
	names := []string{"builtin:cloud/random", "builtin:cloud/random#2", "builtin:cloud/squad-with-a-long-name"}
	for _, width := range []float32{420, 520, 700, 870} {
		b := newCloudBoard(names)
		w := test.NewTempWindow(t, b.Object())
		w.SetPadded(false)
		w.Resize(fyne.NewSize(width, 600))
		step := busyCloudStep(d)
		b.Show(d.states[step], &d.steps[step])
		// Each chip's name and text, and the Vision label, as one column
		// each: no two may share any space.
		var cols []rect
		seen := map[string]bool{}
		for i, c := range b.chips {
			head, tail, _ := strings.Cut(c.name.Text, "…")
			if !strings.HasPrefix(names[i], head) || !strings.HasSuffix(names[i], tail) {
				t.Errorf("width %v: chip %d shows %q for %q", width, i, c.name.Text, names[i])
			}
			if seen[c.name.Text] {
				t.Errorf("width %v: two chips read %q", width, c.name.Text)
			}
			seen[c.name.Text] = true
			n, x := rectOf(c.name), rectOf(c.text)
			cols = append(cols, rect{min(n.x, x.x), n.y, max(n.x+n.w, x.x+x.w) - min(n.x, x.x), x.y + x.h - n.y})
		}
		cols = append(cols, rectOf(b.fogLbl), rectOf(b.fogSel), rectOf(b.caption))
		for i := range cols {
			for j := i + 1; j < len(cols); j++ {
				if a := cols[i].overlap(cols[j]); a > 0 {
					t.Errorf("width %v: legend %d and %d overlap (%v units²)", width, i, j, a)
				}
			}
		}
	}
}

// TestGripNoteNeverCoversBlockNumber puts a fallen player on every square
// of a board whose blocks all count down: its "fell t87" note and the
// blocks' numbers never overlap, nor does the piece hide its block's
// number, and the note does not cover a player standing next to it.
func TestGripNoteNeverCoversBlockNumber(t *testing.T) {
	test.NewTempApp(t)
	d := simulated(t, grip.New(), gripLog(t))
	step := interestingGripStep(t, d)
	for _, size := range []fyne.Size{{Width: 520, Height: 580}, {Width: 700, Height: 760}} {
		b, _ := boardWindow(t, d, step, size)
		g := b.(*gripBoard)
		fg := theme.Color(theme.ColorNameForeground)
		for row := range grip.Size {
			for col := range grip.Size {
				var players [grip.Seats]grip.Player
				players[0] = grip.Player{Piece: grip.Piece{Row: row, Col: col, Dir: 'U'}, Fallen: true, FellAt: 87}
				// Another player stands just below, where the note goes
				// first; the others are out of the way, off the board.
				players[1] = grip.Player{Piece: grip.Piece{Row: row + 1, Col: col, Dir: 'L'}, FellAt: -1}
				for i := 2; i < grip.Seats; i++ {
					players[i] = grip.Player{Piece: grip.Piece{Row: -9, Col: -9, Dir: 'U'}, FellAt: -1}
				}
				for i, p := range players {
					g.drawPiece(i, p, false, fg)
				}
				for r := range g.timers {
					for c := range g.timers[r] {
						setText(g.timers[r][c], "-15", fg)
					}
				}
				g.placeNotes(players[:])
				g.placeTimers()
				if row+1 < grip.Size {
					if a := rectOf(g.pieces[0].pill).overlap(rectOf(g.pieces[1].body)); a > 0 {
						t.Errorf("size %v, player on %d,%d: its note covers the player below it", size, row, col)
					}
				}
				note, body := rectOf(g.pieces[0].pill), rectOf(g.pieces[0].body)
				br, bc := row/grip.BlockSize, col/grip.BlockSize
				num := g.timers[br][bc]
				if a := rectOf(num).overlap(note); a > 0 {
					t.Errorf("size %v, player on %d,%d: %q overlaps its block's %q (%v units²)", size, row, col, g.pieces[0].note.Text, num.Text, a)
				}
				if a := rectOf(num).overlap(body); a > 0 {
					t.Errorf("size %v, player on %d,%d: the piece hides its block's %q", size, row, col, num.Text)
				}
				for r := range g.timers {
					for c, tx := range g.timers[r] {
						if a := rectOf(tx).overlap(note); a > 0 && (r != br || c != bc) {
							t.Errorf("size %v, player on %d,%d: note overlaps block %d,%d's number", size, row, col, r, c)
						}
					}
				}
			}
		}
	}
}

// TestCopyInputClearOfScrollBar: the Copy input buttons end left of the
// seat panel's scroll bar, even while the bar is at its widest.
func TestCopyInputClearOfScrollBar(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 768}} {
		v, w := newTestViewer(t, cloud.New(), cloudLog(t))
		w.Resize(size)
		v.Seek(3)
		d := fyne.CurrentApp().Driver()
		panel := d.AbsolutePositionForObject(v.panel.root).X + v.panel.root.Size().Width
		bar := theme.Size(theme.SizeNameScrollBar)
		for i, c := range v.panel.cards {
			right := d.AbsolutePositionForObject(c.copyBtn).X + c.copyBtn.Size().Width
			if right > panel-bar {
				t.Errorf("size %v, seat %d: Copy input ends at %v, under the scroll bar (%v–%v)", size, i, right, panel-bar, panel)
			}
		}
	}
}
