package runner

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"ringside/engine"
)

// Protocol lines of the login handshake (Cloud Contest's).
const (
	greetingLine = `{"status":"ok","message":"ready to login"}` + "\n"
	loggedInLine = `{"status":"ok","message":"logged in"}` + "\n"
	invalidLine  = `{"status":"error","message":"invalid user"}` + "\n"
)

// token returns 128 random bits in hex.
func token() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// loginMsg is what a bot sends to log in. The seed text writes the game
// token's key with a space; both spellings are accepted.
type loginMsg struct {
	Type      string `json:"message_type"`
	User      string `json:"user_token"`
	Game      string `json:"game_token"`
	GameSpace string `json:"game token"`
}

func parseLogin(line string) (user, game string, ok bool) {
	var m loginMsg
	if err := json.Unmarshal([]byte(line), &m); err != nil || m.Type != "login" {
		return "", "", false
	}
	if m.Game == "" {
		m.Game = m.GameSpace
	}
	return m.User, m.Game, true
}

// substitute fills {host} {port} {user_token} {game_token} in argv.
func substitute(argv []string, vars map[string]string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		for k, v := range vars {
			a = strings.ReplaceAll(a, "{"+k+"}", v)
		}
		out[i] = a
	}
	return out
}

// connectLogin starts bots of a game with a login handshake, over TCP on
// loopback or over stdio according to the "transport" option, and waits
// until every bot has logged in or LoginTimeout has passed.
func connectLogin(ctx context.Context, opts engine.Options, st engine.State, bots []Bot, argvs [][]string, scale float64,
	specs []*sandboxSpec) ([]*seatConn, func(), error) {
	intro := func(int) string { return "" }
	if in, ok := st.(engine.Introducer); ok {
		intro = in.Intro
	}
	gameToken := token()
	users := make([]string, len(bots))
	for i := range users {
		users[i] = token()
	}
	wait := time.Duration(float64(LoginTimeout) * scale)
	if opts["transport"] == "stdio" {
		return connectStdio(ctx, bots, argvs, users, gameToken, intro, wait, specs)
	}
	return connectTCP(ctx, bots, argvs, users, gameToken, intro, wait, specs)
}

func loginEnv(host, port, user, game, transport string) []string {
	return []string{"RINGSIDE_HOST=" + host, "RINGSIDE_PORT=" + port, "RINGSIDE_USER_TOKEN=" + user,
		"RINGSIDE_GAME_TOKEN=" + game, "RINGSIDE_TRANSPORT=" + transport}
}

// connectStdio runs the handshake on each bot's stdin/stdout.
func connectStdio(ctx context.Context, bots []Bot, argvs [][]string, users []string, gameToken string,
	intro func(int) string, wait time.Duration, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	conns := make([]*seatConn, len(bots))
	var wg sync.WaitGroup
	for i, b := range bots {
		vars := map[string]string{"host": "", "port": "", "user_token": users[i], "game_token": gameToken}
		b.Env = append(append([]string(nil), b.Env...), loginEnv("", "", users[i], gameToken, "stdio")...)
		conns[i] = startSeat(i, substitute(argvs[i], vars), b, specs[i])
		c := conns[i]
		if c.proc == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := stdioLogin(ctx, c, users[i], gameToken, wait); err != nil {
				c.note = err.Error()
				c.stop()
				return
			}
			_ = c.send(intro(i), sendTimeout)
		}()
	}
	wg.Wait()
	return conns, func() {}, nil
}

func stdioLogin(ctx context.Context, c *seatConn, user, game string, wait time.Duration) error {
	if err := c.send(greetingLine, wait); err != nil {
		return fmt.Errorf("login: write greeting: %w", err)
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		l, ok, ended := c.out.pop()
		if ok {
			u, g, valid := parseLogin(l.text)
			if !valid {
				continue // not a login message yet: ignored, like lines before READY
			}
			if u != user || g != game {
				_ = c.send(invalidLine, sendTimeout)
				return fmt.Errorf("login refused: wrong tokens")
			}
			return c.send(loggedInLine, sendTimeout)
		}
		if ended {
			return fmt.Errorf("login: the bot closed its output before logging in")
		}
		select {
		case <-c.out.notify:
		case <-deadline.C:
			return fmt.Errorf("login: no login within %v", wait)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// tcpSeat is one seat's current connection; a new login from the seat's
// own processes replaces it.
type tcpSeat struct {
	mu        sync.Mutex
	conn      net.Conn
	lastInput string // the latest state sent, resent on reconnection
	loggedIn  chan struct{}
	once      sync.Once
	root      int      // pid of the seat's process (its launcher), 0 before it starts
	notes     []string // refused logins, for the seat's next reply in the replay
}

// note records a remark for the seat's next reply.
func (s *tcpSeat) note(text string) {
	s.mu.Lock()
	s.notes = append(s.notes, text)
	s.mu.Unlock()
}

// takeNotes returns and forgets the recorded remarks.
func (s *tcpSeat) takeNotes() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := strings.Join(s.notes, "; ")
	s.notes = nil
	return n
}

func (s *tcpSeat) write(text string, timeout time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if text != "" && !strings.HasPrefix(text, `{"status"`) {
		s.lastInput = text
	}
	if s.conn == nil {
		return nil // not connected: the bot gets the state when it logs in
	}
	_ = s.conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := s.conn.Write([]byte(text))
	return err
}

// maxSeatConns bounds the connections of one sandboxed Cloud bot that
// are served at once (logging in, or its current one): more are closed
// as they come, so a bot that opens connections without end costs
// Ringside no more than these.
const maxSeatConns = 8

// connectTCP listens on loopback, starts the bots with the address and
// tokens, and serves logins for the whole game. A sandboxed bot in a
// network namespace of its own cannot reach that listener: its launcher
// accepts its connections to the same address inside the namespace and
// hands them over (sandboxSpec.accept), which tells whose they are. The
// listener serves trusted bots and, where the kernel refuses namespaces,
// sandboxed ones; whose a connection is is then looked up in /proc.
func connectTCP(ctx context.Context, bots []Bot, argvs [][]string, users []string, gameToken string,
	intro func(int) string, wait time.Duration, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listen for bots on 127.0.0.1: %w", err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	seats := make([]*tcpSeat, len(bots))
	conns := make([]*seatConn, len(bots))
	queues := make([]*lineQueue, len(bots))
	for i := range bots {
		seats[i] = &tcpSeat{loggedIn: make(chan struct{})}
		queues[i] = newLineQueue()
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	// started is closed once every seat's process is known, so that a
	// login can be matched to the seat whose processes make it.
	started := make(chan struct{})
	var servingMu sync.Mutex
	ended := false
	serving := map[net.Conn]bool{}
	// serve serves one connection until it ends or the game does. from
	// is the seat it came from, -1 when that is to be found out; slot,
	// if any, is the seat's share of maxSeatConns.
	serve := func(nc net.Conn, from int, slot chan struct{}) {
		servingMu.Lock()
		defer servingMu.Unlock()
		if ended {
			nc.Close()
			return
		}
		if slot != nil {
			select {
			case slot <- struct{}{}:
			default:
				nc.Close()
				return
			}
		}
		serving[nc] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveTCP(nc, from, users, gameToken, seats, queues, intro, done, started, wait)
			nc.Close()
			servingMu.Lock()
			delete(serving, nc)
			servingMu.Unlock()
			if slot != nil {
				<-slot
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			serve(nc, -1, nil)
		}
	}()
	for i, b := range bots {
		vars := map[string]string{"host": host, "port": port, "user_token": users[i], "game_token": gameToken}
		b.Env = append(append([]string(nil), b.Env...), loginEnv(host, port, users[i], gameToken, "tcp")...)
		sb := specs[i]
		if sb != nil {
			// The game's own port, and nothing else.
			tcp := *sb
			tcp.connectTCP, _ = strconv.Atoi(port)
			slot := make(chan struct{}, maxSeatConns)
			tcp.accept = func(nc net.Conn) { serve(nc, i, slot) }
			sb = &tcp
		}
		c := startSeat(i, substitute(argvs[i], vars), b, sb)
		if c.proc != nil {
			// The program's stdout is not the game channel here; the
			// socket is.
			c.out = queues[i]
			c.send = seats[i].write
			c.pending = seats[i].takeNotes
			seats[i].mu.Lock()
			seats[i].root = c.proc.cmd.Process.Pid
			seats[i].mu.Unlock()
		}
		conns[i] = c
	}
	close(started)
	cleanup := func() {
		servingMu.Lock()
		ended = true
		for nc := range serving {
			nc.Close() // logged in or not: the game is over
		}
		servingMu.Unlock()
		close(done)
		ln.Close()
		wg.Wait()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for i, s := range seats {
		if conns[i].proc == nil {
			continue
		}
		select {
		case <-s.loggedIn:
		case <-timer.C:
			// Latecomers play as "all stay" until they log in.
			markLate(seats, conns)
			return conns, cleanup, nil
		case <-ctx.Done():
			return conns, cleanup, nil
		}
	}
	return conns, cleanup, nil
}

func markLate(seats []*tcpSeat, conns []*seatConn) {
	for i, s := range seats {
		select {
		case <-s.loggedIn:
		default:
			if conns[i].proc != nil {
				conns[i].note = fmt.Sprintf("did not log in within %v", LoginTimeout)
			}
		}
	}
}

// serveTCP runs the handshake on one connection and, once logged in, makes
// it the seat's connection and copies its lines into the seat's queue.
// from is the seat whose network namespace the connection came from, or
// -1 when the connection came to the listener on the host's loopback.
func serveTCP(nc net.Conn, from int, users []string, gameToken string, seats []*tcpSeat, queues []*lineQueue,
	intro func(int) string, done, started <-chan struct{}, wait time.Duration) {
	_ = nc.SetDeadline(time.Now().Add(wait))
	if _, err := nc.Write([]byte(greetingLine)); err != nil {
		nc.Close()
		return
	}
	r := bufio.NewReaderSize(nc, readBuffer)
	seat := -1
	for seat < 0 {
		line, err := readLimited(r)
		if err != nil {
			nc.Close()
			return
		}
		u, g, ok := parseLogin(line)
		if !ok {
			_, _ = nc.Write([]byte(`{"status":"error","message":"expected a login message"}` + "\n"))
			continue
		}
		for i, want := range users {
			if u == want && g == gameToken {
				seat = i
			}
		}
		if seat < 0 {
			_, _ = nc.Write([]byte(invalidLine))
			nc.Close()
			return
		}
	}
	_ = nc.SetDeadline(time.Time{})
	s := seats[seat]
	// A seat belongs to its bot: a login with its tokens from another
	// seat's processes, or from outside the game, is refused (tokens can
	// leak: a command line, a trusted bot reading /proc). A connection
	// handed over by a seat's launcher is that seat's: nothing else can
	// reach its network namespace. One to the host's listener is matched
	// to the seat whose processes hold its other end; a fast bot logs in
	// before its seat's process is noted: wait for that.
	owner, known := from, true
	if from < 0 {
		select {
		case <-started:
		case <-done:
		}
		roots := make([]int, len(seats))
		for i, o := range seats {
			o.mu.Lock()
			roots[i] = o.root
			o.mu.Unlock()
		}
		owner, known = connOwner(nc, roots)
	}
	s.mu.Lock()
	select {
	case <-done:
		s.mu.Unlock()
		nc.Close()
		return
	default:
	}
	if refusal := refuseLogin(owner, known, seat, s.conn != nil); refusal != "" {
		s.notes = append(s.notes, refusal)
		s.mu.Unlock()
		if known && owner >= 0 {
			seats[owner].note(fmt.Sprintf("its login with seat %d's tokens was refused", seat+1))
		}
		_, _ = nc.Write([]byte(invalidLine))
		nc.Close()
		return
	}
	if s.conn != nil {
		s.conn.Close() // a second login of the seat's own bot replaces the first
	}
	s.conn = nc
	_ = nc.SetWriteDeadline(time.Now().Add(sendTimeout))
	_, _ = nc.Write([]byte(loggedInLine + intro(seat) + s.lastInput))
	s.mu.Unlock()
	s.once.Do(func() { close(s.loggedIn) })
	q := queues[seat]
	for {
		text, err := readLimited(r)
		if err != nil {
			return
		}
		s.mu.Lock()
		current := s.conn == nc
		s.mu.Unlock()
		if !current {
			return
		}
		q.push(line{text: text, at: time.Now()})
	}
}

// refuseLogin decides on a login with seat's tokens from owner (a seat
// index, -1 for a program outside the game; known false when that could
// not be told): it returns the replay's note on a refusal, "" to accept.
func refuseLogin(owner int, known bool, seat int, connected bool) string {
	switch {
	case known && owner == seat:
		return ""
	case known && owner >= 0:
		return fmt.Sprintf("refused a login with this seat's tokens from seat %d's bot", owner+1)
	case known:
		return "refused a login with this seat's tokens from a program outside the game"
	case connected:
		// Who connected cannot be told here: the seat's bot keeps its
		// connection rather than lose it to whoever has the tokens.
		return "refused a second login with this seat's tokens while its bot is connected"
	}
	return ""
}

// connOwner tells which seat's processes hold the client end of nc, a
// loopback TCP connection: the seat's index, or -1 for none of them.
// roots are the seats' process ids (0: not started). known is false
// where the kernel does not say (no /proc).
func connOwner(nc net.Conn, roots []int) (seat int, known bool) {
	remote, ok1 := nc.RemoteAddr().(*net.TCPAddr)
	local, ok2 := nc.LocalAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return -1, false
	}
	inode := socketInode(remote.Port, local.Port)
	if inode == "" {
		return -1, false
	}
	want := "socket:[" + inode + "]"
	for i, root := range roots {
		if root <= 0 {
			continue
		}
		for _, pid := range processTree(root) {
			fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
			for _, fd := range fds {
				if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && target == want {
					return i, true
				}
			}
		}
	}
	return -1, true
}

// socketInode finds the inode of the TCP socket on 127.0.0.1:port that is
// connected to our port, in /proc/net/tcp.
func socketInode(port, ourPort int) string {
	data, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return ""
	}
	return findInode(string(data), port, ourPort)
}

// findInode finds in a /proc/net/tcp table the inode of the socket on
// 127.0.0.1:port connected to ourPort.
func findInode(data string, port, ourPort int) string {
	local := fmt.Sprintf("0100007F:%04X", port)
	remote := fmt.Sprintf(":%04X", ourPort)
	for _, l := range strings.Split(data, "\n")[1:] {
		f := strings.Fields(l)
		if len(f) > 9 && f[1] == local && strings.HasSuffix(f[2], remote) {
			return f[9]
		}
	}
	return ""
}

// processTree lists root and all its descendants.
func processTree(root int) []int {
	tree := []int{root}
	for i := 0; i < len(tree) && len(tree) < 100000; i++ {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", tree[i]))
		for _, t := range tasks {
			data, _ := os.ReadFile(t)
			for _, c := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(c); err == nil {
					tree = append(tree, pid)
				}
			}
		}
	}
	return tree
}

// readLimited reads one line of at most MaxLine bytes (the rest of a longer
// line is dropped) without its line end.
func readLimited(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return "", err
		}
		if len(b) < MaxLine {
			b = append(b, chunk[:min(len(chunk), MaxLine-len(b))]...)
		}
		if !isPrefix {
			return string(b), nil
		}
	}
}
