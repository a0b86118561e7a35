//go:build race

package chef

// raceEnabled scales down the heaviest tests under the race detector.
const raceEnabled = true
