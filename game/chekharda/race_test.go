//go:build race

package chekharda

// raceEnabled scales down the heaviest tests under the race detector.
const raceEnabled = true
