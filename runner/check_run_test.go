package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRunProgramInFolder: a run command that names the program in
// the revision's folder with a folder in it (./bot; .\bot.exe on Windows,
// where the separator is a backslash) is checked there, and a bare name
// that is only in the folder is refused with the spelling of this OS.
func TestCheckRunProgramInFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot"), []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	local := "." + string(filepath.Separator) + "bot"
	tests := []struct {
		argv    []string
		built   bool
		wantErr string // "" for none
	}{
		{argv: []string{local}},
		{argv: []string{"." + string(filepath.Separator) + "missing"}, wantErr: "which is not in"},
		{argv: []string{"." + string(filepath.Separator) + "missing"}, built: true},
		{argv: []string{"bot"}, wantErr: "write " + local},
	}
	for _, tt := range tests {
		err := CheckRun(dir, tt.argv, tt.built)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("CheckRun(%q, built %v) = %v, want no error", tt.argv, tt.built, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("CheckRun(%q, built %v) = %v, want an error saying %q", tt.argv, tt.built, err, tt.wantErr)
		}
	}
}
