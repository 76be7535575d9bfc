package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/cloud"
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

// benchSpec is the sandbox of a benchmark's bot. BotsEnv names another
// launcher than this test binary (a ringside binary).
func benchSpec(sandboxed bool) *sandboxSpec {
	if !sandboxed {
		return nil
	}
	return Sandbox{}.spec(Bot{})
}

// BenchmarkStartBot is one bot's start-up: started, READY read, stopped
// and reaped. trusted has no sandbox; sandbox takes a launcher that waits
// (made between starts, as between an event's games); sandbox-cold makes
// its launcher and namespaces on the spot, and sandbox-cold-heap does so
// from a process holding 256 MB, as the desktop app with its boards and
// replays may: a launcher made in new namespaces by that process itself
// would cost it a copy of its page tables.
func BenchmarkStartBot(b *testing.B) {
	for _, mode := range []string{"trusted", "sandbox", "sandbox-cold", "sandbox-cold-heap"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "sandbox-cold-heap" {
				ballast = make([][]byte, 256)
				for i := range ballast {
					ballast[i] = make([]byte, 1<<20)
					for j := 0; j < len(ballast[i]); j += 4096 {
						ballast[i][j] = 1
					}
				}
				defer func() { ballast = nil }()
			}
			sb := benchSpec(mode != "trusted")
			exe, _ := botsBinary()
			ready := engine.Ask{Timeout: 5 * time.Second, Expect: func(l string) bool { return l == "READY" }}
			for b.Loop() {
				b.StopTimer()
				switch mode {
				case "sandbox":
					sandbox.Prewarm(exe)
				case "sandbox-cold", "sandbox-cold-heap":
					sandbox.DropWarm(exe)
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

// ballast is the heap of BenchmarkStartBot/sandbox-cold-heap.
var ballast [][]byte

// BenchmarkStartCloudBot is one Cloud bot's start-up over TCP: started,
// connected and logged in, then stopped and reaped. Modes as in
// BenchmarkStartBot.
func BenchmarkStartCloudBot(b *testing.B) {
	bin := buildTCPBot(b)
	for _, mode := range []string{"trusted", "sandbox", "sandbox-cold"} {
		b.Run(mode, func(b *testing.B) {
			sb := benchSpec(mode != "trusted")
			exe, _ := botsBinary()
			argv := []string{bin, "-mode", "good"}
			intro := func(int) string { return "" }
			for b.Loop() {
				b.StopTimer()
				switch mode {
				case "sandbox":
					prewarmCloud(exe)
				case "sandbox-cold":
					dropWarmCloud(exe)
				}
				b.StartTimer()
				conns, cleanup, err := connectTCP(context.Background(), newLoginGame(cloud.Login{}, 1, intro, 5*time.Second),
					[]Bot{{Name: "cloud"}}, [][]string{argv}, []*sandboxSpec{sb})
				if err != nil {
					b.Fatal(err)
				}
				if conns[0].note != "" {
					b.Fatalf("not logged in: %s", conns[0].note)
				}
				conns[0].stop()
				cleanup()
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

// prewarmCloud and dropWarmCloud make a Cloud bot's next start warm or cold.
func prewarmCloud(exe string)  { sandbox.Prewarm(exe) }
func dropWarmCloud(exe string) { sandbox.DropWarm(exe) }

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
