package event

import (
	"fmt"
	"slices"
	"sort"

	"ringside/engine/rating"
)

// Table is an event's standings.
type Table struct {
	Format Format `json:"format"`
	Seats  int    `json:"seats"`
	// Model names the rating model behind Rating: "bradley-terry" for two
	// seats (the Elo model) or "plackett-luce" for more.
	Model string `json:"model"`
	// Rows are the ranked entries, best first; filler entries are left
	// out (they still count in the ratings and the crosstable).
	Rows  []Standing `json:"rows"`
	Cross Crosstable `json:"crosstable"`
}

// Standing is one entry's line in the standings.
type Standing struct {
	Entry     int    `json:"entry"` // index in Config.Entries
	Name      string `json:"name"`
	Candidate bool   `json:"candidate,omitempty"`
	// Rank is 1-based; rows whose ranking key is equal share a rank (see
	// Standings for the key of each format).
	Rank int `json:"rank"`
	// Games counts games played. Wins, Draws and Losses: with two seats
	// the usual; with more seats a win is a sole first place, a draw a
	// shared first place, and anything else a loss, so Places says more.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Places counts, with more than two seats, how often the entry
	// finished 1st, 2nd, … (a shared place counts as the best of the
	// places it covers).
	Places []int `json:"places,omitempty"`
	// Byes counts Swiss byes (each worth 2 points and no games).
	Byes int `json:"byes,omitempty"`
	// Points: two seats, win 1 and draw ½; more seats, place p of n is
	// worth (n − p)/(n − 1), seats sharing a rank averaging the places
	// they cover. Swiss byes add their points here.
	Points float64 `json:"points"`
	// Score is the game points per game, 0..1 (byes left out; 0 before
	// any game).
	Score float64 `json:"score"`
	// Buchholz (Swiss): the sum of the points of every opponent met.
	Buchholz float64 `json:"buchholz,omitempty"`
	// Reached (bracket): the 0-based round the entry has reached; the
	// champion has the number of rounds.
	Reached int `json:"reached,omitempty"`
	// Rating is the entry's strength on the Elo scale (the non-filler
	// entries average 0), fitted jointly from every game by Model, with
	// its 95 % interval.
	Rating     float64 `json:"rating"`
	RatingLow  float64 `json:"rating_low"`
	RatingHigh float64 `json:"rating_high"`
	// LOS is the probability, from the ratings, that this entry is
	// stronger than the next row's (0 on the last row).
	LOS float64 `json:"los"`
	// Tied is set when the games so far do not establish that this row is
	// stronger than the next: LOS below 95 %. A bracket's order is its
	// results: never tied.
	Tied bool `json:"tied,omitempty"`
}

// Crosstable holds every entry's results against every other, by entry
// index (filler entries included).
type Crosstable struct {
	// Cells[a][b] is a's record against b: with two seats the points a
	// scored in their games; with more seats how often a finished ahead of
	// b in games they both played (a shared rank counts ½).
	Cells [][]Cell `json:"cells"`
}

// Cell is one entry's record against another.
type Cell struct {
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// Standings adds up the outcomes of an event. Rows are ordered by:
//
//   - league: points per game (so that entries that have played different
//     numbers of games so far compare fairly), then rating; rows with an
//     equal score share a rank;
//   - Swiss: points (byes included), then Buchholz, then rating; equal
//     points and Buchholz share a rank;
//   - gauntlet and SPRT: rating, since candidates and field entries play
//     different numbers of games against different opponents;
//   - bracket: the round reached, then the place in the match or heat that
//     eliminated the entry (losers of one round share a rank, as do the
//     entries of a match still undecided), then score, then seed.
//
// Remaining ties are broken by entry order.
func Standings(cfg Config, done []Outcome) (Table, error) {
	b, err := build(cfg, done)
	if err != nil {
		return Table{}, err
	}
	n, s := len(cfg.Entries), cfg.Seats
	rows := make([]Standing, n)
	cells := make([][]Cell, n)
	back := make([]Cell, n*n)
	for i := range cells {
		cells[i] = back[i*n : (i+1)*n : (i+1)*n]
		rows[i] = Standing{Entry: i, Name: cfg.Entries[i].Name, Candidate: cfg.Entries[i].Candidate}
		if s > 2 {
			rows[i].Places = make([]int, s)
		}
	}
	// Points are summed in whole units of 1/(2(s−1)), the finest share a
	// place can be worth, so that equal totals compare equal: float sums
	// of thirds depend on the order of the games.
	units := make([]int, n)
	fit := rating.NewFit(n)
	for i := range done {
		o := &done[i]
		seats, ranks := o.Game.Seats, o.Ranks
		addGame(rows, cells, units, seats, ranks)
		if err := fit.Add(seats, ranks); err != nil {
			return Table{}, fmt.Errorf("game %d: %w", o.Game.Index, err)
		}
	}
	for i := range rows {
		rows[i].Points = float64(units[i]) / float64(2*(s-1))
		if rows[i].Games > 0 {
			rows[i].Score = rows[i].Points / float64(rows[i].Games)
		}
	}

	var ranked []int
	for i, e := range cfg.Entries {
		if !e.Filler {
			ranked = append(ranked, i)
		}
	}
	ratings, err := fit.Solve(ranked)
	if err != nil {
		return Table{}, err
	}
	for i := range rows {
		rows[i].Rating = ratings.Elo[i]
		rows[i].RatingLow, rows[i].RatingHigh = ratings.Interval(i)
	}

	primary, secondary := rankKeys(cfg, b, rows)
	sort.SliceStable(ranked, func(x, y int) bool {
		a, c := ranked[x], ranked[y]
		if primary[a] != primary[c] {
			if primary[a][0] != primary[c][0] {
				return primary[a][0] > primary[c][0]
			}
			return primary[a][1] > primary[c][1]
		}
		return secondary[a] > secondary[c]
	})
	t := Table{Format: cfg.Format, Seats: s, Model: "plackett-luce", Cross: Crosstable{Cells: cells}}
	if s == 2 {
		t.Model = "bradley-terry"
	}
	for k, e := range ranked {
		row := rows[e]
		row.Rank = k + 1
		if k > 0 && primary[e] == primary[ranked[k-1]] {
			row.Rank = t.Rows[k-1].Rank
		}
		if k+1 < len(ranked) {
			next := ranked[k+1]
			row.LOS = ratings.LOS(e, next)
			row.Tied = cfg.Format != Bracket && row.LOS < 0.95
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// addGame adds one game's result to the rows (games, points in units,
// places, wins, draws, losses) and to the crosstable.
func addGame(rows []Standing, cells [][]Cell, units []int, seats, ranks []int) {
	// Only the order of ranks matters, so a game that numbers its
	// ranks densely (1, 1, 2) counts like one using competition
	// ranks (1, 1, 3).
	best, firsts := slices.Min(ranks), 0
	for _, r := range ranks {
		if r == best {
			firsts++
		}
	}
	for k, e := range seats {
		row := &rows[e]
		row.Games++
		units[e] += pointUnits(ranks, k)
		if row.Places != nil {
			row.Places[place(ranks, k)]++
		}
		switch {
		case ranks[k] != best:
			row.Losses++
		case firsts == 1:
			row.Wins++
		default:
			row.Draws++
		}
		for t, f := range seats {
			if t == k {
				continue
			}
			c := &cells[e][f]
			c.Games++
			switch {
			case ranks[k] < ranks[t]:
				c.Points++
			case ranks[k] == ranks[t]:
				c.Points += 0.5
			}
		}
	}
}

// rankKeys returns each row's ranking key: primary decides shared ranks;
// secondary only orders rows within a shared rank. A Swiss event's byes and
// Buchholz scores are added to the rows on the way.
func rankKeys(cfg Config, b *book, rows []Standing) (primary [][2]float64, secondary []float64) {
	n := len(rows)
	primary = make([][2]float64, n)
	secondary = make([]float64, n)
	switch cfg.Format {
	case League:
		// Points per game, not points: while a league is played entries
		// have played different numbers of games. Once it is over all
		// have played as many, and the order is that of the points.
		for i := range rows {
			primary[i] = [2]float64{rows[i].Score}
			if rows[i].Games == 0 {
				primary[i] = [2]float64{-1}
			}
			secondary[i] = rows[i].Rating
		}
	case Swiss:
		st := b.swiss
		for _, e := range st.byes {
			if e >= 0 {
				rows[e].Byes++
				rows[e].Points += swissByePoints
			}
		}
		for _, round := range st.pairs {
			for _, p := range round {
				rows[p[0]].Buchholz += rows[p[1]].Points
				rows[p[1]].Buchholz += rows[p[0]].Points
			}
		}
		for i := range rows {
			primary[i] = [2]float64{rows[i].Points, rows[i].Buchholz}
			secondary[i] = rows[i].Rating
		}
	case Gauntlet, SPRT:
		for i := range rows {
			primary[i] = [2]float64{rows[i].Rating}
		}
	case Bracket:
		reached, place := bracketPlaces(b.bracket, n)
		for i := range rows {
			rows[i].Reached = reached[i]
			primary[i] = [2]float64{float64(reached[i]), -float64(place[i])}
			// Entries still in one undecided heat (or out in one round)
			// share a place; listed by their games so far, not by seed.
			secondary[i] = rows[i].Score
		}
	}
	return primary, secondary
}

// place is seat k's 0-based place in a game: how many seats finished
// strictly ahead of it.
func place(ranks []int, k int) int {
	p := 0
	for _, r := range ranks {
		if r < ranks[k] {
			p++
		}
	}
	return p
}

// bracketPlaces returns, per entry, the round reached and the place in the
// match that eliminated it (0 while still in, or for the champion).
func bracketPlaces(tree *BracketTree, n int) (reached, place []int) {
	reached, place = make([]int, n), make([]int, n)
	for r, round := range tree.Rounds {
		for _, e := range round.Byes {
			reached[e] = r + 1
		}
		for _, m := range round.Matches {
			for _, e := range m.Entries {
				if e >= 0 {
					reached[e], place[e] = r, 0
				}
			}
			if !m.Decided {
				continue
			}
			for k, e := range m.Order {
				if slices.Contains(m.Advance, e) {
					reached[e], place[e] = r+1, 0
				} else {
					place[e] = k
				}
			}
		}
	}
	return reached, place
}

// HeadToHead is the record of one entry against another in a two-seat
// event, from the first entry's side, with fastchess's estimates.
type HeadToHead struct {
	A   int        `json:"a"` // entry indexes
	B   int        `json:"b"`
	WDL rating.WDL `json:"wdl"`
	// Penta counts the seat-swapped pairs (both games of one group
	// between A and B played); Elo is estimated from it when there are
	// pairs, else from WDL.
	Penta rating.Penta    `json:"penta"`
	Elo   rating.Estimate `json:"elo"`
}

// Compare returns the head-to-head record of entries a and b.
func Compare(cfg Config, done []Outcome, a, b int) (HeadToHead, error) {
	if cfg.Seats != 2 {
		return HeadToHead{}, fmt.Errorf("head to head records need 2-seat games; see the crosstable for %d-seat games", cfg.Seats)
	}
	n := len(cfg.Entries)
	if a < 0 || a >= n || b < 0 || b >= n || a == b {
		return HeadToHead{}, fmt.Errorf("head to head: entries %d and %d must be two different entries of 0..%d", a, b, n-1)
	}
	h := HeadToHead{A: a, B: b}
	groups := map[int][]float64{}
	for i := range done {
		o := &done[i]
		if err := checkOutcome(cfg, o); err != nil {
			return HeadToHead{}, err
		}
		sa, sb := seatOf(o.Game, a), seatOf(o.Game, b)
		if sa < 0 || sb < 0 {
			continue
		}
		p := points(o.Ranks, sa)
		switch p {
		case 1:
			h.WDL.Wins++
		case 0:
			h.WDL.Losses++
		default:
			h.WDL.Draws++
		}
		groups[o.Game.Group] = append(groups[o.Game.Group], p)
	}
	for _, ps := range groups {
		if len(ps) == 2 {
			h.Penta.AddPair(ps[0], ps[1])
		}
	}
	if h.Penta.Pairs() > 0 {
		h.Elo = h.Penta.Estimate()
	} else {
		h.Elo = h.WDL.Estimate()
	}
	return h, nil
}

// buildAs is build for a report that only a want event has (what); the
// error for another format says so.
func buildAs(cfg Config, done []Outcome, want Format, what string) (*book, error) {
	if cfg.Format != want {
		return nil, fmt.Errorf("this is a %s event; only a %s event has %s", cfg.Format, want, what)
	}
	return build(cfg, done)
}
