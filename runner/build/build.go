package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"ringside/runner"
	"ringside/runner/sandbox"
)

// ignoredDirs are folders that never hold sources: version control, caches,
// editor settings.
var ignoredDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "__pycache__": true,
	".idea": true, ".vscode": true, ".mypy_cache": true, ".pytest_cache": true}

// outputDirs hold what builds make (javac -d out, cargo's target).
var outputDirs = map[string]bool{"out": true, "target": true}

// Ignored reports whether a path of a source folder (relative, with
// slashes) is left out of hashes, copies and watching: version control,
// caches and editor temporary or backup files always; and, when the AI has
// a build command, the build's usual outputs (bot, out/, target/, *.class,
// *.o), which the build makes again.
func Ignored(rel string, isDir, building bool) bool {
	base := path.Base(rel)
	if isDir {
		return ignoredDirs[base] || (building && outputDirs[base])
	}
	switch {
	case strings.HasSuffix(base, "~"), // vim, emacs backups
		strings.HasPrefix(base, ".") && (strings.HasSuffix(base, ".swp") || strings.HasSuffix(base, ".swo") ||
			strings.HasSuffix(base, ".swx")), // vim swap files
		strings.HasPrefix(base, ".#"),                                // emacs lock links
		strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"), // emacs autosaves
		base == "4913", // vim's "can I write here" probe
		strings.HasSuffix(base, ".tmp"), strings.HasPrefix(base, ".goutputstream-"),
		base == ".DS_Store", strings.HasSuffix(base, ".pyc"):
		return true
	}
	if building {
		return rel == "bot" || strings.HasSuffix(base, ".class") || strings.HasSuffix(base, ".o")
	}
	return false
}

// SourceHash is the content hash of an AI's sources: SHA-256 over the build
// and run commands and, in sorted order, every file's relative path, kind
// and contents, leaving out what the folder's Filter leaves out. Two
// folders with the same hash build the same revision.
func SourceHash(dir, build, run string) (string, error) {
	f, err := NewFilter(dir, build, run)
	if err != nil {
		return "", err
	}
	return hashTree(dir, build, run, f)
}

func hashTree(dir, build, run string, sk *Filter) (string, error) {
	type entry struct {
		rel  string
		mode fs.FileMode
	}
	var files []entry
	err := walkTree(dir, sk.Skip, func(rel string, d fs.DirEntry) error {
		// The kind from the folder listing: no stat of each file, so a
		// folder over the count cap fails before its files are looked at.
		if t := d.Type(); !t.IsDir() && (t.IsRegular() || t&fs.ModeSymlink != 0) {
			files = append(files, entry{rel, t})
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", dir, err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	h := sha256.New()
	fmt.Fprintf(h, "ringside-sources/1\x00build %s\x00run %s\x00", build, run)
	var b budget
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.rel))
		if f.mode&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return "", fmt.Errorf("hash %s: %w", p, err)
			}
			fmt.Fprintf(h, "link %s\x00%s\x00", f.rel, target)
			continue
		}
		fl, info, err := openRegular(p)
		if errors.Is(err, errNotRegular) {
			continue // swapped for a pipe or a link since listed: not a source
		}
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
		fmt.Fprintf(h, "file %s\x00%d\x00", f.rel, info.Mode().Perm()&0o100)
		err = readCapped(&b, f.rel, fl, info, h)
		fl.Close()
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyTree copies the sources of src into dst (which exists), keeping
// symbolic links as links and the executable bits. Only regular files are
// opened (pipes, sockets and devices are not sources), within the caps:
// the folder may have changed since it was hashed.
func copyTree(src, dst string, sk *Filter) error {
	var b budget
	return walkTree(src, sk.Skip, func(rel string, d fs.DirEntry) error {
		p, to := filepath.Join(src, rel), filepath.Join(dst, filepath.FromSlash(rel))
		switch t := d.Type(); {
		case t.IsDir():
			return os.Mkdir(to, 0o755)
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case t.IsRegular():
			return copyFile(&b, rel, p, to)
		}
		return nil // sockets, pipes, devices: not sources
	})
}

// copyFile copies one regular file (refusing anything else, see
// openRegular) with its executable bits, counting it against b. A sparse
// file is copied as the bytes it reads as, so the caps count it whole.
func copyFile(b *budget, rel, from, to string) error {
	in, info, err := openRegular(from)
	if errors.Is(err, errNotRegular) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if err := readCapped(b, rel, in, info, out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BuildSpec is one build of an AI's sources.
type BuildSpec struct {
	SourceDir string
	BuildCmd  string // "" when nothing needs building: the sources are kept as they are
	RunCmd    string // checked after the build: its program must exist
	// OutDir is the AI's revisions folder; a successful build lands in
	// OutDir/<hash[:12]>, and the build itself runs in a temporary folder
	// beside it, so the source folder never sees a build output.
	OutDir  string
	Timeout time.Duration // 0 means DefaultBuildTimeout
	// Known, when set, reports whether a successful revision with this
	// content hash exists already; then nothing is built.
	Known func(hash string) bool
}

// BuildResult is what a build did.
type BuildResult struct {
	Hash      string
	Unchanged bool // Known(Hash) was true: nothing was built
	OK        bool
	Log       string        // the build's output (its end, BuildLogMax at most) with Ringside's remarks
	Dir       string        // the revision's folder when OK: run the run command there
	Took      time.Duration // the build command's wall time
	// Digest is the sealed revision folder's (see Seal, VerifyRevision),
	// when OK and not Unchanged.
	Digest string
}

// Build copies the sources to a fresh folder, hashes them, and unless the
// hash is known runs the build command there (split like a shell would, not
// run through one; words with * ? [ are expanded against the copied files,
// ** standing for any number of folders). The command runs in its own
// process group, killed whole on timeout or when ctx ends. A build that
// fails is a result with OK false and the compiler's output in Log; the
// error is for problems with the set-up (no source folder, a full disk).
func Build(ctx context.Context, spec BuildSpec) (BuildResult, error) {
	if st, err := os.Stat(spec.SourceDir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return BuildResult{}, fmt.Errorf("build: source folder %s: %w", spec.SourceDir, notFoundHint(err))
	}
	sk, err := NewFilter(spec.SourceDir, spec.BuildCmd, spec.RunCmd)
	if err != nil {
		return BuildResult{}, fmt.Errorf("build: %w", err)
	}
	// Hashed in place first, within the caps: unchanged sources (most
	// saves that touch nothing the bot is made of) copy nothing.
	if spec.Known != nil {
		hash, err := hashTree(spec.SourceDir, spec.BuildCmd, spec.RunCmd, sk)
		if err != nil {
			return BuildResult{}, fmt.Errorf("build: %w", err)
		}
		if spec.Known(hash) {
			return BuildResult{Hash: hash, Unchanged: true, OK: true}, nil
		}
	}
	if err := os.MkdirAll(spec.OutDir, 0o755); err != nil {
		return BuildResult{}, fmt.Errorf("build: revisions folder: %w", err)
	}
	cleanStale(spec.OutDir)
	tmp, err := os.MkdirTemp(spec.OutDir, ".build-")
	if err != nil {
		return BuildResult{}, fmt.Errorf("build: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(tmp)
		}
	}()
	if err := copyTree(spec.SourceDir, tmp, sk); err != nil {
		return BuildResult{}, fmt.Errorf("build: copy %s: %w", spec.SourceDir, err)
	}
	// The copy is what gets built, so its hash is the revision's even if
	// the folder changed meanwhile.
	hash, err := hashTree(tmp, spec.BuildCmd, spec.RunCmd, sk)
	if err != nil {
		return BuildResult{}, fmt.Errorf("build: %w", err)
	}
	if spec.Known != nil && spec.Known(hash) {
		// Changed back between the two looks.
		return BuildResult{Hash: hash, Unchanged: true, OK: true}, nil
	}
	res := BuildResult{Hash: hash}
	res.Log, res.OK, res.Took = buildCopy(ctx, tmp, spec)
	// The compiler saw the copy; the student knows the source folder.
	res.Log = runner.ShowPaths(res.Log, tmp, spec.SourceDir)
	if !res.OK {
		return res, nil
	}
	dest := filepath.Join(spec.OutDir, hash[:12])
	if _, err := os.Lstat(dest); err == nil {
		// Left by a build whose revision was never stored (a lost database,
		// a crash): the new copy replaces it.
		if err := RemoveRevision(dest); err != nil {
			return BuildResult{}, fmt.Errorf("build: replace %s: %w", dest, err)
		}
	}
	if err := os.Rename(tmp, dest); err != nil {
		return BuildResult{}, fmt.Errorf("build: keep revision: %w", err)
	}
	keep = true
	res.Dir = dest
	if res.Digest, err = Seal(dest); err != nil {
		return BuildResult{}, fmt.Errorf("build: %w", err)
	}
	return res, nil
}

// buildCopy runs spec's build command in tmp, the sources' copy, or checks
// the scripts' syntax when there is none, then checks that the run
// command's program can run there. It returns the log, whether all went
// well, and the build's wall time.
func buildCopy(ctx context.Context, tmp string, spec BuildSpec) (string, bool, time.Duration) {
	var log strings.Builder
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultBuildTimeout
	}
	began := time.Now()
	var out string
	var ok bool
	if strings.TrimSpace(spec.BuildCmd) == "" {
		if c := ScriptCheck(spec.RunCmd); c != "" {
			fmt.Fprintf(&log, "nothing to build; the scripts' syntax is checked with %s\n", c)
		} else {
			log.WriteString("nothing to build: the sources run as they are\n")
		}
		out, ok = checkScripts(ctx, tmp, spec.RunCmd, timeout)
	} else {
		out, ok = runBuild(ctx, tmp, spec.BuildCmd, timeout)
	}
	log.WriteString(out)
	took := time.Since(began)
	if ok {
		if argv, err := runner.Split(spec.RunCmd); err != nil {
			fmt.Fprintf(&log, "the run command cannot be read: %v\n", err)
			ok = false
		} else if !strings.HasPrefix(strings.TrimSpace(spec.RunCmd), runner.BuiltinPrefix) {
			if err := runner.CheckRun(tmp, argv, false); err != nil {
				fmt.Fprintf(&log, "the build finished, but the program cannot run: %v\n", err)
				ok = false
			}
		}
	}
	return log.String(), ok, took
}

// cleanStale removes build folders left behind by a crash an hour or more
// ago; younger ones may belong to a build still running elsewhere.
func cleanStale(outDir string) {
	entries, err := os.ReadDir(outDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".build-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.RemoveAll(filepath.Join(outDir, e.Name()))
		}
	}
}

// runBuild runs a build command in dir and returns its log and whether it
// succeeded. The build runs contained (runStep): it may write dir and the
// AI's build cache beside it, nothing else.
func runBuild(ctx context.Context, dir, command string, timeout time.Duration) (string, bool) {
	argv, err := runner.Split(command)
	if err != nil {
		return fmt.Sprintf("the build command cannot be read: %v\n", err), false
	}
	argv, err = expandGlobs(dir, argv)
	if err != nil {
		return fmt.Sprintf("the build command cannot be expanded: %v\n", err), false
	}
	out := runner.NewTail(BuildLogMax)
	fmt.Fprintf(out, "$ %s\n", command)
	cache, err := buildCache(dir)
	if err != nil {
		fmt.Fprintf(out, "%v\n", err)
		return out.String(), false
	}
	seedGoCache(ctx, argv, cache, timeout)
	step := step{dir: dir, argv: argv, env: cacheEnv(cache), write: []string{dir, cache}}
	if !runStep(ctx, step, timeout, out) {
		return out.String(), false
	}
	if size, err := folderSize(dir); err != nil {
		fmt.Fprintf(out, "measure the build folder: %v\n", err)
		return out.String(), false
	} else if size > BuildFolderMax {
		fmt.Fprintf(out, "the build left %s in its folder, more than the %s a revision may take: "+
			"leave big files out of the folder (or out of the build, with a line in %s)\n",
			sandbox.Size(size), sandbox.Size(BuildFolderMax), IgnoreFile)
		return out.String(), false
	}
	return out.String(), true
}

// cacheDir is the AI's build cache in its revisions folder.
const cacheDir = ".cache"

// buildCache is the AI's own build cache: Go's build and module caches,
// Gradle's, the XDG cache. The build folder is made in the AI's revisions
// folder (Build), so the cache is the .cache folder beside it: one per AI,
// never shared with another student's builds, kept between builds so a
// Go build compiles only what changed. A cache grown past buildCacheMax
// is emptied first.
func buildCache(dir string) (string, error) {
	cache := filepath.Join(filepath.Dir(dir), cacheDir)
	if size, err := folderSize(cache); err == nil && size > buildCacheMax {
		_ = os.RemoveAll(cache)
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", fmt.Errorf("make the AI's build cache: %w", err)
	}
	if err := os.Chmod(cache, 0o700); err != nil {
		return "", fmt.Errorf("make the AI's build cache: %w", err)
	}
	return cache, nil
}

// cacheEnv is the environment of a build with the AI's cache: every tool
// keeps its cache there instead of in the teacher's home folder (hidden
// from the build), and Go never reaches for the network or another
// toolchain.
func cacheEnv(cache string) []string {
	return []string{
		"GOCACHE=" + filepath.Join(cache, "go-build"),
		"GOMODCACHE=" + filepath.Join(cache, "go-mod"),
		"GOPATH=" + filepath.Join(cache, "go"),
		// The build folder may sit inside somebody's repository; Go
		// would try to stamp that repository's version into the bot.
		"GOFLAGS=-buildvcs=false",
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOSUMDB=off", "GOTELEMETRY=off",
		// go build runs as many compilers as GOMAXPROCS, each with
		// about as many threads: on a machine with many cores that
		// would pass the build's process cap, which counts threads.
		"GOMAXPROCS=" + strconv.Itoa(buildGoProcs),
		"GRADLE_USER_HOME=" + filepath.Join(cache, "gradle"),
		"XDG_CACHE_HOME=" + filepath.Join(cache, "xdg"),
		"npm_config_cache=" + filepath.Join(cache, "npm"),
		"CARGO_HOME=" + filepath.Join(cache, "cargo"),
		"PYTHONPYCACHEPREFIX=" + filepath.Join(cache, "pycache"),
	}
}

// folderSize is the space the files below dir take: the larger of their
// length and their allocated blocks, so neither a sparse file nor a
// file's slack hides from it. Links are not followed.
func folderSize(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n := info.Size()
		n = max(n, allocated(info))
		total += n
		return nil
	})
	return total, err
}

// ScriptCheck says how the sources of an AI with nothing to build are
// checked before they may play, from its run command: "python3 -m
// py_compile" for Python, "node --check" for JavaScript, "" for the rest.
func ScriptCheck(run string) string {
	interp, _ := scriptInterp(run)
	switch interp {
	case "":
		return ""
	case "node":
		return "node --check"
	}
	return interp + " -m py_compile"
}

// scriptInterp is the interpreter that checks a run command's scripts and
// the extensions of the files it checks.
func scriptInterp(run string) (string, []string) {
	argv, err := runner.Split(run)
	if err != nil || len(argv) == 0 {
		return "", nil
	}
	base := filepath.Base(argv[0])
	switch {
	case strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy"):
		return argv[0], []string{".py"}
	case strings.HasSuffix(base, ".py"):
		return "python3", []string{".py"}
	case base == "node" || base == "nodejs":
		return argv[0], []string{".js", ".mjs", ".cjs"}
	case strings.HasSuffix(base, ".js"):
		return "node", []string{".js", ".mjs", ".cjs"}
	}
	return "", nil
}

// checkScripts is the build of interpreted languages: a syntax check of
// every script in dir (python3 -I -S -m py_compile, node --check), so a script
// that cannot even be read by its interpreter never becomes the revision
// that plays. Python's byte code goes to a temporary folder, never into
// the sources.
func checkScripts(ctx context.Context, dir, run string, timeout time.Duration) (string, bool) {
	interp, exts := scriptInterp(run)
	if interp == "" {
		return "", true
	}
	var files []string
	skip := func(rel string, isDir bool) bool {
		// Installed packages are not the student's scripts, and checking
		// thousands of them would make every save slow.
		return Ignored(rel, isDir, false) || (isDir && (path.Base(rel) == "node_modules" || path.Base(rel) == "venv" ||
			path.Base(rel) == ".venv" || path.Base(rel) == "site-packages"))
	}
	err := walkTree(dir, skip, func(rel string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			for _, e := range exts {
				if strings.HasSuffix(rel, e) {
					files = append(files, rel)
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Sprintf("list the scripts to check: %v\n", err), false
	}
	if len(files) == 0 {
		return "", true
	}
	sort.Strings(files)
	out := runner.NewTail(BuildLogMax)
	// The checker runs contained, in its own scratch folder, and is
	// given the scripts by absolute path: nothing of the student's folder
	// is on its module path, so a student file named py_compile.py is
	// checked, never run. It may read the folder, not write it.
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i] = filepath.Join(dir, filepath.FromSlash(f))
	}
	if exts[0] == ".py" {
		// Byte code goes to a folder of its own, never into the
		// sources. -I (isolated) leaves out the working folder, the
		// user's site-packages and every PYTHON* variable, so the
		// folder is named with -X. -S skips site, which compiling does
		// not need: a system's .pth files can import whole packages at
		// every start (a third of the check's time on some machines).
		cache, err := os.MkdirTemp("", "ringside-pycache-")
		if err != nil {
			return fmt.Sprintf("check the Python syntax: %v\n", err), false
		}
		defer os.RemoveAll(cache)
		shown := append([]string{interp, "-I", "-S", "-m", "py_compile"}, files...)
		fmt.Fprintf(out, "$ %s\n", strings.Join(quoteAll(shown), " "))
		argv := append([]string{interp, "-I", "-S", "-X", "pycache_prefix=" + cache, "-m", "py_compile"}, abs...)
		if !runStep(ctx, step{argv: argv, read: []string{dir}, write: []string{cache}}, timeout, out) {
			fmt.Fprintf(out, "a script does not compile: fix it (the file and line are named above), or, if the bot never uses it, leave it out with a line in %s\n", IgnoreFile)
			return out.String(), false
		}
		return out.String(), true
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for i, f := range files {
		fmt.Fprintf(out, "$ %s\n", strings.Join(quoteAll([]string{interp, "--check", f}), " "))
		if !runStep(ctx, step{argv: []string{interp, "--check", abs[i]}, read: []string{dir}}, timeout, out) {
			fmt.Fprintf(out, "%s does not parse: fix it (the line is named above), or, if the bot never uses it, leave it out with a line in %s\n", f, IgnoreFile)
			return out.String(), false
		}
	}
	return out.String(), true
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = runner.QuoteWord(w)
	}
	return out
}

// step is one program of a build: where it runs, what it may write
// (besides its scratch folder) and read (besides the system's and the
// toolchains'), and its environment beyond the allow-listed one.
type step struct {
	dir         string // "" runs it in its scratch folder
	argv, env   []string
	read, write []string
}

// runStep runs one program of a build contained, as a bot runs: under
// the launcher, with the allow-listed environment, HOME a scratch folder
// of its own, the teacher's session folders hidden, no network, the build
// caps and a lower priority; its output goes to out. It says whether the
// program succeeded.
func runStep(ctx context.Context, st step, timeout time.Duration, out io.Writer) bool {
	argv := st.argv
	if !strings.Contains(argv[0], "/") {
		if _, err := exec.LookPath(argv[0]); err != nil {
			fmt.Fprintf(out, "%v\n", runner.MissingProgram(argv[0], "build"))
			return false
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	began := time.Now()
	exit, limit, err := runner.RunContained(ctx, runner.Contained{
		Argv: argv, Dir: st.dir, Env: append(toolchainEnv(), st.env...), Read: append(toolchainRead(), st.read...), Write: st.write,
		Limits: sandbox.Limits{Memory: buildMemory, Processes: buildProcesses, CPU: timeout, FileSize: buildFileSize,
			Scratch: buildScratch, OpenFiles: buildOpenFiles, WatchEvery: runner.DefaultLimits.WatchEvery},
		Nice: buildNice, Stdout: out, Stderr: out,
	})
	took := time.Since(began).Round(10 * time.Millisecond)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(out, "\nbuild stopped: it took longer than %v\n", timeout)
		return false
	case ctx.Err() != nil:
		fmt.Fprintf(out, "\nbuild stopped: cancelled\n")
		return false
	case err != nil:
		fmt.Fprintf(out, "\nbuild failed: %v\n", err)
		return false
	case limit != "":
		fmt.Fprintf(out, "\nbuild failed after %v: %s; %s\n", took, limit, exit)
		return false
	case exit != "exit status 0":
		fmt.Fprintf(out, "\nbuild failed after %v: %s\n", took, exit)
		return false
	}
	fmt.Fprintf(out, "\nbuild ok in %v\n", took)
	return true
}

// rustupHome is where rustup keeps its toolchains (RUSTUP_HOME, or
// ~/.rustup), "" without rustup.
func rustupHome() string {
	dir := os.Getenv("RUSTUP_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".rustup")
	}
	if st, err := os.Stat(filepath.Join(dir, "toolchains")); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// toolchainRead are the toolchains' folders outside the system's a build
// reads: Go's installation, rustup's toolchains, its settings (which one
// is the default) and the folder of hashes it insists on finding — never
// the rest of ~/.rustup or ~/.cargo's credentials.
func toolchainRead() []string {
	read := goRoot()
	if r := rustupHome(); r != "" {
		read = append(read, filepath.Join(r, "toolchains"), filepath.Join(r, "settings.toml"), filepath.Join(r, "update-hashes"))
	}
	return read
}

// toolchainEnv tells the toolchains where they are now that HOME is the
// build's scratch folder: rustup's proxies (cargo, rustc) find their
// toolchains through RUSTUP_HOME. Cargo works offline, with its registry
// in the AI's cache (cacheEnv) instead of ~/.cargo.
func toolchainEnv() []string {
	var env []string
	if r := rustupHome(); r != "" {
		env = append(env, "RUSTUP_HOME="+r)
	}
	return append(env, "CARGO_NET_OFFLINE=true")
}

// goRoot is the Go installation of the go on PATH when it lies outside
// the system's folders (/usr/local/go is inside them; ~/sdk/go1.24 is
// not): a build reads its standard library. Where PATH names its bin
// folder, toolRoots grants it already; a go linked into ~/bin does not.
func goRoot() []string {
	p, err := exec.LookPath("go")
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	root := filepath.Dir(filepath.Dir(p))
	if _, err := os.Stat(filepath.Join(root, "src", "runtime")); err != nil || root == "/" || root == "/usr" {
		return nil
	}
	return []string{root}
}

// expandGlobs replaces each word with * ? or [ by the files it matches
// under dir, sorted, as a shell would (a word that matches nothing stays
// as it is). "**" matches any number of folders. Words with blanks are
// left alone: they are scripts for "sh -c". A match whose name a program
// could take for an option ("-toolexec=sh t.go", "@opts.c") is given as
// "./name" (asFile).
func expandGlobs(dir string, argv []string) ([]string, error) {
	out := []string{argv[0]}
	for _, w := range argv[1:] {
		if !strings.ContainsAny(w, "*?[") || strings.ContainsAny(w, " \t\n") || filepath.IsAbs(w) {
			out = append(out, w)
			continue
		}
		pattern := path.Clean(filepath.ToSlash(w))
		var matches []string
		skip := func(rel string, isDir bool) bool {
			return isDir && (ignoredDirs[path.Base(rel)] || outputDirs[path.Base(rel)])
		}
		err := walkTree(dir, skip, func(rel string, d fs.DirEntry) error {
			if ok, err := globMatch(pattern, rel); err != nil {
				return err
			} else if ok {
				matches = append(matches, asFile(rel))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w, err)
		}
		if len(matches) == 0 {
			out = append(out, w)
			continue
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

// globMatch matches a slash path against a pattern whose "**" segments
// stand for zero or more folders. The pattern is cut at slashes before
// matching, so a backslash cannot escape a slash.
func globMatch(pattern, name string) (bool, error) {
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	var match func(i, j int) (bool, error)
	match = func(i, j int) (bool, error) {
		if i == len(ps) {
			return j == len(ns), nil
		}
		if ps[i] == "**" {
			for k := j; k <= len(ns); k++ {
				if ok, err := match(i+1, k); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if j == len(ns) {
			return false, nil
		}
		ok, err := path.Match(ps[i], ns[j])
		if !ok || err != nil {
			return false, err
		}
		return match(i+1, j+1)
	}
	return match(0, 0)
}
