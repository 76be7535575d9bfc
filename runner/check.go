package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"ringside/engine"
)

// installHints says how to get a missing program, by program name.
var installHints = map[string]string{
	"go":      "install Go (https://go.dev/dl/; Debian: apt-get install golang)",
	"gcc":     "install a C compiler (Debian: apt-get install gcc)",
	"cc":      "install a C compiler (Debian: apt-get install gcc)",
	"g++":     "install a C++ compiler (Debian: apt-get install g++)",
	"c++":     "install a C++ compiler (Debian: apt-get install g++)",
	"clang":   "install clang (Debian: apt-get install clang)",
	"clang++": "install clang (Debian: apt-get install clang)",
	"make":    "install make (Debian: apt-get install make)",
	"javac":   "install a JDK (Debian: apt-get install default-jdk-headless)",
	"java":    "install a Java runtime (Debian: apt-get install default-jdk-headless)",
	"cargo":   "install Rust (https://rustup.rs)",
	"rustc":   "install Rust (https://rustup.rs)",
	"python3": "install Python 3 (Debian: apt-get install python3)",
	"python":  "install Python (Debian: apt-get install python3, and write python3)",
	"node":    "install Node.js (Debian: apt-get install nodejs)",
	"ruby":    "install Ruby (Debian: apt-get install ruby)",
	"perl":    "install Perl (Debian: apt-get install perl)",
	"php":     "install PHP (Debian: apt-get install php-cli)",
	"lua":     "install Lua (Debian: apt-get install lua5.4)",
}

// interpreters run a script named by their first argument; checking that
// the script exists catches a wrong file name before the first game.
var interpreters = map[string]bool{"python3": true, "python": true, "node": true, "ruby": true,
	"perl": true, "php": true, "lua": true, "sh": true, "bash": true}

// CheckRun checks the run program in dir. When a build will run, a
// program given as a path may not exist yet: the build makes it.
func CheckRun(dir string, argv []string, built bool) error {
	prog := argv[0]
	if hasDir(prog) { // ./bot, or .\bot.exe on Windows
		if filepath.IsAbs(prog) {
			if _, err := os.Stat(prog); err != nil {
				return fmt.Errorf("the run command starts %s, which does not exist", prog)
			}
			return nil
		}
		if _, err := os.Stat(filepath.Join(dir, prog)); err != nil && !built {
			return fmt.Errorf("the run command starts %s, which is not in %s and no build command makes it", prog, dir)
		}
		return nil
	}
	if _, err := exec.LookPath(prog); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, prog)); statErr == nil || built {
			return fmt.Errorf("the run command starts %q, which is not an installed program: to run the file in the folder, write %s", prog, "."+string(filepath.Separator)+prog)
		}
		return MissingProgram(prog, "run")
	}
	if interpreters[prog] && len(argv) > 1 && !strings.HasPrefix(argv[1], "-") && !built {
		script := argv[1]
		if !filepath.IsAbs(script) {
			script = filepath.Join(dir, script)
		}
		if _, err := os.Stat(script); err != nil {
			if filepath.IsAbs(argv[1]) {
				return fmt.Errorf("the run command runs %s %s, but %s does not exist: fix the file name", prog, argv[1], argv[1])
			}
			return fmt.Errorf("the run command runs %s %s, but %s is not in %s: fix the file name", prog, argv[1], argv[1], dir)
		}
	}
	return nil
}

// MissingProgram says that prog, named by the build or run command
// (which), is not installed, and how to install it.
func MissingProgram(prog, which string) error {
	return fmt.Errorf("%s is not installed (not found on PATH): %s, or change the %s command", prog, InstallHint(prog), which)
}

// InstallHint says how to get the program prog.
func InstallHint(prog string) string {
	if hint, ok := installHints[prog]; ok {
		return hint
	}
	return "install it or put it on PATH"
}

// RevisionBot is the bot that runs a revision: its run command with Dir set
// to the revision's folder. A program given as a relative path ("./bot",
// "target/release/x") is made absolute, because it is relative to the
// revision's folder and not to Ringside's own.
func RevisionBot(name, runCmd, dir string) Bot {
	b := Bot{Name: name, Command: runCmd, Dir: dir}
	if strings.HasPrefix(strings.TrimSpace(runCmd), BuiltinPrefix) {
		return b
	}
	argv, err := Split(runCmd)
	if err != nil || filepath.IsAbs(argv[0]) || !strings.Contains(argv[0], "/") || dir == "" {
		return b // a bad command is reported when the match starts
	}
	argv[0] = filepath.Join(dir, argv[0])
	b.Command = JoinCommand(argv)
	return b
}

// CheckItem is one thing a preflight game checked.
type CheckItem struct {
	What string // "starts", "answers in time", …
	OK   bool
	Text string // "ok (30 answers)" or the first problem in plain words
}

// CheckReport is what a preflight game showed about one seat's bot.
type CheckReport struct {
	Items   []CheckItem
	Turns   int    // turns the game lasted
	Answers int    // the bot's answers that were taken (ok)
	Starved int    // its timeouts while it waited for a CPU, not counted
	Rank    int    // the bot's rank (1 = best), 0 when the game did not end
	Seats   int    // players in the game
	Stderr  string // the end of the bot's stderr
	// Log is the check game, for game-specific looks (Grip's moves that
	// went nowhere).
	Log *engine.Log
}

// OK reports whether every check passed.
func (r *CheckReport) OK() bool {
	for _, it := range r.Items {
		if !it.OK {
			return false
		}
	}
	return true
}

// Preflight plays m and reports in plain words whether the bot in seat
// started, did its handshake (Grip's READY, Cloud's login), answered in
// time and answered validly, with the first problem of each kind.
func Preflight(ctx context.Context, m Match, seat int) (*CheckReport, error) {
	if seat < 0 || seat >= len(m.Bots) {
		return nil, fmt.Errorf("preflight: seat %d of %d", seat, len(m.Bots))
	}
	out, err := Play(ctx, m)
	if err != nil {
		return nil, err
	}
	rp, err := engine.Expand(m.Game, out.Log)
	if err != nil {
		return nil, fmt.Errorf("preflight: re-simulate the game: %w", err)
	}
	r := &CheckReport{Turns: rp.Result.Turns, Seats: len(m.Bots), Stderr: out.Stderr[seat], Log: out.Log}
	if seat < len(rp.Result.Ranks) && out.Log.Aborted == "" {
		r.Rank = rp.Result.Ranks[seat]
	}
	p := &preflight{r: r, info: m.Game.Info(), note: out.Notes[seat]}
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			if s.Seat == seat {
				p.mine = append(p.mine, checkEntry{st.Turn, s})
			}
		}
	}
	if p.starts() && p.logsIn() && p.handshake() {
		p.answers()
	}
	return r, nil
}

// checkEntry is one of the checked bot's replies and its turn.
type checkEntry struct {
	turn int
	s    engine.ReplaySeat
}

// preflight is a Preflight's report in the making. Each check adds its
// item; one that fails ends the report.
type preflight struct {
	r    *CheckReport
	info engine.Info
	note string       // the seat's note from the game
	mine []checkEntry // the bot's replies not yet looked at
}

// stderrTail is the end of the bot's error output, to follow a problem.
func (p *preflight) stderrTail() string {
	s := strings.TrimSpace(p.r.Stderr)
	if s == "" {
		return ""
	}
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return "; its error output ends with:\n" + s
}

// add adds an item and reports whether it passed.
func (p *preflight) add(what string, ok bool, text string) bool {
	p.r.Items = append(p.r.Items, CheckItem{what, ok, text})
	return ok
}

// starts checks that the bot lived long enough to answer once.
func (p *preflight) starts() bool {
	answered := 0
	for _, e := range p.mine {
		if e.s.Status == engine.Answered.String() {
			answered++
		}
	}
	if len(p.mine) > 0 && answered == 0 && p.mine[0].s.Status == engine.Closed.String() {
		why := p.mine[0].s.Note
		if why == "" {
			why = p.note
		}
		return p.add("starts", false, "it ended before its first answer ("+why+")"+p.stderrTail())
	}
	if len(p.mine) == 0 && p.note != "" {
		return p.add("starts", false, p.note+p.stderrTail())
	}
	return p.add("starts", true, "ok")
}

// logsIn checks the login of a game that has one.
func (p *preflight) logsIn() bool {
	if p.info.Login == nil {
		return true
	}
	if strings.Contains(p.note, "log in") || strings.HasPrefix(p.note, "login") {
		return p.add("logs in", false, p.note+p.stderrTail())
	}
	return p.add("logs in", true, "ok")
}

// handshake checks a first ask that writes nothing (Grip's READY) and
// takes it off the replies.
func (p *preflight) handshake() bool {
	if len(p.mine) == 0 || p.mine[0].s.Input != "" {
		return true
	}
	what := "handshake"
	if p.info.ID == "grip" {
		what = "says READY in time"
	}
	first := p.mine[0]
	p.mine = p.mine[1:]
	if first.s.Verdict != engine.OK {
		return p.add(what, false, first.s.Detail+p.stderrTail())
	}
	return p.add(what, true, "ok")
}

// answerTally counts a bot's answers and keeps the first problem of each
// kind.
type answerTally struct {
	asked, ok, timeouts, crashes int
	// starved counts timeouts while the bot waited for a CPU on a busy
	// machine: not held against it, as in an event's standings.
	starved          int
	late, bad, crash string
}

func (t *answerTally) add(e checkEntry, stderrTail func() string) {
	if e.s.Verdict == engine.NotAsked {
		return
	}
	t.asked++
	switch e.s.Verdict {
	case engine.OK:
		t.ok++
	case engine.Timeout:
		if LateWhileStarved(e.s.Note) {
			t.starved++
			return
		}
		t.timeouts++
		if t.late == "" {
			t.late = fmt.Sprintf("turn %d: %s", e.turn, e.s.Detail)
			if LateWhileBusy(e.s.Note) {
				// Say so, but a bot that sleeps past its window on a busy
				// machine shows it too: the student checks again.
				t.late += " (the machine was busy then: other programs held the CPU; if the bot is quick, check again when it is quieter)"
			}
		}
	case engine.Invalid:
		if t.bad == "" {
			line := "nothing"
			if e.s.Reply != nil {
				line = strconv.Quote(*e.s.Reply)
			}
			t.bad = fmt.Sprintf("turn %d: answered %s: %s", e.turn, line, e.s.Detail)
		}
	case engine.Crashed:
		t.crashes++
		if t.crash == "" {
			why := e.s.Note
			if why == "" {
				why = e.s.Detail
			}
			t.crash = fmt.Sprintf("turn %d: the bot stopped (%s)%s", e.turn, why, stderrTail())
		}
	}
}

// answers checks that the bot kept running and answered in time and
// validly.
func (p *preflight) answers() {
	var t answerTally
	for _, e := range p.mine {
		t.add(e, p.stderrTail)
	}
	p.r.Answers = t.ok
	p.r.Starved = t.starved
	// The turn a bot stopped on got no reply, and a starved one's is not
	// judged: replies are counted over the other turns.
	replied := t.asked - t.crashes - t.starved
	item := func(what, problem string, good int) {
		switch {
		case problem != "":
			p.add(what, false, problem)
		case good < 0:
			p.add(what, true, "ok")
		default:
			p.add(what, true, fmt.Sprintf("ok (%d of %d)", good, replied))
		}
	}
	item("keeps running", t.crash, -1)
	if replied == 0 && t.starved > 0 {
		p.add("answers in time", false, fmt.Sprintf("not judged: all %d answers came late while it waited for a CPU on a busy machine; check again when it is quieter", t.starved))
		return
	}
	if replied > 0 || t.crashes == 0 {
		item("answers in time", t.late, replied-t.timeouts)
		if t.starved > 0 && t.late == "" {
			it := &p.r.Items[len(p.r.Items)-1]
			it.Text += fmt.Sprintf("; %d more came late while it waited for a CPU on a busy machine (not its fault, not counted)", t.starved)
		}
		item("answers are valid", t.bad, t.ok)
	} else {
		// Nothing is known of answers it never gave; "ok (0 of 1)" would
		// pass them.
		p.add("answers", false, "none seen: it stopped before its first answer")
	}
	if t.asked == 0 {
		p.add("answers", false, "the game never asked it anything (it ended too soon)")
	}
}
