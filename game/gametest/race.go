//go:build race

package gametest

// raceEnabled scales the suite down under the race detector.
const raceEnabled = true
