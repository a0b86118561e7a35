//go:build !race

package chekharda

const raceEnabled = false
