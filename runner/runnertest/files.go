package runnertest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// WriteFiles creates files (relative slash paths → contents) under dir,
// with the folders they need. A content starting with "#!" makes the file
// executable, so a test can write a script bot in one go.
//
// Each file appears whole: it is written aside and renamed in, as an
// editor that saves atomically does. Written in place, a file is empty for
// a moment, and a watcher on a busy machine could build that moment (an
// empty bot.py compiles) as a revision of its own.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") {
			mode = 0o755
		}
		if err := writeWhole(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// writeWhole writes a file aside, in the temporary folder (outside any
// folder a test watches), and renames it to p; where the two are on
// different file systems it writes p in place.
func writeWhole(p string, content []byte, mode os.FileMode) error {
	f, err := os.CreateTemp("", "writefiles-*")
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Rename(f.Name(), p); err == nil {
			return nil
		}
	}
	os.Remove(f.Name())
	if errors.Is(err, syscall.EXDEV) {
		return os.WriteFile(p, content, mode)
	}
	return fmt.Errorf("write %s: %w", p, err)
}

// NeedPython skips t when python3 is not installed.
func NeedPython(t testing.TB) { NeedTool(t, "python3") }

// NeedTool skips t when program is not installed.
func NeedTool(t testing.TB, program string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s is not installed: this test needs it", program)
	}
}

// GoBuild builds the Go program at src (a folder or a file) into out; its
// error carries the compiler's output.
func GoBuild(out, src string) error {
	if b, err := exec.Command("go", "build", "-o", out, src).CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: %w\n%s", src, err, b)
	}
	return nil
}

// ManyFiles fills dir with n empty files, perFolder to a subfolder
// (cache/0, cache/1, …) or all in dir itself when perFolder is 0: the
// folder of a student who would hold every build up by its size. The
// files are hard links to one empty file: to a folder's walker each is
// a file like any other, but a link costs the disk no inode, and
// creating 200,000 inodes took this ext4 a minute of system time
// against about a second for the links. A new file starts every 60,000
// links: ext4 allows a file 65,000.
func ManyFiles(dir string, n, perFolder int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var first string
	for i := range n {
		d := dir
		if perFolder > 0 {
			d = filepath.Join(dir, "cache", fmt.Sprint(i/perFolder))
			if i%perFolder == 0 {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
		}
		p := filepath.Join(d, fmt.Sprintf("f%06d", i))
		if i%60_000 == 0 {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			first = p
			continue
		}
		if err := os.Link(first, p); err != nil {
			return fmt.Errorf("make file %d of %d: %w", i+1, n, err)
		}
	}
	return nil
}

// PythonFirst puts the folder of the first python3 on PATH that is a
// program, not a script, first on PATH, for the tests of a package whose
// bots are Python programs. A version manager's shim (pyenv's: a bash
// script that runs more bash) costs every start of a bot about 80 ms of
// CPU, which hundreds of games multiply. So can the interpreter the shim
// chooses: this machine's pyenv Python starts in 60 ms of CPU (a .pth
// file of its site-packages imports certifi) against 10 ms for the
// system's /usr/bin/python3. The tests need a python3, not the
// developer's chosen one: .ci/run installs the system's. Without a
// python3 program on PATH, PATH stays as it is.
func PythonFirst() {
	dirs := filepath.SplitList(os.Getenv("PATH"))
	for i, dir := range dirs {
		if dir == "" || !isProgram(filepath.Join(dir, "python3")) {
			continue
		}
		if i > 0 {
			os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
		return
	}
}

// isProgram tells whether path is an executable file that is not a
// script ("#!").
func isProgram(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return false
	}
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return n == 2 && string(head) != "#!"
}

// ShareUserCache makes the user's cache folder that of every program the
// tests start with a home folder of their own, unless a test names
// another: a Go AI's first build is given the standard library compiled
// once into that folder (runner/build's seed, 16 to 23 s of CPU to make),
// and a fresh home would make it again for each such program. A program
// run as another user must be given a cache folder of its own.
func ShareUserCache() {
	if os.Getenv("XDG_CACHE_HOME") != "" {
		return
	}
	if dir, err := os.UserCacheDir(); err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
}

// ParallelWaiters lets n tests run side by side (at least as many as
// the machine has cores, -test.parallel's default) unless the command
// line sets -test.parallel: for a package whose parallel tests mostly
// wait (for deadlines, logins, bots thinking, other programs) rather
// than compute, which with one test a core leave the cores idle. Call
// it in TestMain, before m.Run.
func ParallelWaiters(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(n, runtime.GOMAXPROCS(0))))
	}
}
