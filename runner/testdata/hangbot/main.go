// Command hangbot is a bot that will not end by itself, for the Windows
// smoke test under Wine (.ci/wine-smoke.sh) and the runner's tests. It
// uses only calls every OS has, so it cross-builds to hangbot.exe.
//
//	-mode deaf  reads nothing and never exits
//	-mode eof   prints READY, reads its input to the end, then ignores
//	            the end of input and never exits
//	-mode tree  starts a copy of itself in mode deaf (which holds the
//	            pipes too), then behaves as eof
//	-mode hog   prints READY, then takes memory -step MiB at a time,
//	            touching every page, up to -max MiB, then never exits
//	-mode ping  plays the runner tests' ping game well (READY, then n+1
//	            for each n), and at the end of its input stays; with
//	            -child it first starts a copy in mode deaf
//
// With HANGBOT_PIDS set, each process appends "pid N" to that file (a
// parent its child's too, so a pid may be there twice), and mode ping
// "eof UNIXNANO" when its input ends.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

func main() {
	mode := flag.String("mode", "eof", "deaf|eof|tree|hog|ping")
	step := flag.Int("step", 64, "hog: MiB taken at a time")
	maxMiB := flag.Int("max", 4096, "hog: MiB taken in all")
	child := flag.Bool("child", false, "ping: start a copy in mode deaf first")
	flag.Parse()
	record(fmt.Sprintf("pid %d", os.Getpid()))
	switch *mode {
	case "deaf":
		sleepForever()
	case "tree":
		startChild()
		fallthrough
	case "eof":
		fmt.Println("READY")
		_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		fmt.Fprintln(os.Stderr, "hangbot: end of input, staying")
		sleepForever()
	case "ping":
		if *child {
			startChild()
		}
		ping()
		record(fmt.Sprintf("eof %d", time.Now().UnixNano()))
		sleepForever()
	case "hog":
		fmt.Println("READY")
		hog(*step, *maxMiB)
		sleepForever()
	default:
		fmt.Fprintln(os.Stderr, "hangbot: unknown mode", *mode)
		os.Exit(2)
	}
}

// startChild starts a copy in mode deaf that holds the pipes too.
func startChild() {
	child := exec.Command(os.Args[0], "-mode", "deaf")
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "hangbot: start the child:", err)
		os.Exit(2)
	}
	// Recorded here too: the child may be killed before it records.
	record(fmt.Sprintf("pid %d", child.Process.Pid))
	fmt.Fprintln(os.Stderr, "hangbot: child", child.Process.Pid)
}

// ping answers READY, then each number n with n+1, until its input ends.
func ping() {
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "READY")
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		if err != nil {
			continue
		}
		fmt.Fprintln(out, n+1)
		out.Flush()
	}
}

// record appends a line to the file HANGBOT_PIDS names, if any.
func record(line string) {
	name := os.Getenv("HANGBOT_PIDS")
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, line)
	f.Close()
}

// held keeps the hog's memory reachable so the collector frees none of it.
var held [][]byte

func hog(step, maxMiB int) {
	for total := 0; total < maxMiB; total += step {
		b := make([]byte, step<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		held = append(held, b)
		fmt.Fprintf(os.Stderr, "hangbot: holding %d MiB\n", total+step)
	}
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
