//go:build linux

package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// syncBuffer is a buffer a contained program's two output pipes may
// write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunContained runs small shell programs as builds run: their output
// and exit reach the caller; they get the allow-listed environment plus
// their own, may write their write folder and not a folder beside it,
// and hit their caps.
func TestRunContained(t *testing.T) {
	if !sandbox.Supported {
		t.Skip("no sandbox here")
	}
	base := outsideTmp(t)
	if base == "" {
		base = t.TempDir()
	}
	write, beside := filepath.Join(base, "build"), filepath.Join(base, "other")
	for _, d := range []string{write, beside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := fmt.Sprintf("SECRET-%d", os.Getpid())
	t.Setenv("RINGSIDE_TEST_SECRET", secret)
	lim := sandbox.Limits{Memory: 1 << 30, Processes: 64, CPU: 10 * time.Second, FileSize: 1 << 20, Scratch: 1 << 20,
		OpenFiles: 64, WatchEvery: 20 * time.Millisecond}
	tests := []struct {
		name, script string
		exit, limit  string
		stdout       []string // in its output
		never        []string // never in its output
	}{
		{"output and exit", `echo out; echo err >&2; exit 3`, "exit status 3", "", []string{"out\n", "err\n"}, nil},
		{"environment", `env`, "exit status 0", "", []string{"EXTRA=given", "HOME=" + filepath.Join(os.TempDir(), scratchPrefix)}, []string{secret}},
		{"write folder", `echo built > "$W/out" && cat "$W/out"`, "exit status 0", "", []string{"built"}, nil},
		{"folder beside", `echo x > "$B/planted" || echo refused`, "exit status 0", "", []string{"refused"}, nil},
		{"lower priority", `nice`, "exit status 0", "", []string{"10\n"}, nil},
		{"file size cap", `exec head -c 2000000 /dev/zero > "$W/big"`, "", "file size limit 1 MiB", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			exit, limit, err := RunContained(context.Background(), Contained{
				Argv: []string{"sh", "-c", tt.script}, Dir: write, Env: []string{"EXTRA=given", "W=" + write, "B=" + beside},
				Write: []string{write}, Limits: lim, Nice: 10, Stdout: &out, Stderr: &out,
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("exit %q, limit %q, output %q", exit, limit, out.String())
			if tt.exit != "" && exit != tt.exit {
				t.Errorf("exit %q, want %q", exit, tt.exit)
			}
			if limit != tt.limit {
				t.Errorf("limit %q, want %q", limit, tt.limit)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
			for _, w := range tt.never {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q", w)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(beside, "planted")); err == nil {
		t.Errorf("a contained program wrote beside its folder")
	}
}

// TestRunContainedCancel: when ctx ends, the program and everything it
// started, a setsid daemon too, are gone by the time RunContained returns
// ctx's error. Also where the kernel refuses namespaces (pretended).
func TestRunContainedCancel(t *testing.T) {
	if !sandbox.Supported {
		t.Skip("no sandbox here")
	}
	runnertest.NeedTool(t, "setsid")
	for _, refused := range []bool{false, true} {
		t.Run(map[bool]string{false: "namespaces", true: "no namespaces"}[refused], func(t *testing.T) {
			sandbox.PretendNamespacesRefused(refused)
			defer sandbox.PretendNamespacesRefused(false)
			testRunContainedCancel(t)
		})
	}
}

func testRunContainedCancel(t *testing.T) {
	tag := fmt.Sprintf("%d.%d", 5000+os.Getpid()%1000, time.Now().Nanosecond()%1000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		// Cancel once the daemon has started: the program says so.
		buf := make([]byte, 64)
		var seen []byte
		for !bytes.Contains(seen, []byte("started")) {
			n, err := pr.Read(buf)
			if err != nil {
				return
			}
			seen = append(seen, buf[:n]...)
		}
		cancel()
	}()
	script := fmt.Sprintf(`setsid sleep %s < /dev/null > /dev/null 2>&1 & sleep %s & echo started; wait`, tag, tag)
	_, _, err = RunContained(ctx, Contained{Argv: []string{"sh", "-c", script}, Dir: "/",
		Limits: sandbox.Limits{Memory: 1 << 30, Processes: 64, Scratch: 1 << 20}, Stdout: pw})
	pw.Close()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		left := runnertest.Processes("sleep", tag)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("left running after the cancel: %v", left)
			break
		}
	}
}
