//go:build !race

package chef

const raceEnabled = false
