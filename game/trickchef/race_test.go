//go:build race

package trickchef

// raceEnabled scales down the heaviest tests under the race detector.
const raceEnabled = true
