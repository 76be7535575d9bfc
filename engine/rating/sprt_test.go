package rating

import (
	"math"
	"strings"
	"testing"
)

func TestSPRTBoundsAndDecide(t *testing.T) {
	// α = β = 0.05: lower = ln(0.05/0.95) = −2.944439, upper = +2.944439.
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Fatalf("bounds %g %g", lo, hi)
	}
	// α = 0.05, β = 0.1: lower = ln(0.1/0.95) = −2.251292, upper = ln(0.9/0.05) = 2.890372.
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}.Bounds()
	if !near(lo, -2.251292, 1e-6) || !near(hi, 2.890372, 1e-6) {
		t.Fatalf("bounds %g %g", lo, hi)
	}
	tests := []struct {
		llr  float64
		want Verdict
	}{{0, Continue}, {2.9, Continue}, {2.95, AcceptH1}, {-2.95, AcceptH0}, {-2.9, Continue}}
	for _, tc := range tests {
		if got := s.Decide(tc.llr); got != tc.want {
			t.Errorf("Decide(%g) = %v, want %v", tc.llr, got, tc.want)
		}
	}
}

func TestSPRTCheck(t *testing.T) {
	tests := []struct {
		s    SPRT
		want string
	}{
		{SPRT{0, 5, 0.05, 0.05}, ""},
		{SPRT{5, 5, 0.05, 0.05}, "elo0 (5) must be less than elo1 (5)"},
		{SPRT{0, 5, 0, 0.05}, "alpha 0 must be between 0 and 1"},
		{SPRT{0, 5, 0.05, 1}, "beta 1 must be between 0 and 1"},
		{SPRT{0, 5, 0.5, 0.5}, "alpha + beta is 1"},
		{SPRT{math.NaN(), 5, 0.05, 0.05}, "finite"},
	}
	for _, tc := range tests {
		err := tc.s.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: got %v, want %q", tc.s, err, tc.want)
		}
	}
}

// For large samples the normalized LLR approaches N/2·((t̂−t0)² − (t̂−t1)²)
// where t̂ is the observed normalized score per observation (Van den Bergh);
// the exact value must agree to within a few percent.
func TestLLRAsymptotic(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		p Penta
		r WDL
	}{
		{p: Penta{300, 2400, 5000, 2700, 400}},
		{p: Penta{500, 2200, 5000, 2300, 700}},
		{r: WDL{Wins: 3100, Draws: 4000, Losses: 2900}},
		{r: WDL{Wins: 2800, Draws: 4000, Losses: 3200}},
	}
	for _, tc := range tests {
		var got, approx float64
		if tc.p.Pairs() > 0 {
			e := tc.p.Estimate()
			that := e.NElo / nEloScale * math.Sqrt2 // per pair
			t0, t1 := 0.0, math.Sqrt2*10/nEloScale
			approx = float64(e.N) / 2 * ((that-t0)*(that-t0) - (that-t1)*(that-t1))
			got = s.LLR(tc.p)
		} else {
			e := tc.r.Estimate()
			that := e.NElo / nEloScale
			t0, t1 := 0.0, 10/nEloScale
			approx = float64(e.N) / 2 * ((that-t0)*(that-t0) - (that-t1)*(that-t1))
			got = s.LLRWDL(tc.r)
		}
		if !near(got, approx, 0.03*math.Abs(approx)+0.02) {
			t.Errorf("%v%v: LLR %.4f, asymptotic %.4f", tc.p, tc.r, got, approx)
		}
	}
}

func TestLLRSymmetry(t *testing.T) {
	// A perfectly even record sits halfway between symmetric hypotheses.
	s := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if got := s.LLR(Penta{10, 40, 100, 40, 10}); !near(got, 0, 1e-6) {
		t.Errorf("even pentanomial LLR %g", got)
	}
	if got := s.LLRWDL(WDL{Wins: 300, Draws: 200, Losses: 300}); !near(got, 0, 1e-6) {
		t.Errorf("even trinomial LLR %g", got)
	}
	// Mirrored data mirrors the LLR.
	a := s.LLR(Penta{5, 30, 100, 45, 20})
	b := s.LLR(Penta{20, 45, 100, 30, 5})
	if !near(a, -b, 1e-6) || a <= 0 {
		t.Errorf("mirrored LLRs %g and %g", a, b)
	}
	if got := s.LLR(Penta{}); got != 0 {
		t.Errorf("empty LLR %g", got)
	}
}

func BenchmarkLLR(b *testing.B) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	p := Penta{31, 240, 500, 270, 40}
	for b.Loop() {
		s.LLR(p)
	}
}
