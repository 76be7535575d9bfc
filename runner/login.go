package runner

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"ringside/engine"
)

// Protocol lines of the login handshake (Cloud Contest's), spelt as the
// seed text spells them, with a blank after the comma: clients written
// from it compare them character by character.
const (
	greetingLine      = `{"status":"ok", "message":"ready to login"}` + "\n"
	loggedInLine      = `{"status":"ok", "message":"logged in"}` + "\n"
	invalidLine       = `{"status":"error", "message":"invalid user"}` + "\n"
	expectedLoginLine = `{"status":"error", "message":"expected a login message"}` + "\n"
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

func parseLogin(text []byte) (user, game string, ok bool) {
	var m loginMsg
	if err := json.Unmarshal(text, &m); err != nil || m.Type != "login" {
		return "", "", false
	}
	if m.Game == "" {
		m.Game = m.GameSpace
	}
	return m.User, m.Game, true
}

// Bounds of a login message gathered over several lines.
const (
	maxLoginLines = 16
	maxLoginBytes = 4 << 10
)

// loginText gathers a login message line by line. The seed prints its
// login over two lines, so a JSON object may span several: lines are
// joined until they make a whole JSON value. Blank lines before it are
// skipped; a line that cannot begin or continue an object ends the
// attempt.
type loginText struct {
	buf   []byte
	lines int
}

// add takes the next line. done reports that the lines so far are a
// whole message or cannot become one; ok that they are a login, with its
// tokens.
func (t *loginText) add(line string) (user, game string, done, ok bool) {
	if len(t.buf) == 0 && strings.TrimSpace(line) == "" {
		return "", "", false, false
	}
	t.buf = append(append(t.buf, line...), '\n')
	t.lines++
	text := t.buf
	if json.Valid(text) {
		t.buf, t.lines = t.buf[:0], 0
		user, game, ok = parseLogin(text)
		return user, game, true, ok
	}
	if t.lines < maxLoginLines && len(text) <= maxLoginBytes && unfinishedObject(text) {
		return "", "", false, false
	}
	t.buf, t.lines = t.buf[:0], 0
	return "", "", true, false
}

// unfinishedObject reports whether text is the beginning of a JSON object
// that more text could complete.
func unfinishedObject(text []byte) bool {
	if t := bytes.TrimLeft(text, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return false
	}
	var v json.RawMessage
	return errors.Is(json.NewDecoder(bytes.NewReader(text)).Decode(&v), io.ErrUnexpectedEOF)
}

// seatOf finds the seat whose tokens a login gives, or -1. Tokens are
// compared in constant time, with every seat's, so the time a refusal
// takes says nothing about how much of a token was right.
func seatOf(users []string, gameToken, user, game string) int {
	seat := -1
	gameOK := subtle.ConstantTimeCompare([]byte(game), []byte(gameToken))
	for i, want := range users {
		if subtle.ConstantTimeCompare([]byte(user), []byte(want))&gameOK == 1 {
			seat = i
		}
	}
	return seat
}

// isStatusLine tells a status line, which is neither a state nor its
// answer, from the game's other lines.
func isStatusLine(text string) bool { return strings.HasPrefix(text, `{"status"`) }

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

// loginGame is what the connections of one login game share.
type loginGame struct {
	users     []string // each seat's user token
	gameToken string
	intro     func(seat int) string
	tags      engine.TurnTagger // nil: the game's lines carry no turn
	wait      time.Duration     // for the logins, time scale included
}

// connectLogin starts bots of a game with a login handshake, over TCP on
// loopback or over stdio according to the "transport" option, and waits
// until every bot has logged in (or has ended) or LoginTimeout has passed.
// Then the game begins: every bot logged in gets the intro (Cloud's field
// config), the seed's "once all bots have connected".
func connectLogin(ctx context.Context, opts engine.Options, st engine.State, bots []Bot, argvs [][]string, scale float64,
	specs []*sandboxSpec) ([]*seatConn, func(), error) {
	g := &loginGame{gameToken: token(), users: make([]string, len(bots)), intro: func(int) string { return "" },
		wait: time.Duration(float64(LoginTimeout) * scale)}
	for i := range g.users {
		g.users[i] = token()
	}
	if in, ok := st.(engine.Introducer); ok {
		g.intro = in.Intro
	}
	if tt, ok := st.(engine.TurnTagger); ok {
		g.tags = tt
	}
	if opts["transport"] == "stdio" {
		return connectStdio(ctx, g, bots, argvs, specs)
	}
	return connectTCP(ctx, g, bots, argvs, specs)
}

func loginEnv(host, port, user, game, transport string) []string {
	return []string{"RINGSIDE_HOST=" + host, "RINGSIDE_PORT=" + port, "RINGSIDE_USER_TOKEN=" + user,
		"RINGSIDE_GAME_TOKEN=" + game, "RINGSIDE_TRANSPORT=" + transport}
}

// connectStdio runs the handshake on each bot's stdin/stdout.
func connectStdio(ctx context.Context, g *loginGame, bots []Bot, argvs [][]string, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	conns := make([]*seatConn, len(bots))
	in := make([]bool, len(bots))
	var wg sync.WaitGroup
	for i, b := range bots {
		vars := map[string]string{"host": "", "port": "", "user_token": g.users[i], "game_token": g.gameToken}
		b.Env = append(append([]string(nil), b.Env...), loginEnv("", "", g.users[i], g.gameToken, "stdio")...)
		conns[i] = startSeat(i, substitute(argvs[i], vars), b, specs[i])
		c := conns[i]
		if c.proc == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := stdioLogin(ctx, c, g.users[i], g.gameToken, g.wait)
			if err == nil {
				in[i] = true
				return
			}
			if errors.Is(err, errLoginEnded) {
				// Its output has ended: every turn finds it crashed,
				// with no wait.
				select {
				case <-c.proc.exited:
					c.note = "exited before logging in: " + c.proc.exitText
				case <-time.After(exitGrace):
					c.note = "closed its output before logging in"
				}
				return
			}
			c.note = err.Error()
			c.stop()
		}()
	}
	wg.Wait()
	for i, c := range conns {
		if !in[i] {
			continue
		}
		_ = c.send(g.intro(i), sendTimeout)
		// From the first state on, lines are counted against states.
		count := newReplyCount(g.tags)
		c.out.counted(count)
		send := c.send
		c.send = func(text string, timeout time.Duration) error {
			if text != "" && !isStatusLine(text) {
				count.state(text, time.Now())
			}
			return send(text, timeout)
		}
	}
	return conns, func() {}, nil
}

// errLoginEnded says the bot's output ended (or its input closed) before
// it logged in.
var errLoginEnded = errors.New("login: the bot's output ended before it logged in")

func stdioLogin(ctx context.Context, c *seatConn, user, game string, wait time.Duration) error {
	if err := c.send(greetingLine, wait); err != nil {
		if isClosedPipe(err) {
			return errLoginEnded
		}
		return fmt.Errorf("login: write greeting: %w", err)
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	var text loginText
	for {
		l, ok, ended := c.out.pop()
		if ok {
			u, g, done, valid := text.add(l.text)
			if !done || !valid {
				continue // not a login message (yet): ignored, like lines before READY
			}
			if seatOf([]string{user}, game, u, g) != 0 {
				_ = c.send(invalidLine, sendTimeout)
				return fmt.Errorf("login refused: wrong tokens")
			}
			return c.send(loggedInLine, sendTimeout)
		}
		if ended {
			return errLoginEnded
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
	queue    *lineQueue  // the seat's lines, from whichever connection is current
	count    *replyCount // pairs the current connection's lines with states
	loggedIn chan struct{}
	once     sync.Once

	mu        sync.Mutex
	conn      net.Conn
	lastInput string   // the latest state sent, resent on reconnection
	root      int      // pid of the seat's process (its launcher), 0 before it starts
	notes     []string // refused logins, for the seat's next reply in the replay
	gone      bool     // its process has ended: the seat ends with its connection
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
	state := text != "" && !isStatusLine(text)
	if state {
		s.lastInput = text
	}
	conn := s.conn
	if conn != nil && state {
		s.count.state(text, time.Now())
	}
	s.mu.Unlock()
	if conn == nil {
		return nil // not connected: the bot gets the state when it logs in
	}
	_ = conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := conn.Write([]byte(text))
	return err
}

// tcpGame is one game's listener and seats.
type tcpGame struct {
	*loginGame
	seats []*tcpSeat
	// started is closed once every seat's process is known, so that a
	// login can be matched to the seat whose processes make it; done
	// when the game is over.
	started, done chan struct{}

	mu    sync.Mutex // orders logins against the start of the game
	begun bool       // the intro has gone out
}

// connectTCP listens on loopback, starts the bots with the address and
// tokens, and serves logins for the whole game.
func connectTCP(ctx context.Context, lg *loginGame, bots []Bot, argvs [][]string, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listen for bots on 127.0.0.1: %w", err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	g := &tcpGame{loginGame: lg, seats: make([]*tcpSeat, len(bots)), started: make(chan struct{}), done: make(chan struct{})}
	for i := range bots {
		s := &tcpSeat{queue: newLineQueue(), count: newReplyCount(lg.tags), loggedIn: make(chan struct{})}
		s.queue.counted(s.count)
		g.seats[i] = s
	}
	conns := make([]*seatConn, len(bots))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var backoff time.Duration
		for {
			nc, err := ln.Accept()
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				// Out of file descriptors (a bot holding connections), or
				// a connection gone before it was accepted: neither lasts.
				// Logins and reconnections go on once it passes.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				select {
				case <-g.done:
					return
				case <-time.After(backoff):
				}
				continue
			}
			backoff = 0
			wg.Add(1)
			go func() {
				defer wg.Done()
				g.serve(nc)
			}()
		}
	}()
	for i, b := range bots {
		vars := map[string]string{"host": host, "port": port, "user_token": lg.users[i], "game_token": lg.gameToken}
		b.Env = append(append([]string(nil), b.Env...), loginEnv(host, port, lg.users[i], lg.gameToken, "tcp")...)
		sb := specs[i]
		if sb != nil {
			// The game's own port, and nothing else.
			tcp := *sb
			tcp.network = true
			tcp.connectTCP, _ = strconv.Atoi(port)
			sb = &tcp
		}
		c := startSeat(i, substitute(argvs[i], vars), b, sb)
		if c.proc != nil {
			s := g.seats[i]
			// The program's stdout is not the game channel here; the
			// socket is.
			c.out = s.queue
			c.send = s.write
			c.pending = s.takeNotes
			s.mu.Lock()
			s.root = c.proc.cmd.Process.Pid
			s.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				g.watch(s, c.proc)
			}()
		}
		conns[i] = c
	}
	close(g.started)
	cleanup := func() {
		close(g.done)
		ln.Close()
		for _, s := range g.seats {
			s.mu.Lock()
			if s.conn != nil {
				s.conn.Close()
			}
			s.mu.Unlock()
		}
		wg.Wait()
	}
	timer := time.NewTimer(lg.wait)
	defer timer.Stop()
wait:
	for i, s := range g.seats {
		if conns[i].proc == nil {
			continue
		}
		select {
		case <-s.loggedIn:
		case <-conns[i].proc.exited:
			// It will never log in: no reason to wait for it.
		case <-timer.C:
			break wait
		case <-ctx.Done():
			break wait
		}
	}
	g.begin()
	for i, s := range g.seats {
		c := conns[i]
		if c.proc == nil {
			continue
		}
		select {
		case <-s.loggedIn:
			continue
		default:
		}
		select {
		case <-c.proc.exited:
			c.note = "exited before logging in: " + c.proc.exitText
		default:
			// Latecomers play as "all stay" until they log in.
			c.note = fmt.Sprintf("did not log in within %v", lg.wait)
		}
	}
	return conns, cleanup, nil
}

// begin starts the game: the intro goes to every bot logged in; bots
// that log in later get it with their "logged in".
func (g *tcpGame) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.begun = true
	for i, s := range g.seats {
		s.mu.Lock()
		if s.conn != nil {
			_ = s.conn.SetWriteDeadline(time.Now().Add(sendTimeout))
			_, _ = s.conn.Write([]byte(g.intro(i)))
		}
		s.mu.Unlock()
	}
}

// watch ends the seat once its process has ended: at once when it has no
// connection, else when the connection ends — its last lines are still
// read — or after exitGrace, when a process that left the bot's group
// keeps it open.
func (g *tcpGame) watch(s *tcpSeat, p *process) {
	select {
	case <-p.exited:
	case <-g.done:
		return
	}
	s.mu.Lock()
	s.gone = true
	conn := s.conn
	if conn == nil {
		s.queue.close()
	}
	s.mu.Unlock()
	if conn == nil {
		return
	}
	select {
	case <-time.After(exitGrace):
	case <-g.done:
		return
	}
	s.mu.Lock()
	if s.conn == conn {
		conn.Close() // its reader ends the seat
	}
	s.mu.Unlock()
}

// serve runs the handshake on one connection and, once logged in, makes
// it the seat's connection and copies its lines into the seat's queue.
func (g *tcpGame) serve(nc net.Conn) {
	_ = nc.SetDeadline(time.Now().Add(g.wait))
	if _, err := nc.Write([]byte(greetingLine)); err != nil {
		nc.Close()
		return
	}
	r := bufio.NewReaderSize(nc, readBuffer)
	seat := -1
	var login loginText
	for seat < 0 {
		text, _, err := readLimited(r)
		if err != nil {
			nc.Close()
			return
		}
		u, gt, done, ok := login.add(text)
		switch {
		case !done:
			continue
		case !ok:
			_, _ = nc.Write([]byte(expectedLoginLine))
			continue
		}
		if seat = seatOf(g.users, g.gameToken, u, gt); seat < 0 {
			_, _ = nc.Write([]byte(invalidLine))
			nc.Close()
			return
		}
	}
	_ = nc.SetDeadline(time.Time{})
	s := g.seats[seat]
	// A seat belongs to its bot: a login with its tokens from another
	// seat's processes, or from outside the game, is refused (tokens can
	// leak: a command line, a trusted bot reading /proc). A fast bot logs
	// in before its seat's process is noted: wait for that.
	select {
	case <-g.started:
	case <-g.done:
	}
	roots := make([]int, len(g.seats))
	for i, o := range g.seats {
		o.mu.Lock()
		roots[i] = o.root
		o.mu.Unlock()
	}
	owner, known := connOwner(nc, roots)
	g.mu.Lock()
	s.mu.Lock()
	select {
	case <-g.done:
		s.mu.Unlock()
		g.mu.Unlock()
		nc.Close()
		return
	default:
	}
	if refusal := refuseLogin(owner, known, seat, s.conn != nil); refusal != "" {
		s.notes = append(s.notes, refusal)
		s.mu.Unlock()
		g.mu.Unlock()
		if known && owner >= 0 {
			g.seats[owner].note(fmt.Sprintf("its login with seat %d's tokens was refused", seat+1))
		}
		_, _ = nc.Write([]byte(invalidLine))
		nc.Close()
		return
	}
	if s.conn != nil {
		s.conn.Close() // a second login of the seat's own bot replaces the first
	}
	s.conn = nc
	s.count.reset()
	hello := loggedInLine
	if g.begun {
		// The game is under way: the seed's "the field config and the
		// state of the turn again".
		hello += g.intro(seat) + s.lastInput
		if s.lastInput != "" {
			s.count.state(s.lastInput, time.Now())
		}
	}
	_ = nc.SetWriteDeadline(time.Now().Add(sendTimeout))
	_, _ = nc.Write([]byte(hello))
	s.mu.Unlock()
	g.mu.Unlock()
	s.once.Do(func() { close(s.loggedIn) })
	for {
		text, cut, err := readLimited(r)
		at := time.Now()
		s.mu.Lock()
		if s.conn != nc {
			// Replaced by a newer login, which closed this one.
			s.mu.Unlock()
			return
		}
		if err != nil {
			s.conn = nil
			if s.gone {
				s.queue.close()
			}
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.queue.push(line{text: text, at: at, cut: cut})
		s.mu.Unlock()
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

// readLimited reads one line of at most MaxLine bytes without its line
// end; cut reports that the rest of a longer line was dropped.
func readLimited(r *bufio.Reader) (text string, cut bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return "", false, err
		}
		if len(b)+len(chunk) > MaxLine {
			cut = true
		}
		if len(b) < MaxLine {
			b = append(b, chunk[:min(len(chunk), MaxLine-len(b))]...)
		}
		if !isPrefix {
			return string(b), cut, nil
		}
	}
}
