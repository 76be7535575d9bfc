// Command seedbot is a Cloud Contest client written from the seed text
// (Cloud Contest 2, main round) as literally as a student would write it:
// it compares the server's status lines character by character with the
// seed's ({"status":"ok", "message":"ready to login"}), prints its login
// over two lines as the seed does, answers every state without a turn_no,
// in the seed's spacing, and writes left as "I" as the seed prints it.
//
// It talks over TCP, or over stdin/stdout when RINGSIDE_TRANSPORT is
// "stdio". What it sees is reported on stderr for the tests:
//
//	login-at: UNIXNANO   just before it sends its login
//	config-at: UNIXNANO  when the field config arrived
//	dead-can-shoot: BOT N  a dead bot of its own listed with N cells
//	seedbot: ...         what went wrong, before it exits with status 2
//
// Each bot's command carries "seen": the turn_no of the state it answers
// (other keys of a command are ignored by the server), so a test can tell
// which state a logged reply answers.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"time"
)

// The seed's lines, spelt as the seed spells them.
const (
	readyLine    = `{"status":"ok", "message":"ready to login"}`
	loggedInLine = `{"status":"ok", "message":"logged in"}`
	timeoutLine  = `{"status":"error", "message":"turn timeout"}`
)

func main() {
	loginDelay := flag.Duration("login-delay", 0, "wait this long before logging in")
	think := flag.Duration("think", 0, "time spent on every turn before answering")
	lateTurn := flag.Int("late-turn", 0, "the turn whose answer comes late")
	late := flag.Duration("late", 0, "extra time spent on -late-turn")
	hugeFire := flag.Int("huge-fire", 0, "on this turn the first bot fires at [2^63, 0] (only the shot is dropped)")
	exitAt := flag.Int("exit-at", 0, "exit with status 3 on receiving this turn's state")
	plain := flag.Bool("plain", false, "not literal: read status lines as JSON and log in on one line (to test one thing at a time)")
	flag.Parse()

	var r *bufio.Reader
	var w io.Writer
	if os.Getenv("RINGSIDE_TRANSPORT") == "stdio" {
		r, w = bufio.NewReader(os.Stdin), os.Stdout
	} else {
		addr := net.JoinHostPort(os.Getenv("RINGSIDE_HOST"), os.Getenv("RINGSIDE_PORT"))
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			fail("dial %s: %v", addr, err)
		}
		r, w = bufio.NewReader(conn), conn
	}
	read := func() string {
		line, err := r.ReadString('\n')
		if err != nil {
			fmt.Fprintf(os.Stderr, "closed: %v\n", err)
			os.Exit(0)
		}
		return strings.TrimSuffix(line, "\n")
	}

	same := func(got, want string) bool {
		if !*plain {
			return got == want
		}
		var a, b map[string]string
		return json.Unmarshal([]byte(got), &a) == nil && json.Unmarshal([]byte(want), &b) == nil &&
			a["status"] == b["status"] && a["message"] == b["message"]
	}
	if got := read(); !same(got, readyLine) {
		fail("greeting %q is not the seed's %q", got, readyLine)
	}
	time.Sleep(*loginDelay)
	fmt.Fprintf(os.Stderr, "login-at: %d\n", time.Now().UnixNano())
	user, game := os.Getenv("RINGSIDE_USER_TOKEN"), os.Getenv("RINGSIDE_GAME_TOKEN")
	if *plain {
		fmt.Fprintf(w, "{\"message_type\":\"login\",\"user_token\":\"%s\",\"game_token\":\"%s\"}\n", user, game)
	} else {
		// As the seed prints it: over two lines, the game token's key spaced.
		fmt.Fprintf(w, "{\"message_type\":\"login\", \"user_token\":\"%s\",\n\"game token\":\"%s\"}\n", user, game)
	}
	if got := read(); !same(got, loggedInLine) {
		fail("login answer %q is not the seed's %q", got, loggedInLine)
	}
	var config struct {
		UserID        *string `json:"user_id"`
		Width, Height int
		Bricks        [][2]int64 `json:"bricks"`
	}
	line := read()
	fmt.Fprintf(os.Stderr, "config-at: %d\n", time.Now().UnixNano())
	if json.Unmarshal([]byte(line), &config) != nil || config.UserID == nil {
		fail("expected the field config after logging in, got %q", line)
	}
	me := *config.UserID

	for {
		line := read()
		if strings.Contains(line, `"status"`) {
			if strings.Contains(line, "turn timeout") && !same(line, timeoutLine) {
				fail("timeout line %q is not the seed's %q", line, timeoutLine)
			}
			continue
		}
		var st struct {
			TurnNo int `json:"turn_no"`
			Bots   map[string]struct {
				Player   string   `json:"player"`
				Position [2]int   `json:"position"`
				Health   int      `json:"health"`
				Time     int      `json:"time"`
				CanShoot [][2]int `json:"can_shoot"`
			} `json:"bots"`
		}
		if err := json.Unmarshal([]byte(line), &st); err != nil || st.TurnNo == 0 {
			fail("expected a state, got %q (%v)", line, err)
		}
		if st.TurnNo == *exitAt {
			os.Exit(3)
		}
		var mine []string
		for id, b := range st.Bots {
			if b.Player != me {
				continue
			}
			if b.Health == 0 {
				fmt.Fprintf(os.Stderr, "dead-can-shoot: %s %d\n", id, len(b.CanShoot))
				continue
			}
			mine = append(mine, id)
		}
		sort.Strings(mine)
		time.Sleep(*think)
		if st.TurnNo == *lateTurn {
			time.Sleep(*late)
		}
		var parts []string
		for i, id := range mine {
			b := st.Bots[id]
			// Left as the seed prints it, every other turn.
			move := []string{"I", "r", "d", "u", "s"}[(st.TurnNo+i)%5]
			fire := "[]"
			switch {
			case i == 0 && st.TurnNo == *hugeFire:
				fire = "[9223372036854775808, 0]"
			case i == 0 && len(mine) > 1:
				// Friendly fire at the team's second bot until it dies,
				// so that a dead bot of its own is listed.
				if q := st.Bots[mine[1]].Position; inRange(b.CanShoot, q) {
					fire = fmt.Sprintf("[%d,%d]", q[0], q[1])
				}
			}
			parts = append(parts, fmt.Sprintf(`"%s": {"move": "%s", "fire": %s, "seen": %d}`, id, move, fire, st.TurnNo))
		}
		fmt.Fprintf(w, "{%s}\n", strings.Join(parts, ", "))
	}
}

func inRange(cells [][2]int, q [2]int) bool {
	for _, c := range cells {
		if c == q {
			return true
		}
	}
	return false
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "seedbot: "+format+"\n", args...)
	os.Exit(2)
}
