package trust_test

import (
	"fmt"

	"github.com/codecortex/codecortex/trust"
)

// The ceiling belongs to the method: an AST match stays structural however
// confident its engine is, and a provider may lower its tier but never raise
// it.
func ExampleClamp() {
	fmt.Println(trust.Clamp(trust.StructuralMatch, trust.Exact))
	fmt.Println(trust.Clamp(trust.PrecisionIndex, trust.Structural))
	fmt.Println(trust.Lexical.Ceiling())
	// Output:
	// structural
	// structural
	// weak
}

// Scores order results; they are not probabilities. Stale exact evidence,
// even at full confidence, scores below fresh structural evidence at zero
// confidence, yet still above a stale guess.
func ExampleScore() {
	staleExact := trust.Score(trust.Exact, 1, true)
	freshStructural := trust.Score(trust.Structural, 0, false)
	staleGuess := trust.Score(trust.Weak, 1, true)
	fmt.Printf("stale factor %.4f\n", trust.StaleFactor())
	fmt.Println("stale exact@1 below fresh structural@0:", staleExact < freshStructural)
	fmt.Println("stale exact beats a stale guess:", staleExact > staleGuess)
	fmt.Println("stale exact reads as", trust.Effective(trust.Exact, true))
	// Output:
	// stale factor 0.5455
	// stale exact@1 below fresh structural@0: true
	// stale exact beats a stale guess: true
	// stale exact reads as inferred_high
}
