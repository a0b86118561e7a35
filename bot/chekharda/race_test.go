//go:build race

package chekharda_test

// chekhardaRace scales down Чехарда's heaviest tests under the race
// detector.
const chekhardaRace = true
