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
	if strings.Contains(prog, "/") {
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
			return fmt.Errorf("the run command starts %q, which is not an installed program: to run the file in the folder, write ./%s", prog, prog)
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
	info := m.Game.Info()
	r := &CheckReport{Turns: rp.Result.Turns, Seats: len(m.Bots), Stderr: out.Stderr[seat], Log: out.Log}
	if seat < len(rp.Result.Ranks) && out.Log.Aborted == "" {
		r.Rank = rp.Result.Ranks[seat]
	}
	type entry struct {
		turn int
		s    engine.ReplaySeat
	}
	var mine []entry
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			if s.Seat == seat {
				mine = append(mine, entry{st.Turn, s})
			}
		}
	}
	note := out.Notes[seat]
	stderrTail := func() string {
		s := strings.TrimSpace(out.Stderr[seat])
		if s == "" {
			return ""
		}
		if len(s) > 600 {
			s = "…" + s[len(s)-600:]
		}
		return "; its error output ends with:\n" + s
	}

	// Starts: it lived long enough to answer once.
	answered := 0
	for _, e := range mine {
		if e.s.Status == engine.Answered.String() {
			answered++
		}
	}
	if len(mine) > 0 && answered == 0 && mine[0].s.Status == engine.Closed.String() {
		why := mine[0].s.Note
		if why == "" {
			why = note
		}
		r.Items = append(r.Items, CheckItem{"starts", false, "it ended before its first answer (" + why + ")" + stderrTail()})
		return r, nil
	}
	if len(mine) == 0 && note != "" {
		r.Items = append(r.Items, CheckItem{"starts", false, note + stderrTail()})
		return r, nil
	}
	r.Items = append(r.Items, CheckItem{"starts", true, "ok"})

	if info.Login != nil {
		if strings.Contains(note, "log in") || strings.HasPrefix(note, "login") {
			r.Items = append(r.Items, CheckItem{"logs in", false, note + stderrTail()})
			return r, nil
		}
		r.Items = append(r.Items, CheckItem{"logs in", true, "ok"})
	}
	if len(mine) > 0 && mine[0].s.Input == "" {
		what := "handshake"
		if info.ID == "grip" {
			what = "says READY in time"
		}
		first := mine[0]
		mine = mine[1:]
		if first.s.Verdict != engine.OK {
			r.Items = append(r.Items, CheckItem{what, false, first.s.Detail + stderrTail()})
			return r, nil
		}
		r.Items = append(r.Items, CheckItem{what, true, "ok"})
	}

	var late, bad, crash string
	asked, ok, timeouts, crashes := 0, 0, 0, 0
	for _, e := range mine {
		if e.s.Verdict == engine.NotAsked {
			continue
		}
		asked++
		switch e.s.Verdict {
		case engine.OK:
			ok++
		case engine.Timeout:
			timeouts++
			if late == "" {
				late = fmt.Sprintf("turn %d: %s", e.turn, e.s.Detail)
			}
		case engine.Invalid:
			if bad == "" {
				line := "nothing"
				if e.s.Reply != nil {
					line = strconv.Quote(*e.s.Reply)
				}
				bad = fmt.Sprintf("turn %d: answered %s: %s", e.turn, line, e.s.Detail)
			}
		case engine.Crashed:
			crashes++
			if crash == "" {
				why := e.s.Note
				if why == "" {
					why = e.s.Detail
				}
				crash = fmt.Sprintf("turn %d: the bot stopped (%s)%s", e.turn, why, stderrTail())
			}
		}
	}
	r.Answers = ok
	// The turn a bot stopped on got no reply: replies are counted over
	// the other turns.
	replied := asked - crashes
	item := func(what, problem string, good int) {
		switch {
		case problem != "":
			r.Items = append(r.Items, CheckItem{what, false, problem})
		case good < 0:
			r.Items = append(r.Items, CheckItem{what, true, "ok"})
		default:
			r.Items = append(r.Items, CheckItem{what, true, fmt.Sprintf("ok (%d of %d)", good, replied)})
		}
	}
	item("keeps running", crash, -1)
	if replied > 0 || crashes == 0 {
		item("answers in time", late, replied-timeouts)
		item("answers are valid", bad, ok)
	} else {
		// Nothing is known of answers it never gave; "ok (0 of 1)" would
		// pass them.
		r.Items = append(r.Items, CheckItem{"answers", false, "none seen: it stopped before its first answer"})
	}
	if asked == 0 {
		r.Items = append(r.Items, CheckItem{"answers", false, "the game never asked it anything (it ended too soon)"})
	}
	return r, nil
}
