package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"testing"
	"time"

	"ringside/engine"
)

// BenchmarkRoundTripRunner measures one turn through the runner: write the
// input with a deadline, wait for the reply line through the reading
// goroutine and the line queue, time it.
func BenchmarkRoundTripRunner(b *testing.B) {
	c := startSeat(0, []string{fakebot}, Bot{}, nil)
	defer c.stop()
	ready := engine.Ask{Timeout: time.Second, Expect: func(l string) bool { return l == "READY" }}
	if r, _, _ := askOne(context.Background(), c, ready, 1); r.Status != engine.Answered {
		b.Fatalf("no READY: %v", r.Status)
	}
	ask := engine.Ask{Seat: 0, Input: "41\n", Timeout: time.Second}
	for b.Loop() {
		r, _, _ := askOne(context.Background(), c, ask, 1)
		if r.Line != "42" {
			b.Fatalf("reply %q", r.Line)
		}
	}
}

// BenchmarkRoundTripPipe is the baseline: the same bot process driven over
// plain pipes with a bufio reader, no deadlines, no goroutines.
func BenchmarkRoundTripPipe(b *testing.B) {
	cmd := exec.Command(fakebot)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	r := bufio.NewReader(stdout)
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		if l == "READY\n" {
			break
		}
	}
	for b.Loop() {
		if _, err := io.WriteString(stdin, "41\n"); err != nil {
			b.Fatal(err)
		}
		l, err := r.ReadString('\n')
		if err != nil || l != "42\n" {
			b.Fatalf("reply %q: %v", l, err)
		}
	}
}

// BenchmarkPlayPing is a whole 200-turn match of the ping game, process
// start and stop included.
func BenchmarkPlayPing(b *testing.B) {
	for b.Loop() {
		out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1,
			Options: engine.Options{"turns": "200"}, Bots: []Bot{{Command: fakebot}}})
		if err != nil {
			b.Fatal(err)
		}
		if out.Verdicts[0][engine.OK] != 201 {
			b.Fatal(fmt.Sprint(out.Verdicts[0]))
		}
	}
}
