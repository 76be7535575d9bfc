// Command seedbot is a Cloud Contest client written from the seed text
// (Cloud Contest 2, main round) as literally as a student would write it:
// it compares the server's status lines character by character with the
// seed's ({"status":"ok", "message":"ready to login"}), prints its login
// over two lines as the seed does, answers every state without a turn_no,
// in the seed's spacing, and writes left as "I" as the seed prints it.
// Its flags make it misbehave for the runner's login and protocol tests.
//
// It talks over TCP, or over stdin/stdout when RINGSIDE_TRANSPORT is
// "stdio". What it sees is reported on stderr for the tests:
//
//	login-at: UNIXNANO     just before it sends its login
//	config-at: UNIXNANO    when the field config arrived
//	logged in: N           after its N-th login
//	dead-can-shoot: BOT N  a dead bot of its own listed with N cells
//	flood: opened N (ERR)  -flood: the connections it opened
//	seedbot: ...           what went wrong, before it exits with status 2
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

var (
	loginDelay = flag.Duration("login-delay", 0, "wait this long before logging in")
	think      = flag.Duration("think", 0, "time spent on every turn before answering")
	lateTurn   = flag.Int("late-turn", 0, "the turn whose answer comes late")
	late       = flag.Duration("late", 0, "extra time spent on -late-turn")
	hugeFire   = flag.Int("huge-fire", 0, "on this turn the first bot fires at [2^63, 0] (only the shot is dropped)")
	exitFirst  = flag.Bool("exit-first", false, "exit with status 3 before logging in")
	exitAt     = flag.Int("exit-at", 0, "exit with status 3 on receiving this turn's state")
	longAt     = flag.Int("long-at", 0, "answer this turn with a 100 KiB line")
	dropAt     = flag.Int("drop-at", 0, "tcp: on this turn's state, close the connection and live on without it")
	reloginAt  = flag.Int("relogin-at", 0, "tcp: on this turn's state, close the connection and log in again")
	flood      = flag.Duration("flood", 0, "tcp: after logging in, open connections until no more can be opened, hold them this long, close them")
	plain      = flag.Bool("plain", false, "not literal: read status lines as JSON and log in on one line (to test one thing at a time)")
)

// client is one connection to the game.
type client struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
}

func (c *client) read() string {
	line, err := c.r.ReadString('\n')
	if err != nil {
		fmt.Fprintf(os.Stderr, "closed: %v\n", err)
		os.Exit(0)
	}
	return strings.TrimSuffix(line, "\n")
}

func addr() string { return net.JoinHostPort(os.Getenv("RINGSIDE_HOST"), os.Getenv("RINGSIDE_PORT")) }

// connect opens the game's channel and logs in; it returns after "logged
// in".
func connect(logins int) *client {
	c := &client{}
	if os.Getenv("RINGSIDE_TRANSPORT") == "stdio" {
		c.r, c.w = bufio.NewReader(os.Stdin), os.Stdout
	} else {
		conn, err := net.Dial("tcp", addr())
		if err != nil {
			fail("dial %s: %v", addr(), err)
		}
		fmt.Fprintf(os.Stderr, "connected: %d\n", time.Now().UnixNano())
		c.r, c.w, c.closer = bufio.NewReader(conn), conn, conn
	}
	if got := c.read(); !same(got, readyLine) {
		fail("greeting %q is not the seed's %q", got, readyLine)
	}
	time.Sleep(*loginDelay)
	fmt.Fprintf(os.Stderr, "login-at: %d\n", time.Now().UnixNano())
	user, game := os.Getenv("RINGSIDE_USER_TOKEN"), os.Getenv("RINGSIDE_GAME_TOKEN")
	if *plain {
		fmt.Fprintf(c.w, "{\"message_type\":\"login\",\"user_token\":\"%s\",\"game_token\":\"%s\"}\n", user, game)
	} else {
		// As the seed prints it: over two lines, the game token's key spaced.
		fmt.Fprintf(c.w, "{\"message_type\":\"login\", \"user_token\":\"%s\",\n\"game token\":\"%s\"}\n", user, game)
	}
	if got := c.read(); !same(got, loggedInLine) {
		fail("login answer %q is not the seed's %q", got, loggedInLine)
	}
	fmt.Fprintf(os.Stderr, "logged in: %d\n", logins)
	return c
}

// same compares a status line with the seed's: character by character,
// or with -plain as JSON.
func same(got, want string) bool {
	if !*plain {
		return got == want
	}
	var a, b map[string]string
	return json.Unmarshal([]byte(got), &a) == nil && json.Unmarshal([]byte(want), &b) == nil &&
		a["status"] == b["status"] && a["message"] == b["message"]
}

// config reads the field config, which comes right after the login.
func (c *client) config() string {
	var config struct {
		UserID *string `json:"user_id"`
	}
	line := c.read()
	fmt.Fprintf(os.Stderr, "config-at: %d\n", time.Now().UnixNano())
	if json.Unmarshal([]byte(line), &config) != nil || config.UserID == nil {
		fail("expected the field config after logging in, got %q", line)
	}
	return *config.UserID
}

func main() {
	flag.Parse()
	if *exitFirst {
		fmt.Fprintln(os.Stderr, "exiting before logging in")
		os.Exit(3)
	}
	c := connect(1)
	me := c.config()
	if *flood > 0 {
		go floodConnections(*flood)
	}
	for {
		line := c.read()
		if strings.Contains(line, `"status"`) {
			if strings.Contains(line, "turn timeout") && !same(line, timeoutLine) {
				fail("timeout line %q is not the seed's %q", line, timeoutLine)
			}
			continue
		}
		if strings.HasPrefix(line, `{"user_id"`) {
			continue // the config again, after a new login
		}
		var st struct {
			TurnNo int `json:"turn_no"`
			Bots   map[string]struct {
				Player   string   `json:"player"`
				Position [2]int   `json:"position"`
				Health   int      `json:"health"`
				CanShoot [][2]int `json:"can_shoot"`
			} `json:"bots"`
		}
		if err := json.Unmarshal([]byte(line), &st); err != nil || st.TurnNo == 0 {
			fail("expected a state, got %q (%v)", line, err)
		}
		switch st.TurnNo {
		case *exitAt:
			os.Exit(3)
		case *dropAt:
			c.closer.Close()
			time.Sleep(time.Hour)
		case *reloginAt:
			*reloginAt = -1 // once
			c.closer.Close()
			c = connect(2)
			c.config()
			continue // the current state comes again
		case *longAt:
			fmt.Fprintf(c.w, "{\"pad\":\"%s\"}\n", strings.Repeat("x", 100<<10))
			continue
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
			// Left as the seed prints it, every fifth turn.
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
		fmt.Fprintf(c.w, "{%s}\n", strings.Join(parts, ", "))
	}
}

// floodConnections opens connections to the game until it cannot open
// more (its own limit, or the listener's backlog), holds them, then closes
// them all.
func floodConnections(hold time.Duration) {
	var conns []net.Conn
	var err error
	for len(conns) < 2000 {
		var c net.Conn
		if c, err = net.DialTimeout("tcp", addr(), time.Second); err != nil {
			break
		}
		conns = append(conns, c)
	}
	fmt.Fprintf(os.Stderr, "flood: opened %d (%v) at %d\n", len(conns), err, time.Now().UnixNano())
	time.Sleep(hold)
	for _, c := range conns {
		c.Close()
	}
	fmt.Fprintf(os.Stderr, "flood: closed %d at %d\n", len(conns), time.Now().UnixNano())
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
