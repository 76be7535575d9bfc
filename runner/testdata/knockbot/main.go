// Command knockbot plays the runner tests' "knock" game: a login game
// whose handshake is nothing like Cloud's, to show that the runner takes
// every line and name of a handshake from the game (engine.Login). It
// connects over TCP to KNOCK_ADDR, or uses stdin/stdout when
// KNOCK_TRANSPORT is stdio; expects the greeting "KNOCK KNOCK", says
// "IT IS <user> FOR <game>" (user from -user, given on the command line
// through the game's placeholder, game from KNOCK_GAME) and, once let in
// ("COME IN"), answers each number n with n+1. Turned
// away ("GO AWAY") it exits with status 3; any other line from Ringside
// where it expects one of these ends it with status 4.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
)

func main() {
	user := flag.String("user", "", "the seat's token")
	flag.Parse()
	var r *bufio.Reader
	var w io.Writer
	if os.Getenv("KNOCK_TRANSPORT") == "stdio" {
		r, w = bufio.NewReader(os.Stdin), os.Stdout
	} else {
		conn, err := net.Dial("tcp", os.Getenv("KNOCK_ADDR"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "dial %s: %v\n", os.Getenv("KNOCK_ADDR"), err)
			os.Exit(2)
		}
		r, w = bufio.NewReader(conn), conn
	}
	read := func() string {
		line, err := r.ReadString('\n')
		if err != nil {
			os.Exit(0)
		}
		return strings.TrimSuffix(line, "\n")
	}
	if got := read(); got != "KNOCK KNOCK" {
		fmt.Fprintf(os.Stderr, "greeting %q\n", got)
		os.Exit(4)
	}
	fmt.Fprintf(w, "IT IS %s FOR %s\n", *user, os.Getenv("KNOCK_GAME"))
	switch got := read(); got {
	case "COME IN":
	case "GO AWAY":
		fmt.Fprintln(os.Stderr, "turned away")
		os.Exit(3)
	default:
		fmt.Fprintf(os.Stderr, "answer %q\n", got)
		os.Exit(4)
	}
	for {
		n, err := strconv.Atoi(read())
		if err != nil {
			continue // a status line: nothing to answer
		}
		fmt.Fprintln(w, n+1)
	}
}
