package engine

import (
	"strings"
	"testing"
)

func TestDiffReplays(t *testing.T) {
	str := func(s string) *string { return &s }
	base := func() *Replay {
		return &Replay{Game: "g", Seed: 1, Players: []string{"a", "b"}, Options: Options{"x": "1"},
			Steps: []ReplayStep{
				{Turn: 0, Seats: []ReplaySeat{{Seat: 0, Input: "1 100 0 0\nboard\n", Reply: str("U"), Action: "U", Verdict: OK, Millis: 3}}},
				{Turn: 1, Seats: []ReplaySeat{{Seat: 1, Input: "1 100 0 0\nboard\n", Reply: str("L"), Action: "L", Verdict: OK, Millis: 4}}},
			},
			Result: Result{Ranks: []int{1, 2}, Reason: "score"}}
	}
	// measured blanks the second number of the first line, as Battle
	// 2048's TimeLeft.
	measured := func(in string) (string, string) {
		head, rest, _ := strings.Cut(in, "\n")
		f := strings.Fields(head)
		if len(f) == 4 {
			f[1] = "_"
		}
		return strings.Join(f, " ") + "\n" + rest, "TimeLeft"
	}
	tests := []struct {
		name     string
		change   func(b *Replay)
		same     bool
		why      string
		step     int
		seat     int
		measured bool
	}{
		{"identical", func(*Replay) {}, true, "", 0, -1, false},
		{"times only", func(b *Replay) { b.Steps[0].Seats[0].Millis = 90; b.Steps[1].Seats[0].Stderr = "x" }, true, "", 0, -1, false},
		{"measured field", func(b *Replay) { b.Steps[1].Seats[0].Input = "1 97 0 0\nboard\n" }, true, "", 0, -1, true},
		{"choice", func(b *Replay) { b.Steps[1].Seats[0].Action = "R" }, false, "a different choice", 1, 1, false},
		{"choice after a measured difference", func(b *Replay) {
			b.Steps[0].Seats[0].Input = "1 97 0 0\nboard\n"
			b.Steps[1].Seats[0].Action = "R"
		}, false, "a different choice", 1, 1, true},
		{"timeout", func(b *Replay) { b.Steps[0].Seats[0].Verdict = Timeout; b.Steps[0].Seats[0].Action = "" }, false, "a timeout", 0, 0, false},
		{"crash", func(b *Replay) { b.Steps[1].Seats[0].Verdict = Crashed }, false, "a crash", 1, 1, false},
		{"input", func(b *Replay) { b.Steps[1].Seats[0].Input = "1 100 0 0\nother\n" }, false, "a different input", 1, 1, false},
		{"ended", func(b *Replay) { b.Steps = b.Steps[:1] }, false, "one game ended", 1, -1, false},
		{"result", func(b *Replay) { b.Result.Ranks = []int{2, 1} }, false, "a different result", 2, -1, false},
		{"seed", func(b *Replay) { b.Seed = 2 }, false, "different games", 0, -1, false},
		{"options", func(b *Replay) { b.Options = Options{"x": "2"} }, false, "different games", 0, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base()
			tt.change(b)
			d := DiffReplays(base(), b, measured)
			if d.Same != tt.same || d.Why != tt.why || (!tt.same && (d.Step != tt.step || d.Seat != tt.seat)) || (d.Measured != "") != tt.measured {
				t.Errorf("got %+v\nwant same %v, why %q at step %d seat %d, measured %v", d, tt.same, tt.why, tt.step, tt.seat, tt.measured)
			}
			if d.Text() == "" {
				t.Error("no text")
			}
		})
	}
}

func TestDiffReplaysNamesPlayers(t *testing.T) {
	a := &Replay{Game: "g", Players: []string{"alice@r1", "bob"}}
	b := &Replay{Game: "g", Players: []string{"alice@r2", "bob"}}
	d := DiffReplays(a, b, nil)
	if !d.Same || d.Players != "seat 0: alice@r1, then alice@r2" {
		t.Errorf("%+v", d)
	}
	if !strings.HasPrefix(d.Text(), "players: seat 0: alice@r1, then alice@r2\n") {
		t.Errorf("text %q", d.Text())
	}
}

// TestDiffReplaysNoise: a difference at a seat is called expected noise
// only when the replays record that seat as not deterministic, real when
// both mark it deterministic, and neither when a replay (an old one) does
// not say.
func TestDiffReplaysNoise(t *testing.T) {
	str := func(s string) *string { return &s }
	mk := func(det []bool, action string) *Replay {
		return &Replay{Game: "g", Seed: 1, Players: []string{"a", "b"}, Deterministic: det,
			Steps: []ReplayStep{
				{Turn: 0, Seats: []ReplaySeat{{Seat: 0, Input: "x\n", Reply: str("U"), Action: "U", Verdict: OK}}},
				{Turn: 1, Seats: []ReplaySeat{{Seat: 1, Input: "y\n", Reply: str(action), Action: action, Verdict: OK}}},
			}}
	}
	tests := []struct {
		name         string
		a, b         []bool
		noise, real  bool
		textContains string
	}{
		{"seat 1 not deterministic", []bool{true, false}, []bool{true, false}, true, false, "expected noise: seat 1"},
		{"seat 1 deterministic in both", []bool{false, true}, []bool{false, true}, false, true, "seat 1 is deterministic"},
		{"marked in one only", []bool{false, true}, []bool{false, false}, true, false, "expected noise"},
		{"an old replay says nothing", nil, []bool{true, true}, false, false, "a different choice"},
		{"neither says", nil, nil, false, false, "a different choice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := DiffReplays(mk(tt.a, "L"), mk(tt.b, "R"), nil)
			if d.Same || d.Seat != 1 || d.Noise != tt.noise || d.Deterministic != tt.real {
				t.Errorf("got %+v, want noise %v deterministic %v at seat 1", d, tt.noise, tt.real)
			}
			if !strings.Contains(d.Text(), tt.textContains) {
				t.Errorf("text %q lacks %q", d.Text(), tt.textContains)
			}
			if !tt.noise && strings.Contains(d.Text(), "expected noise") {
				t.Errorf("text %q calls it noise", d.Text())
			}
		})
	}
}
