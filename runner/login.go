package runner

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"ringside/engine"
)

// token returns 128 random bits in hex.
func token() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b[:])
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

// substitute fills the placeholders {name} of argv with vars' values.
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

// loginGame is what every connection of one game's login shares: the
// game's handshake and the tokens that name its seats.
type loginGame struct {
	lg        engine.Login
	users     []string // per seat, its user token
	gameToken string
	intro     func(seat int) string // the game's intro (Introducer), "" for none
	wait      time.Duration         // how long the bots have to log in
}

// newLoginGame makes fresh tokens for a game of seats seats.
func newLoginGame(lg engine.Login, seats int, intro func(int) string, wait time.Duration) *loginGame {
	g := &loginGame{lg: lg, users: make([]string, seats), gameToken: token(), intro: intro, wait: wait}
	for i := range g.users {
		g.users[i] = token()
	}
	if g.intro == nil {
		g.intro = func(int) string { return "" }
	}
	return g
}

// grant gives seat's bot its tokens: in its command line's placeholders
// and its environment.
func (g *loginGame) grant(seat int, argv []string, b Bot, host, port, transport string) ([]string, Bot) {
	vars, env := g.lg.Grant(engine.Grant{Host: host, Port: port, User: g.users[seat], Game: g.gameToken, Transport: transport})
	b.Env = append(append([]string(nil), b.Env...), env...)
	return substitute(argv, vars), b
}

// connectLogin starts bots of a game with a login handshake, over TCP on
// loopback or over stdio as the game says, and waits until every bot has
// logged in (or has ended) or login has passed (times scale). Then the game
// begins: every bot logged in gets the intro (the game's Introducer), as
// once all bots have connected; from then on each seat's lines are
// counted against the states sent (replyCount).
func connectLogin(ctx context.Context, lg engine.Login, opts engine.Options, st engine.State, bots []Bot, argvs [][]string, scale float64,
	login time.Duration, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	var intro func(int) string
	if in, ok := st.(engine.Introducer); ok {
		intro = in.Intro
	}
	g := newLoginGame(lg, len(bots), intro, time.Duration(float64(login)*scale))
	connect := connectTCP
	if lg.Transport(opts) == engine.LoginStdio {
		connect = connectStdio
	}
	conns, cleanup, err := connect(ctx, g, bots, argvs, specs)
	if tags, ok := st.(engine.TurnTagger); ok && err == nil {
		// No state has been sent yet: the count goes by tags from the
		// first one.
		for _, c := range conns {
			if c.out != nil && c.out.count != nil {
				c.out.count.tagged(tags)
			}
		}
	}
	return conns, cleanup, err
}

// connectStdio runs the handshake on each bot's stdin/stdout.
func connectStdio(ctx context.Context, g *loginGame, bots []Bot, argvs [][]string, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	conns := make([]*seatConn, len(bots))
	in := make([]bool, len(bots))
	var wg sync.WaitGroup
	for i, b := range bots {
		argv, b := g.grant(i, argvs[i], b, "", "", engine.LoginStdio)
		conns[i] = startSeat(i, argv, b, specs[i])
		c := conns[i]
		if c.proc == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := stdioLogin(ctx, c, g, i)
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
				case <-time.After(reapWait):
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
		count := newReplyCount()
		c.out.counted(count)
		send := c.send
		c.send = func(text string, timeout time.Duration) error {
			if text != "" && !g.lg.Status(text) {
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

func stdioLogin(ctx context.Context, c *seatConn, g *loginGame, seat int) error {
	if err := c.send(g.lg.Greeting(), g.wait); err != nil {
		if isClosedPipe(err) {
			return errLoginEnded
		}
		return fmt.Errorf("login: write greeting: %w", err)
	}
	deadline := time.NewTimer(g.wait)
	defer deadline.Stop()
	text := g.lg.NewReader()
	for {
		l, ok, ended := c.out.pop()
		if ok {
			u, gt, done, valid := text.Add(l.text)
			if !done || !valid {
				continue // not a login message (yet): ignored, like lines before READY
			}
			if seatOf(g.users[seat:seat+1], g.gameToken, u, gt) != 0 {
				_ = c.send(g.lg.Refused(), sendTimeout)
				return fmt.Errorf("login refused: wrong tokens")
			}
			return c.send(g.lg.Accepted(), sendTimeout)
		}
		if ended {
			return errLoginEnded
		}
		select {
		case <-c.out.notify:
		case <-deadline.C:
			return fmt.Errorf("login: no login within %v", g.wait)
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
	count     *replyCount
	begun     bool                   // the game has begun: the intro has gone out (or goes with the login)
	gone      bool                   // its process has ended: the seat ends with its connection
	status    func(text string) bool // the game's status lines, which are no states
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
	state := text != "" && !s.status(text)
	if state {
		s.lastInput = text
	}
	if s.conn == nil {
		return nil // not connected: the bot gets the state when it logs in
	}
	if state {
		s.count.state(text, time.Now())
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
func connectTCP(ctx context.Context, g *loginGame, bots []Bot, argvs [][]string, specs []*sandboxSpec) ([]*seatConn, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listen for bots on 127.0.0.1: %w", err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	seats := make([]*tcpSeat, len(bots))
	conns := make([]*seatConn, len(bots))
	queues := make([]*lineQueue, len(bots))
	for i := range bots {
		seats[i] = &tcpSeat{loggedIn: make(chan struct{}), count: newReplyCount(), status: g.lg.Status}
		queues[i] = newLineQueue().keep(bots[i].maxReply)
		queues[i].counted(seats[i].count)
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
			serveTCP(nc, from, g, seats, queues, done, started)
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
		var backoff time.Duration
		for {
			nc, err := ln.Accept()
			if err != nil && !errors.Is(err, net.ErrClosed) {
				// Out of file descriptors (a bot holding connections), or
				// a connection gone before it was accepted: neither lasts.
				// Logins and reconnections go on once it passes; the pause
				// grows while nothing can be accepted, as net/http's does.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				select {
				case <-done:
					return
				case <-time.After(backoff):
				}
				continue
			}
			backoff = 0
			if err != nil {
				return
			}
			serve(nc, -1, nil)
		}
	}()
	for i, b := range bots {
		argv, b := g.grant(i, argvs[i], b, host, port, engine.LoginTCP)
		sb := specs[i]
		if sb != nil {
			// The game's own port, and nothing else.
			tcp := *sb
			tcp.connectTCP, _ = strconv.Atoi(port)
			slot := make(chan struct{}, maxSeatConns)
			tcp.accept = func(nc net.Conn) { serve(nc, i, slot) }
			sb = &tcp
		}
		c := startSeat(i, argv, b, sb)
		if c.proc != nil {
			// The program's stdout is not the game channel here; the
			// socket is.
			c.out = queues[i]
			c.send = seats[i].write
			c.pending = seats[i].takeNotes
			seats[i].mu.Lock()
			seats[i].root = c.proc.pid
			seats[i].mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				watchSeat(seats[i], queues[i], c.proc, done)
			}()
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
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
logins:
	for i, s := range seats {
		if conns[i].proc == nil {
			continue
		}
		select {
		case <-s.loggedIn:
		case <-conns[i].proc.exited:
			// It will never log in: no reason to wait for it.
		case <-timer.C:
			break logins
		case <-ctx.Done():
			break logins
		}
	}
	begin(seats, g.intro)
	markLate(seats, conns, g.wait)
	return conns, cleanup, nil
}

// begin starts the game: the intro goes to every bot logged in; bots that
// log in later get it with their acceptance.
func begin(seats []*tcpSeat, intro func(int) string) {
	for i, s := range seats {
		s.mu.Lock()
		s.begun = true
		if s.conn != nil {
			_ = s.conn.SetWriteDeadline(time.Now().Add(sendTimeout))
			_, _ = s.conn.Write([]byte(intro(i)))
		}
		s.mu.Unlock()
	}
}

// markLate notes the seats whose bots did not log in: those that ended
// first, and latecomers, who play as "all stay" until they log in.
func markLate(seats []*tcpSeat, conns []*seatConn, wait time.Duration) {
	for i, s := range seats {
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
			c.note = fmt.Sprintf("did not log in within %v", wait)
		}
	}
}

// watchSeat ends a seat once its process has ended: at once when it has no
// connection, else when the connection ends — its last lines are still
// read — or after exitGrace, when a process that left the bot's group
// keeps it open.
func watchSeat(s *tcpSeat, q *lineQueue, p *process, done <-chan struct{}) {
	select {
	case <-p.exited:
	case <-done:
		return
	}
	s.mu.Lock()
	s.gone = true
	conn := s.conn
	if conn == nil {
		q.close()
	}
	s.mu.Unlock()
	if conn == nil {
		return
	}
	select {
	case <-time.After(exitGrace):
	case <-done:
		return
	}
	s.mu.Lock()
	if s.conn == conn {
		conn.Close() // its reader ends the seat
	}
	s.mu.Unlock()
}

// serveTCP runs the handshake on one connection and, once logged in, makes
// it the seat's connection and copies its lines into the seat's queue.
// from is the seat whose network namespace the connection came from, or
// -1 when the connection came to the listener on the host's loopback.
func serveTCP(nc net.Conn, from int, g *loginGame, seats []*tcpSeat, queues []*lineQueue, done, started <-chan struct{}) {
	_ = nc.SetDeadline(time.Now().Add(g.wait))
	if _, err := nc.Write([]byte(g.lg.Greeting())); err != nil {
		nc.Close()
		return
	}
	r := bufio.NewReaderSize(nc, readBuffer)
	seat := -1
	login := g.lg.NewReader()
	for seat < 0 {
		text, _, _, err := readLimited(r)
		if err != nil {
			nc.Close()
			return
		}
		u, gt, done, ok := login.Add(text)
		switch {
		case !done:
			continue
		case !ok:
			_, _ = nc.Write([]byte(g.lg.NotLogin()))
			continue
		}
		if seat = seatOf(g.users, g.gameToken, u, gt); seat < 0 {
			_, _ = nc.Write([]byte(g.lg.Refused()))
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
		_, _ = nc.Write([]byte(g.lg.Refused()))
		nc.Close()
		return
	}
	if s.conn != nil {
		s.conn.Close() // a second login of the seat's own bot replaces the first
	}
	s.conn = nc
	s.count.reset()
	hello := g.lg.Accepted()
	if s.begun {
		// The game is under way: a bot that reconnects gets the intro
		// and the state of the turn again.
		hello += g.intro(seat) + s.lastInput
		if s.lastInput != "" {
			s.count.state(s.lastInput, time.Now())
		}
	}
	_ = nc.SetWriteDeadline(time.Now().Add(sendTimeout))
	_, _ = nc.Write([]byte(hello))
	s.mu.Unlock()
	s.once.Do(func() { close(s.loggedIn) })
	q := queues[seat]
	for {
		text, cut, size, err := readLimited(r)
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
				q.close()
			}
			s.mu.Unlock()
			nc.Close()
			return
		}
		// Counted under the seat's lock: a new login resets the count.
		q.push(line{text: text, at: at, cut: cut, size: size})
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
	if runtime.GOOS != "linux" {
		// /proc and its process ids are Linux's. A Windows build under
		// Wine reads the host's /proc through drive Z: and finds none of
		// its seats' (Windows) process ids there: every login would be
		// refused as coming from outside the game.
		return -1, false
	}
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
// end; cut reports that the rest of a longer line was dropped, size how
// long the whole line was.
func readLimited(r *bufio.Reader) (text string, cut bool, size int64, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return "", false, 0, err
		}
		size += int64(len(chunk))
		if len(b)+len(chunk) > MaxLine {
			cut = true
		}
		if len(b) < MaxLine {
			b = append(b, chunk[:min(len(chunk), MaxLine-len(b))]...)
		}
		if !isPrefix {
			return string(b), cut, size, nil
		}
	}
}
