package cloud

import (
	"reflect"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/enginetest"
)

func newGame(t testing.TB, opts engine.Options, players int, seed int64) (*State, error) {
	t.Helper()
	g := New()
	o, err := g.Info().Resolve(opts)
	if err != nil {
		return nil, err
	}
	st, err := g.New(o, names[:players], seed)
	if err != nil {
		return nil, err
	}
	return st.(*State), nil
}

func TestInfo(t *testing.T) {
	info := New().Info()
	if info.ID != "cloud" || info.MinSeats != 2 || info.MaxSeats != 8 || info.Login == nil {
		t.Errorf("info %+v", info)
	}
	var keys []string
	for _, o := range info.Options {
		keys = append(keys, o.Key+"="+o.Default)
		if o.Doc == "" {
			t.Errorf("option %s has no Doc", o.Key)
		}
	}
	want := []string{"width=30", "height=30", "bots=6", "lives=3", "range=3", "vision=5", "turns=300",
		"turn_ms=250", "respawn=10", "walls=8", "transport=tcp"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("options %v, want %v", keys, want)
	}
	if _, err := info.Resolve(engine.Options{"transport": "udp"}); err == nil {
		t.Error("transport=udp accepted")
	}
	if !reflect.DeepEqual(New().Bots(), []string{"random", "hunter", "squad"}) {
		t.Errorf("bots %v", New().Bots())
	}
	if _, err := New().NewBot("nobody", 1); err == nil || !strings.Contains(err.Error(), "random, hunter") {
		t.Errorf("NewBot(nobody) error %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	enginetest.CheckNewErrors(t, New(), []enginetest.NewError{
		{Opts: engine.Options{"width": "4"}, Players: 2, Want: `option width="4": want a whole number from 5 to 100`},
		{Opts: engine.Options{"height": "x"}, Players: 2, Want: `option height="x": want a whole number from 5 to 100`},
		{Opts: engine.Options{"bots": "0"}, Players: 2, Want: `option bots="0"`},
		{Opts: engine.Options{"lives": "0"}, Players: 2, Want: `option lives="0"`},
		{Opts: engine.Options{"range": "0"}, Players: 2, Want: `option range="0"`},
		{Opts: engine.Options{"vision": "-1"}, Players: 2, Want: `option vision="-1"`},
		{Opts: engine.Options{"turns": "0"}, Players: 2, Want: `option turns="0"`},
		{Opts: engine.Options{"turn_ms": "0"}, Players: 2, Want: `option turn_ms="0"`},
		{Opts: engine.Options{"respawn": "0"}, Players: 2, Want: `option respawn="0"`},
		{Opts: engine.Options{"walls": "41"}, Players: 2, Want: `option walls="41": want a density in % from 0 to 40`},
		{Opts: engine.Options{"walls": "lots"}, Players: 2, Want: `option walls="lots"`},
		{Opts: engine.Options{"walls": "3,4;5"}, Players: 2, Want: `option walls: item 2 "5" is not a cell "x,y"`},
		{Opts: engine.Options{"walls": "3,4;30,2"}, Players: 2, Want: `option walls: wall 2 at (30,2) is off the 30×30 field (x is 0..29, y is 0..29)`},
		{Opts: engine.Options{"width": "5", "height": "5", "bots": "1", "walls": "0,1;1,1;1,0"}, Players: 2, Want: `option walls: the free cells are not all connected: (2,0) cannot be reached from (0,0); remove a wall to open a way`},
		{Opts: engine.Options{"bots": "40"}, Players: 8, Want: `option bots=40: 8 players × 40 bots = 320 bots, but the 30×30 field has room for at most 207 (a quarter of its 828 free cells)`},
		{Opts: engine.Options{"width": "5", "height": "5", "walls": "0", "bots": "4"}, Players: 2, Want: `room for at most 6`},
		{Opts: engine.Options{}, Players: 1, Want: `cloud needs 2 to 8 players, got 1`},
		{Opts: engine.Options{}, Players: 9, Want: `cloud needs 2 to 8 players, got 9`},
	})
	for _, players := range [][]string{{"a", "a"}, {"a", ""}} {
		o, _ := New().Info().Resolve(nil)
		if _, err := New().New(o, players, 1); err == nil {
			t.Errorf("players %q accepted", players)
		}
	}
}

func TestGeneratedFields(t *testing.T) {
	tests := []struct {
		name    string
		w, h    int
		players int
		sym     []symmetry // the walls must be invariant under each
	}{
		{"2 players", 30, 30, 2, []symmetry{rot180}},
		{"2 players oblong", 40, 20, 2, []symmetry{rot180}},
		{"4 players square", 30, 30, 4, []symmetry{rot90, rot180, rot270}},
		{"4 players oblong", 36, 24, 4, []symmetry{flipX, flipY, rot180}},
		{"3 players", 30, 30, 3, nil},
		{"5 players", 30, 30, 5, nil},
		{"6 players", 30, 30, 6, []symmetry{rot180}},
		{"8 players", 30, 30, 8, []symmetry{rot180}},
		{"7 players oblong", 50, 20, 7, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range int64(10) {
				s, err := newGame(t, engine.Options{"width": itoa(tc.w), "height": itoa(tc.h)}, tc.players, seed)
				if err != nil {
					t.Fatal(err)
				}
				f := s.fld
				if n, max := len(f.walls), tc.w*tc.h*8/100; n > max || n < max*3/4 {
					t.Errorf("seed %d: %d walls, want about %d", seed, n, max)
				}
				for _, w := range f.walls {
					for _, g := range tc.sym {
						if q := g(w, f.w, f.h); !f.isWall(q) {
							t.Fatalf("seed %d: wall %v but no wall at its image %v", seed, w, q)
						}
					}
				}
				if _, lost, cut := f.disconnected(); cut {
					t.Errorf("seed %d: %v cut off", seed, lost)
				}
				checkStarts(t, s)
			}
		})
	}
}

// checkStarts checks the bots start on free, distinct cells, each
// player's nearer its own anchor than any other player's bots are, and
// that the starts respect the layout's symmetry.
func checkStarts(t *testing.T, s *State) {
	t.Helper()
	f := s.fld
	n := len(s.players)
	l := newLayout(n, f.w, f.h)
	used := map[Point]bool{}
	for i, b := range s.bots {
		if f.isWall(b.pos) || used[b.pos] || !f.in(b.pos) {
			t.Fatalf("bot %s starts on a wall, off the field or on another bot at %v", b.id, b.pos)
		}
		used[b.pos] = true
		if want := "bot" + itoa(i+1); b.id != want || b.player != i/s.cfg.bots || b.health != s.cfg.lives {
			t.Fatalf("bot %d is %+v", i, b)
		}
		if d := dist(b.pos, l.anchors[b.player]); d > 2*s.cfg.bots {
			t.Errorf("bot %s starts %d steps from its player's anchor %v", b.id, d, l.anchors[b.player])
		}
	}
	for p, im := range l.images {
		for k, c := range f.start[im.src] {
			if q := im.sym(c, f.w, f.h); q != f.start[p][k] {
				t.Errorf("player %d's bot %d starts at %v, want %v (the image of player %d's)", p, k, f.start[p][k], q, im.src)
			}
		}
	}
}

func TestStartCorners(t *testing.T) {
	s, err := newGame(t, engine.Options{"walls": "0"}, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Point{
		{{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}},
		{{29, 0}, {29, 1}, {28, 0}, {29, 2}, {28, 1}, {27, 0}},
		{{29, 29}, {28, 29}, {29, 28}, {27, 29}, {28, 28}, {29, 27}},
		{{0, 29}, {0, 28}, {1, 29}, {0, 27}, {1, 28}, {2, 29}},
	}
	if !reflect.DeepEqual(s.fld.start, want) {
		t.Errorf("starts %v\nwant %v", s.fld.start, want)
	}
	s, _ = newGame(t, engine.Options{"walls": "0", "bots": "1"}, 8, 1)
	var got []Point
	for _, b := range s.bots {
		got = append(got, b.pos)
	}
	// Eight players around the 116-cell border, every 14 or 15 cells.
	wantEight := []Point{{0, 0}, {14, 0}, {29, 0}, {29, 14}, {29, 29}, {15, 29}, {0, 29}, {0, 15}}
	if !reflect.DeepEqual(got, wantEight) {
		t.Errorf("8 players start at %v, want %v", got, wantEight)
	}
}

func TestExplicitWalls(t *testing.T) {
	s, err := newGame(t, engine.Options{"width": "6", "height": "5", "bots": "2", "walls": " 2,2 ; 0,0;3,2;2,2;"}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Walls(), []Point{{0, 0}, {2, 2}, {3, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("walls %v, want %v", got, want)
	}
	// (0,0) is a wall: alice's bots take the free cells nearest it; bob's
	// corner is free, so his are the images of alice's only if those are.
	if got := s.fld.start[0]; !reflect.DeepEqual(got, []Point{{1, 0}, {0, 1}}) {
		t.Errorf("alice starts at %v", got)
	}
	if got := s.fld.start[1]; !reflect.DeepEqual(got, []Point{{4, 4}, {5, 3}}) {
		t.Errorf("bob starts at %v", got)
	}
	if s.Start() != "0,0;2,2;3,2" {
		t.Errorf("Start %q", s.Start())
	}
	// An asymmetric list: bob's start cells are still the 180° images of
	// alice's when they are all free, even though the walls are not
	// symmetric; when one image is a wall he takes the free cells nearest
	// his corner instead (by distance, then row, then column).
	for _, tc := range []struct {
		walls string
		bob   []Point
	}{
		{"1,1", []Point{{5, 4}, {4, 4}}},
		{"4,4", []Point{{5, 4}, {5, 3}}},
	} {
		s, err := newGame(t, engine.Options{"width": "6", "height": "5", "bots": "2", "walls": tc.walls}, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.fld.start[0]; !reflect.DeepEqual(got, []Point{{0, 0}, {1, 0}}) {
			t.Errorf("walls %s: alice starts at %v", tc.walls, got)
		}
		if got := s.fld.start[1]; !reflect.DeepEqual(got, tc.bob) {
			t.Errorf("walls %s: bob starts at %v, want %v", tc.walls, got, tc.bob)
		}
	}
}

func TestStartReplaysTheField(t *testing.T) {
	for _, players := range []int{2, 3, 4, 8} {
		a, err := newGame(t, engine.Options{}, players, 42)
		if err != nil {
			t.Fatal(err)
		}
		b, err := newGame(t, engine.Options{"walls": a.Start()}, players, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.fld.walls, b.fld.walls) || !reflect.DeepEqual(a.fld.start, b.fld.start) {
			t.Errorf("%d players: walls=Start() gives another field", players)
		}
	}
	s, _ := newGame(t, engine.Options{"walls": "0"}, 2, 1)
	if s.Start() != "0" || len(s.Walls()) != 0 {
		t.Errorf("no walls: Start %q walls %v", s.Start(), s.Walls())
	}
}

func TestSeedsDiffer(t *testing.T) {
	a, _ := newGame(t, engine.Options{}, 4, 1)
	b, _ := newGame(t, engine.Options{}, 4, 1)
	c, _ := newGame(t, engine.Options{}, 4, 2)
	if !reflect.DeepEqual(a.fld.walls, b.fld.walls) {
		t.Error("same seed, different walls")
	}
	if reflect.DeepEqual(a.fld.walls, c.fld.walls) {
		t.Error("seeds 1 and 2 give the same walls")
	}
}

func TestDenseFieldsStayConnected(t *testing.T) {
	for seed := range int64(20) {
		s, err := newGame(t, engine.Options{"walls": "40", "width": "12", "height": "9", "bots": "2"}, 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, lost, cut := s.fld.disconnected(); cut {
			t.Errorf("seed %d: %v cut off", seed, lost)
		}
	}
}

func FuzzWallList(f *testing.F) {
	for _, s := range []string{"3,4;5,6", "0,0", " 1 , 2 ;;", "a,b", "1,2,3", "-1,0", ";", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		list, err := parseWallList(s, 10, 8)
		if err != nil {
			return
		}
		seen := map[Point]bool{}
		for _, p := range list {
			if p.X < 0 || p.X >= 10 || p.Y < 0 || p.Y >= 8 || seen[p] {
				t.Fatalf("%q gave %v", s, list)
			}
			seen[p] = true
		}
		// The list form round-trips.
		sortPoints(list)
		if len(list) > 0 {
			back, err := parseWallList(wallOption(list), 10, 8)
			sortPoints(back)
			if err != nil || !reflect.DeepEqual(back, list) {
				t.Fatalf("%q → %q → %v, %v", s, wallOption(list), back, err)
			}
		}
	})
}
