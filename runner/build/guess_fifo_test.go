//go:build !windows

package build

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Guessing reads only regular files: a FIFO named like a source file, a
// Makefile or a script never blocks it (it would freeze "ai add").
func TestGuessNeverOpensAFIFO(t *testing.T) {
	for _, fifo := range []string{"Makefile", "main.c", "bot.py", "Cargo.toml", "run.sh"} {
		t.Run(fifo, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bot.cpp"), []byte("int main() { return 0; }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(dir, fifo), 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := GuessCommands(dir)
				done <- err
			}()
			// A guess that opens the FIFO for reading the ordinary way
			// waits for a writer for ever (nothing here writes): then
			// this test fails by the package's timeout.
			<-done
		})
	}
}
