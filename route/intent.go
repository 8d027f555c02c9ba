package route

// An Intent is what a request asks for. The router recognises it from the
// request's words and structure unless the request states one.
type Intent string

// The intents.
const (
	// IntentDefinition asks where a symbol is defined or what it is.
	IntentDefinition Intent = "definition"
	// IntentReferences asks where a symbol is used or referenced.
	IntentReferences Intent = "references"
	// IntentCallers asks who calls a function or method.
	IntentCallers Intent = "callers"
	// IntentCallees asks what a function or method calls: the calls written
	// in its body, each with what it resolves to.
	IntentCallees Intent = "callees"
	// IntentImplementations asks what implements an interface or overrides
	// a method.
	IntentImplementations Intent = "implementations"
	// IntentTests asks which tests exercise a symbol: the tests that call or
	// name it.
	IntentTests Intent = "tests"
	// IntentImpact asks what a change to a symbol would affect.
	IntentImpact Intent = "impact"
	// IntentHistory asks what changed, when, and who changed it.
	IntentHistory Intent = "history"
	// IntentVersion asks which version of a dependency the repository uses.
	IntentVersion Intent = "dependency-version"
	// IntentDependencyAPI asks about a dependency's API at the installed
	// version: deprecations, changelogs, documentation.
	IntentDependencyAPI Intent = "dependency-api"
	// IntentStructural asks for code by its shape: a pattern to match by
	// syntax.
	IntentStructural Intent = "structural"
	// IntentMigration asks to move code from one shape to another. A
	// migration is planned up to a rewrite preview, never applied.
	IntentMigration Intent = "migration"
	// IntentMemory asks about recorded decisions and conventions.
	IntentMemory Intent = "memory"
	// IntentValidation asks whether the project builds and its checks pass.
	IntentValidation Intent = "validation"
	// IntentSearch is any other question: a search of the local index.
	IntentSearch Intent = "search"
)

// Intents returns every intent in a fixed order.
func Intents() []Intent {
	return []Intent{IntentDefinition, IntentReferences, IntentCallers, IntentCallees, IntentImplementations,
		IntentTests, IntentImpact, IntentHistory, IntentVersion, IntentDependencyAPI, IntentStructural,
		IntentMigration, IntentMemory, IntentValidation, IntentSearch}
}

// Valid reports whether i is one of [Intents].
func (i Intent) Valid() bool {
	for _, k := range Intents() {
		if k == i {
			return true
		}
	}
	return false
}
