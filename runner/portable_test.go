package runner

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"ringside/runner/sandbox"
)

// withPortable runs f with the paths of Windows and macOS forced on: a
// write judged by a timer (the pipe "refuses" deadlines) and a reaper
// that cannot wait without reaping.
func withPortable(t *testing.T, f func()) {
	t.Helper()
	noDeadlines, portableReap = true, true
	defer func() { noDeadlines, portableReap = false, false }()
	f()
}

// TestPortableVerdicts: with deadlines refused and the portable reaper,
// every kind of bot gets the verdicts it gets on Linux's own paths (no
// first-turn timeout for a good bot, the same timeouts for a sleeper),
// and a bot that never reads nor exits does not hang its game.
func TestPortableVerdicts(t *testing.T) {
	for _, mode := range []string{"good", "sleep", "noready", "ignore", "exit", "grandchild"} {
		t.Run(mode, func(t *testing.T) {
			// The modes that answer in time play at ten times the
			// limits, so that a busy machine cannot make one late.
			scale := 0.0
			if mode == "good" || mode == "exit" || mode == "grandchild" {
				scale = 10
			}
			play := func() map[string]int {
				out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: scale,
					Bots: []Bot{{Name: mode, Command: fakebot + " -mode " + mode + " -k 2"}}})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]int{}
				for v, n := range counts(out, 0) {
					got[string(v)] = n
				}
				return got
			}
			want := play()
			var got map[string]int
			withPortable(t, func() { got = play() })
			if len(got) != len(want) {
				t.Fatalf("portable verdicts = %v, Linux's = %v", got, want)
			}
			for v, n := range want {
				if got[v] != n {
					t.Errorf("portable verdicts = %v, Linux's = %v", got, want)
				}
			}
		})
	}
}

// TestPortableStopsDeafBot: a bot that reads nothing and never exits.
// A write larger than the pipe holds gives up at its timeout as a
// deadline would, and stop ends the bot though the portable reaper is
// waiting for it.
func TestPortableStopsDeafBot(t *testing.T) {
	withPortable(t, func() {
		p, err := startProcess([]string{fakebot, "-mode", "noready"}, "", nil, nil, 0, sandbox.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		err = p.write(strings.Repeat("x", 1<<20)+"\n", 100*time.Millisecond)
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("write to a deaf bot = %v, want a deadline error", err)
		}
		// The next write waits for the one under way, not past its own
		// timeout.
		if err := p.write("1\n", 50*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("second write = %v, want a deadline error", err)
		}
		stopped := make(chan struct{})
		go func() { p.stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(30 * time.Second):
			t.Fatal("stop hangs on a bot that ignores the end of its input")
		}
		if !strings.Contains(p.exitText, "killed") {
			t.Errorf("exit = %q, want killed", p.exitText)
		}
	})
}
