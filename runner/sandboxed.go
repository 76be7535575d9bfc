package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"ringside/runner/sandbox"
)

// Sandbox is how a match or an event contains its bots.
type Sandbox struct {
	// Trusted runs every bot without the sandbox: with Ringside's own
	// rights and environment. Shown in standings and replays.
	Trusted bool
	// Limits overrides DefaultLimits for every bot (a bot's own Limits
	// win over these); nil keeps the defaults.
	Limits *sandbox.Limits
	// PretendNoLandlock runs bots as on a kernel without Landlock, to
	// test and to show what the degraded sandbox does. The environment
	// variable RINGSIDE_SANDBOX_PRETEND=no-landlock sets it for every
	// match of the process (the command line and the app).
	PretendNoLandlock bool
}

// pretendNoLandlock tells whether Landlock is to be pretended absent.
func (sb Sandbox) pretendNoLandlock() bool {
	return sb.PretendNoLandlock || os.Getenv("RINGSIDE_SANDBOX_PRETEND") == "no-landlock"
}

// SandboxStatus says in plain words how bots are contained on this
// machine: its first line is the summary for the app and an event's log,
// the rest what is missing and why.
func SandboxStatus(sb Sandbox) (sandbox.Level, string) {
	if sb.Trusted {
		return sandbox.Off, "Sandbox: off — trusted: bots run with your full rights, environment and files"
	}
	exe, err := botsBinary()
	if err != nil {
		return sandbox.Off, "Sandbox: off — cannot find the ringside binary to start bots through: " + err.Error()
	}
	return sandbox.Status(exe, sb.pretendNoLandlock())
}

// envAllowed are the variables of Ringside's environment a sandboxed bot
// gets; everything else of the teacher's desktop session stays out.
var envAllowed = []string{"PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "TZ",
	"JAVA_HOME", "PYENV_ROOT", "PYENV_VERSION"}

// sandboxEnv is a sandboxed bot's whole environment: the allow-list,
// HOME and TMPDIR in its scratch folder, then the bot's own variables
// (RINGSIDE_* of its game).
func sandboxEnv(extra []string, scratch string) []string {
	var env []string
	for _, k := range envAllowed {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("PATH"); !ok {
		env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin")
	}
	env = append(env, "HOME="+scratch, "TMPDIR="+scratch, "TMP="+scratch, "TEMP="+scratch)
	return append(env, extra...)
}

// toolRoots are what a bot's interpreter may need to read of the folders
// on PATH outside the system's own (pyenv, rustup, a Go, JDK or Node
// install in the home folder). A PATH folder gives itself — never its
// parent, which may hold credentials and caches (~/.cargo holds
// credentials.toml and the registry cache) — except for the known
// toolchains, which give the subfolders their programs run from and
// nothing else (toolchainRoots). A folder that is the home folder, a
// data or settings folder, or holds one, gives nothing; nor does one
// that holds or is inside a protected path (Protect).
func toolRoots() []string {
	private := privateFolders()
	var roots []string
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		for _, root := range toolchainRoots(d) {
			if seen[root] || holdsAny(root, private) {
				continue
			}
			seen[root] = true
			roots = append(roots, root)
		}
	}
	return unprotected(roots)
}

// toolchainRoots are the paths one PATH folder d gives: d itself, or, for
// a toolchain whose programs on PATH are stubs that run the real ones
// from elsewhere in it, those places too.
func toolchainRoots(d string) []string {
	parent := filepath.Dir(d)
	base := filepath.Base(d)
	switch {
	case pyenvRoot(d) != "":
		// A pyenv shim is a bash script that runs libexec/pyenv, which
		// reads the version file, its hooks and plugins and runs the
		// interpreter from versions/.
		root := pyenvRoot(d)
		var out []string
		for _, sub := range []string{"bin", "shims", "libexec", "plugins", "pyenv.d", "versions", "version"} {
			out = append(out, filepath.Join(root, sub))
		}
		return out
	case base == "bin" && (filepath.Base(parent) == ".cargo" || parent == cleanEnv("CARGO_HOME")):
		// rustup's proxies in ~/.cargo/bin run the toolchain in
		// ~/.rustup/toolchains chosen by settings.toml; ~/.cargo's
		// credentials and registry cache stay out.
		rustup := cleanEnv("RUSTUP_HOME")
		if rustup == "" {
			rustup = filepath.Join(filepath.Dir(parent), ".rustup")
		}
		return []string{d, filepath.Join(rustup, "toolchains"), filepath.Join(rustup, "settings.toml")}
	case base == "bin" && isGoroot(parent):
		// A Go installation (/usr/local/go, ~/sdk/go1.22): go run
		// needs its tools, the standard library's sources and go.env.
		var out []string
		for _, sub := range []string{"bin", "pkg", "src", "lib", "go.env", "VERSION"} {
			out = append(out, filepath.Join(parent, sub))
		}
		return out
	case base == "bin" && (underLayout(parent, ".sdkman", "candidates", "*", "*") ||
		underLayout(parent, ".nvm", "versions", "*", "*")):
		// sdkman's candidates/java/current/bin and nvm's
		// versions/node/v22.1.0/bin: the version folder holds the
		// runtime (lib/, the JDK's modules) the programs in bin load.
		out := []string{parent}
		if real, err := filepath.EvalSymlinks(parent); err == nil && real != parent {
			out = append(out, real) // sdkman's current is a link to the version
		}
		return out
	}
	return []string{d}
}

// cleanEnv is the environment variable k as a clean absolute path, or "".
func cleanEnv(k string) string {
	if v := os.Getenv(k); filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return ""
}

// pyenvRoot is the pyenv installation PATH folder d belongs to (its
// shims or bin, or a plugin's), or "".
func pyenvRoot(d string) string {
	for _, root := range []string{cleanEnv("PYENV_ROOT"), pyenvAncestor(d)} {
		if root == "" {
			continue
		}
		rel, err := filepath.Rel(root, d)
		if err != nil {
			continue
		}
		parts := strings.Split(rel, string(filepath.Separator))
		switch {
		case len(parts) == 1 && (parts[0] == "shims" || parts[0] == "bin"):
			return root
		case len(parts) == 3 && parts[0] == "plugins" && (parts[2] == "shims" || parts[2] == "bin"):
			return root
		}
	}
	return ""
}

// pyenvAncestor is the nearest folder named .pyenv holding d, or "".
func pyenvAncestor(d string) string {
	for p := d; p != "/" && p != "."; p = filepath.Dir(p) {
		if filepath.Base(p) == ".pyenv" {
			return p
		}
	}
	return ""
}

// isGoroot tells whether dir is a Go installation: bin/go beside the
// standard library's sources.
func isGoroot(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "src", "runtime")); err != nil {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, "bin", "go"))
	return err == nil && st.Mode().IsRegular()
}

// underLayout tells whether dir ends in the folders names (a "*" matches
// any one name, not "." or "..").
func underLayout(dir string, names ...string) bool {
	for i := len(names) - 1; i >= 0; i-- {
		b := filepath.Base(dir)
		if b == "/" || b == "." || b == ".." || (names[i] != "*" && names[i] != b) {
			return false
		}
		dir = filepath.Dir(dir)
	}
	return true
}

// privateFolders are the folders a tool folder must never hold: the home
// folder and where programs keep their data and settings (Ringside's
// database and AIs are in ~/.local/share/ringside): ~/.local/bin on PATH
// gives ~/.local/bin, not ~/.local.
func privateFolders() []string {
	var dirs []string
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, home, filepath.Join(home, ".local", "share"), filepath.Join(home, ".config"))
	}
	for _, k := range []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME"} {
		if v := os.Getenv(k); filepath.IsAbs(v) {
			dirs = append(dirs, filepath.Clean(v))
		}
	}
	return dirs
}

// holdsAny tells whether dir is one of dirs or holds one of them.
func holdsAny(dir string, dirs []string) bool {
	for _, d := range dirs {
		if d == dir || strings.HasPrefix(d+"/", strings.TrimSuffix(dir, "/")+"/") {
			return true
		}
	}
	return false
}

// namedPaths are the existing paths on a bot's command line ("python3
// /home/t/bots/a.py", or "python3 a.py" relative to dir): naming them is
// the teacher's say-so that the bot may read them, except the home
// folder or what holds it, and a protected path (the database, its
// journal, the data folder: Protect) or what holds one.
func namedPaths(args []string, dir string) []string {
	home, _ := os.UserHomeDir()
	var paths []string
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if !filepath.IsAbs(a) {
			if dir == "" {
				continue
			}
			a = filepath.Join(dir, a)
		}
		a = filepath.Clean(a)
		if a == "/" || (home != "" && (a == home || strings.HasPrefix(home+"/", a+"/"))) {
			continue
		}
		if _, err := os.Stat(a); err == nil {
			paths = append(paths, a)
		}
	}
	return unprotected(paths)
}

// sweepScratchOnce sweeps the scratch folders left by dead Ringside
// processes at this one's first sandboxed start.
var sweepScratchOnce sync.Once

// scratchPattern names a bot's scratch folder after the Ringside process
// that makes it, so that a later one can tell whose it is (sweepScratch).
func scratchPattern() string { return fmt.Sprintf("%s%d-", scratchPrefix, os.Getpid()) }

// scratchPrefix begins every scratch folder's name, the owner's pid after it.
const scratchPrefix = "ringside-seat-"

// startSandboxed starts path under the launcher.
func startSandboxed(path string, argv []string, dir string, env []string, sb *sandboxSpec,
	stdin, stdout, stderr *os.File) (*sandbox.Launch, error) {
	exe, err := botsBinary()
	if err != nil {
		return nil, fmt.Errorf("find the ringside binary that starts sandboxed bots: %w", err)
	}
	sweepScratchOnce.Do(func() { go sweepScratch(os.TempDir()) })
	scratch, err := os.MkdirTemp("", scratchPattern())
	if err != nil {
		return nil, fmt.Errorf("make the bot's scratch folder: %w", err)
	}
	read := append(toolRoots(), path)
	ownDir := dir != "" // granted below, after the protected paths are dropped
	if !ownDir {
		// A bot without a folder ("python3 my_bot.py" on the command
		// line) runs where Ringside runs, as before; of that folder it
		// may read what its command line names, not the rest (it may
		// be the home folder).
		if cwd, err := os.Getwd(); err == nil {
			dir = cwd
		} else {
			dir = scratch
		}
	}
	read = append(read, namedPaths(argv[1:], dir)...)
	// A program reached through a symbolic link (/usr/bin/java →
	// /usr/lib/jvm/…) is read where it really is.
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		read = append(read, real)
	}
	// Nothing granted reaches the database or the data folder, not even
	// the program ("--bot /path/to/the.db"), except through the bot's
	// own revision folder, which lies inside the data folder and is
	// granted by itself.
	read = unprotected(read)
	if ownDir {
		read = append(read, dir)
	}
	pol := sandbox.Policy{
		Path: path, Args: argv, Dir: dir, Env: sandboxEnv(env, scratch),
		Scratch: scratch, Read: read, Hide: sessionFolders(), ConnectTCP: sb.connectTCP,
		Limits: sb.limits, NoLandlock: sb.noLandlock,
	}
	l := sandbox.NewLaunch(exe, pol)
	l.Accept = sb.accept
	if err := l.Start(stdin, stdout, stderr); err != nil {
		os.RemoveAll(scratch)
		return nil, err
	}
	return l, nil
}

// spec is the sandbox of one bot of a match, nil when it is trusted.
func (sb Sandbox) spec(b Bot) *sandboxSpec {
	if sb.Trusted || b.Trusted || !sandbox.Supported {
		return nil
	}
	lim := DefaultLimits
	if sb.Limits != nil {
		lim = *sb.Limits
	}
	if b.Limits != nil {
		lim = *b.Limits
	}
	if lim.WatchEvery == 0 {
		lim.WatchEvery = DefaultLimits.WatchEvery
	}
	return &sandboxSpec{limits: lim, noLandlock: sb.pretendNoLandlock()}
}

// caps are the limits of bot b where it runs outside the sandbox because
// this OS has none (sandbox.Supported false): the ones the sandbox would
// hold, for the OS to hold what it can (a Job Object on Windows). A bot
// run trusted by choice gets none, as on Linux.
func (sb Sandbox) caps(b Bot) sandbox.Limits {
	if sb.Trusted || b.Trusted || sandbox.Supported {
		return sandbox.Limits{}
	}
	lim := DefaultLimits
	if sb.Limits != nil {
		lim = *sb.Limits
	}
	if b.Limits != nil {
		lim = *b.Limits
	}
	return lim
}

// uncontained reports whether the seat's bot ran outside a sandbox this
// OS lacks (not trusted by choice), with the caps the OS can hold.
func (c *seatConn) uncontained() bool { return c.proc != nil && c.proc.launch == nil && c.capped }

// sandboxLevel says how the seat's bot is contained (Outcome.Sandbox).
func (c *seatConn) sandboxLevel() string {
	switch {
	case c.proc == nil:
		return ""
	case c.uncontained():
		return uncontainedLevel
	case c.proc.launch == nil:
		return "trusted"
	}
	f, ok := c.proc.launch.Features(launchReport)
	if !ok {
		return "on" // the launcher has not reported yet; it reports before the bot starts
	}
	level, _ := sandbox.Describe(f)
	return level.String()
}

// sandboxMissing is the first thing the seat's sandbox lacks.
func (c *seatConn) sandboxMissing() string {
	if c.proc == nil || c.proc.launch == nil {
		return ""
	}
	f, _ := c.proc.launch.Features(launchReport)
	_, text := sandbox.Describe(f)
	first, _, _ := strings.Cut(text, "\n")
	_, rest, _ := strings.Cut(first, "— ")
	return rest
}

// WeakSandbox tells whether bots that are not trusted would run here with
// their files unprotected against the worst: no Landlock (the kernel has
// none, or it is pretended absent), or a Landlock ABI below 3, which
// cannot stop truncate(2) (a bot could empty the database). missing says
// what lacks, in plain words; status is the whole sandbox status the
// teacher is shown when asked to accept it. A trusted match is never weak:
// its bots run without the sandbox by the teacher's own choice.
func WeakSandbox(sb Sandbox) (weak bool, missing, status string) {
	if sb.Trusted || !sandbox.Supported {
		return false, "", ""
	}
	exe, err := botsBinary()
	if err != nil {
		return false, "", "" // no bot can start either; that error is said where they start
	}
	f := sandbox.Probe(exe, sb.pretendNoLandlock())
	_, status = sandbox.Describe(f)
	switch {
	case f.Landlock == 0:
		first, _, _ := strings.Cut(status, "\n")
		_, missing, _ = strings.Cut(first, "this machine ")
		if missing == "" {
			missing = first
		}
		return true, "this machine " + missing, status
	case f.Landlock < 3:
		return true, fmt.Sprintf("this machine cannot stop bots from emptying your files, the database included "+
			"(Landlock ABI %d has no rule for truncate; ABI 3, Linux 6.2, has)", f.Landlock), status
	}
	return false, "", status
}
