package runnertest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestPythonFirst(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("PATH's python3 has no .exe here: Unix only")
	}
	root := t.TempDir()
	dir := func(name string, files map[string]string, mode os.FileMode) string {
		d := filepath.Join(root, name)
		for f, content := range files {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f), []byte(content), mode); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	shim := dir("shims", map[string]string{"python3": "#!/usr/bin/env bash\nexec pyenv exec python3 \"$@\"\n"}, 0o755)
	plain := dir("plain", map[string]string{"python3": "#!/bin/sh\n"}, 0o644)
	none := dir("none", nil, 0)
	prog := dir("prog", map[string]string{"python3": "\x7fELF program"}, 0o755)
	other := dir("other", map[string]string{"python3": "\x7fELF another"}, 0o755)
	sep := string(os.PathListSeparator)
	for _, c := range []struct {
		name, path, want string
	}{
		{"a shim first", shim + sep + none + sep + prog + sep + other, prog + sep + shim + sep + none + sep + prog + sep + other},
		{"the program first", prog + sep + shim, prog + sep + shim},
		{"not executable", plain + sep + other, other + sep + plain + sep + other},
		{"an empty entry", sep + shim + sep + prog, prog + sep + sep + shim + sep + prog},
		{"no program", shim + sep + none, shim + sep + none},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			PythonFirst()
			if got := os.Getenv("PATH"); got != c.want {
				t.Errorf("PATH %q, want %q", got, c.want)
			}
		})
	}
}
