//go:build !race

package bot_test

const chekhardaRace = false
