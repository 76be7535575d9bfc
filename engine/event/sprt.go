package event

import "ringside/engine/rating"

// sprtState is what the SPRT scheduler learned, for SPRTStatus.
type sprtState struct {
	llr     float64
	verdict rating.Verdict
	penta   rating.Penta // pairs of the groups the verdict rests on (2-seat games)
	wdl     rating.WDL   // games of the same groups, the candidate's relative result
	gwdl    rating.WDL   // the same groups, won, drawn or lost as a whole
	groups  int          // complete groups the verdict rests on
	size    int          // games per group
	cls     rating.ClassroomState
}

// CompareSeatings returns the seatings of one seed group of a comparison
// in seats-seat games: entry 0 is the candidate, entry 1 the base and
// entries 2… the fillers. Each of the two sits in every seat equally
// often, and the base sits right after the candidate (in seat order) as
// often as right before it, so neither gains from who moves next to whom.
// Two seats: the seat-swapped pair. An even number of seats S: S games,
// the candidate in seat i and the base in seat i xor 1. An odd number: 2S
// games, the base in seat i+1 and then i−1 (mod S). Fillers take the other
// seats in an order rotated each game.
func CompareSeatings(seats int) [][]int {
	type pair struct{ a, b int }
	var at []pair
	switch {
	case seats == 2:
		at = []pair{{0, 1}, {1, 0}}
	case seats%2 == 0:
		for i := range seats {
			at = append(at, pair{i, i ^ 1})
		}
	default:
		for i := range seats {
			at = append(at, pair{i, (i + 1) % seats})
		}
		for i := range seats {
			at = append(at, pair{i, (i + seats - 1) % seats})
		}
	}
	out := make([][]int, len(at))
	for g, p := range at {
		row := make([]int, seats)
		row[p.a], row[p.b] = 0, 1
		f := 0
		for s := range seats {
			if s == p.a || s == p.b {
				continue
			}
			row[s] = 2 + (f+g)%(seats-2)
			f++
		}
		out[g] = row
	}
	return out
}

// ahead compares the candidate (entry 0) with the base (entry 1) in one
// game: 1 when the candidate finished ahead, −1 behind, 0 level.
func ahead(g Game, o *Outcome) int {
	var ra, rb int
	for s, e := range g.Seats {
		switch e {
		case 0:
			ra = o.Ranks[s]
		case 1:
			rb = o.Ranks[s]
		}
	}
	switch {
	case ra < rb:
		return 1
	case ra > rb:
		return -1
	}
	return 0
}

// scheduleSPRT schedules a comparison of entry 0 (the candidate) with
// entry 1 (the base) in seed groups (CompareSeatings; with fillers in
// games of more than two seats), in batches of SPRTBatchPairs groups, each
// group on its own seed; cfg.Games caps the games (whole groups only).
// Group p is games p·G … p·G+G−1 for groups of G games; Round is the batch.
//
// Two batches are out at a time: batch k+2 is scheduled once batches 0..k
// are complete and undecided. The classroom test is checked after each
// group in group order, the SPRT after each complete batch on all groups
// of the complete batches so far; in both, the first check at which the
// test decides is the verdict. Checking in a fixed order, rather than
// whenever results arrive, makes the verdict a function of the results
// alone.
func scheduleSPRT(b *book) bool {
	seatings := CompareSeatings(b.cfg.Seats)
	size := len(seatings)
	groups := b.cfg.Games / size
	batches := (groups + SPRTBatchPairs - 1) / SPRTBatchPairs
	st := &sprtState{size: size}
	b.sprt = st
	classroom := b.cfg.Test == TestClassroom
	cls := ClassroomTest(b.cfg)
	test := SPRTTest(b.cfg)
	groupsIn := func(k int) (lo, hi int) {
		return k * SPRTBatchPairs, min((k+1)*SPRTBatchPairs, groups)
	}
	schedule := func(k int) {
		lo, hi := groupsIn(k)
		for range hi - lo {
			grp, seed := b.group()
			for _, seats := range seatings {
				b.add(k, grp, seed, seats)
			}
		}
	}
	for k := 0; k < min(2, batches); k++ {
		schedule(k)
	}
	for k := range batches {
		lo, hi := groupsIn(k)
		for p := lo; p < hi; p++ {
			diff := 0
			for i := p * size; i < (p+1)*size; i++ {
				if b.result(i) == nil {
					return false
				}
			}
			for i := p * size; i < (p+1)*size; i++ {
				d := ahead(b.games[i], b.result(i))
				diff += d
				switch d {
				case 1:
					st.wdl.Wins++
				case -1:
					st.wdl.Losses++
				default:
					st.wdl.Draws++
				}
			}
			if size == 2 {
				g0, g1 := b.result(p*2), b.result(p*2+1)
				st.penta.AddPair(points(g0.Ranks, 0), points(g1.Ranks, 1))
			}
			switch {
			case diff > 0:
				st.gwdl.Wins++
			case diff < 0:
				st.gwdl.Losses++
			default:
				st.gwdl.Draws++
			}
			st.groups = p + 1
			if classroom {
				cls.Add(&st.cls, diff)
				if st.verdict = st.cls.Verdict(); st.verdict != rating.Continue {
					return true
				}
			}
		}
		if !classroom {
			if size == 2 {
				st.llr = test.LLR(st.penta)
			} else {
				// Groups of more than two games have no pentanomial
				// model: the test runs on each group's result as a
				// whole (won, drawn, lost), which keeps the games of
				// one seed, correlated as they are, one observation.
				st.llr = test.LLRWDL(st.gwdl)
			}
			st.verdict = test.Decide(st.llr)
			if st.verdict != rating.Continue {
				return true
			}
		}
		if k+2 < batches {
			schedule(k + 2)
		}
	}
	return true
}

// SPRTReport is the state of an SPRT event.
type SPRTReport struct {
	// Kind is the test run: TestClassroom or TestElo.
	Kind      string           `json:"kind"`
	Test      rating.SPRT      `json:"test"`
	Classroom rating.Classroom `json:"classroom"`
	Lower     float64          `json:"lower"` // the bounds on the LLR
	Upper     float64          `json:"upper"`
	LLR       float64          `json:"llr"`
	Verdict   rating.Verdict   `json:"verdict"`
	// Finished is set when the test decided or the game cap was reached
	// (then Verdict stays Continue: the test was inconclusive).
	Finished bool `json:"finished"`
	// Groups are the complete seed groups the verdict rests on, Games
	// their games. Pairs, Penta and WDL count them from the candidate's
	// side (Pairs and Penta in 2-seat games only; WDL per game, the
	// candidate ahead of, level with or behind the base); Elo is
	// estimated from them (as fastchess does, from the pentanomial counts
	// where there are pairs).
	Groups int                   `json:"groups"`
	Games  int                   `json:"games"`
	Pairs  int                   `json:"pairs"`
	Penta  rating.Penta          `json:"penta"`
	WDL    rating.WDL            `json:"wdl"`
	Elo    rating.Estimate       `json:"elo"`
	State  rating.ClassroomState `json:"state"` // the classroom test's counts and ratios
}

// SPRTStatus reports the test of an SPRT event as far as it has gone.
func SPRTStatus(cfg Config, done []Outcome) (SPRTReport, error) {
	b, err := buildAs(cfg, done, SPRT, "an SPRT report")
	if err != nil {
		return SPRTReport{}, err
	}
	st := b.sprt
	r := SPRTReport{
		Kind: TestElo, Test: SPRTTest(cfg), LLR: st.llr, Verdict: st.verdict, Finished: b.finished,
		Groups: st.groups, Games: st.groups * st.size, Pairs: st.penta.Pairs(), Penta: st.penta, WDL: st.wdl,
	}
	if st.size == 2 {
		r.Elo = st.penta.Estimate()
	} else {
		r.Elo = st.wdl.Estimate()
	}
	r.Lower, r.Upper = r.Test.Bounds()
	if cfg.Test == TestClassroom {
		r.Kind, r.Classroom, r.State = TestClassroom, ClassroomTest(cfg), st.cls
		r.Lower, r.Upper = r.Classroom.Bounds()
		r.LLR = max(st.cls.Up, st.cls.Down)
	}
	return r, nil
}
