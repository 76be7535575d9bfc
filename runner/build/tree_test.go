//go:build !windows

package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHostileFolders: each kind of hostile folder either fails the build
// with a message naming the file and the cap, or (pipes) is left out and
// never opened.
func TestHostileFolders(t *testing.T) {
	sparse := func(name string, size int64) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(size); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		make func(t *testing.T, dir string)
		want string // in the error; "" for a build that succeeds
	}{
		{"fifo gitignore", func(t *testing.T, dir string) {
			for _, n := range []string{".gitignore", IgnoreFile, "pipe.py"} {
				if err := syscall.Mkfifo(filepath.Join(dir, n), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}, ""},
		{"1 TiB sparse", sparse("huge.bin", 1<<40), "huge.bin is 1 TiB, over the 64 MiB a source file may be: leave it out with a line in .ringsideignore"},
		{"2 GiB", sparse("bigfile.bin", 2<<30), "bigfile.bin is 2 GiB, over the 64 MiB"},
		{"total", func(t *testing.T, dir string) {
			for i := range 5 {
				sparse(fmt.Sprintf("part%d.bin", i), 60<<20)(t, dir)
			}
		}, "the sources add up to more than 256 MiB"},
		{"many files", func(t *testing.T, dir string) {
			for i := range MaxSourceFiles + 10 {
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%06d.py", i)))
				if err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
		}, "more than 20000 files"},
		{"deep", func(t *testing.T, dir string) {
			p := dir
			for range MaxSourceDepth + 1 {
				p = filepath.Join(p, "d")
			}
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "deeper than the 32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, dir)
			out := revisionsDir(t)
			res, err := Build(context.Background(), BuildSpec{SourceDir: dir, RunCmd: "./bot.sh", OutDir: out,
				Known: func(string) bool { return false }})
			if tt.want == "" {
				if err != nil || !res.OK {
					t.Fatalf("build: %v\n%s", err, res.Log)
				}
				if err := VerifyRevision(res.Dir, res.Digest); err != nil {
					t.Fatal(err)
				}
				_, left, err := SourceFiles(dir, "", "./bot.sh")
				if err != nil {
					t.Fatal(err)
				}
				if len(left) != 3 || !strings.Contains(left[0].Why, "named pipe") {
					t.Fatalf("left out: %+v, want the three pipes", left)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("build: %v (ok %v), want an error with %q", err, res.OK, tt.want)
			}
			if entries, _ := os.ReadDir(out); len(entries) > 0 {
				t.Fatalf("a copy was left or made: %v", entries)
			}
		})
	}
}
