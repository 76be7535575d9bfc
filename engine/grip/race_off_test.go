//go:build !race

package grip

// raceOn is true under the race detector, which makes these
// single-goroutine games about nine times slower.
const raceOn = false
