package rating

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// Published cutechess-cli lines "Score of A vs B: W - L - D" and "Elo
// difference: E +/- M, LOS: P %", printed with one decimal. cutechess
// approximates erf⁻¹ (Winitzki's formula), so its 97.5 % quantile is 1.9572
// instead of 1.95996 and its ± comes out about 0.15 % narrower than ours
// (17.94 against 17.97 for the first row): the margin gets 0.1 of slack.
func TestWDLEstimateCutechess(t *testing.T) {
	tests := []struct {
		w, l, d      int
		elo, err, lo float64
	}{
		{372, 322, 306, 17.4, 17.9, 97.1},
		{338, 81, 1581, 44.9, 6.8, 100.0},
		{449, 276, 275, 60.7, 18.5, 100.0},
		{382, 320, 298, 21.6, 18.1, 99.0},
		{45, 37, 18, 27.9, 62.4, 81.2},
		{99, 97, 104, 2.3, 31.8, 55.7},
		{92, 112, 96, -23.2, 32.5, 8.1},
		{1667, 0, 333, 416.7, 18.6, 100.0},
	}
	for _, tc := range tests {
		e := WDL{Wins: tc.w, Draws: tc.d, Losses: tc.l}.Estimate()
		if !near(e.Elo, tc.elo, 0.051) || !near(e.Error, tc.err, 0.1) || !near(100*e.LOS, tc.lo, 0.051) {
			t.Errorf("%d-%d-%d: got Elo %.2f ± %.2f LOS %.2f %%, want %.1f ± %.1f LOS %.1f %%",
				tc.w, tc.l, tc.d, e.Elo, e.Error, 100*e.LOS, tc.elo, tc.err, tc.lo)
		}
	}
}

// Hand computation for 372 wins, 306 draws, 322 losses: n = 1000, score
// s = (372 + 306/2)/1000 = 0.525; Elo = −400·log10(1/0.525 − 1) =
// −400·log10(0.904762) = −400·(−0.0434657) = 17.386. Per-game variance
// v = 0.372·0.475² + 0.306·0.025² + 0.322·0.525² = 0.083933 + 0.000191 +
// 0.088751 = 0.172875, standard error √(v/n) = 0.0131482, so the score
// interval is 0.525 ± 1.959964·0.0131482 = 0.525 ± 0.025770 = [0.499230,
// 0.550770]: Elo [−0.535, 35.401], ± 17.968. LOS = ½(1 + erf(50/√1388)) =
// ½(1 + erf(1.342070)) = 0.97115.
func TestWDLEstimateHand(t *testing.T) {
	e := WDL{Wins: 372, Draws: 306, Losses: 322}.Estimate()
	if !near(e.Score, 0.525, 1e-12) || !near(e.Elo, 17.386, 0.0005) || !near(e.Low, -0.535, 0.0005) ||
		!near(e.High, 35.401, 0.0005) || !near(e.Error, 17.968, 0.0005) || !near(e.LOS, 0.97115, 0.000005) {
		t.Fatalf("got %+v", e)
	}
	// nElo = (s − ½)/√v · 800/ln 10 = 0.025/0.415782 · 347.436 = 20.890;
	// its ± is 1.959964/√1000 · 347.436 = 21.534.
	if !near(e.NElo, 20.890, 0.0005) || !near(e.NEloError, 21.534, 0.0005) {
		t.Fatalf("nElo %.3f ± %.3f", e.NElo, e.NEloError)
	}
}

// Published fastchess summaries (pentanomial reporting), e.g.
//
//	Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15
//	LOS: 100.00 %, DrawRatio: 47.00 %, PairsRatio: 3.42
//	Games: 200, Wins: 67, Losses: 23, Draws: 110, Points: 122.0 (61.00 %)
//	Ptnml(0-2): [1, 11, 47, 25, 16], WL/DD Ratio: 0.27
//	LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00]
//
// Hand computation for it: 100 pairs, score = (0.25·11 + 0.5·47 + 0.75·25 +
// 16)/100 = 0.61, Elo = −400·log10(1/0.61 − 1) = 77.71. Pair variance v =
// (1·0.61² + 11·0.36² + 47·0.11² + 25·0.14² + 16·0.39²)/100 = 0.0529, so the
// standard error is √(v/100) = 0.023 and the score interval 0.61 ±
// 0.045079 = [0.564921, 0.655079]: Elo [45.37, 111.43], ± 33.03. nElo =
// 0.11/√(2v) · 347.436 = 117.50 (its ± is 1.96/√200 · 347.436 = 48.15).
// LOS = Φ(0.11/0.023) = Φ(4.78) ≈ 1.
func TestPentaEstimateFastchess(t *testing.T) {
	tests := []struct {
		p                Penta
		elo, err, nelo   float64
		los, llr         float64
		w, l, d, games   int
		points, drawRate float64
	}{
		{Penta{1, 11, 47, 25, 16}, 77.71, 33.03, 117.50, 100.00, 1.71, 67, 23, 110, 200, 122, 47},
		{Penta{1, 15, 25, 33, 26}, 123.02, 40.58, 159.46, 100.00, 2.19, 102, 34, 64, 200, 134, 25},
		{Penta{1, 24, 42, 25, 8}, 26.11, 31.23, 40.51, 95.04, 0.60, 45, 30, 125, 200, 107.5, 42},
		{Penta{2, 23, 32, 35, 8}, 41.89, 33.28, 61.39, 99.38, 0.92, 63, 39, 98, 200, 112, 32},
	}
	sprt := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	for _, tc := range tests {
		e := tc.p.Estimate()
		if !near(e.Elo, tc.elo, 0.005) || !near(e.Error, tc.err, 0.005) || !near(e.NElo, tc.nelo, 0.005) ||
			!near(e.NEloError, 48.15, 0.005) || !near(100*e.LOS, tc.los, 0.005) {
			t.Errorf("%v: got %s", tc.p, e)
		}
		if llr := sprt.LLR(tc.p); !near(llr, tc.llr, 0.005) {
			t.Errorf("%v: LLR %.4f, want %.2f", tc.p, llr, tc.llr)
		}
		if got := e.Score * float64(2*tc.p.Pairs()); !near(got, tc.points, 1e-9) {
			t.Errorf("%v: points %.2f, want %.1f", tc.p, got, tc.points)
		}
	}
	lo, hi := sprt.Bounds()
	if !near(lo, -2.94, 0.005) || !near(hi, 2.94, 0.005) {
		t.Errorf("bounds (%.3f, %.3f), want (-2.94, 2.94)", lo, hi)
	}
}

func TestEstimateEdges(t *testing.T) {
	zero := WDL{}.Estimate()
	if zero.N != 0 || zero.Score != 0.5 || zero.LOS != 0.5 {
		t.Errorf("no games: %+v", zero)
	}
	all := WDL{Wins: 10}.Estimate()
	if !math.IsInf(all.Elo, 1) || !math.IsInf(all.Error, 1) || all.LOS < 0.999 {
		t.Errorf("all wins: %+v", all)
	}
	draws := Penta{0, 0, 10, 0, 0}.Estimate()
	if draws.Elo != 0 || draws.NElo != 0 || draws.LOS != 0.5 || math.IsNaN(draws.Error) {
		t.Errorf("all drawn pairs: %+v", draws)
	}
	js, err := json.Marshal(all)
	if err != nil || !strings.Contains(string(js), `"elo":null`) || !strings.Contains(string(js), `"score":1`) {
		t.Errorf("all wins as JSON: %s %v", js, err)
	}
	var p Penta
	p.AddPair(1, 0.5)
	p.AddPair(0, 0)
	p.AddPair(0.5, 0.5)
	p.AddPair(1, 0)
	if p != (Penta{1, 0, 2, 1, 0}) {
		t.Errorf("AddPair: %v", p)
	}
}

func TestScoreElo(t *testing.T) {
	for _, elo := range []float64{-800, -100, 0, 35.5, 400} {
		if got := ScoreToElo(EloToScore(elo)); !near(got, elo, 1e-9) {
			t.Errorf("round trip %g → %g", elo, got)
		}
	}
	// 400 Elo is odds of 10 to 1: score 10/11.
	if !near(EloToScore(400), 10.0/11, 1e-15) {
		t.Error("EloToScore(400) is not 10/11")
	}
	if !near(PhiInv(0.975), Z95, 1e-12) || !near(Phi(Z95), 0.975, 1e-12) {
		t.Error("normal quantile")
	}
	// LOS with W = L is a coin toss; 10 wins and no losses:
	// ½(1 + erf(10/√20)) = ½(1 + erf(2.23607)) = 0.99922.
	if LOS(7, 7) != 0.5 || !near(LOS(10, 0), 0.99922, 0.00001) || LOS(0, 0) != 0.5 {
		t.Error("LOS")
	}
}
