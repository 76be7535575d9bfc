package event

import "ringside/engine/rating"

// sprtState is what the SPRT scheduler learned, for SPRTStatus.
type sprtState struct {
	llr     float64
	verdict rating.Verdict
	penta   rating.Penta // pairs of the batches the verdict rests on
	wdl     rating.WDL   // games of the same batches, candidate's side
	batches int          // complete batches the verdict rests on
}

// scheduleSPRT schedules a head-to-head test of entry 0 (the candidate)
// against entry 1 (the base) in batches of SPRTBatchPairs seat-swapped
// pairs, each pair on its own seed; cfg.Games caps the games (the last
// batch may be short). Pair p is games 2p (candidate in seat 0) and 2p+1
// (seats swapped), group p; Round is the batch number.
//
// The test is checked after each complete batch, in batch order, on the
// pentanomial counts of all pairs of the complete batches so far; the
// first batch at which the log-likelihood ratio leaves the bounds decides.
// Checking at batch boundaries in order, rather than whenever results
// arrive, makes the verdict a function of the results alone. Two batches
// are out at a time: batch k+2 is scheduled once batches 0..k are complete
// and undecided.
func scheduleSPRT(b *book) bool {
	test := SPRTTest(b.cfg)
	pairs := b.cfg.Games / 2
	batches := (pairs + SPRTBatchPairs - 1) / SPRTBatchPairs
	st := &sprtState{}
	b.sprt = st
	pairsIn := func(k int) (lo, hi int) {
		return k * SPRTBatchPairs, min((k+1)*SPRTBatchPairs, pairs)
	}
	schedule := func(k int) {
		lo, hi := pairsIn(k)
		for p := lo; p < hi; p++ {
			grp, seed := b.group()
			b.add(k, grp, seed, []int{0, 1})
			b.add(k, grp, seed, []int{1, 0})
		}
	}
	for k := 0; k < min(2, batches); k++ {
		schedule(k)
	}
	for k := range batches {
		lo, hi := pairsIn(k)
		for p := lo; p < hi; p++ {
			g0, g1 := b.result(2*p), b.result(2*p+1)
			if g0 == nil || g1 == nil {
				return false
			}
			a := points(g0.Ranks, 0) // candidate in seat 0
			c := points(g1.Ranks, 1) // candidate in seat 1
			st.penta.AddPair(a, c)
			for _, x := range [2]float64{a, c} {
				switch x {
				case 1:
					st.wdl.Wins++
				case 0:
					st.wdl.Losses++
				default:
					st.wdl.Draws++
				}
			}
		}
		st.batches = k + 1
		st.llr = test.LLR(st.penta)
		st.verdict = test.Decide(st.llr)
		if st.verdict != rating.Continue {
			return true
		}
		if k+2 < batches {
			schedule(k + 2)
		}
	}
	return true
}

// SPRTReport is the state of an SPRT event.
type SPRTReport struct {
	Test    rating.SPRT    `json:"test"`
	Lower   float64        `json:"lower"` // Wald's bounds on the LLR
	Upper   float64        `json:"upper"`
	LLR     float64        `json:"llr"`
	Verdict rating.Verdict `json:"verdict"`
	// Finished is set when the test decided or the game cap was reached
	// (then Verdict stays Continue: the test was inconclusive).
	Finished bool `json:"finished"`
	// Pairs, Penta and WDL count the complete batches the verdict rests
	// on, from the candidate's side; Elo is estimated from them (as
	// fastchess does, from the pentanomial counts).
	Pairs int             `json:"pairs"`
	Penta rating.Penta    `json:"penta"`
	WDL   rating.WDL      `json:"wdl"`
	Elo   rating.Estimate `json:"elo"`
}

// SPRTStatus reports the test of an SPRT event as far as it has gone.
func SPRTStatus(cfg Config, done []Outcome) (SPRTReport, error) {
	if cfg.Format != SPRT {
		return SPRTReport{}, errFormat(cfg, SPRT, "an SPRT report")
	}
	b, err := build(cfg, done)
	if err != nil {
		return SPRTReport{}, err
	}
	st := b.sprt
	r := SPRTReport{
		Test: SPRTTest(cfg), LLR: st.llr, Verdict: st.verdict, Finished: b.finished,
		Pairs: st.penta.Pairs(), Penta: st.penta, WDL: st.wdl, Elo: st.penta.Estimate(),
	}
	r.Lower, r.Upper = r.Test.Bounds()
	return r, nil
}
