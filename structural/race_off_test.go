//go:build !race

package structural

const raceEnabled = false
