//go:build race

package sausages

// raceEnabled scales down the heaviest tests under the race detector.
const raceEnabled = true
