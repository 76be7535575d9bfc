package cloud_test

// This test plays the Python template bot (assets/templates/cloud/python)
// through a tiny stand-in for the runner's login transports: a TCP server
// on 127.0.0.1 and plain pipes for stdio. It is the only test of this
// package that does I/O; the engine itself does none.

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/cloud"
)

// patience bounds every read so a broken bot fails the test instead of
// hanging it; it is not a timing assertion.
const patience = 20 * time.Second

func templateBot(t *testing.T) (python, script string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python template bot cannot be tried")
	}
	script, err = filepath.Abs("../../assets/templates/cloud/python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("template bot missing: %v", err)
	}
	return python, script
}

// conn is one side of a line protocol with a deadline on each read.
type conn struct {
	t        *testing.T
	in       *bufio.Reader
	out      io.Writer
	deadline func(time.Time)
}

func (c *conn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.out, line); err != nil {
		c.t.Fatalf("write %q: %v", line, err)
	}
}

func (c *conn) read() string {
	c.t.Helper()
	if c.deadline != nil {
		c.deadline(time.Now().Add(patience))
	}
	line, err := c.in.ReadString('\n')
	if err != nil {
		c.t.Fatalf("read: %v (got %q)", err, line)
	}
	if !strings.HasSuffix(line, "\n") || strings.HasSuffix(line, "\r\n") {
		c.t.Fatalf("line %q does not end with a bare \\n", line)
	}
	return strings.TrimSuffix(line, "\n")
}

// playTemplate logs the template bot in and plays a short game against
// the built-in random bot; it returns the template's seat verdicts.
func playTemplate(t *testing.T, c *conn) (ok, total int, points []int) {
	t.Helper()
	c.send(`{"status":"ok", "message":"ready to login"}` + "\n")
	var login map[string]string
	if err := json.Unmarshal([]byte(c.read()), &login); err != nil {
		t.Fatal(err)
	}
	if login["message_type"] != "login" || login["user_token"] != "utok" || login["game_token"] != "gtok" {
		t.Fatalf("login %v", login)
	}
	c.send(`{"status":"ok", "message":"logged in"}` + "\n")

	g := cloud.New()
	opts, err := g.Info().Resolve(engine.Options{"turns": "40", "width": "12", "height": "12", "bots": "3", "vision": "8"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(opts, []string{"py", "rnd"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	rival, _ := g.NewBot("random", 1)
	c.send(st.(engine.Introducer).Intro(0))
	rival.Feed(strings.TrimSuffix(st.(engine.Introducer).Intro(1), "\n"))
	// A status line out of the blue must not upset the bot.
	c.send(`{"status":"error", "message":"turn timeout"}` + "\n")
	for !st.Done() {
		asks := st.Asks()
		c.send(asks[0].Input)
		line := c.read()
		if !asks[0].Expect(line) {
			t.Fatalf("template answered turn %d with a line tagged for an older turn: %s", st.Turn(), line)
		}
		replies := []engine.Reply{
			{Status: engine.Answered, Line: line},
			{Status: engine.Answered, Line: strings.TrimSuffix(rival.Feed(strings.TrimSuffix(asks[1].Input, "\n")), "\n")},
		}
		step := st.Apply(replies)
		total++
		if s := step.Seats[0]; s.Verdict == engine.OK && s.Detail == "" {
			ok++
		} else {
			t.Errorf("turn %d: template reply %s judged %v: %s", st.Turn(), line, s.Verdict, s.Detail)
		}
		for _, m := range step.Send {
			if m.Seat == 0 {
				c.send(m.Text)
			}
		}
	}
	return ok, total, st.(*cloud.State).Points()
}

func TestTemplateOverTCP(t *testing.T) {
	python, script := templateBot(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	cmd := exec.Command(python, script, "127.0.0.1", port, "utok", "gtok")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	ln.(*net.TCPListener).SetDeadline(time.Now().Add(patience))
	nc, err := ln.Accept()
	if err != nil {
		t.Fatalf("the template did not connect: %v (stderr: %s)", err, stderr.String())
	}
	c := &conn{t: t, in: bufio.NewReader(nc), out: nc, deadline: func(d time.Time) { nc.SetReadDeadline(d) }}
	playToExit(t, "TCP", c, nc, cmd, &stderr)
}

// playToExit plays a game with the template over c, logs how it went,
// ends the connection with end and wants the template to exit cleanly.
func playToExit(t *testing.T, over string, c *conn, end io.Closer, cmd *exec.Cmd, stderr *strings.Builder) {
	t.Helper()
	ok, total, points := playTemplate(t, c)
	t.Logf("over %s: %d of %d replies clean; points %v", over, ok, total, points)
	end.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("template exited with %v; stderr:\n%s", err, stderr.String())
	}
}

func TestTemplateOverStdio(t *testing.T) {
	python, script := templateBot(t)
	cmd := exec.Command(python, script)
	cmd.Env = append(os.Environ(), "RINGSIDE_USER_TOKEN=utok", "RINGSIDE_GAME_TOKEN=gtok", "RINGSIDE_PORT=", "RINGSIDE_HOST=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	f, ok := stdout.(*os.File)
	if !ok {
		t.Fatalf("stdout pipe is a %T, not a file with read deadlines", stdout)
	}
	c := &conn{t: t, in: bufio.NewReader(f), out: stdin, deadline: func(d time.Time) { f.SetReadDeadline(d) }}
	playToExit(t, "stdio", c, stdin, cmd, &stderr)
}

func TestTemplateRefusedLogin(t *testing.T) {
	python, script := templateBot(t)
	cmd := exec.Command(python, script, "", "", "bad", "worse")
	cmd.Env = append(os.Environ(), "RINGSIDE_PORT=")
	cmd.Stdin = strings.NewReader(`{"status":"ok", "message":"ready to login"}` + "\n" + `{"status":"error", "message":"invalid user"}` + "\n")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "invalid user") {
		t.Errorf("refused login: exit %v, stderr %q", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"user_token":"bad"`) {
		t.Errorf("login line %q", stdout.String())
	}
}
