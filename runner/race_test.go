//go:build race

package runner

// raceEnabled tells that this test binary runs under the race detector,
// which slows Ringside's own reading and stamping of lines several times
// over: time no measure on the bot's side can account for.
const raceEnabled = true
