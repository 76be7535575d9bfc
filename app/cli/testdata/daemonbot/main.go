// Command daemonbot is a Grip bot that leaves a daemon behind: before it
// says READY it double-forks (the middle process calls setsid and exits,
// so the daemon is an orphan in a session of its own, outside the bot's
// process group), and the daemon rewrites $HOME/daemon-sentinel every
// 50 ms with its pid and a count until it is killed. The bot says READY
// once the daemon has written three times, then answers N every turn,
// after -think. The containment tests of the ringside binary check that
// the daemon dies with the game, or with a killed Ringside.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	middle := flag.Bool("middle", false, "the first fork: start the daemon and exit")
	isDaemon := flag.Bool("daemon", false, "the daemon: write the sentinel until killed")
	think := flag.Duration("think", 0, "time taken for each move")
	flag.Parse()
	sentinel := filepath.Join(os.Getenv("HOME"), "daemon-sentinel")
	switch {
	case *middle:
		cmd := exec.Command(os.Args[0], "-daemon")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "daemonbot: start the daemon:", err)
			os.Exit(1)
		}
		os.Exit(0) // the daemon is left an orphan
	case *isDaemon:
		daemon(sentinel)
		return
	}
	first := exec.Command(os.Args[0], "-middle")
	first.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	first.Stderr = os.Stderr
	if err := first.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "daemonbot: double fork:", err)
	}
	for deadline := time.Now().Add(800 * time.Millisecond); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(sentinel)
		if f := strings.Fields(string(data)); len(f) == 2 && f[1] != "0" && f[1] != "1" {
			fmt.Fprintf(os.Stderr, "daemonbot: the daemon runs: %s", data)
			break
		}
	}
	fmt.Println("READY")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "EOD" {
			time.Sleep(*think)
			fmt.Println("N")
		}
	}
}

// daemon writes the sentinel every 50 ms, forever, ignoring hangups.
func daemon(path string) {
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	for n := 0; ; n++ {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%d %d\n", os.Getpid(), n)), 0o644); err == nil {
			_ = os.Rename(tmp, path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
