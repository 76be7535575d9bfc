// Command tcpbot is a Cloud Contest bot for the runner's transport tests.
// It logs in over TCP with the tokens Ringside gives it and answers every
// state with an empty command set tagged with the state's turn_no; its
// -mode makes it misbehave. What it receives is echoed to stderr as
// "got: LINE" so tests can check it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	mode := flag.String("mode", "good", "good|wrongtoken|relogin|late|malformed|never|gamespace|steal|escape|connflood")
	userFlag := flag.String("user", "", "log in with this user token instead of its own")
	late := flag.Duration("late", 600*time.Millisecond, "how late mode late answers turn 3")
	flag.Parse()
	if *mode == "never" {
		time.Sleep(time.Hour)
		return
	}
	addr := net.JoinHostPort(os.Getenv("RINGSIDE_HOST"), os.Getenv("RINGSIDE_PORT"))
	fmt.Fprintf(os.Stderr, "addr: %s args: %q\n", addr, flag.Args())
	user, game := os.Getenv("RINGSIDE_USER_TOKEN"), os.Getenv("RINGSIDE_GAME_TOKEN")
	if *mode == "wrongtoken" {
		user = "0123456789abcdef0123456789abcdef"
	}
	if *userFlag != "" {
		user = *userFlag
	}
	if *mode == "steal" {
		steal(addr, user, game)
	}
	if *mode == "escape" {
		escape()
	}
	if *mode == "connflood" {
		connFlood(addr)
	}
	conn, r := login(addr, user, game, *mode == "gamespace")
	turns := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			fmt.Fprintf(os.Stderr, "closed: %v\n", err)
			if *mode == "wrongtoken" {
				time.Sleep(time.Hour) // stay alive: the test checks the socket, not the process
			}
			return
		}
		fmt.Fprintf(os.Stderr, "got: %s", line)
		var msg map[string]any
		if json.Unmarshal([]byte(line), &msg) != nil {
			continue
		}
		no, isState := msg["turn_no"]
		if !isState {
			continue
		}
		turns++
		switch {
		case *mode == "relogin" && turns == 2:
			// A second connection replaces this one.
			conn.Close()
			conn, r = login(addr, user, game, false)
			continue
		case *mode == "late" && turns == 3:
			// Answer turn 3 too late, tagged with its turn number.
			time.Sleep(*late)
		case *mode == "malformed" && turns == 2:
			fmt.Fprint(conn, "{this is not json\n")
			continue
		}
		fmt.Fprintf(conn, "{\"turn_no\":%v}\n", no)
	}
}

// steal looks for other tcpbots of this test in /proc, takes the user
// tokens in their environments and command lines, and logs in with each
// to take over that player's seat. It reports on stderr as "steal: ...".
func steal(addr, own, game string) {
	// The victim starts first, but on a busy machine its program may not
	// be running yet: look again for a second while no token is seen
	// (where /proc shows no other bot, none ever comes).
	found := map[string]bool{}
	for deadline := time.Now().Add(time.Second); len(found) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		lookForTokens(own, game, found)
	}
	report(addr, game, found)
}

// lookForTokens adds to found the tokens in the command lines and
// environments of this test's other bots that /proc shows.
func lookForTokens(own, game string, found map[string]bool) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !strings.HasPrefix(string(cmdline), os.Args[0]+"\x00") {
			continue // only this test's own bots
		}
		for _, arg := range strings.Split(string(cmdline), "\x00") {
			if len(arg) == 32 && arg != own && arg != game {
				found[arg] = true
			}
		}
		environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		for _, kv := range strings.Split(string(environ), "\x00") {
			if v, ok := strings.CutPrefix(kv, "RINGSIDE_USER_TOKEN="); ok && v != own {
				found[v] = true
			}
		}
	}
}

// report logs in with each token found and says what came of it.
func report(addr, game string, found map[string]bool) {
	if len(found) == 0 {
		fmt.Fprintln(os.Stderr, "steal: no token found")
		return
	}
	for token := range found {
		conn, r := login(addr, token, game, false)
		answer, _ := r.ReadString('\n')
		fmt.Fprintf(os.Stderr, "steal: login with a stolen token: %s", answer)
		if strings.Contains(answer, "logged in") {
			// Hold the stolen seat: read its states, answer nothing.
			go func() {
				for {
					if _, err := r.ReadString('\n'); err != nil {
						return
					}
				}
			}()
			_ = conn
		}
	}
}

// escape tries to reach what is not its game before it plays: UDP
// datagrams to $HOSTILE_UDP and a TCP connection to $HOSTILE_TCP (both
// loopback sentinels of the test). It reports on stderr as "escape: ...";
// whether anything arrived only the sentinels can tell.
func escape() {
	var ifaces []string
	dev, _ := os.ReadFile("/proc/net/dev")
	for _, l := range strings.Split(string(dev), "\n")[2:] {
		if name, _, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			ifaces = append(ifaces, name)
		}
	}
	fmt.Fprintf(os.Stderr, "escape: interfaces %v\n", ifaces)
	if c, err := net.Dial("udp", os.Getenv("HOSTILE_UDP")); err != nil {
		fmt.Fprintf(os.Stderr, "escape: udp: %v\n", err)
	} else {
		sent := 0
		var last error
		for range 5 {
			if _, err := c.Write([]byte("escaped\n")); err != nil {
				last = err
			} else {
				sent++
			}
			time.Sleep(2 * time.Millisecond)
		}
		c.Close()
		fmt.Fprintf(os.Stderr, "escape: udp: sent %d of 5 datagrams (last error %v)\n", sent, last)
	}
	if c, err := net.DialTimeout("tcp", os.Getenv("HOSTILE_TCP"), time.Second); err != nil {
		fmt.Fprintf(os.Stderr, "escape: tcp: %v\n", err)
	} else {
		c.Write([]byte("escaped\n"))
		c.Close()
		fmt.Fprintln(os.Stderr, "escape: tcp: connected")
	}
}

// connFlood opens 40 connections to the game's address at once, without
// logging in, counts those that are greeted, closes them all and reports
// on stderr as "connflood: N of 40 greeted"; then it plays as a good bot.
func connFlood(addr string) {
	var conns []net.Conn
	for range 40 {
		if c, err := net.Dial("tcp", addr); err == nil {
			conns = append(conns, c)
		}
	}
	greeted := 0
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		if strings.Contains(line, "ready to login") {
			greeted++
		}
	}
	for _, c := range conns {
		c.Close()
	}
	fmt.Fprintf(os.Stderr, "connflood: %d of 40 greeted (%d connected)\n", greeted, len(conns))
	time.Sleep(100 * time.Millisecond) // for the server to see them closed
}

func login(addr, user, game string, spaced bool) (net.Conn, *bufio.Reader) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	r := bufio.NewReader(conn)
	greeting, _ := r.ReadString('\n')
	fmt.Fprintf(os.Stderr, "got: %s", greeting)
	key := "game_token"
	if spaced {
		key = "game token"
	}
	msg, _ := json.Marshal(map[string]string{"message_type": "login", "user_token": user, key: game})
	fmt.Fprintf(conn, "%s\n", msg)
	return conn, r
}
