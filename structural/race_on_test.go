//go:build race

package structural

// raceEnabled says the race detector instruments this test binary, which
// makes the matcher several times slower: the heaviest comparisons then
// run on a smaller sample (the run without it covers the whole one).
const raceEnabled = true
