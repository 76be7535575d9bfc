// Command gripbot plays Grip with one of Ringside's built-in bots, as a
// separate program for the runner's tests: -think makes it slow to
// answer, -debug makes it print a debug line on stdout a while after
// each answer, before it reads its next input; -pad N pads each answer
// with blanks after the command to N bytes (the rules trim them).
//
// -mark and -waitfor order bots without clocks: a bot with -mark FILE
// writes there how many debug lines it has printed; a bot with -waitfor
// FILE answers global turn T only once seat 0's debug line of that
// round is printed, so the debug line is out before seat 0's next input
// can be written, however busy the machine.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"ringside/engine/grip"
)

func main() {
	name := flag.String("bot", "greedy", "built-in Grip bot to play with")
	seed := flag.Int64("seed", 1, "the bot's seed")
	think := flag.Duration("think", 0, "time to think before each answer")
	debug := flag.Duration("debug", -1, "print a debug line this long after each answer (negative: never)")
	mark := flag.String("mark", "", "file to count the debug lines printed in")
	waitfor := flag.String("waitfor", "", "a -mark file: answer turn T only when it counts T/4+1")
	pad := flag.Int("pad", 0, "pad each answer with blanks to this many bytes")
	flag.Parse()
	bot, err := (&grip.Game{}).NewBot(*name, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	out.WriteString(bot.Hello())
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	answers, line, turn := 0, 0, 0
	for in.Scan() {
		if line++; line == 2 {
			turn, _ = strconv.Atoi(strings.TrimSpace(in.Text()))
		}
		answer := bot.Feed(in.Text())
		if answer == "" {
			continue
		}
		line = 0
		answers++
		if *waitfor != "" {
			waitCount(*waitfor, turn/4+1)
		}
		time.Sleep(*think)
		if cmd := strings.TrimRight(answer, "\n"); len(cmd) < *pad {
			answer = cmd + strings.Repeat(" ", *pad-len(cmd)) + "\n"
		}
		out.WriteString(answer)
		out.Flush()
		if *debug >= 0 {
			time.Sleep(*debug)
			fmt.Fprintf(out, "debug: answered turn %d\n", answers)
			out.Flush()
			if *mark != "" {
				tmp := *mark + ".tmp"
				if err := os.WriteFile(tmp, []byte(strconv.Itoa(answers)), 0o644); err == nil {
					_ = os.Rename(tmp, *mark)
				}
			}
		}
	}
}

// waitCount waits until file holds a number of at least n, for 5 s at
// most (the bot that writes it may have fallen).
func waitCount(file string, n int) {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Microsecond) {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if v, err := strconv.Atoi(string(b)); err == nil && v >= n {
			return
		}
	}
}
