//go:build linux

package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// The acceptance suite of issue 31: student folders under
// testdata/students, handed in to a teacher whose home the test made (a
// fake ~/.ssh key, a ~/.bashrc, the class database where Ringside keeps
// it, an honest student "bob" registered and built, a stand-in X
// server's and session bus's sockets), registered with "ai add" and run
// through "ai check", "ai build", "ringside watch", "play" and "event
// run" by the real binary, once as the test's user and, when that is
// root, once more as user nobody, a teacher without root. After every
// attack nothing of the teacher's has changed: the files are the same,
// no secret leaked where the student can read it, the database passes
// its integrity check with bob's row as it was and nobody trusted, no
// process of the attack is left, and bob still plays.

// The secrets the attacks try to carry off, each found nowhere a
// student can read after them.
const (
	keySecret = "RINGSIDE-E2E-PRIVATE-KEY"
	envSecret = "RINGSIDE-E2E-ENV-SECRET"
	bobSecret = "BOB-E2E-SOURCE-MARKER"
)

// leakDir is where the thief's Makefile puts what it took, and the
// sentinels the guessed commands' attacks touch; daemonScript is the
// command line of the daemon the Makefile leaves.
const (
	leakDir      = "/tmp/leak-ringside-e2e"
	daemonScript = "while :; do date >> /tmp/leak-ringside-e2e-daemon; sleep 1; done"
)

var studentSentinels = []string{"/tmp/ringside-e2e-pwned-pycompile", "/tmp/ringside-e2e-pwned-opts",
	"/tmp/ringside-e2e-pwned-toolexec", "/tmp/leak-ringside-e2e-daemon"}

// teacher is the teacher's world: a home, the class database in it, the
// binary, and the user Ringside runs as.
type teacher struct {
	root, home, db, exe string
	bots                string              // runner.BotsEnv's binary, or ""
	cred                *syscall.Credential // nil: the test's own user
	env                 []string
	sockets             []*desktopSocket
	tty                 *os.File // when set, the terminal the commands run in
}

// openTerminal opens a pseudo-terminal the teacher's user owns and
// returns its two sides.
func openTerminal(t *testing.T, uid int) (master, term *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock the terminal: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("the terminal's number: %v", e)
	}
	name := fmt.Sprintf("/dev/pts/%d", n)
	os.Chown(name, uid, -1)
	term, err = os.OpenFile(name, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	t.Cleanup(func() { term.Close() })
	return master, term
}

// desktopSocket is a listening socket standing in for one of the
// desktop's (an X server's, the session bus): it counts connections.
type desktopSocket struct {
	path string
	l    net.Listener
	mu   sync.Mutex
	n    int
}

func listenDesktop(t *testing.T, path string, uid int) *desktopSocket {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatalf("listen on %s: %v", path, err)
	}
	// The teacher's own socket: the teacher's user may connect.
	os.Chmod(path, 0o777)
	os.Lchown(path, uid, uid)
	s := &desktopSocket{path: path, l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.n++
			s.mu.Unlock()
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close(); os.Remove(path) })
	return s
}

func (s *desktopSocket) accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// cleanSentinels removes what an attack that got through left in /tmp,
// so that a run starts from nothing and leaves nothing for the next (the
// unprivileged one could not remove root's files).
func cleanSentinels(t *testing.T) {
	t.Helper()
	for _, p := range append(studentSentinels, leakDir) {
		if err := os.RemoveAll(p); err != nil {
			t.Fatalf("remove %s: %v", p, err)
		}
	}
	killDaemons()
	removeBlackboard()
}

// newTeacher makes the teacher's home in a folder of its own, open to
// cred's user, and registers and builds bob there.
func newTeacher(t *testing.T, cred *syscall.Credential) *teacher {
	t.Helper()
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	runnertest.NeedPython(t)
	cleanSentinels(t)
	t.Cleanup(func() { cleanSentinels(t) })
	root, err := os.MkdirTemp("", "ringside-students-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chmodTree(root); os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	tc := &teacher{root: root, home: filepath.Join(root, "home"), cred: cred}
	tc.exe, err = runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The build that starts the bots (runner.BotsEnv), if the test run
	// has one.
	tc.bots = os.Getenv(runner.BotsEnv)
	uid := os.Getuid()
	if cred != nil {
		tc.exe = copyExe(t, tc.exe, filepath.Join(root, "bin"))
		if tc.bots != "" {
			tc.bots = copyExe(t, tc.bots, filepath.Join(root, "bin"))
		}
		uid = int(cred.Uid)
		// A new home makes a new Go seed at the first Go build (16 to
		// 27 s of CPU); the seed is not what these tests are about.
		if err := runnertest.CopyGoSeeds(filepath.Join(tc.home, ".cache")); err != nil {
			t.Fatalf("give the teacher the Go seeds: %v", err)
		}
	}
	tc.db = filepath.Join(tc.home, ".local", "share", "ringside", "ringside.db")
	if os.Getuid() == 0 {
		// The data folder on a tmpfs of 1 GiB: a Ringside that copies a
		// terabyte into a revision fills that, not the machine's disk.
		data := filepath.Dir(tc.db)
		if err := os.MkdirAll(data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mount("tmpfs", data, "tmpfs", 0, "size=1g,mode=0755"); err != nil {
			t.Fatalf("mount a tmpfs for the data folder: %v", err)
		}
		t.Cleanup(func() { syscall.Unmount(data, syscall.MNT_DETACH) })
	}
	runnertest.WriteFiles(t, tc.home, map[string]string{
		".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\n" + keySecret + "\n-----END OPENSSH PRIVATE KEY-----\n",
		".bashrc":         "# the teacher's shell\nalias ll='ls -l'\n",
	})
	copyStudent(t, "bob", filepath.Join(tc.home, "students", "bob"))
	runtime, err := os.MkdirTemp("", "ringside-e2e-run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	os.Chmod(runtime, 0o700)
	os.Chown(runtime, uid, uid)
	tc.sockets = append(tc.sockets, listenDesktop(t, filepath.Join(runtime, "bus"), uid))
	// The session bus where desktops keep it, when this test may make
	// that folder (as root it may; the folder is removed afterwards).
	userRun := fmt.Sprintf("/run/user/%d", uid)
	if _, err := os.Lstat(userRun); errors.Is(err, fs.ErrNotExist) && os.MkdirAll(userRun, 0o700) == nil {
		t.Cleanup(func() { os.RemoveAll(userRun) })
		os.Chown(userRun, uid, uid)
		tc.sockets = append(tc.sockets, listenDesktop(t, filepath.Join(userRun, "bus"), uid))
	}
	for n := 90; n < 200; n++ {
		p := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			os.MkdirAll("/tmp/.X11-unix", 0o1777)
			tc.sockets = append(tc.sockets, listenDesktop(t, p, uid))
			break
		}
	}
	home := tc.home
	tc.env = append(os.Environ(), "LANG=C.UTF-8", "HOME="+home, "XDG_DATA_HOME=", "XDG_RUNTIME_DIR="+runtime,
		"RINGSIDE_TEST_SECRET="+envSecret, "GOCACHE="+filepath.Join(home, ".cache", "go-build"),
		"GOPATH="+filepath.Join(home, "go"), "GOTOOLCHAIN=local", "GOFLAGS=")
	if cred != nil {
		// The test's own cache folder (runnertest.ShareUserCache) is not
		// this teacher's.
		tc.env = append(tc.env, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	}
	if tc.bots != "" {
		tc.env = append(tc.env, runner.BotsEnv+"="+tc.bots)
	}
	if err := chownTree(root, uid); err != nil {
		t.Fatal(err)
	}
	tc.must(t, "ai", "add", "--name", "bob", "--game", "grip", "--dir", filepath.Join(home, "students", "bob"), "--no-watch", "--db", tc.db)
	return tc
}

// chownTree gives the tree at root to uid.
func chownTree(root string, uid int) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}

// chmodTree makes every folder under root writable again (revisions may
// be sealed read-only) so that the cleanup can remove them.
func chmodTree(root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

// copyStudent copies testdata/students/name to dir.
func copyStudent(t *testing.T, name, dir string) {
	t.Helper()
	src := filepath.Join("testdata", "students", name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs the binary as the teacher, with a deadline; hung says it had
// to be killed.
func (tc *teacher) run(t *testing.T, timeout time.Duration, args ...string) (code int, out, errs string, hung bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tc.exe, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env, cmd.Dir = &o, &e, tc.env, tc.home
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: tc.cred}
	if tc.tty != nil {
		// The teacher's terminal: Ringside's controlling terminal, as
		// when the teacher types the command.
		cmd.Stdin = tc.tty
		cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, true, 0
	}
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, o.String(), e.String(), true
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("ringside %v: %v", args, err)
	}
	return code, o.String(), e.String(), false
}

func (tc *teacher) must(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs, hung := tc.run(t, 3*time.Minute, args...)
	if code != 0 || hung {
		t.Fatalf("ringside %v: exit %d (hung %v)\n%s%s", args, code, hung, out, errs)
	}
	return out
}

// startWatch starts "ringside watch" as the teacher and waits until it
// watches; stop interrupts it and fails the test if it does not end.
func (tc *teacher) startWatch(t *testing.T) (out func() string, stop func()) {
	t.Helper()
	cmd := exec.Command(tc.exe, "watch", "--db", tc.db, "--debounce", "200ms")
	var buf lockedBuffer
	cmd.Stdout, cmd.Stderr, cmd.Env, cmd.Dir = &buf, &buf, tc.env, tc.home
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: tc.cred}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop = func() {
		t.Helper()
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			cmd.Process.Kill()
			<-done
			t.Errorf("ringside watch ignored SIGINT for 30 s:\n%s", buf.String())
		}
	}
	if !waitFor(t, func() bool { return strings.Contains(buf.String(), "watching") }) {
		stop()
		t.Fatalf("ringside watch never said it watches:\n%s", buf.String())
	}
	return buf.String, stop
}

// waitFor polls cond for as long as the test may wait: the wait is for the event,
// the deadline only ends a test that would otherwise hang.
func waitFor(t testing.TB, cond func() bool) bool {
	for deadline := time.Now().Add(runnertest.Patience(t)); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// ais reads the AIs as the teacher's database has them; the database's
// folder is given back to the teacher afterwards (SQLite may have made
// its -shm there as the test's user).
func (tc *teacher) ais(t *testing.T) ([]storage.AI, string) {
	t.Helper()
	db, err := storage.OpenReadOnly(tc.db)
	if err != nil {
		t.Fatalf("open the database: %v", err)
	}
	defer func() {
		db.Close()
		if tc.cred != nil {
			chownTree(filepath.Dir(tc.db), int(tc.cred.Uid))
		}
	}()
	ok, err := db.IntegrityCheck()
	if err != nil {
		ok = err.Error()
	}
	ais, err := db.ListAIs()
	if err != nil {
		t.Fatalf("list the AIs: %v", err)
	}
	return ais, ok
}

func aiNamed(ais []storage.AI, name string) (storage.AI, bool) {
	for _, a := range ais {
		if a.Name == name {
			return a, true
		}
	}
	return storage.AI{}, false
}

// state is what must not change: a digest of every file of the
// teacher's (~/.ssh, ~/.bashrc, bob's source and revisions) and bob's row.
type state struct {
	files map[string]string
	bob   storage.AI
}

func (tc *teacher) state(t *testing.T) state {
	t.Helper()
	s := state{files: map[string]string{}}
	roots := []string{filepath.Join(tc.home, ".ssh"), filepath.Join(tc.home, ".bashrc"), filepath.Join(tc.home, "students", "bob")}
	revs, _ := filepath.Glob(filepath.Join(filepath.Dir(tc.db), "ringside-data", "revisions", "bob-*"))
	if len(revs) == 0 {
		t.Fatalf("bob has no revision folder")
	}
	for _, r := range append(roots, revs...) {
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				s.files[p] = "error: " + err.Error()
				return nil
			}
			if d.Type().IsRegular() {
				data, err := os.ReadFile(p)
				s.files[p] = fmt.Sprintf("%x %v", sha256.Sum256(data), err)
			} else {
				s.files[p] = d.Type().String()
			}
			return nil
		})
	}
	ais, _ := tc.ais(t)
	bob, ok := aiNamed(ais, "bob")
	if !ok {
		t.Fatalf("bob is not registered: %v", ais)
	}
	s.bob = bob
	return s
}

// check asserts that the attack changed nothing of the teacher's and left
// nothing behind; student is the attacker's source folder.
func (tc *teacher) check(t *testing.T, before state, student string) {
	t.Helper()
	after := tc.state(t)
	for p, h := range before.files {
		if after.files[p] != h {
			t.Errorf("the teacher's file %s changed", p)
		}
	}
	for p := range after.files {
		if _, ok := before.files[p]; !ok {
			t.Errorf("a file appeared among the teacher's: %s", p)
		}
	}
	ais, ok := tc.ais(t)
	if ok != "ok" {
		t.Errorf("integrity check: %q", ok)
	}
	if !reflect.DeepEqual(after.bob, before.bob) {
		t.Errorf("bob's row changed:\n%+v\n%+v", before.bob, after.bob)
	}
	for _, a := range ais {
		if a.Trusted {
			t.Errorf("AI %s is trusted now", a.Name)
		}
	}
	// Where the student can read: its own folder, its revisions, /tmp.
	places := []string{student, leakDir}
	places = append(places, must(filepath.Glob(filepath.Join(filepath.Dir(tc.db), "ringside-data", "revisions", filepath.Base(student)+"-*")))...)
	for _, place := range places {
		filepath.WalkDir(place, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			// What is too big to be a copied secret (the sparse
			// terabyte) is not read, nor what is empty (the many
			// files of manyfiles).
			if info, err := d.Info(); err != nil || info.Size() > 1<<20 || info.Size() == 0 {
				return nil
			}
			data, _ := os.ReadFile(p)
			for _, secret := range []string{keySecret, envSecret, bobSecret} {
				if bytes.Contains(data, []byte(secret)) {
					t.Errorf("%s is in %s, where the student reads", secret, p)
				}
			}
			return nil
		})
	}
	for _, p := range studentSentinels {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s exists: the attack's code ran outside the sandbox", p)
		}
	}
	if pids := killDaemons(); len(pids) > 0 {
		t.Errorf("the build's setsid daemon is left running: %v", pids)
	}
	runnertest.AssertNoneLeft(t, tc.exe, sandbox.Spawners()...)
	if tc.bots != "" {
		// As root tc.bots is this test program's own bots build: the
		// launchers it keeps waiting for its next game (sandbox.Prewarm)
		// are no student's, and would be found until they idle out.
		sandbox.DropWarm(tc.bots)
		runnertest.AssertNoneLeft(t, tc.bots, sandbox.Spawners()...)
	}
	for _, s := range tc.sockets {
		if n := s.accepted(); n > 0 {
			t.Errorf("%d connections to the desktop's socket %s", n, s.path)
		}
	}
	if blackboard() {
		t.Errorf("a SysV shared memory segment with the bots' key is left in the teacher's IPC namespace")
	}
}

func must[T any](v T, _ error) T { return v }

// killDaemons ends the daemons the thief's Makefile left (this test's
// own: their command line is the Makefile's) and returns their pids.
func killDaemons() []int {
	pids := runnertest.Processes("sh", "-c", daemonScript)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return pids
}

// blackboardKey is the snoop bot's SysV key.
const blackboardKey = 0x52534532

// blackboard tells whether a segment with the snoop bot's key exists in
// this (the teacher's) IPC namespace.
func blackboard() bool {
	id, _, errno := syscall.Syscall(syscall.SYS_SHMGET, blackboardKey, 0, 0)
	return errno == 0 && int(id) >= 0
}

func removeBlackboard() {
	if id, _, errno := syscall.Syscall(syscall.SYS_SHMGET, blackboardKey, 0, 0); errno == 0 {
		syscall.Syscall(syscall.SYS_SHMCTL, id, 0 /* IPC_RMID */, 0)
	}
}

// bobStillPlays plays bob against a built-in bot: its revision is the
// one it built, so it answers every turn (within ten times Grip's limits:
// the machine may be busy with other tests, or a CPU hog beside them).
func (tc *teacher) bobStillPlays(t *testing.T) {
	t.Helper()
	out := tc.must(t, "play", "--game", "grip", "--seed", "2", "--opt", "max_turns=20", "--time-scale", "10", "--db", tc.db,
		"--bot", "bob", "--bot", "builtin:grip/greedy", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	var res playResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("play output: %v\n%s", err, out)
	}
	if s := res.Seats[0]; s.Verdicts["ok"] == 0 || s.Verdicts["crashed"]+s.Verdicts["timeout"]+s.Verdicts["invalid"] > 0 {
		t.Errorf("bob no longer plays: %+v", s)
	}
}

// asTeachers runs f as the test's user and, when that is root, as user
// nobody too: a teacher without root is who the sandbox must hold for.
func asTeachers(t *testing.T, f func(t *testing.T, cred *syscall.Credential)) {
	creds := []struct {
		name string
		cred *syscall.Credential
	}{{"self", nil}}
	if os.Getuid() == 0 {
		creds[0].name = "root"
		creds = append(creds, struct {
			name string
			cred *syscall.Credential
		}{"nobody", &syscall.Credential{Uid: 65534, Gid: 65534}})
	}
	for _, c := range creds {
		t.Run(c.name, func(t *testing.T) { f(t, c.cred) })
	}
}

// TestStudentBuildAttacks hands in each folder whose build or guessed
// check attacks the teacher, and runs it through ai add, ai check, ai
// build --force and a save seen by ringside watch.
func TestStudentBuildAttacks(t *testing.T) {
	// Not parallel: the attacks' traces are the machine's (sentinel files
	// in /tmp, a fake desktop bus in /run/user, the Makefile's daemons, a
	// SysV segment, this program's processes), so nothing else may run.
	asTeachers(t, func(t *testing.T, cred *syscall.Credential) {
		for _, attack := range []string{"thief", "pycompile", "atopts", "toolexec"} {
			t.Run(attack, func(t *testing.T) {
				tc := newTeacher(t, cred)
				dir := filepath.Join(tc.home, "students", attack)
				copyStudent(t, attack, dir)
				if tc.cred != nil {
					chownTree(dir, int(tc.cred.Uid))
				}
				before := tc.state(t)
				steps := [][]string{
					{"ai", "add", "--name", attack, "--game", "grip", "--dir", dir, "--db", tc.db},
					{"ai", "check", attack, "--db", tc.db},
					{"ai", "build", attack, "--force", "--db", tc.db},
				}
				for _, args := range steps {
					code, out, errs, hung := tc.run(t, 3*time.Minute, args...)
					t.Logf("ringside %s: exit %d\n%s%s", strings.Join(args[:2], " "), code, out, errs)
					if hung {
						t.Errorf("ringside %v hangs", args)
					}
				}
				tc.check(t, before, dir)
				watchOut, stop := tc.startWatch(t)
				n := strings.Count(watchOut(), " "+attack+":")
				os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("a save\n"), 0o644)
				if tc.cred != nil {
					os.Lchown(filepath.Join(dir, "notes.txt"), int(tc.cred.Uid), int(tc.cred.Gid))
				}
				if !waitFor(t, func() bool { return strings.Count(watchOut(), " "+attack+":") > n }) {
					t.Errorf("ringside watch did not rebuild %s's save", attack)
				}
				stop()
				t.Logf("ringside watch:\n%s", watchOut())
				tc.check(t, before, dir)
				tc.bobStillPlays(t)
			})
		}
	})
}

// TestStudentBotAttacks registers the snoop bot, which tries the
// desktop's sockets, a SysV blackboard shared with the other seat,
// 127 inotify instances and TIOCSTI, and plays it twice in one game of
// "ringside play" and in an event run by "ringside event run": every
// door is refused.
func TestStudentBotAttacks(t *testing.T) {
	// Not parallel: the attacks' traces are the machine's (sentinel files
	// in /tmp, a fake desktop bus in /run/user, the Makefile's daemons, a
	// SysV segment, this program's processes), so nothing else may run.
	asTeachers(t, func(t *testing.T, cred *syscall.Credential) {
		tc := newTeacher(t, cred)
		dir := filepath.Join(tc.home, "students", "snoop")
		copyStudent(t, "snoop", dir)
		if tc.cred != nil {
			chownTree(dir, int(tc.cred.Uid))
		}
		tc.must(t, "ai", "add", "--name", "snoop", "--game", "grip", "--dir", dir, "--no-watch", "--db", tc.db)
		before := tc.state(t)
		logged := map[string]bool{}
		doors := func(t *testing.T, stderr string) {
			t.Helper()
			for _, door := range []string{"socket", "shm", "inotify", "tiocsti"} {
				if !strings.Contains(stderr, " "+door+": ") {
					t.Errorf("the bot did not report on %s:\n%s", door, stderr)
				}
			}
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "GOT THROUGH") {
					t.Errorf("%s", l)
				} else if strings.HasPrefix(l, "refused") && !logged[l] {
					// Once each: a line repeated for every game would
					// bury a failure's own message in the output.
					logged[l] = true
					t.Logf("%s", l)
				}
			}
		}
		t.Run("play", func(t *testing.T) {
			// Played in the teacher's terminal, which TIOCSTI would type
			// into.
			uid := os.Getuid()
			if tc.cred != nil {
				uid = int(tc.cred.Uid)
			}
			_, tc.tty = openTerminal(t, uid)
			defer func() { tc.tty = nil }()
			replay := filepath.Join(tc.home, "replay.json")
			out := tc.must(t, "play", "--game", "grip", "--seed", "3", "--time-scale", hostileTimeScale, "--opt", "max_turns=20",
				"--db", tc.db, "--replay", replay, "--bot", "snoop", "--bot", "snoop", "--bot", "bob", "--bot", "builtin:grip/greedy")
			var res playResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("play output: %v\n%s", err, out)
			}
			logs := seatLogs(fixture.ReadReplay(t, replay))
			for i := range 2 {
				if res.Seats[i].Sandbox != "on" {
					t.Errorf("seat %d sandbox %q", i+1, res.Seats[i].Sandbox)
				}
				doors(t, logs[i].stderr)
			}
			if v := logs[2].verdicts; v[engine.OK] == 0 || v[engine.Crashed]+v[engine.Timeout]+v[engine.Invalid] > 0 {
				t.Errorf("bob's verdicts %v, notes %q", v, logs[2].notes)
			}
			tc.check(t, before, dir)
		})
		t.Run("event-run", func(t *testing.T) {
			tc.must(t, "event", "create", "--game", "grip", "--format", "league", "--games", "1", "--seed", "5",
				"--opt", "max_turns=20", "--time-scale", hostileTimeScale, "--concurrency", "4", "--db", tc.db,
				"--entry", "snoop", "--entry", "bob", "--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random")
			tc.must(t, "event", "run", "1", "--db", tc.db)
			db, err := storage.OpenReadOnly(tc.db)
			if err != nil {
				t.Fatal(err)
			}
			ms, err := db.Matches(1)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) == 0 {
				t.Fatalf("the event played no game")
			}
			for _, m := range ms {
				log, err := db.Replay(m.ID)
				if err != nil {
					t.Fatal(err)
				}
				logs := seatLogs(expand(t, log))
				for s, entry := range m.Game.Seats {
					if entry == 0 {
						doors(t, logs[s].stderr)
					}
				}
			}
			db.Close()
			if tc.cred != nil {
				chownTree(filepath.Dir(tc.db), int(tc.cred.Uid))
			}
			tc.check(t, before, dir)
		})
	})
}

// TestStudentFolderAttacks hands in folders that would hold the class's
// builds: a FIFO, a 1 TiB sparse file, twice the cap's files. Each one's build
// fails with a message naming the problem instead of hanging or filling
// the disk, bob still builds, and "ringside watch" keeps rebuilding bob's
// saves while the bad folder is watched.
func TestStudentFolderAttacks(t *testing.T) {
	// Not parallel: the attacks' traces are the machine's (sentinel files
	// in /tmp, a fake desktop bus in /run/user, the Makefile's daemons, a
	// SysV segment, this program's processes), so nothing else may run.
	asTeachers(t, func(t *testing.T, cred *syscall.Credential) {
		// A FIFO is no source: it is never opened, and left out of the
		// revision with the reason (ai show lists it); a folder over a
		// cap fails to build, saying which file or count and the cap.
		for _, a := range []struct {
			name, want string
			fails      bool
			make       func(dir string) error
		}{
			{"fifo", "named pipe", false, func(dir string) error {
				if err := syscall.Mkfifo(filepath.Join(dir, ".gitignore"), 0o644); err != nil {
					return err
				}
				return syscall.Mkfifo(filepath.Join(dir, "notes.py"), 0o644)
			}},
			{"sparse", "weights.bin is 1 tib, over the 64 mib", true, func(dir string) error {
				f, err := os.Create(filepath.Join(dir, "weights.bin"))
				if err != nil {
					return err
				}
				defer f.Close()
				return f.Truncate(1 << 40)
			}},
			{"manyfiles", "more than 20000 files and folders", true, func(dir string) error {
				return runnertest.ManyFiles(dir, 2*build.MaxSourceFiles, 1000)
			}},
		} {
			t.Run(a.name, func(t *testing.T) {
				tc := newTeacher(t, cred)
				tc.must(t, "ai", "edit", "bob", "--watch", "--db", tc.db)
				dir := filepath.Join(tc.home, "students", a.name)
				copyStudent(t, "pycompile", dir)
				os.Remove(filepath.Join(dir, "py_compile.py"))
				if err := a.make(dir); err != nil {
					t.Fatal(err)
				}
				if tc.cred != nil {
					chownTree(dir, int(tc.cred.Uid))
				}
				before := tc.state(t)
				code, out, errs, hung := tc.run(t, time.Minute, "ai", "add", "--name", a.name, "--game", "grip", "--dir", dir, "--db", tc.db)
				t.Logf("ai add: exit %d\n%s%s", code, out, errs)
				said := out + errs
				if hung {
					t.Errorf("ai add of a folder with a %s hangs", a.name)
				}
				code, out, errs, hung = tc.run(t, time.Minute, "ai", "build", a.name, "--force", "--db", tc.db)
				t.Logf("ai build: exit %d\n%s%s", code, out, errs)
				said += out + errs
				if !a.fails {
					// What the revision is made of, and what was left out.
					_, out, errs, _ = tc.run(t, time.Minute, "ai", "show", a.name, "--db", tc.db)
					said += out + errs
				}
				switch {
				case hung:
					t.Errorf("ai build of a folder with a %s hangs", a.name)
				case a.fails && code == 0:
					t.Errorf("ai build of a folder with a %s succeeded", a.name)
				case !a.fails && code != 0:
					t.Errorf("ai build of a folder with a %s failed: the FIFO is not a source, to be left out", a.name)
				case !strings.Contains(strings.ToLower(said), a.want):
					t.Errorf("ringside does not name the problem (%q) in:\n%s", a.want, said)
				}
				// Each revision is a copy: none may hold the sparse file's
				// terabyte or the many files.
				for _, r := range must(filepath.Glob(filepath.Join(filepath.Dir(tc.db), "ringside-data", "revisions", a.name+"-*", "*"))) {
					if _, err := os.Lstat(filepath.Join(r, "weights.bin")); err == nil {
						t.Errorf("revision %s holds the sparse file", r)
					}
					if _, err := os.Lstat(filepath.Join(r, "cache")); err == nil {
						t.Errorf("revision %s holds the many files", r)
					}
				}
				tc.must(t, "ai", "build", "bob", "--force", "--db", tc.db)
				watchOut, stop := tc.startWatch(t)
				ais, _ := tc.ais(t)
				old, _ := aiNamed(ais, "bob")
				// bob's save; the test is the teacher's other student here.
				bobPy := filepath.Join(tc.home, "students", "bob", "bot.py")
				data, _ := os.ReadFile(bobPy)
				os.WriteFile(bobPy, append(data, []byte("# a save while "+a.name+" is watched\n")...), 0o644)
				if !waitFor(t, func() bool {
					ais, _ := tc.ais(t)
					bob, _ := aiNamed(ais, "bob")
					return bob.Current != old.Current
				}) {
					t.Errorf("ringside watch did not rebuild bob's save while %s's folder was watched:\n%s", a.name, watchOut())
				}
				stop()
				os.WriteFile(bobPy, data, 0o644)
				tc.must(t, "ai", "build", "bob", "--db", tc.db)
				after := tc.state(t)
				before.bob, before.files = after.bob, after.files
				tc.check(t, before, dir)
			})
		}
	})
}
