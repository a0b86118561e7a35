//go:build !race

package sausages

const raceEnabled = false
