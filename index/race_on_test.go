//go:build race

package index

// raceEnabled says the race detector instruments this test binary, which
// slows the refresh several times over: tests that weigh one part of a
// time budget against another skip under it.
const raceEnabled = true
