package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
	"ringside/engine/event"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// hostileTargets are the things the hostile bots attack, all made by the
// test: a sentinel process, a database file, another AI's folders, a home
// folder, a loopback port that is not the game's.
type hostileTargets struct {
	sentinel *exec.Cmd
	db       string
	dbData   []byte
	aiDirs   []string
	home     string
	decoy    *runnertest.Decoy
}

func newHostileTargets(t *testing.T) *hostileTargets {
	t.Helper()
	t.Setenv("RINGSIDE_TEST_SECRET", "only-ringside-knows")
	root := t.TempDir()
	h := &hostileTargets{db: filepath.Join(root, "data", "ringside.db"), home: filepath.Join(root, "home")}
	src, rev := filepath.Join(root, "data", "ais", "other", "src"), filepath.Join(root, "data", "ais", "other", "revisions", "abc")
	for _, d := range []string{src, rev, h.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.aiDirs = []string{src, rev}
	h.dbData = []byte("SQLite format 3\x00 the results of the whole class")
	for p, data := range map[string][]byte{h.db: h.dbData, filepath.Join(src, "bot.py"): []byte("print('READY')\n"),
		filepath.Join(rev, "bot"): []byte("secret strategy")} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.sentinel = runnertest.Start(t, exec.Command(hostile, "-child"))
	h.decoy = runnertest.NewDecoy(t)
	return h
}

func (h *hostileTargets) env() []string {
	return []string{
		"HOSTILE_SENTINEL=" + strconv.Itoa(h.sentinel.Process.Pid),
		"HOSTILE_RINGSIDE=" + strconv.Itoa(os.Getpid()),
		"HOSTILE_DB=" + h.db,
		"HOSTILE_AI_DIRS=" + strings.Join(h.aiDirs, string(filepath.ListSeparator)),
		"HOSTILE_REAL_HOME=" + h.home,
		"HOSTILE_PORT=" + strconv.Itoa(h.decoy.Port),
	}
}

// check asserts that nothing outside the game was touched.
func (h *hostileTargets) check(t *testing.T, fileAttacksBlocked bool) {
	t.Helper()
	if !runnertest.Alive(h.sentinel.Process.Pid) {
		t.Errorf("the sentinel process outside Ringside was killed")
	}
	if fileAttacksBlocked {
		if data, err := os.ReadFile(h.db); err != nil || !bytes.Equal(data, h.dbData) {
			t.Errorf("the database file changed: %q, %v", data, err)
		}
		if _, err := os.Stat(filepath.Join(h.home, "pwned.txt")); err == nil {
			t.Errorf("a bot wrote into the home folder")
		}
	}
	if n := h.decoy.Accepted(); n > 0 {
		t.Errorf("a bot connected to a loopback port that is not its game's (%d times)", n)
	}
}

// hostileCase is one attack and what must come of it.
type hostileCase struct {
	attack string
	// fileAttack is blocked by Landlock alone: with Landlock absent
	// (pretended) it may succeed, and the sandbox says so.
	fileAttack bool
	// crashNote is the attacker's verdict note when the attack costs it
	// its game (a cap); "" means it plays on and answers every turn.
	crashNote string
}

var hostileCases = []hostileCase{
	{attack: "kill-parent"},
	{attack: "kill-seat"},
	{attack: "kill-sentinel"},
	{attack: "read-proc"},
	{attack: "env"},
	{attack: "read-db", fileAttack: true},
	{attack: "write-db", fileAttack: true},
	{attack: "read-ai", fileAttack: true},
	{attack: "write-home", fileAttack: true},
	{attack: "connect-loopback"},
	{attack: "connect-elsewhere"},
	{attack: "alloc", crashNote: "memory limit 1 GiB"},
	{attack: "fork-bomb"},
	{attack: "big-file"},
}

// TestHostileBots plays each attack against a victim seat, with the full
// sandbox and with Landlock pretended absent. Every attack fails (or,
// without Landlock, the file attacks are announced as possible), the
// victim plays every turn, and nothing is left running.
func TestHostileBots(t *testing.T) {
	for _, pretend := range []bool{false, true} {
		name := "sandbox"
		if pretend {
			name = "no-landlock"
		}
		t.Run(name, func(t *testing.T) {
			h := newHostileTargets(t)
			for _, tc := range hostileCases {
				t.Run(tc.attack, func(t *testing.T) {
					out := playHostile(t, h, tc.attack, pretend)
					checkHostile(t, out, tc, pretend)
					h.check(t, !pretend)
					runnertest.AssertNoneLeft(t, hostile, h.sentinel.Process.Pid)
				})
			}
		})
	}
}

// playHostile plays a six-turn ping game of the bot making attack on h
// against a victim bot, with Landlock pretended absent when pretend is set.
func playHostile(t *testing.T, h *hostileTargets, attack string, pretend bool) *Outcome {
	t.Helper()
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Options: engine.Options{"turns": "6", "all": "1"},
		Sandbox: Sandbox{PretendNoLandlock: pretend},
		Bots: []Bot{
			{Name: attack, Command: hostile + " -attack " + attack, Env: h.env()},
			{Name: "victim", Command: hostile + " -attack victim"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkHostile(t *testing.T, out *Outcome, tc hostileCase, pretend bool) {
	t.Helper()
	report := attackReport(out.Stderr[0], tc.attack)
	t.Logf("%s: %s", tc.attack, report)
	switch {
	case tc.crashNote != "":
		if !strings.Contains(allNotes(out), tc.crashNote) {
			t.Errorf("notes %q lack %q (stderr %q)", allNotes(out), tc.crashNote, lastLines(out.Stderr[0], 3))
		}
		if c := counts(out, 0); c[engine.Crashed] != 1 {
			t.Errorf("attacker verdicts %v, want a crash", c)
		}
	case pretend && tc.fileAttack:
		// Without Landlock nothing stops reading files: the sandbox
		// says so in the replay, and the game still goes on.
		if !strings.Contains(allNotes(out), "sandbox partial") {
			t.Errorf("replay notes %q do not say the sandbox is partial", allNotes(out))
		}
	default:
		if !strings.HasPrefix(report, "blocked") {
			t.Errorf("attack %s: %s", tc.attack, report)
		}
		if c := counts(out, 0); c[engine.OK] != 7 {
			t.Errorf("attacker verdicts %v, notes %q, want 7 ok", c, allNotes(out))
		}
	}
	if c := counts(out, 1); c[engine.OK] != 7 {
		t.Errorf("victim verdicts %v, notes %q, want 7 ok", c, allNotes(out))
	}
	if want := map[bool]string{false: "on", true: "partial"}[pretend]; out.Sandbox[0] != want {
		t.Errorf("sandbox level %q, want %q", out.Sandbox[0], want)
	}
}

func attackReport(stderr, attack string) string {
	prefix := "ATTACK " + attack + ": "
	for _, l := range strings.Split(stderr, "\n") {
		if r, ok := strings.CutPrefix(l, prefix); ok {
			return r
		}
	}
	return "no report on stderr: " + lastLines(stderr, 3)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// TestHostileEvent plays the attacks as entries of a league: the event
// finishes, every game has a result, the good bot answers every turn.
func TestHostileEvent(t *testing.T) {
	h := newHostileTargets(t)
	cfg := event.Config{Format: event.League, Seats: 2, Games: 1, Seed: 7}
	var bots []Bot
	for _, tc := range hostileCases {
		cfg.Entries = append(cfg.Entries, event.Entry{Name: tc.attack})
		bots = append(bots, Bot{Name: tc.attack, Command: hostile + " -attack " + tc.attack, Env: h.env()})
	}
	cfg.Entries = append(cfg.Entries, event.Entry{Name: "good"})
	bots = append(bots, Bot{Name: "good", Command: fakebot})
	good := len(bots) - 1
	e := &Event{Game: pingGame{}, Options: engine.Options{"turns": "4", "all": "1"}, Config: cfg, Bots: bots,
		Concurrency: 2, TimeScale: 10}
	played := 0
	e.OnFinished = func(g event.Game, out *Outcome) error {
		played++
		for s, entry := range g.Seats {
			if entry == good {
				if c := counts(out, s); c[engine.OK] != 5 {
					t.Errorf("game %d: the good bot's verdicts %v, notes %q", g.Index, c, allNotes(out))
				}
			}
		}
		return nil
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := len(bots)
	if want := n * (n - 1); played != want { // both colours of every pairing
		t.Errorf("played %d games, want %d", played, want)
	}
	h.check(t, true)
	runnertest.AssertNoneLeft(t, hostile, h.sentinel.Process.Pid)
}

// TestCapVerdicts lowers the caps and checks that a bot over one gets a
// verdict that names it, while the other seat plays on.
func TestCapVerdicts(t *testing.T) {
	small := DefaultLimits
	small.CPU = time.Second
	small.Memory = 512 << 20
	tests := []struct {
		attack string
		turns  string
		note   string
		scale  float64
	}{
		// The spinner's own busy thread, and a busy machine, may starve
		// its answers: a turn limit of 2 s lets the CPU cap (1 s of CPU,
		// about a second of wall time) come first, however busy.
		{"spin", "1000000", "CPU time limit 1s", 100},
		{"alloc", "6", "memory limit 512 MiB", 10},
		{"alloc-many", "1000000", "memory limit 512 MiB", 10},
	}
	for _, tt := range tests {
		t.Run(tt.attack, func(t *testing.T) {
			lim := small
			out := playAttackerOut(t, tt.attack, &lim, tt.scale, engine.Options{"turns": tt.turns, "all": "1", "turn_ms": "20"})
			if !strings.Contains(allNotes(out), tt.note) {
				t.Errorf("notes %q lack %q; stderr %q", allNotes(out), tt.note, lastLines(out.Stderr[0], 3))
			}
			// A bot thrashing at its memory cap may miss a deadline
			// just before the watchdog ends it: then its verdict is a
			// timeout, and the note still names the cap.
			if c := counts(out, 0); c[engine.Crashed]+c[engine.Timeout] != 1 {
				t.Errorf("attacker verdicts %v, want one crash or timeout", c)
			}
			if c := counts(out, 1); c[engine.Crashed]+c[engine.Invalid] > 0 {
				t.Errorf("victim verdicts %v", c)
			}
			runnertest.AssertNoneLeft(t, hostile)
		})
	}
}

// floodReplayMax is the stated cap on a flooding game's replay: the noise
// kept (NoiseBytesKept per seat) plus the game's own replies and notes.
const floodReplayMax = 1 << 20

// TestFloodBounded plays a long game against a bot that prints unasked
// lines as fast as it can: Ringside's heap stays under 100 MB, the
// replay under floodReplayMax, and the cut is in the replay.
//
// 300 turns flood about 200,000 lines, 200 times what is kept: the caps
// are long reached. The whole flood is CPU burnt for as long as the game
// lasts, so the 3000-turn soak (2 million lines) runs with -long.
func TestFloodBounded(t *testing.T) {
	turns := 300
	if *enginetest.Long {
		turns = 3000
	}
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	began := time.Now()
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Options: engine.Options{"turns": strconv.Itoa(turns), "all": "1"},
		Bots: []Bot{
			{Name: "flood", Command: hostile + " -attack flood"},
			{Name: "victim", Command: hostile + " -attack victim"},
		}})
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(out.Log)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v for %d turns; heap peak %d MB; replay %d KB; %d noise lines cut", time.Since(began).Round(time.Millisecond),
		turns, peak.Load()>>20, len(data)>>10, out.NoiseCut[0])
	if peak.Load() > 100<<20 {
		t.Errorf("heap peaked at %d MB, want under 100 MB", peak.Load()>>20)
	}
	if len(data) > floodReplayMax {
		t.Errorf("replay is %d bytes, want at most %d", len(data), floodReplayMax)
	}
	if out.NoiseCut[0] == 0 || !strings.Contains(allNotes(out), "unasked lines not kept") ||
		!strings.Contains(allNotes(out), "read but not kept") {
		t.Errorf("the cut is not recorded: cut %d, notes %q", out.NoiseCut[0], allNotes(out))
	}
	var kept, bytes int
	for _, s := range out.Log.Steps {
		for _, n := range s.Noise {
			if n.Seat == 0 {
				kept++
				bytes += len(n.Line)
			}
		}
	}
	if kept > NoiseLinesKept || bytes > NoiseBytesKept {
		t.Errorf("kept %d lines, %d bytes of noise", kept, bytes)
	}
	// Its flood lines arrive where its answers are due (invalid), but
	// it is asked, and answers, every turn.
	if c := counts(out, 0); c[engine.OK]+c[engine.Invalid] != turns+1 {
		t.Errorf("the flooding bot's verdicts %v: it should be answering every turn", c)
	}
	if c := counts(out, 1); c[engine.OK] != turns+1 {
		t.Errorf("victim verdicts %v", c)
	}
}

// TestHostileBotsWithoutNamespaces runs the hostile suite as on a kernel
// that refuses unprivileged namespaces: Landlock, the rlimits and the
// launcher still contain the bots; what the status says is missing (other
// programs' command lines are visible) is all that gets through, and a
// bot that kills its launcher ends only its own seat.
func TestHostileBotsWithoutNamespaces(t *testing.T) {
	sandbox.PretendNamespacesRefused(true)
	defer sandbox.PretendNamespacesRefused(false)
	level, text := SandboxStatus(Sandbox{})
	if level != sandbox.Partial || !strings.Contains(text, "command lines") {
		t.Errorf("status without namespaces: %v %s", level, text)
	}
	h := newHostileTargets(t)
	for _, tc := range hostileCases {
		t.Run(tc.attack, func(t *testing.T) {
			out := playHostile(t, h, tc.attack, false)
			report := attackReport(out.Stderr[0], tc.attack)
			t.Logf("%s: %s", tc.attack, report)
			switch tc.attack {
			case "read-proc":
				// The victim's command line is readable (the status says
				// so); environments are not: Landlock forbids reading
				// another domain's, and the bot has no capability.
				if strings.Contains(report, "/environ") {
					t.Errorf("read another process's environment: %s", report)
				}
			case "kill-parent":
				// Its parent is its own launcher: it may end its own seat.
			case "alloc":
				if !strings.Contains(allNotes(out), tc.crashNote) {
					t.Errorf("notes %q lack %q", allNotes(out), tc.crashNote)
				}
			case "fork-bomb":
				// A pids cgroup refuses the forks; without one (a user
				// other than root) the watchdog ends the bot, which may
				// die before it can say so: either way only its seat pays.
				if !strings.HasPrefix(report, "blocked") && counts(out, 0)[engine.Crashed] == 0 {
					t.Errorf("fork bomb neither refused nor ended: %s; notes %q", report, allNotes(out))
				}
			default:
				if !strings.HasPrefix(report, "blocked") {
					t.Errorf("attack %s: %s", tc.attack, report)
				}
			}
			if c := counts(out, 1); c[engine.OK] != 7 {
				t.Errorf("victim verdicts %v, notes %q", c, allNotes(out))
			}
			if out.Sandbox[0] != "partial" {
				t.Errorf("sandbox %q, want partial", out.Sandbox[0])
			}
			h.check(t, true)
			runnertest.AssertNoneLeft(t, hostile, h.sentinel.Process.Pid)
		})
	}
}

// playAttackerOut plays the hostile bot's attack in seat 0, capped by lim,
// against a victim until the attacker is out (it crashed or timed out) or
// 30 s have passed.
func playAttackerOut(t *testing.T, attack string, lim *sandbox.Limits, scale float64, opts engine.Options) *Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := Play(ctx, Match{Game: pingGame{}, Seed: 1, TimeScale: scale, Options: opts,
		Bots: []Bot{
			{Name: attack, Command: hostile + " -attack " + attack, Limits: lim},
			{Name: "victim", Command: hostile + " -attack victim"},
		},
		OnStep: func(_ int, _ engine.State, step engine.Step) {
			for _, s := range step.Seats {
				if s.Seat == 0 && (s.Verdict == engine.Crashed || s.Verdict == engine.Timeout) {
					cancel()
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
