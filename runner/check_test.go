package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner/runnertest"
)

func TestRevisionBot(t *testing.T) {
	tests := []struct{ run, dir, want string }{
		{"./bot", "/data/rev", "/data/rev/bot"},
		{"target/release/crab --fast", "/data/rev", "/data/rev/target/release/crab --fast"},
		{"python3 bot.py {host} {port}", "/data/rev", "python3 bot.py {host} {port}"},
		{"./my bot", "/data/my rev", "'/data/my rev/my' bot"},
		{"builtin:grip/random", "/data/rev", "builtin:grip/random"},
		{"/usr/bin/bot", "/data/rev", "/usr/bin/bot"},
	}
	for _, tt := range tests {
		b := RevisionBot("n", tt.run, tt.dir)
		if b.Command != tt.want || b.Dir != tt.dir || b.Name != "n" {
			t.Errorf("RevisionBot(%q) = %+v, want command %q", tt.run, b, tt.want)
		}
	}
}

func TestPreflight(t *testing.T) {
	runnertest.NeedPython(t)
	g, err := games.Get("battle2048")
	if err != nil {
		t.Fatal(err)
	}
	good, err := filepath.Abs("../assets/templates/battle2048/python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{
		"bad.py":   "import sys\nsys.stdin.readline()\nprint('3 3', flush=True)\nsys.stdin.readline()\nprint('up 1 1 1 1', flush=True)\nsys.stdin.read()\n",
		"crash.py": "import sys\nprint('about to fail', file=sys.stderr)\nraise SystemExit(4)\n",
		"slow.py":  "import sys, time\nsys.stdin.readline()\nprint('3 3', flush=True)\nsys.stdin.readline()\ntime.sleep(2)\nprint('U 1 1 1 1', flush=True)\n",
	})
	tests := []struct {
		name, cmd string
		opts      engine.Options
		ok        bool
		want      string // in the failing item
	}{
		{"good", "python3 " + good, nil, true, ""},
		{"invalid", "python3 bad.py", nil, false, `answered "up 1 1 1 1"`},
		{"crash", "python3 crash.py", nil, false, "it ended before its first answer (exit status 4); its error output ends with:\nabout to fail"},
		{"slow", "python3 slow.py", engine.Options{"turn_ms": "300"}, false, "turn 1:"},
		{"absent", "./no-such-bot", nil, false, "no-such-bot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := engine.Options{"rounds": "15"}
			for k, v := range tt.opts {
				opts[k] = v
			}
			// A generous time scale: Python starts slowly on a loaded machine.
			m := Match{Game: g, Seed: 3, Options: opts, TimeScale: 3, Bots: []Bot{{Name: "me", Command: tt.cmd, Dir: dir},
				{Name: "other", Command: "python3 " + good}}}
			rep, err := Preflight(context.Background(), m, 0)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() != tt.ok {
				t.Fatalf("OK = %v, want %v: %+v", rep.OK(), tt.ok, rep.Items)
			}
			if tt.ok {
				if rep.Answers == 0 || rep.Rank == 0 {
					t.Errorf("report = %+v", rep)
				}
				return
			}
			found := false
			for _, it := range rep.Items {
				if !it.OK && strings.Contains(it.Text, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no failing item says %q: %+v", tt.want, rep.Items)
			}
		})
	}
}

// TestPreflightCrashOnFirstTurn: a Grip bot that says READY and stops on
// its first turn fails "keeps running", and the report says nothing is
// known of its answers, not "ok (0 of 1)" over answers it never gave.
func TestPreflightCrashOnFirstTurn(t *testing.T) {
	runnertest.NeedPython(t)
	g, err := games.Get("grip")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bot := "import sys\nprint('READY', flush=True)\nfor line in sys.stdin:\n    if line.strip() == 'EOD':\n        raise SystemExit('index out of range')\n"
	runnertest.WriteFiles(t, dir, map[string]string{"hugo.py": bot})
	tmpl, err := filepath.Abs("../assets/templates/grip/python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	other := Bot{Name: "template", Command: "python3 " + tmpl}
	m := Match{Game: g, Seed: 3, Options: engine.Options{"max_turns": "40"}, TimeScale: 3,
		Bots: []Bot{{Name: "hugo", Command: "python3 hugo.py", Dir: dir}, other, other, other}}
	rep, err := Preflight(context.Background(), m, 0)
	if err != nil {
		t.Fatal(err)
	}
	failed := ""
	for _, it := range rep.Items {
		if !it.OK && failed == "" {
			failed = it.What
		}
		if it.OK && strings.HasPrefix(it.Text, "ok (0 of") {
			t.Errorf("%s: %q, though the bot never answered", it.What, it.Text)
		}
	}
	if rep.OK() || failed != "keeps running" {
		t.Errorf("first failing item %q, want \"keeps running\": %+v", failed, rep.Items)
	}
}

func TestMissingProgramHints(t *testing.T) {
	tests := []struct{ prog, want string }{
		{"javac", "javac is not installed (not found on PATH): install a JDK (Debian: apt-get install default-jdk-headless), or change the build command"},
		{"g++", "apt-get install g++"},
		{"cargo", "rustup.rs"},
		{"zig", "install it or put it on PATH"},
	}
	for _, tt := range tests {
		if got := MissingProgram(tt.prog, "build").Error(); !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want it to contain %q", tt.prog, got, tt.want)
		}
	}
}

func TestJoinCommandRoundTrip(t *testing.T) {
	for _, words := range [][]string{
		{"python3", "bot.py"},
		{"/tmp/my dir/bot", "{host}", "{port}"},
		{"sh", "-c", "echo 'hi' && ls *.go"},
		{"a\"b", "$HOME", `back\slash`, ""},
	} {
		line := JoinCommand(words)
		got, err := Split(line)
		if err != nil || strings.Join(got, "\x00") != strings.Join(words, "\x00") {
			t.Errorf("Split(JoinCommand(%q)) = %q, %v", words, got, err)
		}
	}
}

// A check holds against the bot only the timeouts that were its own: one
// while it waited for a CPU on a busy machine is not counted (as in an
// event's standings), and one where only the machine was short of CPU
// fails but says so, since a bot that sleeps past its window shows it too.
func TestPreflightLateUnderLoad(t *testing.T) {
	ok := engine.ReplaySeat{Verdict: engine.OK, Status: engine.Answered.String()}
	late := engine.ReplaySeat{Verdict: engine.Timeout, Detail: "no reply within 100ms"}
	starved := late
	starved.Note = starvedNote + " 80.00 ms for a CPU (not its fault: replay the game)"
	busy := late
	busy.Note = busyNote + ": other programs held the CPU for 70.00 ms of its window (not its fault: replay the game)"
	tests := []struct {
		name    string
		replies []engine.ReplaySeat
		pass    bool
		text    string // in the "answers in time" item
		starved int
	}{
		{"punctual", []engine.ReplaySeat{ok, ok, ok}, true, "ok (3 of 3)", 0},
		{"starved once", []engine.ReplaySeat{ok, starved, ok}, true, "ok (2 of 2); 1 more came late while it waited for a CPU", 1},
		{"late on its own", []engine.ReplaySeat{ok, late, ok}, false, "turn 2: no reply within 100ms", 0},
		{"late on a busy machine", []engine.ReplaySeat{ok, busy, ok}, false, "the machine was busy then", 0},
		{"starved, then late on its own", []engine.ReplaySeat{starved, late, ok}, false, "turn 2: no reply within 100ms", 1},
		{"always starved", []engine.ReplaySeat{starved, starved}, false, "not judged: all 2 answers came late", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &CheckReport{}
			p := &preflight{r: r, info: pingGame{}.Info()}
			for i, s := range tc.replies {
				p.mine = append(p.mine, checkEntry{turn: i + 1, s: s})
			}
			p.answers()
			var inTime *CheckItem
			for i := range r.Items {
				if r.Items[i].What == "answers in time" {
					inTime = &r.Items[i]
				}
			}
			if inTime == nil {
				t.Fatalf("no \"answers in time\" item: %+v", r.Items)
			}
			if r.OK() != tc.pass || !strings.Contains(inTime.Text, tc.text) || r.Starved != tc.starved {
				t.Errorf("passed %v, %q, %d starved; want %v, %q, %d starved (items %+v)",
					r.OK(), inTime.Text, r.Starved, tc.pass, tc.text, tc.starved, r.Items)
			}
		})
	}
}
