package trust

import "fmt"

// Method is how a piece of evidence was produced. It is the record's
// provenance, and it fixes the highest tier the record may claim.
type Method string

// The production methods. Each comment names the method's ceiling.
const (
	// PrecisionIndex: an index produced by a compiler or language analyser,
	// such as SCIP. Ceiling exact.
	PrecisionIndex Method = "precision-index"
	// LanguageServer: a live language-server resolution. Ceiling near_exact.
	LanguageServer Method = "language-server"
	// StructuralMatch: a parsed-syntax match. Ceiling structural.
	StructuralMatch Method = "structural-match"
	// SymbolIndex: a definition read from a file's syntax tree by the local
	// index: a parsed-syntax fact about a name, not a resolution by
	// identity. Ceiling structural.
	SymbolIndex Method = "symbol-index"
	// VersionedDocs: documentation matched to the resolved version of a
	// dependency. Ceiling structural.
	VersionedDocs Method = "versioned-docs"
	// Manifest: a fact parsed from a manifest or lockfile (declared
	// constraint, resolved version). Ceiling structural.
	Manifest Method = "manifest"
	// GitHistory: a fact read from the repository's Git history. Ceiling
	// structural: it is what the history says, not a symbol resolution.
	GitHistory Method = "git-history"
	// ValidationRun: the observed outcome of a build or test run. Ceiling
	// structural.
	ValidationRun Method = "validation-run"
	// GraphRelation: a strong relationship in the project graph. Ceiling
	// inferred_high.
	GraphRelation Method = "graph-relation"
	// Heuristic: a heuristic cross-file relationship. Ceiling inferred.
	Heuristic Method = "heuristic"
	// FallbackDocs: documentation that is not matched to the resolved
	// version (a fallback answer). Ceiling inferred.
	FallbackDocs Method = "fallback-docs"
	// Memory: project or team memory written by people or agents. Ceiling
	// inferred.
	Memory Method = "memory"
	// Lexical: a lexical coincidence, such as a text search hit. Ceiling
	// weak.
	Lexical Method = "lexical"
)

var ceilings = map[Method]Tier{
	PrecisionIndex:  Exact,
	LanguageServer:  NearExact,
	StructuralMatch: Structural,
	SymbolIndex:     Structural,
	VersionedDocs:   Structural,
	Manifest:        Structural,
	GitHistory:      Structural,
	ValidationRun:   Structural,
	GraphRelation:   InferredHigh,
	Heuristic:       Inferred,
	FallbackDocs:    Inferred,
	Memory:          Inferred,
	Lexical:         Weak,
}

// Methods returns every known method, strongest ceiling first and by name
// within a ceiling.
func Methods() []Method {
	return []Method{
		PrecisionIndex, LanguageServer, GitHistory, Manifest, StructuralMatch,
		SymbolIndex, ValidationRun, VersionedDocs, GraphRelation, FallbackDocs, Heuristic,
		Memory, Lexical,
	}
}

// Valid reports whether m is a known method.
func (m Method) Valid() bool {
	_, ok := ceilings[m]
	return ok
}

// Ceiling returns the highest tier evidence produced by m may claim, or 0
// for an unknown method.
func (m Method) Ceiling() Tier { return ceilings[m] }

// Clamp returns the tier a record produced by m may carry when its producer
// claims claimed: the claim itself when it is at or below the ceiling, the
// ceiling otherwise. It never raises a tier.
func Clamp(m Method, claimed Tier) Tier {
	if c := m.Ceiling(); claimed > c {
		return c
	}
	return claimed
}

// CheckClaim returns an error when claimed is above m's ceiling or m is not
// a known method.
func CheckClaim(m Method, claimed Tier) error {
	c, ok := ceilings[m]
	if !ok {
		return fmt.Errorf("trust: unknown method %q", string(m))
	}
	if claimed > c {
		return fmt.Errorf("trust: method %s may claim at most %s, not %s", m, c, claimed)
	}
	return nil
}
