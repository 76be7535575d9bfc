package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/runner/runnertest"
)

var hangbotOnce struct {
	sync.Once
	path string
	err  error
}

// hangbotBin builds runner/testdata/hangbot once for the package's tests.
func hangbotBin(t *testing.T) string {
	t.Helper()
	hangbotOnce.Do(func() {
		// In TestMain's folder, which it removes when the tests end.
		hangbotOnce.path = filepath.Join(testDir, "hangbot")
		hangbotOnce.err = runnertest.GoBuild(hangbotOnce.path, "./testdata/hangbot")
	})
	if hangbotOnce.err != nil {
		t.Fatal(hangbotOnce.err)
	}
	return hangbotOnce.path
}

// TestBotIgnoringEOFEndsWithGame: a bot that plays well but stays when its
// input ends (alone, and with a child that holds its pipes) is gone once
// its game is over, on the Linux path (a reaper that waits without
// reaping) and on the portable one (Windows' and macOS's: deadlines
// refused, a reaper that cannot wait without reaping). The end is
// judged by the events themselves: Play returns only after the leader is
// reaped, so it must be gone then; a child killed with the group must be
// gone within a generous bound (30 s, not a timing claim: the time it
// took is logged).
func TestBotIgnoringEOFEndsWithGame(t *testing.T) {
	bin := hangbotBin(t)
	for _, path := range []string{"linux", "portable"} {
		for _, child := range []bool{false, true} {
			name := path
			if child {
				name += "/with-child"
			}
			t.Run(name, func(t *testing.T) {
				pids := filepath.Join(t.TempDir(), "pids")
				cmd := bin + " -mode ping"
				if child {
					cmd += " -child"
				}
				var out *Outcome
				var err error
				play := func() {
					// Ten times the limits: every turn must be answered in
					// time on a busy machine too.
					out, err = Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
						Bots: []Bot{{Name: "stays", Command: cmd, Trusted: true, Env: []string{"HANGBOT_PIDS=" + pids}}}})
				}
				if path == "portable" {
					withPortable(t, play)
				} else {
					play()
				}
				returned := time.Now()
				if err != nil {
					t.Fatal(err)
				}
				if c := counts(out, 0); c[engine.OK] == 0 || c[engine.Timeout] != 0 || c[engine.Crashed] != 0 {
					t.Fatalf("verdicts %v: the bot should play every turn well", c)
				}
				procs, eof := readHangbotPids(t, pids)
				if want := 1 + map[bool]int{true: 1}[child]; len(procs) != want {
					t.Fatalf("%d processes recorded, want %d", len(procs), want)
				}
				if running(procs[0]) {
					t.Errorf("the bot (pid %d) is still running when its game has returned", procs[0])
				}
				for _, pid := range procs[1:] {
					deadline := returned.Add(30 * time.Second)
					for running(pid) && time.Now().Before(deadline) {
						time.Sleep(5 * time.Millisecond)
					}
					if running(pid) {
						t.Errorf("the bot's child (pid %d) still runs 30 s after its game", pid)
					}
				}
				gone := time.Since(returned)
				if eof.IsZero() {
					t.Logf("%s: all gone %v after the game returned (killed before it read the end of its input)", name, gone)
				} else {
					t.Logf("%s: all gone %v after the game returned, %v after the bot read the end of its input",
						name, gone, time.Since(eof))
				}
			})
		}
	}
}

// readHangbotPids reads the pids hangbot recorded, the leader's first, each
// once,
// and when it read the end of its input (zero: never).
func readHangbotPids(t *testing.T, file string) (pids []int, eof time.Time) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(bytes.TrimSpace(data)), "\n") {
		key, value, _ := strings.Cut(line, " ")
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			t.Fatalf("pid file line %q: %v", line, err)
		}
		switch key {
		case "pid":
			if !slices.Contains(pids, int(n)) {
				pids = append(pids, int(n))
			}
		case "eof":
			eof = time.Unix(0, n)
		}
	}
	return pids, eof
}

// running tells whether pid is a live process: neither gone nor a zombie
// (a killed child reparented to an init that does not reap stays one).
func running(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command's closing parenthesis.
	if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) {
		return data[i+2] != 'Z'
	}
	return true
}
