package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// sessionFolders are where a desktop session keeps its sockets and
// temporary files: the X server's (/tmp/.X11-unix/X0), ssh-agent's
// (/tmp/ssh-*/agent.*), the D-Bus buses and systemd's (/run/user/UID,
// /run/dbus), Docker's (/run/docker.sock), the teacher's terminals
// (/dev/pts) and shared memory (/dev/shm, /dev/mqueue). Landlock up to
// ABI 8 does not govern connect(2) to a pathname UNIX socket, so in the
// bot's mount namespace each is an empty private tmpfs: the sockets are
// not there to connect to. The teacher's home and runtime folders come
// with the policy (Policy.Hide).
var sessionFolders = []string{"/tmp", "/var/tmp", "/run", "/dev/shm", "/dev/pts", "/dev/mqueue"}

// stickyFolders get the mode of a shared temporary folder.
var stickyFolders = map[string]bool{"/tmp": true, "/var/tmp": true, "/dev/shm": true}

// maskSize caps each empty mount: the bot only ever writes there where
// Landlock is absent, and what it writes is memory.
const maskSize = 1 << 20

// errNoOpenTree tells that the kernel cannot clone a folder's mounts
// (open_tree(2), Linux 5.2): the private view is left out.
var errNoOpenTree = errors.New("the kernel has no open_tree (Linux < 5.2)")

// viewRule is one path of the private view: hidden under an empty mount
// (mask), or bound back as it is (keep).
type viewRule struct {
	path  string
	keep  bool
	write bool // a kept path the program may write (Policy.Write); the others are bound back read-only
	fd    int  // the clone of a kept path's mounts, taken before any mask
}

// privateView hides the session's folders (sessionFolders and p.Hide)
// under empty private mounts in the launcher's mount namespace, and binds
// back at the same place everything the program may see: its program,
// what it may read and write. Each kept path's mounts are cloned
// (open_tree) before anything is hidden and moved onto a mount point made
// inside the mask (move_mount): the program sees the same files at the
// same paths, and Landlock's rules, made afterwards, hold for them. When
// it fails it undoes what it mounted: the program then sees the files as
// they are outside (and the status says the view is missing) rather than
// half a view without its own program.
func privateView(p *Policy) (err error) {
	// open_tree without a clone only opens a path: it tells whether the
	// kernel has the call before anything is changed.
	var fd int
	fd, err = unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) {
			return errNoOpenTree
		}
		return fmt.Errorf("open_tree: %w", err)
	}
	unix.Close(fd)
	rules := viewRules(p)
	// Clone every kept path that will be under a mask, all before the
	// first mount.
	for i := range rules {
		if rules[i].keep {
			rules[i].fd, err = unix.OpenTree(unix.AT_FDCWD, rules[i].path,
				unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
			if err != nil {
				closeRules(rules)
				return fmt.Errorf("clone the mounts of %s: %w", rules[i].path, err)
			}
			if !rules[i].write {
				// Read-only where Landlock is missing too (mount_setattr,
				// Linux 5.12; without it the copy stays as it was).
				_ = unix.MountSetattr(rules[i].fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE,
					&unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
			}
		}
	}
	defer closeRules(rules)
	var mounted []string
	defer func() {
		if err != nil {
			// Lazily, each with what is mounted under it, last first.
			for i := len(mounted) - 1; i >= 0; i-- {
				_ = unix.Unmount(mounted[i], unix.MNT_DETACH)
			}
		}
	}()
	for _, r := range rules {
		if !r.keep {
			mode := "0755"
			if stickyFolders[r.path] {
				mode = "1777"
			}
			opts := fmt.Sprintf("size=%d,nr_inodes=4096,mode=%s", maskSize, mode)
			if err = unix.Mount("tmpfs", r.path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts); err != nil {
				return fmt.Errorf("hide %s: %w", r.path, err)
			}
			mounted = append(mounted, r.path)
			continue
		}
		if err = mountPoint(r.path, r.fd); err != nil {
			return fmt.Errorf("make room for %s: %w", r.path, err)
		}
		if err = unix.MoveMount(r.fd, "", unix.AT_FDCWD, r.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("bind %s back: %w", r.path, err)
		}
		mounted = append(mounted, r.path)
	}
	return nil
}

// viewRules are the mounts to make, outer paths first: a mask only
// where its path is still visible (not already under another mask), a
// kept path only where a mask hides it.
func viewRules(p *Policy) []viewRule {
	var all []viewRule
	seen := map[string]bool{}
	for _, m := range append(append([]string(nil), sessionFolders...), p.Hide...) {
		if d, ok := maskable(m); ok && !seen[d] {
			seen[d] = true
			all = append(all, viewRule{path: d, fd: -1})
		}
	}
	kept, order := keptPaths(p)
	for _, q := range order {
		all = append(all, viewRule{path: q, keep: true, write: kept[q], fd: -1})
	}
	// A path both hidden and kept is kept.
	all = slices.DeleteFunc(all, func(r viewRule) bool {
		_, k := kept[r.path]
		return !r.keep && k
	})
	sort.SliceStable(all, func(i, j int) bool { return len(all[i].path) < len(all[j].path) })
	var rules []viewRule
	for _, r := range all {
		if needed(r, rules) {
			rules = append(rules, r)
		}
	}
	return rules
}

// keptPaths returns the absolute paths the policy lets the bot see (its
// program, Read and Write), each as named and where it really is, with
// whether it may be written, in the order first named.
func keptPaths(p *Policy) (kept map[string]bool, order []string) {
	kept = map[string]bool{} // path → may be written
	for i, k := range append(append([]string{p.Path}, p.Read...), p.Write...) {
		if !filepath.IsAbs(k) {
			continue
		}
		write := i >= 1+len(p.Read)
		k = filepath.Clean(k)
		// The path as named and, through a symbolic link, where it
		// really is: the program may reach it either way.
		for _, q := range []string{k, realPath(k)} {
			if q == "" {
				continue
			}
			if _, err := os.Stat(q); err != nil {
				continue
			}
			if w, ok := kept[q]; !ok {
				order = append(order, q)
				kept[q] = write
			} else {
				kept[q] = w || write
			}
		}
	}
	return kept, order
}

// needed tells whether rule r changes what the rules already made (outer
// paths first) show at its path: a mask where the path is still visible,
// a kept path where a mask hides it or where it must be writable and is
// not.
func needed(r viewRule, rules []viewRule) bool {
	// The nearest rule already made at or above this path decides
	// what is there now.
	var nearest *viewRule
	for i := range rules {
		if within(r.path, rules[i].path) && (nearest == nil || len(rules[i].path) > len(nearest.path)) {
			nearest = &rules[i]
		}
	}
	hidden := nearest != nil && !nearest.keep
	// A folder to write inside one bound back read-only (a build's
	// folder in its AI's) is bound over it, writable.
	writable := nearest == nil || (nearest.keep && nearest.write)
	if !r.keep {
		return !hidden
	}
	return hidden || (r.write && !writable)
}

// maskable returns the folder to hide for path: where it really is, if
// it is a folder that holds no system folder the bot needs.
func maskable(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	d := realPath(filepath.Clean(path))
	if d == "" {
		return "", false
	}
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		return "", false
	}
	for _, sys := range append([]string{"/dev", "/proc"}, systemRead...) {
		if within(sys, d) {
			return "", false // "/" (a home folder of "/"), or what holds /usr…
		}
	}
	return d, true
}

// within tells whether path is dir or under it.
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

// realPath is path with its symbolic links resolved, "" when it does
// not exist.
func realPath(path string) string {
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	return r
}

// mountPoint makes the folder or the empty file a kept path is mounted
// on, inside the mask that hides it.
func mountPoint(path string, fd int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return os.MkdirAll(path, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return nil // there already (a file to write in a folder bound back read-only)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

func closeRules(rules []viewRule) {
	for i := range rules {
		if rules[i].fd >= 0 {
			unix.Close(rules[i].fd)
			rules[i].fd = -1
		}
	}
}
