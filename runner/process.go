package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// StderrKept is how much of a bot's stderr is kept per game (the end).
const StderrKept = 64 << 10

// process is one running bot program with its own process group.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *os.File
	out    *lineQueue
	rd     *lineReader
	errs   *tail

	exited   chan struct{} // closed once the process is reaped
	exitText string        // "exit status 3", "killed by signal 9"; set before exited closes
	readers  sync.WaitGroup
	stopOnce sync.Once
}

// startProcess launches argv in dir with env added to Ringside's own
// environment. The program runs in a new process group so that stop can
// kill it together with anything it started.
func startProcess(argv []string, dir string, env []string) (*process, error) {
	prog := argv[0]
	if dir != "" && strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		// "./bot" means the bot's own folder, not Ringside's.
		prog = filepath.Join(dir, prog)
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		if dir != "" && !strings.Contains(argv[0], "/") {
			// A bare name that exists in the bot's folder is what a
			// teacher usually means ("bot.exe" beside the sources).
			if _, statErr := os.Stat(dir + "/" + argv[0]); statErr == nil {
				return nil, fmt.Errorf("program %q is not on PATH; it is in %s, so write ./%s", argv[0], dir, argv[0])
			}
		}
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
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("cannot start %q: %w", argv[0], err)
	}
	// The child has its copies; ours would keep the pipes open forever.
	closeAll(inR, outW, errW)
	p := &process{
		cmd: cmd, stdin: inW, stdout: outR, stderr: errR,
		out: newLineQueue(), errs: newTail(StderrKept), exited: make(chan struct{}),
	}
	p.rd = newLineReader(outR, p.out)
	p.readers.Add(2)
	go func() { defer p.readers.Done(); p.rd.run() }()
	go func() { defer p.readers.Done(); _, _ = io.Copy(p.errs, errR) }()
	go func() {
		err := cmd.Wait()
		p.exitText = ExitText(cmd.ProcessState, err)
		close(p.exited)
	}()
	return p, nil
}

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
		return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exit status %d", ps.ExitCode())
}

// write sends text to the bot's stdin, giving up after timeout so that a
// bot that does not read cannot block the game.
func (p *process) write(text string, timeout time.Duration) error {
	if text == "" {
		return nil
	}
	if err := p.stdin.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	_, err := io.WriteString(p.stdin, text)
	return err
}

// alive reports whether the process has not been reaped yet.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stop ends the bot: stdin closed, the whole process group killed, the
// process reaped and the reading goroutines finished. It is safe to call
// more than once and from several goroutines.
func (p *process) stop() {
	p.stopOnce.Do(func() {
		p.stdin.Close()
		pgid := p.cmd.Process.Pid
		// Negative pid: the whole group, grandchildren included. SIGKILL
		// because a bot that ignores SIGTERM must not outlive its game.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.exited
		// A grandchild that left the group could still hold the pipes;
		// closing our ends unblocks the readers regardless.
		done := make(chan struct{})
		go func() { p.readers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(200 * time.Millisecond):
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
