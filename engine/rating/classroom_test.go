package rating

import (
	"math/rand/v2"
	"testing"
)

// runClassroom plays groups drawn by draw until the test decides or cap
// groups are played, and returns the verdict and the groups played.
func runClassroom(t Classroom, cap int, draw func() int) (Verdict, int) {
	var s ClassroomState
	for n := 1; n <= cap; n++ {
		t.Add(&s, draw())
		if v := s.Verdict(); v != Continue {
			return v, n
		}
	}
	return Continue, cap
}

func TestClassroomLopsidedStopsEarly(t *testing.T) {
	test := Classroom{P1: DefaultClassroomP1, Alpha: 0.05, Beta: 0.05}
	// 20–0 in seat-swapped pairs is 10 groups won; the test must not need
	// them all, let alone 40 games.
	tests := []struct {
		name  string
		diff  int
		want  Verdict
		games int // at most, at 2 games per group
	}{
		{"20-0", 1, AcceptH1, 16},
		{"0-20", -1, AcceptWeaker, 16},
	}
	for _, tc := range tests {
		v, groups := runClassroom(test, 10, func() int { return tc.diff })
		if v != tc.want || 2*groups > tc.games {
			t.Errorf("%s: verdict %v after %d games, want %v within %d", tc.name, v, 2*groups, tc.want, tc.games)
		}
	}
	// Drawn groups do not count either way.
	var s ClassroomState
	for range 50 {
		test.Add(&s, 0)
	}
	if s.Verdict() != Continue || s.Level != 50 || s.Up != 0 {
		t.Errorf("50 drawn groups: %+v", s)
	}
}

// TestClassroomErrorRates checks the stated error rates by simulation:
// 10,000 runs under H0 (p = ½) call the candidate stronger in at most α of
// them (and weaker in at most α), and 10,000 runs at p = P1 (and at 1 − P1)
// miss the difference in at most β. Some groups are drawn in every run.
func TestClassroomErrorRates(t *testing.T) {
	const runs = 10000
	const cap = 1000 // groups; no run comes near it
	for _, test := range []Classroom{
		{P1: 0.75, Alpha: 0.05, Beta: 0.05},
		{P1: 0.65, Alpha: 0.01, Beta: 0.1},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		group := func(p float64) func() int {
			return func() int {
				switch {
				case rng.Float64() < 0.1:
					return 0
				case rng.Float64() < p:
					return 1
				}
				return -1
			}
		}
		count := func(p float64) (map[Verdict]int, float64) {
			got := map[Verdict]int{}
			total := 0
			for range runs {
				v, n := runClassroom(test, cap, group(p))
				got[v]++
				total += n
			}
			return got, float64(total) / runs
		}
		h0, n0 := count(0.5)
		up, n1 := count(test.P1)
		down, _ := count(1 - test.P1)
		t.Logf("%+v: H0 %v (%.1f groups on average); H1 %v (%.1f groups); weaker %v", test, h0, n0, up, n1, down)
		if h0[Continue]+up[Continue]+down[Continue] > 0 {
			t.Errorf("runs reached the cap of %d groups", cap)
		}
		if f := float64(h0[AcceptH1]) / runs; f > test.Alpha {
			t.Errorf("H0: called stronger in %.4f of runs, above alpha %g", f, test.Alpha)
		}
		if f := float64(h0[AcceptWeaker]) / runs; f > test.Alpha {
			t.Errorf("H0: called weaker in %.4f of runs, above alpha %g", f, test.Alpha)
		}
		if f := float64(runs-up[AcceptH1]) / runs; f > test.Beta {
			t.Errorf("p = %g: missed in %.4f of runs, above beta %g", test.P1, f, test.Beta)
		}
		if f := float64(runs-down[AcceptWeaker]) / runs; f > test.Beta {
			t.Errorf("p = %g: missed in %.4f of runs, above beta %g", 1-test.P1, f, test.Beta)
		}
	}
}

func TestClassroomCheck(t *testing.T) {
	for _, bad := range []Classroom{{P1: 0.5, Alpha: 0.05, Beta: 0.05}, {P1: 1, Alpha: 0.05, Beta: 0.05},
		{P1: 0.75, Alpha: 0, Beta: 0.05}, {P1: 0.75, Alpha: 0.05, Beta: 0.5}} {
		if bad.Check() == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
	if err := (Classroom{P1: 0.75, Alpha: 0.05, Beta: 0.05}).Check(); err != nil {
		t.Error(err)
	}
}
