//go:build !race

package enginetest

// Race is true under the race detector, which makes the single-goroutine
// games about nine times slower: tests play fewer games then.
const Race = false
