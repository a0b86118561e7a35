//go:build !race

package chekharda_test

const chekhardaRace = false
