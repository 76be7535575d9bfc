package runnertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFiles creates files (relative slash paths → contents) under dir,
// with the folders they need. A content starting with "#!" makes the file
// executable, so a test can write a script bot in one go.
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
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
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
