package storage

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultPathForEachOS checks each OS's rule for the database's folder
// on whatever system runs the test.
func TestDefaultPathForEachOS(t *testing.T) {
	noHome := errors.New("no home")
	tests := []struct {
		name, goos      string
		env             map[string]string
		homeErr         error
		want, wantErrIn string
	}{
		{name: "windows local appdata", goos: "windows",
			env:  map[string]string{"LOCALAPPDATA": `C:\Users\Some Teacher\AppData\Local`, "APPDATA": `C:\Users\Some Teacher\AppData\Roaming`},
			want: filepath.Join(`C:\Users\Some Teacher\AppData\Local`, "Ringside", "ringside.db")},
		{name: "windows ignores XDG", goos: "windows",
			env:  map[string]string{"LOCALAPPDATA": `D:\L`, "XDG_DATA_HOME": "/data/x"},
			want: filepath.Join(`D:\L`, "Ringside", "ringside.db")},
		{name: "windows without LOCALAPPDATA", goos: "windows", wantErrIn: "pass --db"},
		{name: "macos application support", goos: "darwin", env: map[string]string{"XDG_DATA_HOME": "/data/x"},
			want: filepath.Join("/Users/t", "Library", "Application Support", "Ringside", "ringside.db")},
		{name: "macos without home", goos: "darwin", homeErr: noHome, wantErrIn: "no home"},
		{name: "linux xdg", goos: "linux", env: map[string]string{"XDG_DATA_HOME": "/data/x"},
			want: "/data/x/ringside/ringside.db"},
		{name: "linux relative xdg ignored", goos: "linux", env: map[string]string{"XDG_DATA_HOME": "rel"},
			want: "/Users/t/.local/share/ringside/ringside.db"},
		{name: "freebsd as linux", goos: "freebsd", want: "/Users/t/.local/share/ringside/ringside.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := defaultPathFor(tt.goos, func(k string) string { return tt.env[k] },
				func() (string, error) { return "/Users/t", tt.homeErr })
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("got %q, %v; want an error with %q", got, err, tt.wantErrIn)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
