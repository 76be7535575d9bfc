package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/runner/sandbox"
)

// BenchmarkRoundTripRunner measures one turn through the runner: write the
// input with a deadline, wait for the reply line through the reading
// goroutine and the line queue, time it; with the bot trusted and
// sandboxed (its pipes go straight to the bot: the sandbox should cost
// nothing here).
func BenchmarkRoundTripRunner(b *testing.B) {
	for _, sandboxed := range []bool{false, true} {
		b.Run(sandboxName(sandboxed), func(b *testing.B) { benchRoundTrip(b, benchSpec(sandboxed)) })
	}
}

func sandboxName(on bool) string {
	if on {
		return "sandbox"
	}
	return "trusted"
}

// benchSpec is the sandbox of a benchmark's bot. RINGSIDE_LAUNCHER
// names another launcher than this test binary (the ringside binary).
func benchSpec(sandboxed bool) *sandboxSpec {
	if !sandboxed {
		return nil
	}
	if exe := os.Getenv("RINGSIDE_LAUNCHER"); exe != "" {
		Executable = func() (string, error) { return exe, nil }
	}
	return Sandbox{}.spec(Bot{})
}

// BenchmarkStartBot is one bot's start-up: started, READY read, stopped
// and reaped. trusted has no sandbox; sandbox takes a launcher that waits
// (made between starts, as between an event's games); sandbox-cold makes
// its launcher and namespaces on the spot.
func BenchmarkStartBot(b *testing.B) {
	for _, mode := range []string{"trusted", "sandbox", "sandbox-cold"} {
		b.Run(mode, func(b *testing.B) {
			sb := benchSpec(mode != "trusted")
			exe, _ := Executable()
			ready := engine.Ask{Timeout: 5 * time.Second, Expect: func(l string) bool { return l == "READY" }}
			for b.Loop() {
				b.StopTimer()
				switch mode {
				case "sandbox":
					sandbox.Prewarm(exe, false)
				case "sandbox-cold":
					sandbox.DropWarm(exe, false)
				}
				b.StartTimer()
				c := startSeat(0, []string{fakebot}, Bot{}, sb)
				if r, _, _ := askOne(context.Background(), c, ready, 1); r.Status != engine.Answered {
					b.Fatalf("no READY: %v %s", r.Status, c.note)
				}
				c.stop()
			}
		})
	}
}

func benchRoundTrip(b *testing.B, sb *sandboxSpec) {
	c := startSeat(0, []string{fakebot}, Bot{}, sb)
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

// BenchmarkPlayPingLive is BenchmarkPlayPing with a live viewer's hook on
// every step, as the service's Live records it: a lock, a copy of the
// step's replies and a non-blocking send. Compared with BenchmarkPlayPing
// it is the per-turn cost of publishing steps.
func BenchmarkPlayPingLive(b *testing.B) {
	var mu sync.Mutex
	var steps []engine.LogStep
	notify := make(chan struct{}, 1)
	for b.Loop() {
		steps = steps[:0]
		out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1,
			Options: engine.Options{"turns": "200"}, Bots: []Bot{{Command: fakebot}},
			OnLog: func(log *engine.Log) {
				mu.Lock()
				for _, s := range log.Steps[len(steps):] {
					s.Replies = append([]engine.LogReply(nil), s.Replies...)
					steps = append(steps, s)
				}
				mu.Unlock()
				select {
				case notify <- struct{}{}:
				default:
				}
			}})
		if err != nil {
			b.Fatal(err)
		}
		if len(steps) != len(out.Log.Steps) {
			b.Fatalf("published %d of %d steps", len(steps), len(out.Log.Steps))
		}
	}
}
