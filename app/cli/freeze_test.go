package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine"
)

// TestGripCoordsOption: an AI carries coords=xy for its own seat. ai check
// warns about the confused bot without it and says which option fixes it;
// with it the warning is gone, ai show shows it, and the seat gets x y in
// play and in events while the other seats keep row column.
func TestGripCoordsOption(t *testing.T) {
	fixture.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "walker")
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.XYBot})
	mustRingside(t, "ai", "add", "--name", "walker", "--game", "grip", "--dir", src, "--no-watch", "--db", db)

	out := mustRingside(t, "ai", "check", "walker", "--time-scale", "4", "--db", db)
	if !strings.Contains(out, "looks confused") || !strings.Contains(out, "ringside ai edit walker --option coords=xy") {
		t.Errorf("ai check of a bot that reads x y, sent row column: no confusion warning:\n%s", out)
	}
	if !strings.Contains(out, "ok: ready to play") {
		t.Errorf("a warning must not fail the check:\n%s", out)
	}

	// Options the game does not let one seat set are refused with the
	// ones it does.
	for _, tc := range []struct{ opt, want string }{
		{"coords=yx", `option coords="yx": want one of rc, xy`},
		{"protocol=beta", "an AI of grip can only set coords=rc|xy"},
		{"turn_ms=200", "an AI of grip can only set coords=rc|xy"},
		{"coords", "write KEY=VALUE"},
	} {
		code, _, errs := ringside(t, "ai", "edit", "walker", "--option", tc.opt, "--db", db)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("ai edit --option %s: exit %d, %q; want an error with %q", tc.opt, code, errs, tc.want)
		}
	}
	code, _, errs := ringside(t, "ai", "add", "--name", "other", "--game", "grip", "--dir", src, "--option", "coords=zz", "--db", db)
	if code == 0 || !strings.Contains(errs, "want one of rc, xy") {
		t.Errorf("ai add --option coords=zz: exit %d, %q", code, errs)
	}

	mustRingside(t, "ai", "edit", "walker", "--option", "coords=xy", "--db", db)
	if out := mustRingside(t, "ai", "show", "walker", "--db", db); !strings.Contains(out, "options:   coords=xy (this AI's seat only)") {
		t.Errorf("ai show does not show the option:\n%s", out)
	}
	out = mustRingside(t, "ai", "check", "walker", "--time-scale", "4", "--db", db)
	if strings.Contains(out, "looks confused") || !strings.Contains(out, "ok: ready to play") {
		t.Errorf("ai check with coords=xy:\n%s", out)
	}

	// play: the AI's seat gets column first, the others row first.
	replay := filepath.Join(root, "game.json")
	mustRingside(t, "play", "--game", "grip", "--seed", "1", "--opt", "max_turns=40", "--time-scale", "4", "--db", db, "--replay", replay,
		"--bot", "builtin:grip/random", "--bot", "walker", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	checkSeatCoords(t, readReplay(t, replay), 1)

	// An event: the entry keeps the option; its games' replays have it.
	// A gauntlet of one group: four games, each seat once.
	out = mustRingside(t, "event", "create", "--game", "grip", "--format", "gauntlet", "--games", "1", "--seed", "5",
		"--opt", "max_turns=24", "--time-scale", "4", "--entry", "walker", "--entry", "builtin:grip/random", "--entry", "builtin:grip/greedy",
		"--entry", "builtin:grip/random", "--candidate", "builtin:grip/greedy", "--db", db)
	id := regexp.MustCompile(`event (\d+):`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("event create: %s", out)
	}
	if out := mustRingside(t, "event", "show", id[1], "--db", db); !strings.Contains(out, "walker r1 (coords=xy)") {
		t.Errorf("event show does not show the entry's option:\n%s", out)
	}
	mustRingside(t, "event", "run", id[1], "--db", db)
	show := mustRingside(t, "event", "show", id[1], "--db", db)
	m := regexp.MustCompile(`(?m)^(\d+)\s+1\s`).FindStringSubmatch(show)
	if m == nil {
		t.Fatalf("no first match in:\n%s", show)
	}
	rp := exportReplay(t, db, m[1])
	seat := -1
	for i, p := range rp.Players {
		if p == "walker r1" {
			seat = i
		}
	}
	if seat < 0 {
		t.Fatalf("walker r1 is not in the game: %v", rp.Players)
	}
	checkSeatCoords(t, rp, seat)
}

func exportReplay(t *testing.T, db, match string) *engine.Replay {
	t.Helper()
	out := mustRingside(t, "replay", "export", match, "--db", db)
	var rp *engine.Replay
	if err := json.Unmarshal([]byte(out), &rp); err != nil {
		t.Fatalf("replay export: %v\n%.300s", err, out)
	}
	return rp
}

// checkSeatCoords checks, in each seat's first turn input, the line of
// player 3 (who has not moved yet): seat xy reads it column first, the
// others row first; and that the replay records the option for that seat
// alone.
func checkSeatCoords(t *testing.T, rp *engine.Replay, xy int) {
	t.Helper()
	if rp.Options[fmt.Sprintf("coords@%d", xy)] != "xy" || rp.Options["coords"] != "rc" {
		t.Errorf("replay options %v: want coords=rc and coords@%d=xy", rp.Options, xy)
	}
	start := strings.Split(rp.Start, "/")
	if len(start) != 4 {
		t.Fatalf("replay start %q", rp.Start)
	}
	p3 := strings.Split(start[3], ",") // row, column, facing
	if p3[0] == p3[1] {
		t.Fatalf("player 3 starts at %v: choose a seed where row and column differ", p3)
	}
	seen := map[int]bool{}
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			lines := strings.Split(s.Input, "\n")
			if s.Input == "" || seen[s.Seat] || len(lines) < 12 {
				continue
			}
			seen[s.Seat] = true
			got := strings.Fields(lines[11])[:2]
			want := []string{p3[0], p3[1]}
			if s.Seat == xy {
				want = []string{p3[1], p3[0]}
			}
			if got[0] != want[0] || got[1] != want[1] {
				t.Errorf("seat %d read player 3 at %v, want %v (the xy seat is %d)", s.Seat, got, want, xy)
			}
		}
	}
	// A loaded machine may make a bot miss its READY; the xy seat and
	// one other are enough to compare.
	if !seen[xy] || len(seen) < 2 {
		t.Errorf("turn inputs of seats %v in the replay, want the xy seat %d and another", seen, xy)
	}
}

// TestBattle2048ProtocolOption: a Battle 2048 AI may carry protocol=beta;
// its seat gets the boards without the Turn line.
func TestBattle2048ProtocolOption(t *testing.T) {
	fixture.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "beta")
	// It places the opening tile, then never answers a turn: its first
	// turn input is all that is looked at.
	fixture.WriteFiles(t, src, map[string]string{"bot.py": "import sys\nsys.stdin.readline()\nprint('1 1', flush=True)\nfor line in sys.stdin:\n    pass\n"})
	mustRingside(t, "ai", "add", "--name", "beta", "--game", "battle2048", "--dir", src, "--no-watch",
		"--option", "protocol=beta", "--db", db)
	code, _, errs := ringside(t, "ai", "edit", "beta", "--option", "coords=xy", "--db", db)
	if code == 0 || !strings.Contains(errs, "an AI of battle2048 can only set protocol=final|beta") {
		t.Errorf("coords on a battle2048 AI: exit %d, %q", code, errs)
	}
	replay := filepath.Join(root, "game.json")
	mustRingside(t, "play", "--game", "battle2048", "--seed", "1", "--opt", "rounds=3", "--time-scale", "4", "--db", db, "--replay", replay,
		"--bot", "builtin:battle2048/random", "--bot", "beta")
	rp := readReplay(t, replay)
	if rp.Options["protocol@1"] != "beta" || rp.Options["protocol"] != "final" {
		t.Errorf("replay options %v", rp.Options)
	}
	checkBeta(t, rp, 1)

	// compare: the same through an SPRT event; beta sits in both seats.
	mustRingside(t, "compare", "--game", "battle2048", "--entry", "beta", "--entry", "builtin:battle2048/random",
		"--games", "2", "--opt", "rounds=3", "--time-scale", "4", "--db", db)
	show := mustRingside(t, "event", "show", "1", "--db", db)
	if !strings.Contains(show, "entries: beta r1 (protocol=beta), builtin:battle2048/random") {
		t.Errorf("compare's event:\n%s", show)
	}
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\s+\d+\s+\d+\s`).FindAllStringSubmatch(show, -1) {
		rp := exportReplay(t, db, m[1])
		seat := 0
		if rp.Players[1] == "beta r1" {
			seat = 1
		}
		if rp.Options[fmt.Sprintf("protocol@%d", seat)] != "beta" || rp.Options[fmt.Sprintf("protocol@%d", 1-seat)] != "" {
			t.Errorf("match %s: players %v, options %v", m[1], rp.Players, rp.Options)
		}
		checkBeta(t, rp, seat)
	}
}

// checkBeta checks that the beta seat's turn inputs are the ten board
// lines without a Turn line, and that every other turn input has one.
func checkBeta(t *testing.T, rp *engine.Replay, beta int) {
	t.Helper()
	betaTurns := 0
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			lines := strings.Split(strings.TrimSuffix(s.Input, "\n"), "\n")
			if len(lines) < 10 {
				continue // the opening
			}
			first := strings.Fields(lines[0])
			switch {
			case s.Seat == beta && (len(lines) != 10 || len(first) != 5):
				t.Errorf("beta seat's turn input %q", s.Input)
			case s.Seat == beta:
				betaTurns++
			case len(lines) != 11 || len(first) != 4:
				t.Errorf("final seat's turn input %q", s.Input)
			}
		}
	}
	if betaTurns == 0 {
		t.Errorf("the beta seat got no turn input: %+v", rp.Steps)
	}
}

// pyBuild writes version v of a Python bot and builds it, returning the
// build's output.
func pyBuild(t *testing.T, db, src, name string, v int) string {
	t.Helper()
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(v)})
	return mustRingside(t, "ai", "build", name, "--db", db)
}

// eventEntries creates a small gauntlet (four games) of the AI against built-in bots
// and returns the event's id and its entries line.
func eventEntries(t *testing.T, db string, extra ...string) (string, string) {
	t.Helper()
	args := append([]string{"event", "create", "--game", "grip", "--format", "gauntlet", "--games", "1", "--seed", "3",
		"--opt", "max_turns=8", "--time-scale", "4", "--entry", "pia", "--entry", "builtin:grip/greedy", "--candidate", "builtin:grip/greedy",
		"--entry", "builtin:grip/random", "--entry", "builtin:grip/random", "--db", db}, extra...)
	code, out, errs := ringside(t, args...)
	if code != 0 {
		return "", errs
	}
	id := regexp.MustCompile(`event (\d+):`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("event create: %s", out)
	}
	return id[1], entriesLine(t, db, id[1])
}

func entriesLine(t *testing.T, db, id string) string {
	t.Helper()
	show := mustRingside(t, "event", "show", id, "--db", db)
	line := regexp.MustCompile(`(?m)^entries: (.*)$`).FindStringSubmatch(show)
	if line == nil {
		t.Fatalf("event show has no entries line:\n%s", show)
	}
	return line[1]
}

// TestPinAndUnpin: a pinned AI plays its pin in events while builds go on;
// ai show and ai list say so; unpinning lets the current revision play.
func TestPinAndUnpin(t *testing.T) {
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "pia")
	addPyBot(t, src, "pia", db)
	pyBuild(t, db, src, "pia", 2)

	for _, tc := range []struct{ args []string }{
		{[]string{"ai", "pin", "pia", "r9"}},
		{[]string{"ai", "pin", "pia", "rx"}},
		{[]string{"ai", "pin", "pia"}},
		{[]string{"ai", "pin", "nobody", "r1"}},
	} {
		if code, _, errs := ringside(t, append(tc.args, "--db", db)...); code == 0 || errs == "" {
			t.Errorf("%v: exit %d, %q; want an error", tc.args, code, errs)
		}
	}
	code, _, errs := ringside(t, "ai", "pin", "pia", "r9", "--db", db)
	if code == 0 || !strings.Contains(errs, "AI pia has no revision 9") {
		t.Errorf("pin to a missing revision: %q", errs)
	}
	if out := mustRingside(t, "ai", "pin", "pia", "r1", "--db", db); !strings.Contains(out, "pia is pinned to revision 1") {
		t.Errorf("ai pin: %s", out)
	}
	if out := pyBuild(t, db, src, "pia", 3); !strings.Contains(out, "revision 3") {
		t.Errorf("a pinned AI still builds new revisions: %s", out)
	}
	show := mustRingside(t, "ai", "show", "pia", "--db", db)
	if !strings.Contains(show, "pinned:    revision 1") || !strings.Contains(show, "current:   revision 3") {
		t.Errorf("ai show of a pinned AI:\n%s", show)
	}
	if out := mustRingside(t, "ai", "list", "--db", db); !strings.Contains(out, "r1 pinned") {
		t.Errorf("ai list of a pinned AI:\n%s", out)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r1,") {
		t.Errorf("an event of a pinned AI plays %q, want pia r1", entries)
	}
	if out := mustRingside(t, "ai", "unpin", "pia", "--db", db); !strings.Contains(out, "no longer pinned: its current revision plays (revision 3)") {
		t.Errorf("ai unpin: %s", out)
	}
	if out := mustRingside(t, "ai", "unpin", "pia", "--db", db); !strings.Contains(out, "was not pinned") {
		t.Errorf("ai unpin twice: %s", out)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("after unpin an event plays %q, want pia r3", entries)
	}
}

// TestEventDeadline: revisions built after an event's deadline are not
// used by it; an event created before its deadline takes the revisions
// built until then when it first starts.
func TestEventDeadline(t *testing.T) {
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "pia")
	addPyBot(t, src, "pia", db)
	before := time.Now().Add(-time.Hour).Format(time.RFC3339)
	time.Sleep(1100 * time.Millisecond)
	deadline := time.Now().Format(time.RFC3339) // seconds: after r1, before r2
	time.Sleep(1100 * time.Millisecond)
	pyBuild(t, db, src, "pia", 2)

	if _, entries := eventEntries(t, db, "--deadline", deadline); !strings.HasPrefix(entries, "pia r1,") {
		t.Errorf("deadline between r1 and r2: event plays %q, want pia r1", entries)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r2,") {
		t.Errorf("no deadline: event plays %q, want pia r2", entries)
	}
	if _, errs := eventEntries(t, db, "--deadline", before); !strings.Contains(errs, "AI pia has no revision built before the deadline") {
		t.Errorf("deadline before any revision: %q", errs)
	}
	if _, errs := eventEntries(t, db, "--deadline", "friday"); !strings.Contains(errs, `deadline "friday": write a date and time`) {
		t.Errorf("unreadable deadline: %q", errs)
	}

	// Created before its deadline: r2 now, r3 built before the deadline
	// when the event first runs.
	id, entries := eventEntries(t, db, "--deadline", time.Now().Add(time.Hour).Format("2006-01-02 15:04"))
	if !strings.HasPrefix(entries, "pia r2,") {
		t.Errorf("future deadline at creation: %q, want pia r2", entries)
	}
	pyBuild(t, db, src, "pia", 3)
	mustRingside(t, "event", "run", id, "--db", db)
	if entries := entriesLine(t, db, id); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("after its first run the event with a future deadline plays %q, want pia r3", entries)
	}
	// Started: frozen.
	pyBuild(t, db, src, "pia", 4)
	if entries := entriesLine(t, db, id); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("a started event changed its entries: %q", entries)
	}

	// Exported into shards before its first run: the export is its first
	// start, so the bundle and the games played here later play r5.
	id2, _ := eventEntries(t, db, "--deadline", time.Now().Add(time.Hour).Format("2006-01-02 15:04"))
	pyBuild(t, db, src, "pia", 5)
	mustRingside(t, "event", "export", id2, "--shards", "1", "--out", filepath.Join(root, "shards"), "--db", db)
	if entries := entriesLine(t, db, id2); !strings.HasPrefix(entries, "pia r5,") {
		t.Errorf("after its export the event with a future deadline plays %q, want pia r5", entries)
	}
	pyBuild(t, db, src, "pia", 6)
	mustRingside(t, "event", "run", id2, "--db", db)
	if entries := entriesLine(t, db, id2); !strings.HasPrefix(entries, "pia r5,") {
		t.Errorf("an exported event changed its entries when it first ran here: %q, want pia r5 as in its shards", entries)
	}
}

// TestDiffRevisions: ai diff lists added, removed and changed files with
// line counts, gives binary files' sizes, and prints unified diffs.
func TestDiffRevisions(t *testing.T) {
	fixture.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "dia")
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1), "old.py": "x = 1\n", "notes.txt": "data, left out\n"})
	mustRingside(t, "ai", "add", "--name", "dia", "--game", "grip", "--dir", src, "--no-watch", "--db", db)
	if err := os.Remove(filepath.Join(src, "old.py")); err != nil {
		t.Fatal(err)
	}
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(2), "helper.py": "def f():\n    return 2\n",
		"table.bin": "\x00\x01\x02\x03", "notes.txt": "changed, still left out\n"})
	mustRingside(t, "ai", "build", "dia", "--db", db)

	out := mustRingside(t, "ai", "diff", "dia", "r1", "r2", "--db", db)
	for _, want := range []string{
		"dia: revision 1 (", "4 file(s) changed, 0 the same",
		"  changed  bot.py  +1 -1 lines",
		"  added    helper.py  +2 -0 lines",
		"  removed  old.py  +0 -1 lines",
		"  added    table.bin  binary, 4 bytes",
		"--- r1/bot.py\n+++ r2/bot.py\n@@ -1,5 +1,5 @@\n import sys\n-# version 1\n+# version 2\n",
		"--- r1/old.py\n+++ r2/old.py\n@@ -1 +0,0 @@\n-x = 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ai diff dia r1 r2: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "notes.txt") {
		t.Errorf("a left-out file is in the diff:\n%s", out)
	}
	if out := mustRingside(t, "ai", "diff", "dia", "2", "r2", "--db", db); !strings.Contains(out, "0 file(s) changed, 3 the same") {
		t.Errorf("diff of a revision with itself:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"r1", "r7"}, "AI dia has no revision 7"},
		{[]string{"r1"}, "write ringside ai diff NAME rA rB"},
		{[]string{"r1", "latest"}, `revision "latest": write rN`},
	} {
		code, _, errs := ringside(t, append(append([]string{"ai", "diff", "dia"}, tc.args...), "--db", db)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("ai diff dia %v: exit %d, %q; want %q", tc.args, code, errs, tc.want)
		}
	}
}
