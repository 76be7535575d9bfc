package runner

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"ringside/runner/sandbox"
)

// process is one running bot program with its own process group; in the
// sandbox, the program runs under a launcher that is the process here.
type process struct {
	cmd    *exec.Cmd // nil for a sandboxed bot: its launcher is launch's
	pid    int       // the process here (the launcher in the sandbox)
	stdin  *os.File
	stdout *os.File
	stderr *os.File
	out    *lineQueue
	rd     *lineReader
	errs   *tail
	errEnd chan struct{} // closed when stderr has ended

	launch  *sandbox.Launch // nil for a trusted bot
	limits  sandbox.Limits
	sandbox sandbox.Features

	exited   chan struct{} // closed once the process is reaped
	exitText string        // "exit status 3", "killed by signal 9"; set before exited closes
	limit    string        // the cap it hit ("memory limit 1 GiB"); set before exited closes
	readers  sync.WaitGroup
	stopOnce sync.Once

	// reapMu orders signals to the process group against reaping: the
	// group id is the leader's pid, and only an unreaped leader (alive or
	// a zombie) keeps that number from being given to another program.
	reapMu sync.Mutex
	reaped bool

	// pending is the write still under way where the pipe refuses
	// deadlines (writeTimed): closed when it ends.
	pending chan struct{}

	sched schedReader // its threads' run and wait times, read each turn
}

// sandboxSpec is how a bot is sandboxed; nil runs it trusted.
type sandboxSpec struct {
	limits     sandbox.Limits
	noLandlock bool
	connectTCP int // the game's TCP port, for Cloud over TCP
	// accept takes the connections a Cloud bot in its own network
	// namespace makes (through its launcher, so they are the seat's own).
	accept func(net.Conn)
}

// startProcess launches argv in dir. A trusted bot (sb nil) gets
// Ringside's environment plus env, in a new process group; a sandboxed
// one runs under the launcher with the allow-listed environment, env and
// a private scratch folder. Of each output line no more than maxReply
// bytes are kept (0: MaxLine), with a mark of its length
// (engine.CutReply). caps bound a bot run outside the sandbox where the
// OS can (startGroup); zero Limits bound nothing.
func startProcess(argv []string, dir string, env []string, sb *sandboxSpec, maxReply int, caps sandbox.Limits) (*process, error) {
	prog := argv[0]
	if dir != "" && hasDir(prog) && !filepath.IsAbs(prog) {
		// "./bot" means the bot's own folder, not Ringside's.
		prog = filepath.Join(dir, prog)
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		if dir != "" && !hasDir(argv[0]) {
			// A bare name that exists in the bot's folder is what a
			// teacher usually means ("bot.exe" beside the sources).
			if _, statErr := os.Stat(dir + "/" + argv[0]); statErr == nil {
				return nil, fmt.Errorf("program %q is not on PATH; it is in %s, so write ./%s", argv[0], dir, argv[0])
			}
		}
		return nil, fmt.Errorf("cannot start %q: %w", argv[0], err)
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, fmt.Errorf("cannot start %q: %w", argv[0], err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	p := &process{stdin: inW, stdout: outR, stderr: errR,
		out: newLineQueue().keep(maxReply), errs: newTail(StderrKept), exited: make(chan struct{}), errEnd: make(chan struct{})}
	if sb == nil {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		cmd.SysProcAttr = trustedAttr()
		if err := startGroup(cmd, caps, true); err != nil {
			closeAll(inR, inW, outR, outW, errR, errW)
			return nil, fmt.Errorf("cannot start %q: %w", argv[0], err)
		}
		p.cmd, p.pid = cmd, cmd.Process.Pid
	} else {
		launch, err := startSandboxed(path, argv, dir, env, sb, inR, outW, errW)
		if err != nil {
			closeAll(inR, inW, outR, outW, errR, errW)
			return nil, fmt.Errorf("cannot start %q: %w", argv[0], err)
		}
		p.pid, p.launch, p.limits = launch.Pid(), launch, sb.limits
	}
	// The child has its copies; ours would keep the pipes open forever.
	closeAll(inR, outW, errW)
	p.rd = newLineReader(outR, p.out)
	p.readers.Add(2)
	go func() { defer p.readers.Done(); p.rd.run() }()
	go func() { defer p.readers.Done(); defer close(p.errEnd); _, _ = io.Copy(p.errs, errR) }()
	go p.reap()
	return p, nil
}

// reap waits for the process to end. While the leader is a zombie its
// number still names this group, so the rest of the group (a trusted
// bot's children) is killed then, and never later under a number that
// may since belong to another program.
func (p *process) reap() {
	pid := p.pid
	var text string
	switch {
	case p.launch != nil:
		// The launcher's group was killed before it was reaped.
		text = p.launch.Wait()
		p.reapMu.Lock()
		p.reaped = true
		p.reapMu.Unlock()
	case waitsUnreaped && !portableReap:
		leaderExited := waitUnreaped(pid)
		p.reapMu.Lock()
		if leaderExited {
			_ = killGroup(pid, syscall.SIGKILL)
		}
		err := p.cmd.Wait()
		p.reaped = true
		p.reapMu.Unlock()
		text = ExitText(p.cmd.ProcessState, err)
	default:
		// Where a process cannot be waited for without reaping it, the
		// wait must not hold reapMu: stop takes it to kill a bot that
		// ignores the end of its input, which would otherwise hang the
		// game. The group is killed once the leader is gone (on Windows
		// through its job; elsewhere a kill that comes between the
		// reaping and reaped reaches a group whose number is free).
		err := p.cmd.Wait()
		p.reapMu.Lock()
		_ = killGroup(pid, syscall.SIGKILL)
		p.reaped = true
		p.reapMu.Unlock()
		text = ExitText(p.cmd.ProcessState, err)
	}
	releaseGroup(pid)
	p.sched.close()
	if p.launch != nil {
		r := p.launch.Finish()
		p.sandbox = r.Features
		switch {
		case r.Failure != "":
			text = r.Failure
		case r.Exit != "":
			text = r.Exit
		}
		limit := r.Limit
		crashed := r.Exit != "" && r.Exit != "exit status 0"
		if limit == "" && crashed && p.limits.Memory > 0 {
			// An allocation refused by RLIMIT_DATA ends the program in
			// its own words, on stderr.
			select {
			case <-p.errEnd:
			case <-time.After(exitGrace):
			}
			if sandbox.LooksOutOfMemory(p.errs.String()) {
				limit = sandbox.MemoryNote(p.limits)
			}
		}
		if limit == "" && crashed && r.ProcessCapReached {
			limit = sandbox.ProcessesNote(p.limits) + " reached"
		}
		if limit != "" {
			text = limit + "; " + text
		}
		p.limit = limit
	}
	p.exitText = text
	close(p.exited)
}

// hasDir tells whether a program's name holds a folder ("./bot",
// .\bot.exe on Windows) rather than being looked up on PATH.
func hasDir(prog string) bool { return strings.ContainsAny(prog, "/"+string(filepath.Separator)) }

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// ExitText says how a finished process ended: "exit status 3", "killed by signal 9 (killed)".
func ExitText(ps *os.ProcessState, err error) string {
	if ps == nil {
		if err != nil {
			return err.Error()
		}
		return "exited"
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return sandbox.WaitText(ws)
	}
	return fmt.Sprintf("exit status %d", ps.ExitCode())
}

// write sends text to the bot's stdin, giving up after timeout so that a
// bot that does not read cannot block the game.
func (p *process) write(text string, timeout time.Duration) error {
	if text == "" {
		return nil
	}
	if noDeadlines {
		return p.writeTimed(text, timeout)
	}
	if err := p.stdin.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		if errors.Is(err, os.ErrNoDeadline) {
			// Windows pipes refuse deadlines: a timer judges instead.
			return p.writeTimed(text, timeout)
		}
		return err
	}
	_, err := io.WriteString(p.stdin, text)
	return err
}

// writeTimed is write where the pipe refuses deadlines: the write runs in
// a goroutine and a timer gives up on it after timeout with
// os.ErrDeadlineExceeded, as a deadline would. A write left under way
// (the bot does not read) ends when stop closes the pipe or kills the
// bot; the next write waits for it first, within its own timeout, so
// inputs never interleave.
func (p *process) writeTimed(text string, timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	if p.pending != nil {
		select {
		case <-p.pending:
		case <-timer.C:
			return os.ErrDeadlineExceeded
		}
	}
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, err = io.WriteString(p.stdin, text)
	}()
	p.pending = done
	select {
	case <-done:
		return err
	case <-timer.C:
		return os.ErrDeadlineExceeded
	}
}

// noDeadlines makes write judge by a timer as if the pipe refused
// deadlines, and portableReap makes reap wait as where a process cannot
// be waited for without reaping it: tests run those paths of Windows and
// macOS on Linux.
var noDeadlines, portableReap bool

// stop ends the bot: stdin closed, the whole process group killed, the
// process reaped and the reading goroutines finished. It is safe to call
// more than once and from several goroutines.
func (p *process) stop() {
	p.stopOnce.Do(func() {
		p.stdin.Close()
		// SIGKILL because a bot that ignores SIGTERM must not outlive its
		// game. The launcher is PID 1 of the bot's namespace: killing it
		// (through the spawner, its parent) ends everything the bot
		// started. A trusted bot's group is killed only while its leader
		// is not reaped, so the number is still its own.
		p.reapMu.Lock()
		switch {
		case p.reaped:
		case p.launch != nil:
			p.launch.Kill()
		default:
			_ = p.cmd.Process.Kill()
			_ = killGroup(p.pid, syscall.SIGKILL)
		}
		p.reapMu.Unlock()
		<-p.exited
		// A grandchild that left the group could still hold the pipes;
		// closing our ends unblocks the readers regardless.
		done := make(chan struct{})
		go func() { p.readers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(pipeGrace):
			p.stdout.Close()
			p.stderr.Close()
			<-done
		}
		p.stdout.Close()
		p.stderr.Close()
	})
}

// isClosedPipe tells whether a write failed because the bot is gone.
func isClosedPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}
