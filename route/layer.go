package route

// A Layer is a source of evidence, or a step of the rewrite lifecycle, that a
// plan may ask the engine to run. Its value is the name of the provider that
// implements it where one exists (precision, structural, dependency-docs,
// dependency-manifests), so the engine maps a step to its provider by name.
//
// Three layers are optional ([Layer.Optional]): they add stronger evidence
// when they are installed, configured and relevant, and the router proposes
// each only for a reason it writes down. The others are local and always
// allowed; the router proposes them freely, as answers or as fallbacks.
// No layer mutates the repository: the strongest thing a plan may propose is
// a [Preview], and applying one is never routed.
type Layer string

// The optional layers.
const (
	// Precision resolves names and positions by symbol identity from a
	// compiler- or indexer-produced index (or a live language server).
	Precision Layer = "precision"
	// DependencyDocs asks the remote documentation provider about the
	// resolved version of a declared third-party dependency.
	DependencyDocs Layer = "dependency-docs"
	// Structural matches code by syntax with a pattern.
	Structural Layer = "structural"
)

// The local layers.
const (
	// LocalIndex is the local index and symbol search: names, files and
	// text, found without any optional layer.
	LocalIndex Layer = "local-index"
	// History is git history: commits, blame and diffs.
	History Layer = "history"
	// Graph is the project graph's relations: inferred calls, imports and
	// type relations.
	Graph Layer = "graph"
	// Impact is impact analysis over the graph: the symbols, tests and risk
	// a change affects.
	Impact Layer = "impact"
	// Memory is project and team memory: recorded decisions and conventions.
	Memory Layer = "memory"
	// Validation runs the project's checks (build, vet, tests).
	Validation Layer = "validation"
	// Manifests reads dependency manifests and lockfiles: the declared
	// constraint and the resolved version of each dependency.
	Manifests Layer = "dependency-manifests"
	// Preview computes and persists a rewrite preview: the match set and
	// the hash of every file it was computed from. It changes no source
	// file; applying it needs the preview's id and explicit authorization,
	// which no plan carries.
	Preview Layer = "rewrite-preview"
)

// Layers returns every layer, optional ones first, in a fixed order.
func Layers() []Layer {
	return []Layer{Precision, DependencyDocs, Structural,
		LocalIndex, History, Graph, Impact, Memory, Validation, Manifests, Preview}
}

// OptionalLayers returns the three optional layers in a fixed order.
func OptionalLayers() []Layer { return []Layer{Precision, DependencyDocs, Structural} }

// Valid reports whether l is one of [Layers].
func (l Layer) Valid() bool {
	for _, k := range Layers() {
		if k == l {
			return true
		}
	}
	return false
}

// Optional reports whether l is one of the optional layers, which a plan
// proposes only for a stated reason and otherwise lists as skipped.
func (l Layer) Optional() bool {
	return l == Precision || l == DependencyDocs || l == Structural
}
