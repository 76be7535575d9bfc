package event

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringside/engine/rating"
)

func TestValidate(t *testing.T) {
	withCand := func(es []Entry, idx ...int) []Entry {
		for _, i := range idx {
			es[i].Candidate = true
		}
		return es
	}
	fillers := func(es []Entry, idx ...int) []Entry {
		for _, i := range idx {
			es[i].Filler = true
		}
		return es
	}
	tests := []struct {
		name string
		cfg  Config
		want string // "" for valid
	}{
		{"league ok", Config{Format: League, Entries: entries(4), Seats: 2, Games: 1}, ""},
		{"unknown format", Config{Format: "roundrobin", Entries: entries(4), Seats: 2, Games: 1}, `unknown format "roundrobin" (formats: league, bracket, gauntlet, swiss, sprt)`},
		{"one entry", Config{Format: League, Entries: entries(1), Seats: 2, Games: 1}, "league: 1 entries; an event needs at least 2"},
		{"one seat", Config{Format: League, Entries: entries(3), Seats: 1, Games: 1}, "every game has at least 2 seats"},
		{"no games", Config{Format: League, Entries: entries(3), Seats: 2, Games: 0}, "league: games is 0; the number of seeds per pairing or group must be at least 1"},
		{"seats vs entries", Config{Format: League, Entries: entries(3), Seats: 4, Games: 1}, "league: 3 entries for 4-seat games; add 1 filler bot (entries marked filler"},
		{"fillers fill", Config{Format: League, Entries: fillers(entries(4), 3), Seats: 4, Games: 1}, ""},
		{"all fillers", Config{Format: League, Entries: fillers(entries(2), 0, 1), Seats: 2, Games: 1}, "every entry is a filler bot"},
		{"candidate filler", Config{Format: Gauntlet, Entries: fillers(withCand(entries(3), 0), 0), Seats: 2, Games: 1}, "marked both candidate and filler"},
		{"too big", Config{Format: League, Entries: entries(100), Seats: 2, Games: 200}, "league: 100 entries with 200 seeds each makes 1980000 games"},
		{"gauntlet no candidate", Config{Format: Gauntlet, Entries: entries(3), Seats: 2, Games: 1}, "no entry is marked candidate"},
		{"gauntlet small field", Config{Format: Gauntlet, Entries: withCand(entries(3), 0), Seats: 4, Games: 1}, "needs 3 field entries (not candidates) besides its candidate, and there are 2; add 1 filler bot"},
		{"gauntlet ok", Config{Format: Gauntlet, Entries: withCand(entries(4), 0), Seats: 4, Games: 1}, ""},
		{"bracket even", Config{Format: Bracket, Entries: entries(4), Seats: 2, Games: 2}, "bracket: games is 2; a match is best of an odd number"},
		{"bracket odd seats", Config{Format: Bracket, Entries: entries(6), Seats: 3, Games: 1}, "heats of 3 seats cannot send exactly half through"},
		{"bracket heat fill", Config{Format: Bracket, Entries: entries(5), Seats: 4, Games: 1}, "bracket: 5 entries cannot fill 4-seat heats where the top 2 go through; add 1 filler bot"},
		{"bracket heats ok", Config{Format: Bracket, Entries: entries(6), Seats: 4, Games: 1}, ""},
		{"swiss seats", Config{Format: Swiss, Entries: entries(8), Seats: 4, Games: 3}, "swiss: pairs entrants by score, so it needs 2-seat games"},
		{"swiss rounds", Config{Format: Swiss, Entries: entries(6), Seats: 2, Games: 6}, "swiss: 6 rounds for 6 entries; at most 5 rounds"},
		{"swiss odd rounds", Config{Format: Swiss, Entries: entries(7), Seats: 2, Games: 7}, ""},
		{"sprt ok", Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 100, Elo1: 5}, ""},
		{"sprt three", Config{Format: SPRT, Entries: entries(3), Seats: 2, Games: 100, Elo1: 5}, "sprt: needs the candidate, the base and 0 filler(s) for 2-seat games: 2 entries, not 3"},
		{"sprt odd cap", Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 99, Elo1: 5}, "sprt: games is 99; the cap must be an even number of at least 2 (games are played in seat-swapped pairs), e.g. 100"},
		{"sprt elo", Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 100}, "sprt: elo0 (0) must be less than elo1 (0)"},
		{"sprt alpha", Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 100, Elo1: 5, Alpha: 1.5}, "alpha 1.5 must be between 0 and 1"},
		{"sprt order", Config{Format: SPRT, Entries: withCand(entries(2), 1), Seats: 2, Games: 100, Elo1: 5}, "sprt: the candidate (e1) must be the first entry"},
		{"sprt seats", Config{Format: SPRT, Entries: entries(2), Seats: 4, Games: 100, Elo1: 5}, "sprt: needs the candidate, the base and 2 filler(s) for 4-seat games: 4 entries, not 2"},
	}
	for _, tc := range tests {
		err := Validate(tc.cfg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, err)
		case tc.want != "" && err == nil:
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

func TestLeagueTwoSeats(t *testing.T) {
	for _, n := range []int{2, 3, 5, 6, 9} {
		for _, seeds := range []int{1, 3} {
			t.Run(fmt.Sprintf("n%d_games%d", n, seeds), func(t *testing.T) {
				cfg := Config{Format: League, Entries: entries(n), Seats: 2, Games: seeds, Seed: 42}
				games, _ := run(t, cfg, random(1))
				if want := n * (n - 1) * seeds; len(games) != want {
					t.Fatalf("%d games, want %d", len(games), want)
				}
				// Every ordered seating (a in seat 0, b in seat 1) once per seed.
				ordered := map[[2]int]int{}
				for _, g := range games {
					ordered[[2]int{g.Seats[0], g.Seats[1]}]++
				}
				for a := range n {
					for b := range n {
						if a != b && ordered[[2]int{a, b}] != seeds {
							t.Fatalf("%d in seat 0 against %d: %d games, want %d", a, b, ordered[[2]int{a, b}], seeds)
						}
					}
				}
				for e, c := range seatCounts(games, n, 2) {
					if c[0] != c[1] || c[0] != (n-1)*seeds {
						t.Fatalf("entry %d seats %v", e, c)
					}
				}
			})
		}
	}
}

// Leagues stored before balanced orders keep their rotations: every group
// (or ring window), one seed rotated through all seats.
func TestLeagueMultiSeatRotations(t *testing.T) {
	tests := []struct {
		n, seats, games int
		full            bool
	}{
		{4, 4, 2, true},
		{5, 4, 1, true},
		{9, 4, 2, true},   // C(9,4) = 126 groups
		{12, 4, 2, false}, // C(12,4) = 495 > 200: ring windows
		{16, 4, 3, false},
		{7, 3, 1, true},
		{30, 3, 2, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n%d_s%d", tc.n, tc.seats), func(t *testing.T) {
			cfg := Config{Format: League, Entries: entries(tc.n), Seats: tc.seats, Games: tc.games, Seed: 7, Orders: OrdersRotations}
			games, _ := run(t, cfg, random(2))
			groups := map[string]int{}
			for _, g := range games {
				if g.Seats[0] == slices.Min(g.Seats) { // count each group once: its rotation starting at the lowest entry
					groups[fmt.Sprint(slices.Sorted(slices.Values(g.Seats)))]++
				}
			}
			if tc.full {
				want := binomial(tc.n, tc.seats, 1<<30)
				if len(groups) != want {
					t.Fatalf("%d distinct groups, want %d", len(groups), want)
				}
				for k, c := range groups {
					if c != tc.games {
						t.Fatalf("group %s played %d seeds, want %d", k, c, tc.games)
					}
				}
				if len(games) != want*tc.seats*tc.games {
					t.Fatalf("%d games, want %d", len(games), want*tc.seats*tc.games)
				}
			} else if len(games) != tc.n*tc.seats*tc.games {
				t.Fatalf("%d games, want %d", len(games), tc.n*tc.seats*tc.games)
			}
			counts := seatCounts(games, tc.n, tc.seats)
			for e, c := range counts {
				for s := range c {
					if c[s] != counts[0][0] {
						t.Fatalf("entry %d seats %v, entry 0 seats %v: not balanced", e, c, counts[0])
					}
				}
			}
		})
	}
	// In the one group of 4, 1 always follows 0.
	cfg := Config{Format: League, Entries: entries(4), Seats: 4, Games: 1, Orders: OrdersRotations}
	games, _, _ := Schedule(cfg, nil)
	if f := followCounts(games, 4); f[0][1] != 4 || f[1][0] != 0 {
		t.Fatalf("rotations: 1 follows 0 in %d games, 0 follows 1 in %d; want 4 and 0", f[0][1], f[1][0])
	}
}

// followCounts returns how many games put entry b in the seat right after
// entry a's (the last seat followed by the first): the player who moves
// right after a in a game whose turns go round the seats.
func followCounts(games []Game, n int) [][]int {
	f := make([][]int, n)
	for i := range f {
		f[i] = make([]int, n)
	}
	for _, g := range games {
		s := len(g.Seats)
		for p := range s {
			f[g.Seats[p]][g.Seats[(p+1)%s]]++
		}
	}
	return f
}

// Over a balanced league every entry sits in each seat equally often and
// follows every other entry equally often, exactly.
func TestLeagueBalancedOrders(t *testing.T) {
	tests := []struct {
		n, seats, games int
		want            int // games
	}{
		{4, 4, 1, 24}, // one group: all 24 seat orders
		{4, 4, 2, 48},
		{5, 4, 1, 20}, // λ = 1: 5 orders
		{5, 4, 3, 60},
		{6, 4, 1, 120}, // λ = 4: 30 orders
		{7, 4, 2, 168}, // λ = 2
		{8, 4, 1, 224},
		{9, 4, 1, 72}, // λ = 1: 18 orders
		{10, 4, 1, 360},
		{13, 4, 1, 156},
		{20, 4, 1, 1520},
		{3, 3, 2, 12},
		{6, 3, 1, 180}, // λ = 6
		{7, 3, 1, 42},
		{5, 5, 1, 120},
		{6, 5, 1, 60}, // λ = 2
		{9, 8, 1, 72}, // λ = 1
		{30, 3, 1, 5220},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n%d_s%d_g%d", tc.n, tc.seats, tc.games), func(t *testing.T) {
			cfg := Config{Format: League, Entries: entries(tc.n), Seats: tc.seats, Games: tc.games, Seed: 99}
			games, _ := run(t, cfg, random(4))
			if len(games) != tc.want || leagueSize(cfg) != tc.want {
				t.Fatalf("%d games (leagueSize %d), want %d", len(games), leagueSize(cfg), tc.want)
			}
			counts := seatCounts(games, tc.n, tc.seats)
			for e, c := range counts {
				for s := range c {
					if c[s] != counts[0][0] {
						t.Fatalf("entry %d seats %v, entry 0 seats %v", e, c, counts[0])
					}
				}
			}
			f := followCounts(games, tc.n)
			for a := range tc.n {
				for b := range tc.n {
					if a != b && (f[a][b] != f[0][1] || f[a][b] == 0) {
						t.Fatalf("%d follows %d in %d games, 1 follows 0 in %d: want equal, and every pair to meet", b, a, f[a][b], f[0][1])
					}
				}
			}
		})
	}
}

// The designs are part of every stored league's schedule: the same
// entries and seats must give the same blocks on every machine and in
// every later version, or a started league could not resume.
func TestLeagueDesignPinned(t *testing.T) {
	tests := []struct {
		n, s   int
		lambda int
		blocks string
	}{
		{5, 4, 1, "[[0 4 2 3]]"},
		{9, 4, 1, "[[0 8 5 6] [0 4 2 7]]"},
		{7, 3, 1, "[[0 1 3] [0 3 1]]"},
	}
	for _, tc := range tests {
		d, ok := leagueDesign(tc.n, tc.s)
		if got := fmt.Sprint(d.blocks); !ok || d.lambda != tc.lambda || got != tc.blocks {
			t.Errorf("leagueDesign(%d, %d) = λ %d %s, want λ %d %s", tc.n, tc.s, d.lambda, got, tc.lambda, tc.blocks)
		}
	}
}

// leagueDesign finds exact designs with the smallest λ across the sizes
// organisers use.
func TestLeagueDesignRange(t *testing.T) {
	for s := 3; s <= 8; s++ {
		for n := s + 1; n <= 80; n++ {
			d, ok := leagueDesign(n, s)
			if !ok || d.lambda != minLambda(n, s) {
				t.Fatalf("n %d, s %d: found %v, λ %d, want λ %d", n, s, ok, d.lambda, minLambda(n, s))
			}
			// Every nonzero difference λ times, members distinct.
			diffs := make([]int, n)
			for _, b := range d.blocks {
				if len(slices.Compact(slices.Sorted(slices.Values(b)))) != s {
					t.Fatalf("n %d, s %d: block %v repeats a member", n, s, b)
				}
				for j := range s {
					diffs[((b[(j+1)%s]-b[j])%n+n)%n]++
				}
			}
			for r := 1; r < n; r++ {
				if diffs[r] != d.lambda {
					t.Fatalf("n %d, s %d: difference %d %d times, want %d", n, s, r, diffs[r], d.lambda)
				}
			}
		}
	}
}

func TestGauntlet(t *testing.T) {
	tests := []struct {
		n, cands, seats, games int
	}{
		{5, 1, 2, 2},
		{6, 2, 2, 1},
		{4, 1, 4, 2},  // field of 3: one group
		{8, 2, 4, 1},  // field of 6: C(6,3) = 20 groups
		{40, 1, 4, 2}, // field of 39: C(39,3) > 200: windows
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n%d_c%d_s%d", tc.n, tc.cands, tc.seats), func(t *testing.T) {
			es := entries(tc.n)
			for i := range tc.cands {
				es[i].Candidate = true
			}
			cfg := Config{Format: Gauntlet, Entries: es, Seats: tc.seats, Games: tc.games, Seed: 3}
			games, _ := run(t, cfg, random(3))
			field := tc.n - tc.cands
			counts := seatCounts(games, tc.n, tc.seats)
			for _, g := range games {
				c := 0
				for _, e := range g.Seats {
					if es[e].Candidate {
						c++
					}
				}
				if c != 1 {
					t.Fatalf("game %d has %d candidates: %v", g.Index, c, g.Seats)
				}
			}
			for e, c := range counts {
				for s := range c {
					if c[s] != c[0] {
						t.Fatalf("entry %d seats %v: not balanced", e, c)
					}
				}
				if es[e].Candidate && c[0] != counts[0][0] {
					t.Fatalf("candidates play different numbers of games")
				}
			}
			if tc.seats == 2 {
				if len(games) != tc.cands*field*2*tc.games {
					t.Fatalf("%d games", len(games))
				}
				// Every candidate meets every field entry in both seats, once per seed.
				met := map[[2]int]int{}
				for _, g := range games {
					met[[2]int{g.Seats[0], g.Seats[1]}]++
				}
				for c := range tc.cands {
					for f := tc.cands; f < tc.n; f++ {
						if met[[2]int{c, f}] != tc.games || met[[2]int{f, c}] != tc.games {
							t.Fatalf("candidate %d v field %d: %d and %d games", c, f, met[[2]int{c, f}], met[[2]int{f, c}])
						}
					}
				}
			}
		})
	}
}

func TestBracketTwoSeats(t *testing.T) {
	tests := []struct {
		n     int
		first [][2]int // round 0 match-ups by entry index, −1 for a bye
	}{
		{2, [][2]int{{0, 1}}},
		{5, [][2]int{{0, -1}, {3, 4}, {1, -1}, {2, -1}}},
		{6, [][2]int{{0, -1}, {3, 4}, {1, -1}, {2, 5}}},
		{8, [][2]int{{0, 7}, {3, 4}, {1, 6}, {2, 5}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			cfg := Config{Format: Bracket, Entries: entries(tc.n), Seats: 2, Games: 3, Seed: 1}
			tree, err := Tree(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for m, want := range tc.first {
				got := tree.Rounds[0].Matches[m]
				if got.Entries[0] != want[0] || got.Entries[1] != want[1] || got.Bye != (want[1] < 0) {
					t.Fatalf("first round match %d: %v bye %v, want %v", m, got.Entries, got.Bye, want)
				}
			}
			games, done := run(t, cfg, byIndex)
			tree, err = Tree(cfg, done)
			if err != nil {
				t.Fatal(err)
			}
			if tree.Champion != 0 {
				t.Fatalf("champion %d, want the top seed", tree.Champion)
			}
			byes := 0
			for _, m := range tree.Rounds[0].Matches {
				if m.Bye {
					byes++
				}
			}
			// Best of 3 = 2 seat-swapped pairs = 4 games per played match.
			if want := (tc.n - 1) * 4; len(games) != want {
				t.Fatalf("%d games, want %d", len(games), want)
			}
			final := tree.Rounds[len(tree.Rounds)-1].Matches[0]
			if final.Entries[0] != 0 || final.Entries[1] != 1 || final.Rule != "points" {
				t.Fatalf("final %+v: top two seeds should meet there", final)
			}
			// The underdog always winning puts the last seed through.
			_, done = run(t, cfg, reverseIndex)
			tree, _ = Tree(cfg, done)
			if want := tc.n - 1; tree.Champion != want {
				t.Fatalf("reverse: champion %d, want %d", tree.Champion, want)
			}
		})
	}
}

func TestBracketTiebreak(t *testing.T) {
	cfg := Config{Format: Bracket, Entries: entries(4), Seats: 2, Games: 1, Seed: 9}
	// Every game drawn: each match plays 1 pair + 3 tie-break pairs, then
	// the higher seed goes through.
	games, done := run(t, cfg, allTied)
	if want := 3 * (1 + MaxTiebreakPairs) * 2; len(games) != want {
		t.Fatalf("%d games, want %d", len(games), want)
	}
	tree, _ := Tree(cfg, done)
	for r, round := range tree.Rounds {
		for _, m := range round.Matches {
			if m.Tiebreaks != MaxTiebreakPairs || m.Rule != "seed" || m.Advance[0] != min(m.Entries[0], m.Entries[1]) {
				t.Fatalf("round %d: %+v", r, m)
			}
		}
	}
	if tree.Champion != 0 {
		t.Fatalf("champion %d", tree.Champion)
	}
	// Draws in the regular pair, then the lower seed wins the first
	// tie-break pair's games: decided by the tie-break.
	tiebreak := func(g Game) []int {
		if g.Index < 4 { // the two first-round matches' regular pairs
			return []int{1, 1}
		}
		return reverseIndex(g)
	}
	games, done = run(t, cfg, tiebreak)
	tree, _ = Tree(cfg, done)
	m := tree.Rounds[0].Matches[0]
	if m.Tiebreaks != 1 || m.Rule != "tiebreak" || m.Advance[0] != 3 || len(m.Games) != 4 {
		t.Fatalf("first match %+v", m)
	}
	// Tie-break games are numbered after the round's regular games.
	if m.Games[2] != 4 || m.Games[3] != 5 {
		t.Fatalf("tie-break game indexes %v", m.Games)
	}
	if tree.Champion != 3 || len(games) != 4+4+2 {
		t.Fatalf("champion %d after %d games", tree.Champion, len(games))
	}
}

// A match with a leader shows as decided (and its winner moves on in the
// tree) before the rest of its round is played; nothing new is scheduled.
func TestBracketDecidesEarly(t *testing.T) {
	cfg := Config{Format: Bracket, Entries: entries(4), Seats: 2, Games: 1}
	games, _, _ := Schedule(cfg, nil)
	// Round 0: 0 v 3 (games 0, 1) and 1 v 2 (games 2, 3).
	done := []Outcome{{Game: games[0], Ranks: byIndex(games[0])}, {Game: games[1], Ranks: byIndex(games[1])}}
	tree, err := Tree(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	m0, m1, final := tree.Rounds[0].Matches[0], tree.Rounds[0].Matches[1], tree.Rounds[1].Matches[0]
	if !m0.Decided || m0.Advance[0] != 0 || m0.Played != 2 || m1.Decided || final.Entries[0] != 0 || final.Entries[1] != -1 {
		t.Fatalf("tree %+v", tree)
	}
	next, finished, _ := Next(cfg, done)
	if finished || len(next) != 2 || next[0].Index != 2 {
		t.Fatalf("next %+v", next)
	}
}

func TestBracketHeats(t *testing.T) {
	tests := []struct {
		n, byes int
		rounds  []int // heats per round
	}{
		{4, 0, []int{1}},
		{6, 2, []int{1, 1}},
		{8, 0, []int{2, 1}},
		{10, 6, []int{1, 2, 1}},
		{12, 4, []int{2, 2, 1}},
		{16, 0, []int{4, 2, 1}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			cfg := Config{Format: Bracket, Entries: entries(tc.n), Seats: 4, Games: 2, Seed: 5}
			games, done := run(t, cfg, byIndex)
			tree, err := Tree(cfg, done)
			if err != nil {
				t.Fatal(err)
			}
			if len(tree.Rounds) != len(tc.rounds) {
				t.Fatalf("%d rounds, want %d", len(tree.Rounds), len(tc.rounds))
			}
			if want := seq(tc.byes); !slices.Equal(tree.Rounds[0].Byes, want) && tc.byes > 0 {
				t.Fatalf("byes %v, want the top %d seeds", tree.Rounds[0].Byes, tc.byes)
			}
			heats := 0
			for r, round := range tree.Rounds {
				if len(round.Matches) != tc.rounds[r] {
					t.Fatalf("round %d: %d heats, want %d", r, len(round.Matches), tc.rounds[r])
				}
				for _, m := range round.Matches {
					if len(m.Games) != 4*2 || len(m.Advance) != 2 && r < len(tree.Rounds)-1 {
						t.Fatalf("round %d heat %+v", r, m)
					}
				}
				heats += len(round.Matches)
			}
			if len(games) != heats*4*2 {
				t.Fatalf("%d games for %d heats", len(games), heats)
			}
			if tree.Champion != 0 {
				t.Fatalf("champion %d", tree.Champion)
			}
			final := tree.Rounds[len(tree.Rounds)-1].Matches[0]
			if !slices.Equal(final.Order, []int{0, 1, 2, 3}) {
				t.Fatalf("final order %v, want the top four seeds", final.Order)
			}
		})
	}
	// Serpentine: 16 entrants in 4 heats.
	cfg := Config{Format: Bracket, Entries: entries(16), Seats: 4, Games: 1}
	tree, _ := Tree(cfg, nil)
	want := [][]int{{0, 7, 8, 15}, {1, 6, 9, 14}, {2, 5, 10, 13}, {3, 4, 11, 12}}
	for h, m := range tree.Rounds[0].Matches {
		if !slices.Equal(m.Entries, want[h]) {
			t.Fatalf("heat %d: %v, want %v", h, m.Entries, want[h])
		}
	}
}

func TestSwissNoRematches(t *testing.T) {
	for _, n := range []int{4, 5, 6, 7, 8, 9, 12, 15, 16} {
		rounds := (n + 1) / 2 // a rematch-free pairing always exists this far
		for salt := range uint64(60) {
			cfg := Config{Format: Swiss, Entries: entries(n), Seats: 2, Games: rounds, Seed: int64(salt)}
			games, done := run(t, cfg, random(salt))
			if want := rounds * (n / 2) * 2; len(games) != want {
				t.Fatalf("n %d: %d games, want %d", n, len(games), want)
			}
			met := map[[2]int]int{}
			perRound := map[int]map[int]bool{}
			for _, g := range games {
				a, b := min(g.Seats[0], g.Seats[1]), max(g.Seats[0], g.Seats[1])
				met[[2]int{a, b}]++
				if perRound[g.Round] == nil {
					perRound[g.Round] = map[int]bool{}
				}
				perRound[g.Round][g.Seats[0]] = true
			}
			for p, c := range met {
				if c != 2 {
					t.Fatalf("n %d salt %d: %v met in %d games (a rematch)", n, salt, p, c)
				}
			}
			for r, in := range perRound {
				if len(in) != n-n%2 {
					t.Fatalf("n %d round %d: %d entries play", n, r, len(in))
				}
			}
			if n%2 == 1 {
				table, err := Standings(cfg, done)
				if err != nil {
					t.Fatal(err)
				}
				for _, row := range table.Rows {
					if row.Byes > 1 {
						t.Fatalf("n %d salt %d: %s had %d byes", n, salt, row.Name, row.Byes)
					}
				}
			}
		}
	}
}

func TestSwissPairing(t *testing.T) {
	cfg := Config{Format: Swiss, Entries: entries(7), Seats: 2, Games: 3, Seed: 2}
	games, _, err := Schedule(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: entry 6 (last) has the bye; 0 v 3, 1 v 4, 2 v 5.
	want := [][]int{{0, 3}, {3, 0}, {1, 4}, {4, 1}, {2, 5}, {5, 2}}
	for i, g := range games {
		if !slices.Equal(g.Seats, want[i]) {
			t.Fatalf("game %d seats %v, want %v", i, g.Seats, want[i])
		}
	}
	// The lower entry wins every game: scores 0,1,2 have 2 points, 3,4,5
	// none, 6 has the bye's 2. Round 2 by score (0 1 2 6 | 3 4 5): the bye
	// goes to the lowest without one, 5; then 0 v 1, 2 v 6, 3 v 4.
	_, done := playRounds(t, cfg, byIndex, 1)
	games, _, err = Schedule(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	var round2 [][]int
	for _, g := range games[6:] {
		round2 = append(round2, g.Seats)
	}
	want = [][]int{{0, 1}, {1, 0}, {2, 6}, {6, 2}, {3, 4}, {4, 3}}
	if !slices.EqualFunc(round2, want, slices.Equal) {
		t.Fatalf("round 2: %v, want %v", round2, want)
	}
}

// playRounds plays the event's games until it has scheduled the given
// number of rounds beyond the first.
func playRounds(t *testing.T, cfg Config, ref referee, rounds int) ([]Game, []Outcome) {
	var done []Outcome
	var games []Game
	for range rounds {
		next, _, err := Next(cfg, done)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range next {
			done = append(done, Outcome{Game: g, Ranks: ref(g)})
			games = append(games, g)
		}
	}
	return games, done
}

func TestSwissFallback(t *testing.T) {
	// Six entries, five rounds: late rounds may have no rematch-free
	// pairing; the event must still complete with every round full.
	for salt := range uint64(100) {
		cfg := Config{Format: Swiss, Entries: entries(6), Seats: 2, Games: 5, Seed: int64(salt)}
		games, _ := run(t, cfg, random(salt))
		if len(games) != 5*3*2 {
			t.Fatalf("salt %d: %d games", salt, len(games))
		}
	}
}

func TestSPRT(t *testing.T) {
	base := Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 4000, Elo1: 5, Seed: 11}
	wide := Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 2000, Elo0: -300, Elo1: 0, Seed: 1}
	cand := func(win bool) referee {
		return func(g Game) []int {
			if (g.Seats[0] == 0) == win {
				return []int{1, 2}
			}
			return []int{2, 1}
		}
	}
	// A candidate winning (losing) every pair decides at the first batch
	// k where the LLR of 8(k+1) WW (LL) pairs leaves the bounds; by then
	// batch k+1 is out too, and nothing after it.
	decideAt := func(cfg Config, bin int) int {
		test := SPRTTest(cfg)
		for k := 0; ; k++ {
			var p rating.Penta
			p[bin] = SPRTBatchPairs * (k + 1)
			if test.Decide(test.LLR(p)) != rating.Continue {
				return (k + 2) * 2 * SPRTBatchPairs
			}
		}
	}
	tests := []struct {
		name    string
		cfg     Config
		ref     referee
		verdict string
		games   int // exact number of games scheduled
	}{
		{"strong", base, cand(true), "accept_h1", decideAt(base, 4)},
		{"weak", base, cand(false), "accept_h0", decideAt(base, 0)},
		// A coin toss with a cap of 20 games: 10 pairs cannot decide
		// between nElo 0 and 5.
		{"cap", Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 20, Elo1: 5, Seed: 1}, random(9), "continue", 20},
		// Wide hypotheses decide at the first batch.
		{"wide", wide, cand(true), "accept_h1", decideAt(wide, 4)},
	}
	if got := decideAt(wide, 4); got != 2*2*SPRTBatchPairs {
		t.Errorf("wide test decided after %d games, want after the first batch", got)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games, _, rep := runSPRT(t, tc.cfg, tc.ref)
			if _, err := json.Marshal(rep); err != nil {
				t.Fatalf("report does not encode: %v", err)
			}
			if rep.Verdict.String() != tc.verdict || !rep.Finished || len(games) != tc.games {
				t.Fatalf("verdict %v finished %v after %d games (LLR %.3f, %v); want %s after %d",
					rep.Verdict, rep.Finished, len(games), rep.LLR, rep.Penta, tc.verdict, tc.games)
			}
			for _, g := range games {
				if g.Group != g.Index/2 || g.Round != g.Index/(2*SPRTBatchPairs) || g.Seats[0] != g.Index%2 {
					t.Fatalf("game %+v", g)
				}
			}
		})
	}
}

func TestSPRTDecidesAtBatches(t *testing.T) {
	// Random results: whatever the verdict, it must come from the first
	// batch boundary where the LLR leaves the bounds (or the cap), and
	// must not depend on the order in which outcomes are listed.
	for salt := range uint64(8) {
		cfg := Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 1000, Elo0: -20, Elo1: 20, Seed: int64(salt)}
		_, done, rep := runSPRT(t, cfg, random(salt))
		rev := slices.Clone(done)
		slices.Reverse(rev)
		if rep2, err := SPRTStatus(cfg, rev); err != nil || rep2 != rep {
			t.Fatalf("order changed the report: %+v vs %+v (%v)", rep, rep2, err)
		}
		// Recount the pairs in index order and replay the test by hand.
		test := SPRTTest(cfg)
		byIndex := map[int]Outcome{}
		for _, o := range done {
			byIndex[o.Game.Index] = o
		}
		var p rating.Penta
		want, pairs := rating.Continue, 0
		for k := 0; k*SPRTBatchPairs < cfg.Games/2; k++ {
			for q := k * SPRTBatchPairs; q < min((k+1)*SPRTBatchPairs, cfg.Games/2); q++ {
				a, b := byIndex[2*q], byIndex[2*q+1]
				p.AddPair(points(a.Ranks, 0), points(b.Ranks, 1))
				pairs++
			}
			if want = test.Decide(test.LLR(p)); want != rating.Continue {
				break
			}
		}
		if !rep.Finished || rep.Verdict != want || rep.Pairs != pairs || rep.Penta != p {
			t.Fatalf("salt %d: report %v after %d pairs %v, by hand %v after %d pairs %v", salt, rep.Verdict, rep.Pairs, rep.Penta, want, pairs, p)
		}
	}
}

func TestScheduleGrowsAndResumes(t *testing.T) {
	cfgs := []Config{
		{Format: League, Entries: entries(5), Seats: 2, Games: 2, Seed: 1},
		{Format: Bracket, Entries: entries(7), Seats: 2, Games: 3, Seed: 2},
		{Format: Bracket, Entries: entries(10), Seats: 4, Games: 1, Seed: 2},
		{Format: Swiss, Entries: entries(9), Seats: 2, Games: 4, Seed: 3},
		{Format: SPRT, Entries: entries(2), Seats: 2, Games: 200, Elo0: -50, Elo1: 50, Seed: 4},
	}
	for _, cfg := range cfgs {
		t.Run(string(cfg.Format), func(t *testing.T) {
			all, done := run(t, cfg, random(5))
			// Any prefix of the outcomes gives a schedule that is a prefix
			// of the final one: resuming regenerates the same games.
			for k := 0; k <= len(done); k += max(1, len(done)/17) {
				part, _, err := Schedule(cfg, done[:k])
				if err != nil {
					t.Fatal(err)
				}
				if len(part) > len(all) {
					t.Fatalf("prefix %d: %d games, more than the final %d", k, len(part), len(all))
				}
				for i, g := range part {
					if !slices.Equal(g.Seats, all[i].Seats) || g.Seed != all[i].Seed || g.Group != all[i].Group || g.Round != all[i].Round {
						t.Fatalf("prefix %d: game %d %+v, finally %+v", k, i, g, all[i])
					}
				}
			}
			// A changed master seed no longer matches the stored games.
			other := cfg
			other.Seed++
			if _, _, err := Schedule(other, done); err == nil || !strings.Contains(err.Error(), "does not match the schedule") {
				t.Fatalf("changed seed: %v", err)
			}
		})
	}
}

func TestOutcomeErrors(t *testing.T) {
	cfg := Config{Format: League, Entries: entries(3), Seats: 2, Games: 1}
	games, _, _ := Schedule(cfg, nil)
	g := games[0]
	tests := []struct {
		done []Outcome
		want string
	}{
		{[]Outcome{{Game: g, Ranks: []int{1}}}, "game 0 has 1 ranks for 2 seats"},
		{[]Outcome{{Game: g, Ranks: []int{1, 3}}}, "game 0 gives seat 1 rank 3; ranks run from 1 to 2"},
		{[]Outcome{{Game: g, Ranks: []int{1, 2}}, {Game: g, Ranks: []int{2, 1}}}, "game 0 has two outcomes"},
		{[]Outcome{{Game: Game{Index: 99, Seats: []int{0, 1}}, Ranks: []int{1, 2}}}, "game 99 has an outcome but is not in the schedule"},
		{[]Outcome{{Game: Game{Index: 0, Seats: []int{0, 5}}, Ranks: []int{1, 2}}}, "game 0 seats entry 5, but the event has entries 0..2"},
		{[]Outcome{{Game: Game{Index: 0, Seats: []int{0, 1, 2}}, Ranks: []int{1, 2, 3}}}, "game 0 has 3 seats but the event plays 2-seat games"},
	}
	for _, tc := range tests {
		_, _, err := Next(cfg, tc.done)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

func TestGameSeed(t *testing.T) {
	// Pinned values: changing the derivation would break resumed events.
	if got := GameSeed(0, 0); got != 8147104208329303767 {
		t.Errorf("GameSeed(0, 0) = %d", got)
	}
	if got := GameSeed(-12345, 7); got != 8762866147108980673 {
		t.Errorf("GameSeed(-12345, 7) = %d", got)
	}
	if got := shuffled(1, 0, 8); !slices.Equal(got, []int{7, 1, 0, 6, 5, 4, 3, 2}) {
		t.Errorf("shuffled(1, 0, 8) = %v", got)
	}
	seen := map[int64]bool{}
	for master := range int64(20) {
		for g := range 500 {
			s := GameSeed(master, g)
			if s < 0 || seen[s] {
				t.Fatalf("GameSeed(%d, %d) = %d: negative or repeated", master, g, s)
			}
			seen[s] = true
		}
	}
	if shuffled(1, 2, 10)[0] == shuffled(1, 3, 10)[0] && slices.Equal(shuffled(1, 2, 10), shuffled(1, 3, 10)) {
		t.Fatal("streams give the same shuffle")
	}
	if !slices.Equal(shuffled(5, 1, 50), shuffled(5, 1, 50)) {
		t.Fatal("shuffle is not reproducible")
	}
}

func TestCompareSeatings(t *testing.T) {
	for seats := 2; seats <= 8; seats++ {
		rows := CompareSeatings(seats)
		size := seats
		if seats%2 == 1 {
			size = 2 * seats
		}
		if len(rows) != size {
			t.Fatalf("%d seats: %d games per group, want %d", seats, len(rows), size)
		}
		inSeat := [2][]int{make([]int, seats), make([]int, seats)}
		after, before := 0, 0
		for _, row := range rows {
			if got := slices.Sorted(slices.Values(row)); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7}[:seats]) {
				t.Fatalf("%d seats: row %v does not seat every entry once", seats, row)
			}
			a, b := slices.Index(row, 0), slices.Index(row, 1)
			inSeat[0][a]++
			inSeat[1][b]++
			if b == (a+1)%seats {
				after++
			}
			if a == (b+1)%seats {
				before++
			}
		}
		for e := range 2 {
			for s, n := range inSeat[e] {
				if n != size/seats {
					t.Errorf("%d seats: entry %d sits in seat %d %d times, want %d", seats, e, s, n, size/seats)
				}
			}
		}
		if seats > 2 && after != before {
			t.Errorf("%d seats: the base follows the candidate %d times and precedes it %d times", seats, after, before)
		}
	}
}

// TestCompareClassroomTwoSeats: a candidate that wins every game (20–0
// and on) is called stronger after 8 seat-swapped pairs, 16 games, checked
// pair by pair; the next batch is scheduled but not needed.
func TestCompareClassroomTwoSeats(t *testing.T) {
	cfg := Config{Format: SPRT, Entries: entries(2), Seats: 2, Games: 400, Seed: 9, Test: TestClassroom}
	cfg.Entries[0].Candidate = true
	for _, tc := range []struct {
		ref     referee
		verdict string
	}{{byIndex, "accept_h1"}, {reverseIndex, "accept_weaker"}} {
		_, _, rep := runSPRT(t, cfg, tc.ref)
		if rep.Verdict.String() != tc.verdict || rep.Games != 16 || rep.Groups != 8 || rep.Pairs != 8 {
			t.Errorf("verdict %v after %d games (%d groups); want %s after 16", rep.Verdict, rep.Games, rep.Groups, tc.verdict)
		}
	}
}

func TestCompareMultiSeat(t *testing.T) {
	four := func(test string) Config {
		es := entries(4)
		es[0].Candidate = true
		es[2].Filler, es[3].Filler = true, true
		return Config{Format: SPRT, Entries: es, Seats: 4, Games: 400, Seed: 3, Test: test, Elo1: 5}
	}
	tests := []struct {
		name    string
		cfg     Config
		ref     referee
		verdict string
		most    int // the verdict rests on at most this many games
	}{
		// The candidate (entry 0) always finishes ahead of the base.
		{"classroom stronger", four(TestClassroom), byIndex, "accept_h1", 40},
		{"classroom weaker", four(TestClassroom), reverseIndex, "accept_weaker", 40},
		{"classroom level", four(TestClassroom), random(5), "accept_h0", 400},
		// The Elo test on whole groups, with hypotheses far apart.
		{"elo stronger", func() Config { c := four(TestElo); c.Elo0, c.Elo1 = -300, 0; return c }(), byIndex, "accept_h1", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games, _, rep := runSPRT(t, tc.cfg, tc.ref)
			if rep.Verdict.String() != tc.verdict || !rep.Finished || rep.Games > tc.most || rep.Games != 4*rep.Groups {
				t.Fatalf("verdict %v finished %v on %d games (%d scheduled; %+v); want %s within %d",
					rep.Verdict, rep.Finished, rep.Games, len(games), rep.State, tc.verdict, tc.most)
			}
			for _, g := range games {
				if g.Group != g.Index/4 || !slices.Equal(g.Seats, CompareSeatings(4)[g.Index%4]) {
					t.Fatalf("game %+v", g)
				}
			}
		})
	}
	bad := four(TestClassroom)
	bad.Entries[3].Filler = false
	if err := Validate(bad); err == nil || !strings.Contains(err.Error(), "make it a filler") {
		t.Errorf("three ranked entries: %v", err)
	}
	bad = four("coin")
	if err := Validate(bad); err == nil || !strings.Contains(err.Error(), `unknown test "coin"`) {
		t.Errorf("unknown test: %v", err)
	}
}
