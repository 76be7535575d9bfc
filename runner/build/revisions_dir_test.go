package build

import "testing"

// revisionsDir is a temporary revisions folder whose sealed (read-only)
// revisions are made writable again before the test's clean-up deletes
// it: an ordinary user cannot delete files in a 0555 folder.
func revisionsDir(t testing.TB) string {
	dir := t.TempDir()
	t.Cleanup(func() { Unseal(dir) })
	return dir
}
