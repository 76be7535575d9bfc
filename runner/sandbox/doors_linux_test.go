package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestViewRules checks which mounts the private view makes: the session's
// folders hidden, what the program may see bound back, nothing twice,
// and never "/" or a system folder hidden.
func TestViewRules(t *testing.T) {
	base := t.TempDir() // under /tmp, which is hidden
	mk := func(rel string) string {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rev, home, kept, keptHome, pyenv, inner := mk("rev"), mk("home"), mk("kept"), mk("kept/home"), mk("kept/home/.pyenv"), mk("rev/inner")
	prog := filepath.Join(rev, "bot")
	if err := os.WriteFile(prog, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(rev, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    Policy
		want []string // the rules under base: "mask PATH", "keep PATH" (read-only) or "write PATH", in order
	}{
		{"a revision under /tmp is bound back", Policy{Path: prog, Read: []string{rev}},
			[]string{"keep rev"}},
		{"a hidden folder under a hidden one needs no mount", Policy{Read: []string{rev}, Hide: []string{home}},
			[]string{"keep rev"}},
		{"a hidden folder inside a kept one is hidden again, and what it holds bound back",
			Policy{Read: []string{kept, pyenv}, Hide: []string{keptHome}},
			[]string{"keep kept", "mask kept/home", "keep kept/home/.pyenv"}},
		{"kept inside kept comes with it", Policy{Read: []string{rev, inner}},
			[]string{"keep rev"}},
		{"a folder to write inside one to read is bound again, writable", Policy{Read: []string{rev, inner}, Write: []string{inner}},
			[]string{"keep rev", "write rev/inner"}},
		{"a folder to read inside one to write comes with it", Policy{Read: []string{inner}, Write: []string{rev}},
			[]string{"write rev"}},
		{"kept wins over hidden", Policy{Write: []string{home}, Hide: []string{home}},
			[]string{"write home"}},
		{"a link is kept where it is named and where it leads", Policy{Read: []string{link}},
			[]string{"keep rev", "keep link"}},
		{"never / nor a system folder", Policy{Read: []string{rev}, Hide: []string{"/", "/usr", "/etc", "/dev", base + "/nowhere"}},
			[]string{"keep rev"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, all []string
			for _, r := range viewRules(&tt.p) {
				kind := map[bool]string{true: "keep", false: "mask"}[r.keep]
				if r.write {
					kind = "write"
				}
				all = append(all, kind+" "+r.path)
				if rel, ok := strings.CutPrefix(r.path, base+"/"); ok {
					got = append(got, kind+" "+rel)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("rules under the test's folder %q, want %q (all: %q)", got, tt.want, all)
			}
			if !slices.Contains(all, "mask /tmp") {
				t.Errorf("/tmp not hidden: %q", all)
			}
			for _, r := range all {
				if r == "mask /" || r == "mask /usr" || r == "mask /etc" || r == "mask /dev" {
					t.Errorf("hides %s", r)
				}
			}
		})
	}
}

func TestSysvTables(t *testing.T) {
	shm := `       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap
         0          1   600              67108864    12    12      0  1000  1000  1000  1000 1700000000 1700000001 1700000000              67108864                     0
      1234          2   600              67108864    12    12      1  1000  1000  1000  1000 1700000000          0 1700000000               4194304               1048576
`
	if got, want := sysvShmBytes(shm), int64(64<<20+4<<20+1<<20); got != want {
		t.Errorf("shm: %d, want %d", got, want)
	}
	old := "key shmid perms size cpid lpid nattch\n0 1 600 1000 1 1 0\n"
	if got := sysvShmBytes(old); got != 1000 {
		t.Errorf("shm without rss and swap columns: %d, want the size 1000", got)
	}
	msg := `       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime
      4321          0   600       16384          4     2     0     0     0     0     0 1700000000          0 1700000000
`
	if got := sysvMsgBytes(msg); got != 16384 {
		t.Errorf("msg: %d, want 16384", got)
	}
	if sysvShmBytes("") != 0 || sysvMsgBytes("garbage\nmore garbage") != 0 {
		t.Errorf("an empty or broken table counts something")
	}
}

// The filter assembles (every jump within reach) and ends with the two
// refusals.
func TestSeccompFilter(t *testing.T) {
	insns, err := seccompFilter()
	if syscallArch == 0 {
		if err == nil {
			t.Errorf("a filter on an architecture without a list")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := len(insns); n < len(deniedSyscalls)+10 || insns[n-1].K != 0x50000|1 || insns[n-2].K != 0x50000|38 {
		t.Errorf("%d instructions, last %+v %+v", n, insns[n-2], insns[n-1])
	}
}
