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
	mode := flag.String("mode", "good", "good|wrongtoken|relogin|late|malformed|never|gamespace|steal|exit|exitlater|longline|drop|flood")
	at := flag.Int("at", 2, "the turn at which relogin, exitlater, longline and drop act")
	think := flag.Duration("think", 0, "time spent on every turn before answering")
	hold := flag.Duration("hold", 500*time.Millisecond, "flood: how long the extra connections are held")
	flag.Parse()
	switch *mode {
	case "never":
		time.Sleep(time.Hour)
		return
	case "exit":
		fmt.Fprintln(os.Stderr, "exiting before logging in")
		os.Exit(3)
	}
	addr := net.JoinHostPort(os.Getenv("RINGSIDE_HOST"), os.Getenv("RINGSIDE_PORT"))
	fmt.Fprintf(os.Stderr, "addr: %s args: %q\n", addr, flag.Args())
	user, game := os.Getenv("RINGSIDE_USER_TOKEN"), os.Getenv("RINGSIDE_GAME_TOKEN")
	if *mode == "wrongtoken" {
		user = "0123456789abcdef0123456789abcdef"
	}
	if *mode == "steal" {
		steal(addr, user, game)
	}
	conn, r := login(addr, user, game, *mode == "gamespace")
	if *mode == "flood" {
		go flood(addr, *hold)
	}
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
		// The start of each line is enough for the tests, and keeps the
		// stderr the runner keeps (its end) from filling with states.
		fmt.Fprintf(os.Stderr, "got: %s\n", short(line))
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
		case *mode == "relogin" && turns == *at:
			// A second connection replaces this one.
			conn.Close()
			conn, r = login(addr, user, game, false)
			continue
		case *mode == "late" && turns == 3:
			// Answer turn 3 too late, tagged with its turn number.
			time.Sleep(600 * time.Millisecond)
		case *mode == "malformed" && turns == 2:
			fmt.Fprint(conn, "{this is not json\n")
			continue
		case *mode == "exitlater" && turns == *at:
			os.Exit(3)
		case *mode == "longline" && turns == *at:
			fmt.Fprintf(conn, "{\"turn_no\":%v,\"pad\":\"%s\"}\n", no, strings.Repeat("x", 100<<10))
			continue
		case *mode == "drop" && turns == *at:
			// The connection goes; the process stays.
			conn.Close()
			time.Sleep(time.Hour)
		}
		time.Sleep(*think)
		fmt.Fprintf(conn, "{\"turn_no\":%v}\n", no)
	}
}

// steal looks for other tcpbots of this test in /proc, takes the user
// tokens in their environments and command lines, and logs in with each
// to take over that player's seat. It reports on stderr as "steal: ...".
func steal(addr, own, game string) {
	entries, _ := os.ReadDir("/proc")
	found := map[string]bool{}
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

// flood opens connections to the game until it cannot open more (its
// own limit, or Ringside's backlog), holds them, then closes them all. It
// reports "flood: opened N" on stderr.
func flood(addr string, hold time.Duration) {
	var conns []net.Conn
	var err error
	for len(conns) < 2000 {
		var c net.Conn
		if c, err = net.DialTimeout("tcp", addr, time.Second); err != nil {
			break
		}
		conns = append(conns, c)
	}
	fmt.Fprintf(os.Stderr, "flood: opened %d (%v)\n", len(conns), err)
	time.Sleep(hold)
	for _, c := range conns {
		c.Close()
	}
	fmt.Fprintf(os.Stderr, "flood: closed %d\n", len(conns))
}

func short(line string) string {
	line = strings.TrimSuffix(line, "\n")
	if len(line) > 160 {
		return line[:160] + "…"
	}
	return line
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
