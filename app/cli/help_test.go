package cli

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the help texts")

// TestHelpGolden keeps "ringside help" and "ringside help COMMAND" as they
// are in testdata/help: moving code cannot change what users read without
// a reviewed change of the golden files ("go test ./app/cli -run
// TestHelpGolden -update" rewrites them).
func TestHelpGolden(t *testing.T) {
	t.Parallel()
	names := []string{""}
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, name := range names {
		file := "overview"
		args := []string{"help"}
		if name != "" {
			file, args = name, append(args, name)
		}
		seen[file+".golden"] = true
		t.Run(file, func(t *testing.T) {
			code, out, errs := runCLI(args...)
			if code != 0 || errs != "" {
				t.Fatalf("ringside %v: exit %d, stderr %q", args, code, errs)
			}
			golden := filepath.Join("testdata", "help", file+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("ringside %v changed; if that is meant, run with -update and review the diff.\ngot:\n%s\nwant:\n%s", args, out, want)
			}
		})
	}
	// A golden file of a command that no longer exists is a removed
	// command nobody noticed.
	files, _ := filepath.Glob(filepath.Join("testdata", "help", "*.golden"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no command any more", f)
		}
	}
}
