// Command fakebot is a misbehaving bot for the runner's tests. It plays the
// tests' "ping" game: it prints READY, then answers each input number n
// with n+1, unless its -mode makes it misbehave at answer -k.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	mode := flag.String("mode", "good", "good|sleep|exit|noready|garbage|longline|stderr|grandchild|closeout|chatty|ignore")
	k := flag.Int("k", 2, "answer index at which to misbehave")
	think := flag.Duration("think", 0, "time to think before each answer")
	slowStart := flag.Duration("slowstart", 0, "time to wait before READY")
	burn := flag.Duration("burn", 0, "CPU time to use before READY")
	debug := flag.Duration("debug", -1, "print a debug line this long after each answer (negative: never)")
	work := flag.Duration("work", 0, "CPU time to use for each answer (a fixed amount of work, not a sleep)")
	hog := flag.Int("hog", 0, "busy processes to start before READY, which spin until the game ends")
	flag.Parse()
	if pidFile := os.Getenv("FAKEBOT_PIDS"); pidFile != "" {
		f, err := os.OpenFile(pidFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	switch *mode {
	case "spin":
		for x := 1; ; x = x*31 + 7 {
		}
	case "child":
		// The grandchild: ignore SIGTERM and sleep, holding the pipes.
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
		return
	case "noready":
		time.Sleep(time.Hour)
		return
	case "grandchild":
		cmd := exec.Command(os.Args[0], "-mode", "child")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	for i := 0; i < *hog; i++ {
		// The hog's processes take every CPU they can get, in every
		// turn, its own and the others'.
		if err := exec.Command(os.Args[0], "-mode", "spin").Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	time.Sleep(*slowStart)
	if *burn > 0 {
		// Busy, as a Java virtual machine loading its classes: CPU time,
		// not a sleep, so programs sharing a CPU slow each other down.
		var t syscall.Rusage
		for i, x := 1, 1; ; i, x = i+1, x*31+7 {
			if i%4096 == 0 {
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &t)
				if time.Duration(t.Utime.Nano()+t.Stime.Nano()) >= *burn {
					break
				}
			}
		}
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "hello from fakebot")
	fmt.Fprintln(out, "READY")
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	n := 0
	for in.Scan() {
		v, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		if err != nil {
			continue
		}
		if n == *k {
			switch *mode {
			case "sleep":
				time.Sleep(2 * time.Second)
			case "exit":
				os.Exit(3)
			case "garbage":
				fmt.Fprintln(out, "what is this")
				out.Flush()
				n++
				continue
			case "longline":
				chunk := strings.Repeat("x", 1<<20)
				for i := 0; i < 10; i++ {
					out.WriteString(chunk)
				}
				out.Flush()
				time.Sleep(time.Hour)
			case "closeout":
				out.Flush()
				os.Stdout.Close()
				time.Sleep(time.Hour)
			case "stderr":
				line := strings.Repeat("e", 1023) + "\n"
				for i := 0; i < 20000; i++ {
					os.Stderr.WriteString(line)
				}
			case "chatty":
				// The answer, then lines nobody asked for.
				fmt.Fprintf(out, "%d\nnoise 1\nnoise 2\n", v+1)
				out.Flush()
				n++
				continue
			case "ignore":
				// Stops reading its input: Ringside's writes must not block.
				time.Sleep(time.Hour)
			}
		}
		time.Sleep(*think)
		useCPU(*work)
		fmt.Fprintln(out, v+1)
		out.Flush()
		n++
		if *debug >= 0 {
			time.Sleep(*debug)
			fmt.Fprintf(out, "debug: answered %d\n", v)
			out.Flush()
		}
	}
}

// useCPU spins until this thread has used d of CPU time: the same work
// whatever the machine's load, which only stretches the wall time it takes.
func useCPU(d time.Duration) {
	if d <= 0 {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ts syscall.Timespec
	now := func() time.Duration {
		_, _, _ = syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
		return time.Duration(ts.Nano())
	}
	end := now() + d
	for x := 1; now() < end; x = x*31 + 7 {
		for i := 0; i < 1000; i++ {
			x = x*31 + 7
		}
	}
}
