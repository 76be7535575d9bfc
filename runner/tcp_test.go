package runner

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/cloud"
	"ringside/engine/games"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

var (
	tcpbotMu sync.Mutex // tests that run side by side build it once
	tcpbot   string
)

func buildTCPBot(t testing.TB) string {
	t.Helper()
	tcpbotMu.Lock()
	defer tcpbotMu.Unlock()
	if tcpbot != "" {
		return tcpbot
	}
	out := filepath.Join(filepath.Dir(fakebot), "tcpbot")
	if _, err := os.Stat(out); err == nil && os.Getenv("RINGSIDE_TEST_BINS") != "" {
		tcpbot = out // built by the run that started this one
		return out
	}
	if err := runnertest.GoBuild(out, "./testdata/tcpbot"); err != nil {
		t.Fatal(err)
	}
	tcpbot = out
	return out
}

// playCloud plays a short Cloud game between tcpbots in the given modes,
// at a quarter speed: the good bot must answer every turn on a busy
// machine too.
func playCloud(t *testing.T, transport string, modes ...string) *Outcome {
	return playCloudMs(t, Match{TimeScale: 4}, transport, "200", modes...)
}

// playCloudMs is playCloud with turns of turnMs, with m's time scale (0:
// the game's own limits) and test settings; the bots have a second to log
// in. A mode may carry the tcpbot's other flags.
func playCloudMs(t *testing.T, m Match, transport, turnMs string, modes ...string) *Outcome {
	t.Helper()
	bin := buildTCPBot(t)
	m.loginTimeout = time.Second
	var bots []Bot
	for _, mode := range modes {
		bots = append(bots, Bot{Name: strings.Fields(mode)[0], Command: bin + " -mode " + mode + " {host} {port} {user_token} {game_token}"})
	}
	return playFiveTurns(t, m, engine.Options{"turn_ms": turnMs, "transport": transport}, bots...)
}

// playFiveTurns plays a five-turn Cloud game of bots on seed 5, 300 ms a
// turn over TCP unless opts says otherwise, with m's sandbox, time scale
// (0: the game's own limits) and test settings.
func playFiveTurns(t *testing.T, m Match, opts engine.Options, bots ...Bot) *Outcome {
	t.Helper()
	g, err := games.Get("cloud")
	if err != nil {
		t.Fatal(err)
	}
	o := engine.Options{"turns": "5", "turn_ms": "300"}
	maps.Copy(o, opts)
	m.Game, m.Seed, m.Bots, m.Options = g, 5, bots, o
	out, err := Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// eachSandboxMode runs test as a subtest in each way a bot may run:
// sandboxed, trusted, and sandboxed where the kernel refuses namespaces.
func eachSandboxMode(t *testing.T, test func(t *testing.T, mode string, sb Sandbox)) {
	for _, mode := range []string{"sandboxed", "trusted", "no-namespaces"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "no-namespaces" {
				sandbox.PretendNamespacesRefused(true)
				defer sandbox.PretendNamespacesRefused(false)
			}
			test(t, mode, Sandbox{Trusted: mode == "trusted"})
		})
	}
}

func TestTCPGoodBotsAndLoopback(t *testing.T) {
	goroutines := matchGoroutines()
	out := playCloud(t, "tcp", "good", "gamespace")
	for seat := range 2 {
		if got := counts(out, seat); got[engine.OK] != 5 {
			t.Errorf("seat %d verdicts = %v, want 5 ok", seat, got)
		}
		errs := out.Stderr[seat]
		if !strings.Contains(errs, "addr: 127.0.0.1:") {
			t.Errorf("seat %d was not sent to loopback: %q", seat, firstLine(errs))
		}
		// The tokens are substituted into the command line too.
		if !strings.Contains(errs, `args: ["127.0.0.1"`) {
			t.Errorf("seat %d args not substituted: %q", seat, firstLine(errs))
		}
		for _, want := range []string{`"message":"logged in"`, `"user_id"`, `"turn_no"`} {
			if !strings.Contains(errs, want) {
				t.Errorf("seat %d never got %s", seat, want)
			}
		}
	}
	assertGoroutines(t, goroutines)
}

func TestTCPWrongTokenRefusedAndClosed(t *testing.T) {
	t.Parallel()
	out := playCloud(t, "tcp", "good", "wrongtoken")
	errs := out.Stderr[1]
	if !strings.Contains(errs, `"message":"invalid user"`) || !strings.Contains(errs, "closed: EOF") {
		t.Errorf("wrong token: stderr %q, want invalid user then closed", errs)
	}
	if got := counts(out, 1); got[engine.Timeout] != 5 {
		t.Errorf("refused bot verdicts = %v, want 5 timeouts (all stay)", got)
	}
	if got := counts(out, 0); got[engine.OK] != 5 {
		t.Errorf("good bot verdicts = %v", got)
	}
}

func TestTCPSecondLoginReplacesFirst(t *testing.T) {
	t.Parallel()
	out := playCloud(t, "tcp", "good", "relogin")
	errs := out.Stderr[1]
	if n := strings.Count(errs, `"message":"logged in"`); n != 2 {
		t.Fatalf("logged in %d times, want 2:\n%s", n, errs)
	}
	second := errs[strings.LastIndex(errs, `"message":"logged in"`):]
	if !strings.Contains(second, `"user_id"`) || !strings.Contains(second, `"turn_no"`) {
		t.Errorf("after the second login no config and state:\n%s", second)
	}
	if got := counts(out, 1); got[engine.OK] < 4 {
		t.Errorf("relogin verdicts = %v, want it to keep playing", got)
	}
}

func TestTCPLateReplyNotAppliedToNextTurn(t *testing.T) {
	t.Parallel()
	// At a quarter speed the late bot sleeps 2.4 s on turn 3: past turn
	// 3's 1.6 s and in the middle of turn 4's window, with 800 ms to
	// spare either side. Without the give-back: beside a CPU hog it gave
	// turn 3 more than those 800 ms once, and took the late reply as
	// turn 3's; where a late reply goes is under test here.
	out := playCloudMs(t, Match{TimeScale: 4, noGiveBack: true}, "tcp", "400", "good", "late -late 2400ms")
	got := counts(out, 1)
	if got[engine.Timeout] != 1 || got[engine.OK] != 4 {
		t.Errorf("late bot verdicts = %v, want 1 timeout and 4 ok", got)
	}
	var noise []string
	for _, s := range out.Log.Steps {
		for _, n := range s.Noise {
			noise = append(noise, n.Line)
		}
	}
	if len(noise) != 1 || !strings.Contains(noise[0], `"turn_no"`) {
		t.Errorf("noise = %q, want the late reply", noise)
	}
	if !strings.Contains(out.Stderr[1], "turn timeout") {
		t.Errorf("no turn timeout message sent")
	}
}

func TestTCPMalformedJSONAnswered(t *testing.T) {
	t.Parallel()
	out := playCloud(t, "tcp", "good", "malformed")
	if got := counts(out, 1); got[engine.Invalid] != 1 {
		t.Errorf("verdicts = %v, want one invalid", got)
	}
	if !strings.Contains(out.Stderr[1], `got: {"status":"error"`) {
		t.Errorf("malformed JSON got no error line:\n%s", out.Stderr[1])
	}
}

func TestTCPNeverConnects(t *testing.T) {
	t.Parallel()
	out := playCloud(t, "tcp", "good", "never")
	if got := counts(out, 1); got[engine.Timeout] != 5 {
		t.Errorf("absent bot verdicts = %v, want 5 timeouts", got)
	}
	if !strings.Contains(out.Notes[1], "log in") && !strings.Contains(out.Notes[1], "time limit") {
		t.Errorf("note = %q", out.Notes[1])
	}
	if len(out.Log.Result.Ranks) != 2 {
		t.Errorf("game did not finish: %+v", out.Log.Result)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestCloudTakeoverRefused plays a bot that reads the other bots'
// environments and command lines and logs in with the tokens it finds.
// Sandboxed it finds none; trusted, or sandboxed where the kernel
// refuses namespaces (/proc shows the victim's command line), its login
// is refused because the connection does not come from the seat's own
// processes. Either way the victim plays every turn, and a refused
// attempt is in the replay.
func TestCloudTakeoverRefused(t *testing.T) {
	bin := buildTCPBot(t)
	eachSandboxMode(t, func(t *testing.T, mode string, sb Sandbox) {
		// The victim starts first and waits a moment, so that its
		// tokens are there to be stolen.
		// Ten times the limits: the victim must play every turn on a
		// machine busy with twice its cores in other programs.
		out := playFiveTurns(t, Match{Sandbox: sb, TimeScale: 10, loginTimeout: 2 * time.Second}, nil,
			Bot{Name: "victim", Command: bin + " -mode good {host} {port} {user_token} {game_token}"},
			Bot{Name: "thief", Command: bin + " -mode steal"})
		if got := counts(out, 0); got[engine.OK] != 5 {
			t.Errorf("victim verdicts = %v, want 5 ok; notes %q", got, allNotes(out))
		}
		thief := out.Stderr[1]
		t.Logf("thief: %s", strings.Join(grepLines(thief, "steal:"), " | "))
		if strings.Contains(thief, `steal: login with a stolen token: {"status":"ok"`) {
			t.Errorf("the thief logged in to the victim's seat:\n%s", thief)
		}
		if mode != "sandboxed" {
			if !strings.Contains(thief, "steal: login with a stolen token") {
				t.Fatalf("%s: the thief found no token to try, so the binding was not tested:\n%s", mode, thief)
			}
			if !strings.Contains(allNotes(out), "refused a login with this seat's tokens from seat 2's bot") {
				t.Errorf("the refused takeover is not in the replay: %q", allNotes(out))
			}
		} else if !strings.Contains(thief, "steal: no token found") {
			t.Errorf("sandboxed: the thief found tokens:\n%s", thief)
		}
	})
}

func grepLines(s, prefix string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestFindInode(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:8CA1 0100007F:A3F2 01 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 20 4 30 10 -1
   1: 0100007F:A3F2 0100007F:8CA1 01 00000000:00000000 00:00000000 00000000     0        0 654321 1 0000000000000000 20 4 30 10 -1
`
	if got := findInode(table, 0x8CA1, 0xA3F2); got != "123456" {
		t.Errorf("findInode = %q, want 123456", got)
	}
	if got := findInode(table, 0x1234, 0xA3F2); got != "" {
		t.Errorf("findInode of an absent port = %q", got)
	}
}

func FuzzFindInode(f *testing.F) {
	f.Add("header\n   0: 0100007F:8CA1 0100007F:A3F2 01 0:0 0:0 0 0 0 123456\n", 0x8CA1, 0xA3F2)
	f.Add("", 0, 0)
	f.Fuzz(func(t *testing.T, data string, port, ourPort int) {
		if got := findInode(data, port, ourPort); strings.ContainsAny(got, " \n") {
			t.Errorf("inode %q has blanks", got)
		}
	})
}

// loopbackSentinels are a UDP and a TCP listener on 127.0.0.1 that count
// what reaches them: the places a Cloud bot must not get to.
type loopbackSentinels struct {
	udp      net.PacketConn
	datagram atomic.Int32
	tcp      *runnertest.Decoy
}

func newLoopbackSentinels(t *testing.T) *loopbackSentinels {
	t.Helper()
	s := &loopbackSentinels{}
	var err error
	if s.udp, err = net.ListenPacket("udp4", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.udp.Close() })
	s.tcp = runnertest.NewDecoy(t)
	go func() {
		buf := make([]byte, 1500)
		for {
			if _, _, err := s.udp.ReadFrom(buf); err != nil {
				return
			}
			s.datagram.Add(1)
		}
	}()
	return s
}

// TestCloudBotOffTheNetwork plays a Cloud bot over TCP that first sends
// UDP datagrams to a loopback port and connects to another loopback port
// the test listens on. Sandboxed, it is in a network namespace of its
// own: nothing arrives, and it still logs in (through its launcher) and
// plays every turn. Trusted, both arrive (the sentinels work). Where the
// kernel refuses namespaces the bot shares the host's network: Landlock
// still stops the TCP connection, the UDP datagrams get through, and the
// sandbox says it is partial and why.
func TestCloudBotOffTheNetwork(t *testing.T) {
	bin := buildTCPBot(t)
	eachSandboxMode(t, func(t *testing.T, mode string, sb Sandbox) {
		s := newLoopbackSentinels(t)
		env := []string{"HOSTILE_UDP=" + s.udp.LocalAddr().String(), "HOSTILE_TCP=" + s.tcp.Addr}
		out := playFiveTurns(t, Match{Sandbox: sb, TimeScale: 10, loginTimeout: 2 * time.Second}, nil,
			Bot{Name: "escape", Command: bin + " -mode escape", Env: env},
			Bot{Name: "good", Command: bin + " -mode good"})
		t.Logf("escape: %s", strings.Join(grepLines(out.Stderr[0], "escape:"), " | "))
		for seat := range 2 {
			if got := counts(out, seat); got[engine.OK] != 5 {
				t.Errorf("seat %d verdicts = %v, want 5 ok; notes %q", seat+1, got, allNotes(out))
			}
		}
		udp, tcp := s.datagram.Load(), s.tcp.Accepted()
		switch mode {
		case "sandboxed":
			if udp != 0 || tcp != 0 {
				t.Errorf("from its own network namespace the bot reached the host: %d datagrams, %d connections", udp, tcp)
			}
			if !strings.Contains(out.Stderr[0], "escape: interfaces [lo]") {
				t.Errorf("the bot's network namespace is not its own with just a loopback: %q",
					grepLines(out.Stderr[0], "escape: interfaces"))
			}
			for seat := range 2 {
				if out.Sandbox[seat] != "on" {
					t.Errorf("seat %d sandbox %q, want on", seat+1, out.Sandbox[seat])
				}
			}
		case "trusted":
			if udp == 0 || tcp == 0 {
				t.Errorf("trusted, the bot's %d datagrams and %d connections did not arrive: the sentinels see nothing", udp, tcp)
			}
		case "no-namespaces":
			if tcp != 0 {
				t.Errorf("without namespaces Landlock let the bot connect to another loopback port (%d times)", tcp)
			}
			if udp == 0 {
				t.Errorf("without a network namespace the datagrams were expected to arrive (so the status must say so), none did")
			}
			if out.Sandbox[0] != "partial" {
				t.Errorf("sandbox %q, want partial", out.Sandbox[0])
			}
			level, text := SandboxStatus(Sandbox{})
			if level != sandbox.Partial || !strings.Contains(text, "UDP") {
				t.Errorf("status without namespaces does not say bots can send UDP: %v %s", level, text)
			}
		}
	})
}

// TestCloudConnectionFloodBounded plays a sandboxed Cloud bot that opens
// 40 connections at once before it logs in: Ringside serves at most
// maxSeatConns of them (the others are closed at once), and once the bot
// lets them go it logs in and plays every turn, as does the other seat.
func TestCloudConnectionFloodBounded(t *testing.T) {
	bin := buildTCPBot(t)
	out := playFiveTurns(t, Match{TimeScale: 10, loginTimeout: 3 * time.Second}, nil,
		Bot{Name: "flood", Command: bin + " -mode connflood"}, Bot{Name: "good", Command: bin + " -mode good"})
	report := grepLines(out.Stderr[0], "connflood:")
	t.Logf("%s", report)
	var greeted, connected int
	if len(report) != 1 {
		t.Fatalf("no report from the flooding bot:\n%s", out.Stderr[0])
	}
	if _, err := fmt.Sscanf(report[0], "connflood: %d of 40 greeted (%d connected)", &greeted, &connected); err != nil {
		t.Fatalf("report %q: %v", report[0], err)
	}
	if greeted == 0 || greeted > maxSeatConns {
		t.Errorf("%d of the bot's connections were served at once, want 1 to %d", greeted, maxSeatConns)
	}
	for seat := range 2 {
		if got := counts(out, seat); got[engine.OK] != 5 {
			t.Errorf("seat %d verdicts = %v, want 5 ok; notes %q", seat+1, got, allNotes(out))
		}
	}
}

// TestCloudCrossSeatLoginRefusedInNamespace gives a sandboxed bot the
// other seat's user token (as if it had found it): its connection comes
// through its own launcher, which makes it its own seat's, so the login
// is refused and both seats' notes say so, while the victim plays on.
func TestCloudCrossSeatLoginRefusedInNamespace(t *testing.T) {
	bin := buildTCPBot(t)
	g := newLoginGame(cloud.Login{}, 2, nil, 2*time.Second)
	users := g.users
	spec := Sandbox{}.spec(Bot{})
	if spec == nil {
		t.Skip("no sandbox on this system")
	}
	argvs := [][]string{{bin, "-mode", "good"}, {bin, "-mode", "good", "-user", users[0]}}
	conns, cleanup, err := connectTCP(context.Background(), g, []Bot{{Name: "victim"}, {Name: "thief"}}, argvs,
		[]*sandboxSpec{spec, spec})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	defer func() {
		for _, c := range conns {
			c.stop()
		}
	}()
	if f, ok := conns[1].proc.launch.Features(launchReport); !ok || !f.NetNS || !f.Forward {
		t.Fatalf("the thief is not in a network namespace of its own with its connections handed over: %+v", f)
	}
	if n := conns[0].pending(); !strings.Contains(n, "refused a login with this seat's tokens from seat 2's bot") {
		t.Errorf("victim's notes %q", n)
	}
	if n := conns[1].pending(); !strings.Contains(n, "its login with seat 1's tokens was refused") {
		t.Errorf("thief's notes %q", n)
	}
	if conns[0].note != "" {
		t.Errorf("the victim did not log in: %s", conns[0].note)
	}
}
