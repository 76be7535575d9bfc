package sandbox

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLaunchersEndWithTheirSpawner kills the spawner under a running
// bot: its launcher ends with it (Pdeathsig), and so does the bot (PID 1
// of its namespace gone), Wait says why, and the next start has a
// spawner of its own.
func TestLaunchersEndWithTheirSpawner(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	start := func() (*Launch, *spawner) {
		p := Policy{Path: "/bin/sh", Args: []string{"sh", "-c", "echo up; exec sleep 600"}, Scratch: t.TempDir(),
			Limits: Limits{Memory: 1 << 30, Processes: 64, Scratch: 1 << 20, OpenFiles: 64}}
		out, in, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		devnull, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer devnull.Close()
		l := NewLaunch(exe, p)
		if err := l.Start(devnull, in, in); err != nil {
			t.Fatal(err)
		}
		in.Close()
		// The program runs once it has written.
		buf := make([]byte, 3)
		if _, err := out.Read(buf); err != nil || string(buf) != "up\n" {
			exit := l.Wait()
			r := l.Finish()
			t.Fatalf("the program did not start: %q %v; launcher %s, %+v", buf, err, exit, r)
		}
		t.Cleanup(func() { out.Close() })
		sp, err := spawnerFor(exe)
		if err != nil {
			t.Fatal(err)
		}
		return l, sp
	}
	l, sp := start()
	launcher := l.Pid()
	if err := sp.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if exit := l.Wait(); !strings.Contains(exit, "spawner ended") {
		t.Errorf("Wait = %q; want that the spawner ended", exit)
	}
	l.Finish()
	// The launcher was the spawner's child: its Pdeathsig ends it, and
	// no one is left to reap it but init.
	for syscall.Kill(launcher, 0) == nil && !zombie(launcher) {
		time.Sleep(10 * time.Millisecond)
	}

	l2, sp2 := start()
	if sp2 == sp || sp2.cmd.Process.Pid == sp.cmd.Process.Pid {
		t.Errorf("the ended spawner was used again")
	}
	// A spawner killed says nothing of the kernel: the next bot has its
	// namespaces as before.
	if f, ok := l2.Features(time.Minute); !ok || !f.UserNS || !f.NetNS || namespacesRefused.Load() {
		t.Errorf("after the spawner was killed: features %+v (reported %v), namespaces refused %v", f, ok, namespacesRefused.Load())
	}
	l2.Kill()
	if exit := l2.Wait(); exit != "killed by signal 9 (killed)" {
		t.Errorf("killed launcher: Wait = %q", exit)
	}
	l2.Finish()
}

// zombie tells whether pid has ended and waits to be reaped.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
