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
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	mode := flag.String("mode", "eof", "deaf|eof|tree|hog")
	step := flag.Int("step", 64, "hog: MiB taken at a time")
	maxMiB := flag.Int("max", 4096, "hog: MiB taken in all")
	flag.Parse()
	switch *mode {
	case "deaf":
		sleepForever()
	case "tree":
		child := exec.Command(os.Args[0], "-mode", "deaf")
		child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "hangbot: start the child:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "hangbot: child", child.Process.Pid)
		fallthrough
	case "eof":
		fmt.Println("READY")
		_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		fmt.Fprintln(os.Stderr, "hangbot: end of input, staying")
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
