//go:build !race

package trickchef

const raceEnabled = false
