package cloud

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Point is a cell: X is the column (0 at the left), Y the row (0 at the top).
type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func dist(a, b Point) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// field is the walls and the start cells. It never changes once made, so
// clones of a state share it.
type field struct {
	w, h  int
	wall  []bool  // by index y*w+x
	walls []Point // sorted by x, then y
	start [][]Point
}

func (f *field) in(p Point) bool         { return p.X >= 0 && p.X < f.w && p.Y >= 0 && p.Y < f.h }
func (f *field) idx(p Point) int         { return p.Y*f.w + p.X }
func (f *field) isWall(p Point) bool     { return f.wall[f.idx(p)] }
func (f *field) at(i int) Point          { return Point{i % f.w, i / f.w} }
func (f *field) open(p Point) bool       { return f.in(p) && !f.isWall(p) }
func (f *field) cells() int              { return f.w * f.h }
func (f *field) setWall(p Point, v bool) { f.wall[f.idx(p)] = v }

// symmetry maps a cell of the field onto another.
type symmetry func(p Point, w, h int) Point

func identity(p Point, w, h int) Point { return p }
func rot180(p Point, w, h int) Point   { return Point{w - 1 - p.X, h - 1 - p.Y} }

// rot90 turns clockwise on screen (y grows downwards): the top-left corner
// goes to the top-right. Only for square fields.
func rot90(p Point, w, h int) Point  { return Point{w - 1 - p.Y, p.X} }
func rot270(p Point, w, h int) Point { return Point{p.Y, h - 1 - p.X} }
func flipX(p Point, w, h int) Point  { return Point{w - 1 - p.X, p.Y} }
func flipY(p Point, w, h int) Point  { return Point{p.X, h - 1 - p.Y} }

// image says that player's start cells are the images of player src's
// under sym.
type image struct {
	src int
	sym symmetry
}

// layout is how the players sit: an anchor per player (a corner, or a
// point of the border), the symmetries the walls respect, and for each
// player whose start is another's image, which and how.
type layout struct {
	anchors []Point
	group   []symmetry
	images  map[int]image
}

// newLayout places n players. Two players take opposite corners (180°),
// four take the four corners (90° turns on a square field, the two mirror
// images on another), any other number is spread evenly along the border
// clockwise from the top-left corner; then an even number of players is
// symmetric under 180° (player i+n/2 opposite player i) and an odd number
// has no symmetry at all, since no turn of the grid maps 3, 5 or 7 areas
// onto each other.
func newLayout(n, w, h int) layout {
	l := layout{images: map[int]image{}}
	switch {
	case n == 2:
		l.anchors = []Point{{0, 0}, {w - 1, h - 1}}
		l.group = []symmetry{identity, rot180}
		l.images[1] = image{0, rot180}
	case n == 4 && w == h:
		l.anchors = []Point{{0, 0}, {w - 1, 0}, {w - 1, h - 1}, {0, h - 1}}
		l.group = []symmetry{identity, rot90, rot180, rot270}
		l.images[1], l.images[2], l.images[3] = image{0, rot90}, image{0, rot180}, image{0, rot270}
	case n == 4:
		l.anchors = []Point{{0, 0}, {w - 1, 0}, {w - 1, h - 1}, {0, h - 1}}
		l.group = []symmetry{identity, flipX, rot180, flipY}
		l.images[1], l.images[2], l.images[3] = image{0, flipX}, image{0, rot180}, image{0, flipY}
	default:
		per := 2*(w-1) + 2*(h-1)
		for i := range n {
			l.anchors = append(l.anchors, borderPoint(i*per/n, w, h))
		}
		l.group = []symmetry{identity}
		if n%2 == 0 {
			// per is even, so i*per/n + per/2 == (i+n/2)*per/n exactly and
			// the anchors themselves are symmetric.
			l.group = append(l.group, rot180)
			for i := n / 2; i < n; i++ {
				l.images[i] = image{i - n/2, rot180}
			}
		}
	}
	return l
}

// borderPoint walks t cells clockwise along the border from (0,0).
func borderPoint(t, w, h int) Point {
	switch {
	case t < w-1:
		return Point{t, 0}
	case t < w-1+h-1:
		return Point{w - 1, t - (w - 1)}
	case t < 2*(w-1)+h-1:
		return Point{w - 1 - (t - (w - 1) - (h - 1)), h - 1}
	default:
		return Point{0, h - 1 - (t - 2*(w-1) - (h - 1))}
	}
}

// startCells gives each player its bots' cells: the images of an earlier
// player's cells when the layout says so and they are all free, otherwise
// the free cells nearest its anchor (ties by row, then column).
func startCells(f *field, l layout, bots int) ([][]Point, error) {
	taken := make([]bool, f.cells())
	out := make([][]Point, len(l.anchors))
	for p, a := range l.anchors {
		var cells []Point
		if im, ok := l.images[p]; ok {
			cells = make([]Point, 0, bots)
			for _, c := range out[im.src] {
				q := im.sym(c, f.w, f.h)
				if !f.open(q) || taken[f.idx(q)] {
					cells = nil
					break
				}
				cells = append(cells, q)
			}
		}
		if cells == nil {
			cells = nearestFree(f, a, bots, taken)
		}
		if len(cells) < bots {
			return nil, fmt.Errorf("the field has no room for player %d's %d bots; use fewer bots, fewer walls or a bigger field", p+1, bots)
		}
		for _, c := range cells {
			taken[f.idx(c)] = true
		}
		out[p] = cells
	}
	return out, nil
}

func nearestFree(f *field, a Point, n int, taken []bool) []Point {
	var cand []Point
	for i := range f.cells() {
		p := f.at(i)
		if !f.isWall(p) && !taken[i] {
			cand = append(cand, p)
		}
	}
	sort.SliceStable(cand, func(i, j int) bool {
		di, dj := dist(cand[i], a), dist(cand[j], a)
		if di != dj {
			return di < dj
		}
		if cand[i].Y != cand[j].Y {
			return cand[i].Y < cand[j].Y
		}
		return cand[i].X < cand[j].X
	})
	if len(cand) > n {
		cand = cand[:n]
	}
	return cand
}

// wallSeedStream separates the wall generator's random numbers from the
// respawn draws made from the same game seed.
const wallSeedStream = 0x636c6f7564776c6c // "cloudwll"

// newField builds the field for cfg and n players.
func newField(cfg *config, n int, seed int64) (*field, error) {
	f := &field{w: cfg.width, h: cfg.height, wall: make([]bool, cfg.width*cfg.height)}
	l := newLayout(n, f.w, f.h)
	if cfg.listed {
		for _, p := range cfg.wallList {
			f.setWall(p, true)
		}
		if len(cfg.wallList) == f.cells() {
			return nil, fmt.Errorf("option walls: the list walls in every cell of the %d×%d field", f.w, f.h)
		}
		if p, q, ok := f.disconnected(); ok {
			return nil, fmt.Errorf("option walls: the free cells are not all connected: %v cannot be reached from %v; remove a wall to open a way", q, p)
		}
	}
	start, err := startCells(f, l, cfg.bots)
	if err != nil {
		return nil, err
	}
	f.start = start
	if !cfg.listed {
		f.generate(l, cfg.density, seed)
	}
	for i, w := range f.wall {
		if w {
			f.walls = append(f.walls, f.at(i))
		}
	}
	sortPoints(f.walls)
	return f, nil
}

// generate draws walls at density % in whole orbits of the layout's
// symmetry group, keeping the start cells and their surroundings (2 steps)
// free. An orbit that would cut the free cells apart is skipped, so the
// field stays connected by construction.
func (f *field) generate(l layout, density int, seed int64) {
	target := f.cells() * density / 100
	if target == 0 {
		return
	}
	reserved := make([]bool, f.cells())
	for _, cells := range f.start {
		for _, c := range cells {
			for dy := -2; dy <= 2; dy++ {
				for dx := -2 + abs(dy); dx <= 2-abs(dy); dx++ {
					if q := (Point{c.X + dx, c.Y + dy}); f.in(q) {
						reserved[f.idx(q)] = true
					}
				}
			}
		}
	}
	seen := make([]bool, f.cells())
	var orbits [][]Point
	for i := range f.cells() {
		if seen[i] {
			continue
		}
		var orbit []Point
		ok := true
		for _, g := range l.group {
			q := g(f.at(i), f.w, f.h)
			if !seen[f.idx(q)] {
				seen[f.idx(q)] = true
				orbit = append(orbit, q)
			}
			if reserved[f.idx(q)] {
				ok = false
			}
		}
		if ok {
			orbits = append(orbits, orbit)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), wallSeedStream))
	rng.Shuffle(len(orbits), func(i, j int) { orbits[i], orbits[j] = orbits[j], orbits[i] })
	count := 0
	for _, orbit := range orbits {
		if count == target {
			break
		}
		if count+len(orbit) > target {
			continue
		}
		for _, q := range orbit {
			f.setWall(q, true)
		}
		if _, _, cut := f.disconnected(); cut {
			for _, q := range orbit {
				f.setWall(q, false)
			}
			continue
		}
		count += len(orbit)
	}
}

// disconnected reports a free cell that cannot be reached from the first
// free cell, if there is one.
func (f *field) disconnected() (from, lost Point, cut bool) {
	first := -1
	free := 0
	for i, w := range f.wall {
		if !w {
			if first < 0 {
				first = i
			}
			free++
		}
	}
	if first < 0 {
		return Point{}, Point{}, false
	}
	seen := make([]bool, f.cells())
	queue := []int{first}
	seen[first] = true
	for k := 0; k < len(queue); k++ {
		p := f.at(queue[k])
		for _, d := range steps {
			q := Point{p.X + d.X, p.Y + d.Y}
			if f.open(q) && !seen[f.idx(q)] {
				seen[f.idx(q)] = true
				queue = append(queue, f.idx(q))
			}
		}
	}
	if len(queue) == free {
		return Point{}, Point{}, false
	}
	for i, w := range f.wall {
		if !w && !seen[i] {
			return f.at(first), f.at(i), true
		}
	}
	return Point{}, Point{}, false
}

// steps are the four moves u, d, l, r.
var steps = []Point{{0, -1}, {0, 1}, {-1, 0}, {1, 0}}

// sortPoints orders cells by x, then y, as every list in the protocol is.
func sortPoints(ps []Point) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].X != ps[j].X {
			return ps[i].X < ps[j].X
		}
		return ps[i].Y < ps[j].Y
	})
}

// wallOption writes walls as the walls option's list form, or "0" when
// there are none, so that the layout can be replayed with any seed.
func wallOption(walls []Point) string {
	if len(walls) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, p := range walls {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.Itoa(p.X))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(p.Y))
	}
	return b.String()
}
