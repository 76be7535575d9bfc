package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == LauncherArg {
		// This test binary is the launcher of its own tests' programs.
		Main()
	}
	os.Exit(m.Run())
}

// runContained runs a shell script under the launcher with p (Path,
// Args, Scratch and Limits filled in) and returns its output.
func runContained(t *testing.T, p Policy, script string) (stdout, stderr string, r Result) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p.Path, p.Args = "/bin/sh", []string{"sh", "-c", script}
	p.Scratch = t.TempDir()
	// 1 GiB: a launcher built with the race detector needs far more
	// than the tiny programs run here.
	p.Limits = Limits{Memory: 1 << 30, Processes: 64, CPU: 10 * time.Second, FileSize: 1 << 20, Scratch: 1 << 20, OpenFiles: 64}
	files := make([]*os.File, 3)
	for i, name := range []string{"stdin", "stdout", "stderr"} {
		if files[i], err = os.Create(filepath.Join(t.TempDir(), name)); err != nil {
			t.Fatal(err)
		}
		defer files[i].Close()
	}
	l := NewLaunch(exe, p)
	if err := l.Start(files[0], files[1], files[2]); err != nil {
		t.Fatal(err)
	}
	l.Wait()
	r = l.Finish()
	out, _ := os.ReadFile(files[1].Name())
	errs, _ := os.ReadFile(files[2].Name())
	return string(out), string(errs), r
}

// TestWriteFolderBoundBack runs a program the way a build runs (a folder
// it may write, one it may read, both under /tmp, which is hidden): it
// reads and writes them at their own paths, what it writes is there
// outside afterwards, and nothing else of /tmp is in its world. Without
// Landlock too: then the private view alone keeps /tmp's other files out
// of its world, and the folder it may only read is bound back read-only.
func TestWriteFolderBoundBack(t *testing.T) {
	for _, noLandlock := range []bool{false, true} {
		t.Run(map[bool]string{false: "landlock", true: "no-landlock"}[noLandlock], func(t *testing.T) {
			testWriteFolderBoundBack(t, noLandlock)
		})
	}
}

func testWriteFolderBoundBack(t *testing.T, noLandlock bool) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	base := t.TempDir()
	write, read, hidden := filepath.Join(base, "build"), filepath.Join(base, "src"), filepath.Join(base, "other")
	for _, d := range []string{write, read, hidden} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(read, "in"), []byte("source text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hidden, "secret"), []byte("not for it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker, err := os.CreateTemp("", "ringside-view-marker-")
	if err != nil {
		t.Fatal(err)
	}
	marker.Close()
	defer os.Remove(marker.Name())
	script := `echo built > "$W/out" || echo WRITE-FAILED
cat "$R/in"
ls -A /tmp | tr '\n' ' '; echo
test -e "$H/secret" && echo SEEN-HIDDEN
echo ok > "$R/out" 2>/dev/null && echo WROTE-READ-ONLY
exit 0`
	out, errs, r := runContained(t, Policy{Dir: write, Read: []string{read}, Write: []string{write}, NoLandlock: noLandlock,
		Env: []string{"PATH=/usr/bin:/bin", "W=" + write, "R=" + read, "H=" + hidden}}, script)
	t.Logf("stdout %q stderr %q exit %q features %+v", out, errs, r.Exit, r.Features)
	if !r.Features.PrivateTmp {
		t.Skipf("no private view here: %v", r.Features.Problems)
	}
	if r.Exit != "exit status 0" {
		t.Errorf("exit %q (%s), stderr %q", r.Exit, r.Failure, errs)
	}
	if data, err := os.ReadFile(filepath.Join(write, "out")); err != nil || string(data) != "built\n" {
		t.Errorf("what it wrote to its write folder: %q, %v (stdout %q)", data, err, out)
	}
	if !strings.Contains(out, "source text") {
		t.Errorf("could not read its read folder: %q", out)
	}
	for _, bad := range []string{"SEEN-HIDDEN", "WROTE-READ-ONLY", filepath.Base(marker.Name())} {
		if strings.Contains(out, bad) {
			t.Errorf("stdout has %q: %s", bad, out)
		}
	}
	if _, err := os.Stat(filepath.Join(read, "out")); err == nil {
		t.Errorf("it wrote into its read folder")
	}
	if noLandlock {
		// The sentinel of the listing: without Landlock it may list
		// /tmp, and sees only the way to its own folders.
		if !strings.Contains(out, filepath.Base(filepath.Dir(base))) {
			t.Errorf("/tmp as it sees it does not hold the way to its folders: %q", out)
		}
		if !strings.Contains(errs, "Read-only file system") {
			t.Errorf("writing into its read folder did not fail as read-only: %q", errs)
		}
	}
}

// TestOldLandlockTruncate pins the launcher to Landlock ABI 2 (kernels
// 5.19–6.1): truncate(2) is not governed there, so a file the program
// may not write, outside the hidden folders, is emptied — and the status
// says partial, naming the rule. The same file under /tmp is hidden, and
// with this kernel's ABI truncate is refused: the sentinels.
func TestOldLandlockTruncate(t *testing.T) {
	// truncate(2) by path, as the attack did: truncate(1) opens
	// the file for writing, which every Landlock ABI governs.
	if _, err := os.Stat("/usr/bin/perl"); err != nil {
		t.Skip("no perl")
	}
	outside := unhiddenFolder(t)
	defer os.RemoveAll(outside)
	data := []byte("SQLite format 3\x00 the results of the whole class")
	for _, tt := range []struct {
		name     string
		dir      string
		max      int
		emptied  bool
		partial  bool
		abiAbove int // the ABI in force is above this
	}{
		{"ABI 2, outside the hidden folders", outside, 2, true, true, 1},
		{"ABI 2, under /tmp", t.TempDir(), 2, false, true, 1},
		{"this kernel's ABI", outside, 0, false, false, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(tt.dir, "class.db")
			if err := os.WriteFile(db, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs, r := runContained(t, Policy{Dir: "/", LandlockMax: tt.max, Env: []string{"PATH=/usr/bin:/bin", "DB=" + db}},
				`perl -e 'truncate($ENV{DB}, 0) or die "truncate: $!\n"'`)
			level, text := Describe(r.Features)
			t.Logf("%s; %s", strings.TrimSpace(errs), strings.Split(text, "\n")[0])
			if r.Features.Landlock <= tt.abiAbove || (tt.max > 0 && r.Features.Landlock != tt.max) {
				t.Skipf("Landlock ABI %d here", r.Features.Landlock)
			}
			got, _ := os.ReadFile(db)
			if emptied := len(got) == 0; emptied != tt.emptied {
				t.Errorf("emptied %v, want %v (stderr %q)", emptied, tt.emptied, errs)
			}
			if partial := level == Partial && strings.Contains(text, "truncate is not governed (Landlock ABI 2 < 3)"); partial != tt.partial {
				t.Errorf("status names the truncate rule: %v, want %v:\n%s", partial, tt.partial, text)
			}
		})
	}
}

// unhiddenFolder makes a folder that no contained program has hidden from
// it: the package's folder, unless that is itself under /tmp (a clone
// there, as CI may make), /run or the home folder; then /var/lib or /srv.
func unhiddenFolder(t *testing.T) string {
	t.Helper()
	home, _ := os.UserHomeDir()
	hidden := func(p string) bool {
		for _, h := range []string{"/tmp", "/var/tmp", "/run", "/dev/shm", home} {
			if h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
				return true
			}
		}
		return false
	}
	for _, base := range []string{".", "/var/lib", "/srv"} {
		abs, err := filepath.Abs(base)
		if err != nil || hidden(abs) {
			continue
		}
		if dir, err := os.MkdirTemp(abs, ".truncate-"); err == nil {
			return dir
		}
	}
	t.Skip("no folder outside the hidden ones to write to")
	return ""
}
