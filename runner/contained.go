package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"ringside/runner/sandbox"
)

// Contained is one program derived from a student's folder that is not a
// bot: a build step, a syntax check. It runs under the same launcher as
// the bots, with the allow-listed environment, the teacher's session
// folders hidden, and only the folders named here open to it.
type Contained struct {
	Argv []string // the program and its arguments; a bare name is looked up on PATH
	// Dir is the working folder, absolute; "" is its scratch folder,
	// outside anything a student wrote (a syntax check runs there, so
	// that no student file is found as a module).
	Dir string
	// Env is added to the allow-listed environment (sandboxEnv), whose
	// HOME and TMPDIR are a scratch folder of its own.
	Env []string
	// Read are folders it may read besides the system's and the tool
	// folders on PATH (toolRoots); Write are folders it may read and
	// write (the build folder, the AI's cache).
	Read, Write []string
	Limits      sandbox.Limits
	// Nice lowers its priority (a build yields to the games being
	// played).
	Nice int
	// Stdout and Stderr take its output; nil discards it. The same
	// writer for both keeps the order of its lines.
	Stdout, Stderr io.Writer
}

// containedWaitDelay is how long a contained program's output may stay
// open once the launcher is gone: in a PID namespace nothing outlives the
// launcher, but without one a process that escaped may hold the pipe.
const containedWaitDelay = 2 * time.Second

// RunContained runs c's program under the launcher and waits for it. exitText
// says how the program ended ("exit status 0", "killed by signal 9
// (killed)"), limitNote the cap it hit ("memory limit 2 GiB"), if any. err
// is ctx's error when ctx ended first (the launcher is killed then, and
// with it, as PID 1 of its namespace, everything the program started), or
// why it could not start. Where the sandbox is missing (not Linux) the
// program runs as a plain child process, and Stderr is told so.
func RunContained(ctx context.Context, c Contained) (exitText, limitNote string, err error) {
	if len(c.Argv) == 0 {
		return "", "", fmt.Errorf("run contained: no program")
	}
	stdout, stderr := c.Stdout, c.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	path, err := containedProgram(c)
	if err != nil {
		return "", "", err
	}
	if !sandbox.Supported {
		fmt.Fprintf(stderr, "note: %s runs uncontained, with your rights and environment: the sandbox needs Linux\n", filepath.Base(c.Argv[0]))
		return runUncontained(ctx, path, c, stdout, stderr)
	}
	exe, err := botsBinary()
	if err != nil {
		return "", "", fmt.Errorf("find the ringside binary that contains programs: %w", err)
	}
	sweepScratchOnce.Do(func() { go sweepScratch(os.TempDir()) })
	scratch, err := os.MkdirTemp("", scratchPattern())
	if err != nil {
		return "", "", fmt.Errorf("make a scratch folder: %w", err)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		os.RemoveAll(scratch)
		return "", "", err
	}
	defer devnull.Close()
	pipes, err := outputPipes(stdout, stderr)
	if err != nil {
		os.RemoveAll(scratch)
		return "", "", err
	}
	l := sandbox.NewLaunch(exe, containedPolicy(c, path, scratch))
	if err := l.Start(devnull, pipes[0].w, pipes[len(pipes)-1].w); err != nil {
		for _, p := range pipes {
			closeAll(p.r, p.w)
		}
		os.RemoveAll(scratch)
		return "", "", fmt.Errorf("cannot start %q contained: %w", c.Argv[0], err)
	}
	copied := copyOutput(pipes)
	waitContained(ctx, l)
	drainOutput(pipes, copied)
	exit := l.Wait()
	r := l.Finish()
	return containedResult(ctx, c, r, exit, stderr)
}

// containedProgram finds the program c runs, as an absolute path.
func containedProgram(c Contained) (string, error) {
	prog := c.Argv[0]
	if c.Dir != "" && strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		// "./build.sh" is the build folder's, not Ringside's.
		prog = filepath.Join(c.Dir, prog)
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return "", fmt.Errorf("cannot start %q: %w", c.Argv[0], err)
	}
	if path, err = filepath.Abs(path); err != nil {
		return "", fmt.Errorf("cannot start %q: %w", c.Argv[0], err)
	}
	return path, nil
}

// containedPolicy is the sandbox of c's program, found at path, with its
// scratch folder.
func containedPolicy(c Contained, path, scratch string) sandbox.Policy {
	dir := c.Dir
	if dir == "" {
		dir = scratch
	}
	read := append(toolRoots(), path)
	// A program reached through a symbolic link (/usr/bin/cc → gcc-12,
	// a pyenv shim's python) is read where it really is.
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		read = append(read, real)
	}
	read = append(read, c.Read...)
	return sandbox.Policy{
		Path: path, Args: c.Argv, Dir: dir, Env: sandboxEnv(c.Env, scratch),
		Scratch: scratch, Read: read, Write: c.Write, Hide: sessionFolders(),
		Nice: c.Nice, Limits: c.Limits,
	}
}

// outPipe carries a contained program's output to one of its writers.
// Pipes, not the writers: the launcher and the program need files, and a
// pipe's end tells when the last of its processes is gone.
type outPipe struct {
	r, w *os.File
	to   io.Writer
}

// outputPipes makes the pipe for stdout and, unless the same writer takes
// both (one pipe keeps the order of their lines), one for stderr, last.
func outputPipes(stdout, stderr io.Writer) ([]outPipe, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	pipes := []outPipe{{outR, outW, stdout}}
	if sameWriter(stdout, stderr) {
		return pipes, nil
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	return append(pipes, outPipe{errR, errW, stderr}), nil
}

// copyOutput closes Ringside's copies of the pipes' write ends (the
// launcher has its own) and copies what comes to the writers; the
// channel is closed when every pipe has ended.
func copyOutput(pipes []outPipe) <-chan struct{} {
	var copies sync.WaitGroup
	for _, p := range pipes {
		p.w.Close()
		copies.Add(1)
		go func() {
			defer copies.Done()
			_, _ = io.Copy(p.to, p.r)
		}()
	}
	copied := make(chan struct{})
	go func() { copies.Wait(); close(copied) }()
	return copied
}

// waitContained waits for the launcher to end, ending it and everything
// it started when ctx ends first.
func waitContained(ctx context.Context, l *sandbox.Launch) {
	waited := make(chan struct{})
	go func() {
		l.Wait()
		close(waited)
	}()
	select {
	case <-waited:
	case <-ctx.Done():
		// The program first: the launcher then ends everything it
		// started as it does when the program exits (as PID 1 of the
		// namespace, or, where the kernel refused namespaces, as the
		// subreaper that sweeps the orphans, a setsid daemon too).
		killChildren(l.Pid())
		select {
		case <-waited:
		case <-time.After(containedWaitDelay):
			// SIGKILL to the launcher: PID 1 of its namespace, so
			// the kernel ends every process in it; its group goes
			// before it is reaped.
			l.Kill()
			<-waited
		}
	}
}

// drainOutput waits for the last output, for containedWaitDelay at most
// (a process that escaped may hold a pipe), and closes the pipes.
func drainOutput(pipes []outPipe, copied <-chan struct{}) {
	select {
	case <-copied:
	case <-time.After(containedWaitDelay):
		for _, p := range pipes {
			p.r.Close()
		}
		<-copied
	}
	for _, p := range pipes {
		p.r.Close()
	}
}

// containedResult is RunContained's answer from the launcher's report r
// and the launcher's own end.
func containedResult(ctx context.Context, c Contained, r sandbox.Result, launcherExit string, stderr io.Writer) (string, string, error) {
	if lvl, text := sandbox.Describe(r.Features); lvl != sandbox.Full && r.Failure == "" {
		first, _, _ := strings.Cut(text, "\n")
		fmt.Fprintf(stderr, "note: %s ran partly contained: %s\n", filepath.Base(c.Argv[0]), first)
	}
	if ctx.Err() != nil {
		return "", r.Limit, ctx.Err()
	}
	if r.Failure != "" {
		return "", "", fmt.Errorf("%s", r.Failure)
	}
	exitText := r.Exit
	if exitText == "" {
		exitText = launcherExit
	}
	limitNote := r.Limit
	if limitNote == "" && exitText != "exit status 0" && r.ProcessCapReached {
		limitNote = sandbox.ProcessesNote(c.Limits) + " reached"
	}
	return exitText, limitNote, nil
}

// runUncontained is RunContained where there is no sandbox: Ringside's
// environment plus c.Env, in a process group killed whole when ctx ends.
func runUncontained(ctx context.Context, path string, c Contained, stdout, stderr io.Writer) (string, string, error) {
	cmd := exec.Command(path, c.Argv[1:]...)
	cmd.Args[0] = c.Argv[0]
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = trustedAttr()
	cmd.WaitDelay = containedWaitDelay
	if err := startGroup(cmd, c.Limits, false); err != nil {
		return "", "", fmt.Errorf("cannot start %q: %w", c.Argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = killGroup(cmd.Process.Pid, syscall.SIGKILL)
		<-done
		releaseGroup(cmd.Process.Pid)
		return "", "", ctx.Err()
	}
	releaseGroup(cmd.Process.Pid)
	return ExitText(cmd.ProcessState, err), "", nil
}

// sameWriter tells whether a and b are the same writer, so that one pipe
// serves both and the order of the lines is kept.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false // writers that cannot be compared are not the same
		}
	}()
	return a == b
}

// killChildren kills the launcher's children (the contained program),
// found through /proc/PID/task/*/children. A number read there stays the
// child's until the launcher reaps it; only a child that dies and is
// reaped between the read and the kill leaves its number to be reused,
// a window of microseconds.
func killChildren(launcher int) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", launcher))
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(w); err == nil && pid > 1 {
				_ = killPid(pid)
			}
		}
	}
}
