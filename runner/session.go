package runner

import (
	"os"
	"path/filepath"
	"strings"
)

// sessionFolders are the folders of the teacher's desktop session a
// sandboxed program must not see (sandbox.Policy.Hide): the home folder,
// the runtime folder (XDG_RUNTIME_DIR: the D-Bus bus, Wayland, PulseAudio,
// gpg-agent), and the folders of ssh-agent's and the session bus's
// sockets wherever they are. The launcher has no environment of its own,
// so Ringside names them; /tmp, /run and the rest are hidden anyway.
func sessionFolders() []string {
	var dirs []string
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, home)
	}
	if v := os.Getenv("XDG_RUNTIME_DIR"); v != "" {
		dirs = append(dirs, v)
	}
	if v := os.Getenv("SSH_AUTH_SOCK"); v != "" {
		dirs = append(dirs, filepath.Dir(v))
	}
	// unix:path=/run/user/1000/bus,guid=… (an abstract address is the
	// network namespace's business).
	for _, part := range strings.Split(os.Getenv("DBUS_SESSION_BUS_ADDRESS"), ";") {
		for _, kv := range strings.Split(strings.TrimPrefix(part, "unix:"), ",") {
			if p, ok := strings.CutPrefix(kv, "path="); ok {
				dirs = append(dirs, filepath.Dir(p))
			}
		}
	}
	var abs []string
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			abs = append(abs, filepath.Clean(d))
		}
	}
	return abs
}
