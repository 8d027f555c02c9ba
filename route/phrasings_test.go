package route_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/route"
)

// summary is what a phrasing test checks of a plan.
type summary struct {
	Intent       route.Intent
	Optional     []route.Layer
	Names        []string
	Pattern      string
	Replacement  string
	Language     string
	Dependencies []string
	Files        []string
}

func summarise(p route.Plan) summary {
	s := summary{Intent: p.Intent, Optional: p.Optional(), Pattern: p.Pattern, Replacement: p.Replacement,
		Language: p.Language, Dependencies: p.Dependencies, Files: p.Files}
	for _, n := range p.Names {
		s.Names = append(s.Names, n.Text)
	}
	return s
}

var (
	precision  = []route.Layer{route.Precision}
	docs       = []route.Layer{route.DependencyDocs}
	structural = []route.Layer{route.Structural}
	none       []route.Layer
)

// Phrasings a coding agent uses, and the plan each gets. Unless a case says
// otherwise, the repository declares the dependencies in declared.
func TestPhrasings(t *testing.T) {
	type tc struct {
		name string
		req  route.Request // Text is the test's name when empty; Declared defaults to declared
		want summary
	}
	def := func(optional []route.Layer, names ...string) summary {
		return summary{Intent: route.IntentDefinition, Optional: optional, Names: names}
	}
	of := func(intent route.Intent, optional []route.Layer, names ...string) summary {
		return summary{Intent: intent, Optional: optional, Names: names}
	}
	at := route.Request{Path: "auth/service.go", Line: 12, Column: 5}
	with := func(r route.Request, text string) route.Request { r.Text = text; return r }
	cases := []tc{
		// Definitions, by name in several forms.
		{"Where is AuthService defined?", route.Request{}, def(precision, "AuthService")},
		{"where's AuthService?", route.Request{}, def(precision, "AuthService")},
		{"Where's the Engine struct?", route.Request{}, def(precision, "Engine")},
		{"definition of parseConfig", route.Request{}, def(precision, "parseConfig")},
		{"show me the Provider interface", route.Request{}, def(precision, "Provider")},
		{"Show me the evidence.Record struct", route.Request{}, def(precision, "evidence.Record")},
		{"AuthService.Refresh", route.Request{}, def(precision, "AuthService.Refresh")},
		{"`Engine.Ask`", route.Request{}, def(precision, "Engine.Ask")},
		{"what is Engine.Ask?", route.Request{}, def(precision, "Engine.Ask")},
		{"What is StaleFactor", route.Request{}, def(precision, "StaleFactor")},
		{"where is main defined", route.Request{}, def(precision, "main")},
		{"go to definition of http.Get", route.Request{}, def(precision, "http.Get")},
		{"where is Vec::new declared?", route.Request{}, def(precision, "Vec::new")},
		{"locate the parse_manifest function", route.Request{}, def(precision, "parse_manifest")},
		{"What does `trust.Clamp` do?", route.Request{}, def(precision, "trust.Clamp")},
		{"signature of os.OpenRoot", route.Request{}, def(precision, "os.OpenRoot")},
		{"where is this defined?", route.Request{}, def(none)},
		{"what type does produce return?", route.Request{}, def(precision, "produce")},
		{"return type of parse_config", route.Request{}, def(precision, "parse_config")},
		{"How is the token budget enforced in Pack?", route.Request{}, def(precision, "Pack")},
		{"What does the Fuse function return?", route.Request{}, def(precision, "Fuse")},
		{"Where do we parse the SCIP index?", route.Request{}, def(none)},
		{"Which function handles the --json flag?", route.Request{}, def(none)},
		{"what is this? (at a position)", with(at, "what is this?"), def(precision)},
		{"a position and no text", at, summary{Intent: route.IntentDefinition, Optional: precision}},

		// Callers.
		{"Who calls refresh_token?", route.Request{}, of(route.IntentCallers, precision, "refresh_token")},
		{"who calls this? (at a position)", with(at, "who calls this?"), of(route.IntentCallers, precision)},
		{"callers of Collect", route.Request{}, of(route.IntentCallers, precision, "Collect")},
		// A cue word inside another cue's words is its subject.
		{"where is subclasses called?", route.Request{}, of(route.IntentCallers, precision, "subclasses")},
		{"where is extend used?", route.Request{}, of(route.IntentReferences, precision, "extend")},
		// A cue word in a name's slot that ends the question, or that its
		// phrase closes, is the name asked about.
		{"definition of usage", route.Request{}, def(precision, "usage")},
		{"where is usage defined?", route.Request{}, def(precision, "usage")},
		{"usages of usage", route.Request{}, of(route.IntentReferences, precision, "usage")},
		{"where are usages of Foo?", route.Request{}, of(route.IntentReferences, precision, "Foo")},
		{"where is the function usage?", route.Request{}, def(precision, "usage")},
		{"where is the usage function defined?", route.Request{}, def(precision, "usage")},
		{"where is the function definition?", route.Request{}, def(precision, "definition")},
		{"what calls the function callers?", route.Request{}, of(route.IntentCallers, precision, "callers")},
		{"where is `evidence.Pack` called?", route.Request{}, of(route.IntentCallers, precision, "evidence.Pack")},
		{"list the call sites of newRouter()", route.Request{}, of(route.IntentCallers, precision, "newRouter")},
		{"what calls MarkStale", route.Request{}, of(route.IntentCallers, precision, "MarkStale")},
		{"Is parseQuery ever called?", route.Request{}, of(route.IntentCallers, precision, "parseQuery")},

		// Callees: what a definition calls, never who calls it.
		{"what does NewHead call?", route.Request{}, of(route.IntentCallees, none, "NewHead")},
		{"which functions does Engine.Ask call", route.Request{}, of(route.IntentCallees, none, "Engine.Ask")},
		{"callees of parseConfig", route.Request{}, of(route.IntentCallees, none, "parseConfig")},
		{"outgoing calls of runLoop", route.Request{}, of(route.IntentCallees, none, "runLoop")},
		{"what functions are called by handleRequest?", route.Request{}, of(route.IntentCallees, none, "handleRequest")},
		{"which methods get invoked by main", route.Request{}, of(route.IntentCallees, none, "main")},
		{"functions called from main", route.Request{}, of(route.IntentCallees, none, "main")},
		{"what is called inside `evidence.Pack`?", route.Request{}, of(route.IntentCallees, none, "evidence.Pack")},
		{"what calls does refresh_token make?", route.Request{}, of(route.IntentCallees, none, "refresh_token")},
		{"does NewHead call Init?", route.Request{}, of(route.IntentCallees, none, "NewHead", "Init")},
		// A longer callers phrase holds the shorter callees one.
		{"where is call defined?", route.Request{}, def(precision, "call")},
		{"what does main call?", route.Request{}, of(route.IntentCallees, none, "main")},
		{"where do we call parseConfig", route.Request{}, of(route.IntentCallers, precision, "parseConfig")},
		{"where is NewHead called from?", route.Request{}, of(route.IntentCallers, precision, "NewHead")},
		{"which functions call NewHead?", route.Request{}, of(route.IntentCallers, precision, "NewHead")},
		{"what is NewHead called by?", route.Request{}, of(route.IntentCallers, precision, "NewHead")},

		// References.
		{"who uses the Record type?", route.Request{}, of(route.IntentReferences, precision, "Record")},
		{"find references to evidence.Fuse", route.Request{}, of(route.IntentReferences, precision, "evidence.Fuse")},
		{"usages of DocsProviderName", route.Request{}, of(route.IntentReferences, precision, "DocsProviderName")},
		{"where is trust.Score used", route.Request{}, of(route.IntentReferences, precision, "trust.Score")},
		{"show me how labels.FromStrings is used", route.Request{}, of(route.IntentReferences, precision, "labels.FromStrings")},
		{"how is NewHead used?", route.Request{}, of(route.IntentReferences, precision, "NewHead")},
		{"how do I use the Builder class?", route.Request{}, of(route.IntentReferences, precision, "Builder")},
		{"examples of using parseConfig", route.Request{}, of(route.IntentReferences, precision, "parseConfig")},
		{"where do we use DefaultConfig", route.Request{}, of(route.IntentReferences, precision, "DefaultConfig")},
		{"who constructs the Head struct?", route.Request{}, of(route.IntentReferences, precision, "Head")},
		{"where does NewHead get called", route.Request{}, of(route.IntentCallers, precision, "NewHead")},
		{"who is calling NewHead", route.Request{}, of(route.IntentCallers, precision, "NewHead")},
		{"what's calling refresh_token?", route.Request{}, of(route.IntentCallers, precision, "refresh_token")},
		{"functions calling NewHead", route.Request{}, of(route.IntentCallers, precision, "NewHead")},
		{"tests that call NewHead", route.Request{}, of(route.IntentTests, precision, "NewHead")},
		{"types that embed Reader", route.Request{}, of(route.IntentImplementations, precision, "Reader")},
		{"what overrides run", route.Request{}, of(route.IntentImplementations, precision, "run")},
		{"where is BadParameter raised?", route.Request{}, of(route.IntentReferences, precision, "BadParameter")},
		{"what throws the ParseError exception?", route.Request{}, of(route.IntentReferences, precision, "ParseError")},
		{"where do we raise UsageError", route.Request{}, of(route.IntentReferences, precision, "UsageError")},
		{"show me where HeadOptions appears", route.Request{}, of(route.IntentReferences, precision, "HeadOptions")},
		{"where does parse_config occur?", route.Request{}, of(route.IntentReferences, precision, "parse_config")},
		{"which packages import tsdb?", route.Request{}, of(route.IntentReferences, precision, "tsdb")},
		{"Appender implementations", route.Request{}, of(route.IntentImplementations, precision, "Appender")},
		{"Fuse callers", route.Request{}, of(route.IntentCallers, precision, "Fuse")},
		{"who imports the safeexec package", route.Request{}, of(route.IntentReferences, precision, "safeexec")},
		{"show me every place where errors are wrapped with fmt.Errorf", route.Request{},
			of(route.IntentReferences, precision, "fmt.Errorf")},

		// Implementations.
		{"what implements Provider?", route.Request{}, of(route.IntentImplementations, precision, "Provider")},
		{"implementations of io.Reader", route.Request{}, of(route.IntentImplementations, precision, "io.Reader")},
		{"Which types satisfy the evidence.Provider interface?", route.Request{},
			of(route.IntentImplementations, precision, "evidence.Provider")},
		{"who overrides BaseHandler.handle", route.Request{}, of(route.IntentImplementations, precision, "BaseHandler.handle")},

		// Impact.
		{"what breaks if I change Record.Validate?", route.Request{}, of(route.IntentImpact, precision, "Record.Validate")},
		{"blast radius of renaming parseConfig", route.Request{}, of(route.IntentImpact, precision, "parseConfig")},
		{"is it safe to delete this function? (at a position)", with(at, "is it safe to delete this function?"),
			of(route.IntentImpact, precision)},

		// History: git answers it, no optional layer.
		{"What changed in this file?", route.Request{}, of(route.IntentHistory, none)},
		{"What changed in this file? (with its path)", with(route.Request{Path: "auth/service.go"}, "What changed in this file?"),
			of(route.IntentHistory, none)},
		{"who last touched pack.go", route.Request{},
			summary{Intent: route.IntentHistory, Files: []string{"pack.go"}}},
		{"recent changes to the ranking code", route.Request{}, of(route.IntentHistory, none, "ranking")},
		{"what's changed since the last release", route.Request{}, of(route.IntentHistory, none)},
		{"git blame for route.go", route.Request{}, summary{Intent: route.IntentHistory, Files: []string{"route.go"}}},
		{"when was MarkStale added?", route.Request{}, of(route.IntentHistory, none, "MarkStale")},
		{"When did we add the depdocs package?", route.Request{}, of(route.IntentHistory, none)},
		{"show me the commit history of evidence/rank.go", route.Request{},
			summary{Intent: route.IntentHistory, Files: []string{"evidence/rank.go"}}},

		// Versions: the manifests answer them, locally.
		{"which version of react do we use", route.Request{},
			summary{Intent: route.IntentVersion, Dependencies: []string{"npm:react"}}},
		{"What version of cobra are we on?", route.Request{},
			summary{Intent: route.IntentVersion, Dependencies: []string{"go:github.com/spf13/cobra"}}},
		{"which react version is installed", route.Request{},
			summary{Intent: route.IntentVersion, Dependencies: []string{"npm:react"}}},
		{"Which Django version is pinned?", route.Request{},
			summary{Intent: route.IntentVersion, Dependencies: []string{"pypi:Django"}}},
		{"do we depend on lodash?", route.Request{}, of(route.IntentVersion, none)},
		{"list our dependencies", route.Request{}, of(route.IntentVersion, none)},

		// A dependency's API: documentation only for declared dependencies.
		{"Is this method deprecated in our installed version?", route.Request{}, of(route.IntentDependencyAPI, docs)},
		{"Is this method deprecated in our installed version? (nothing declared)",
			route.Request{Text: "Is this method deprecated in our installed version?", Declared: []string{}},
			of(route.IntentDependencyAPI, none)},
		{"is lodash deprecated", route.Request{}, of(route.IntentDependencyAPI, none)},
		{"is `useEffect` deprecated in react 18?", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: []route.Layer{route.DependencyDocs, route.Precision},
				Names: []string{"useEffect"}, Dependencies: []string{"npm:react"}}},
		{"Is componentWillMount deprecated?", route.Request{}, of(route.IntentDependencyAPI, precision, "componentWillMount")},
		{"is cobra.Command.Execute deprecated?", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: []route.Layer{route.DependencyDocs, route.Precision},
				Names: []string{"cobra.Command.Execute"}, Dependencies: []string{"go:github.com/spf13/cobra"}}},
		{"show me the docs for react hooks", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: docs, Dependencies: []string{"npm:react"}}},
		{"what's new in cobra", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: docs, Dependencies: []string{"go:github.com/spf13/cobra"}}},
		{"breaking changes in slf4j-api 2.0", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: docs, Dependencies: []string{"maven:org.slf4j:slf4j-api"}}},
		{"is the useQuery hook from @tanstack/react-query deprecated", route.Request{},
			summary{Intent: route.IntentDependencyAPI, Optional: []route.Layer{route.DependencyDocs, route.Precision},
				Names: []string{"useQuery"}, Dependencies: []string{"npm:@tanstack/react-query"}}},

		// Structural: a shape, or a pattern pasted inline.
		{"Find all usages of this old API shape.", route.Request{}, of(route.IntentStructural, structural)},
		{"find all usages of `oldAPI($X)`", route.Request{},
			summary{Intent: route.IntentStructural, Optional: structural, Names: []string{"oldAPI"}, Pattern: "oldAPI($X)"}},
		{"find all calls like foo($A, $$$REST)", route.Request{},
			summary{Intent: route.IntentStructural, Optional: structural, Names: []string{"foo"}, Pattern: "foo($A, $$$REST)"}},
		{"search for `if err != nil { return err }`", route.Request{},
			summary{Intent: route.IntentStructural, Optional: structural, Pattern: "if err != nil { return err }"}},
		{"where is `log.Printf($$$)` called?", route.Request{},
			summary{Intent: route.IntentStructural, Optional: structural, Names: []string{"log.Printf"}, Pattern: "log.Printf($$$)"}},
		{"find code matching a fenced pattern", route.Request{Text: "find code matching\n```go\nfmt.Println($X)\n```"},
			summary{Intent: route.IntentStructural, Optional: structural, Names: []string{"fmt.Println"}, Pattern: "fmt.Println($X)", Language: "go"}},
		{"a pattern and no text", route.Request{Pattern: "http.Get($URL)", Language: "go"},
			summary{Intent: route.IntentStructural, Optional: structural, Pattern: "http.Get($URL)", Language: "go"}},

		// Migrations: up to a preview.
		{"Migrate all old API calls to the new shape.", route.Request{},
			of(route.IntentMigration, []route.Layer{route.Precision, route.DependencyDocs, route.Structural})},
		{"Migrate `oldAPI($X)` to `newAPI($X, nil)`", route.Request{},
			summary{Intent: route.IntentMigration, Optional: []route.Layer{route.Precision, route.Structural},
				Names: []string{"oldAPI", "newAPI"}, Pattern: "oldAPI($X)", Replacement: "newAPI($X, nil)"}},
		{"replace all `errors.Wrap($E, $M)` with `fmt.Errorf($M, $E)`", route.Request{},
			summary{Intent: route.IntentMigration, Optional: []route.Layer{route.Precision, route.Structural},
				Names: []string{"errors.Wrap", "fmt.Errorf"}, Pattern: "errors.Wrap($E, $M)", Replacement: "fmt.Errorf($M, $E)"}},
		{"upgrade react to 19", route.Request{},
			summary{Intent: route.IntentMigration, Optional: []route.Layer{route.Precision, route.DependencyDocs, route.Structural},
				Dependencies: []string{"npm:react"}}},
		{"apply the rewrite now", route.Request{}, of(route.IntentMigration, []route.Layer{route.Precision, route.Structural})},
		{"Rename ParseConfig to LoadConfig everywhere", route.Request{},
			of(route.IntentMigration, []route.Layer{route.Precision, route.Structural}, "ParseConfig", "LoadConfig")},

		// Memory, validation, search.
		{"why did we choose sqlite?", route.Request{}, of(route.IntentMemory, none)},
		{"what is our convention for error wrapping?", route.Request{}, of(route.IntentMemory, none)},
		{"does it build?", route.Request{}, of(route.IntentValidation, none)},
		{"are the tests failing on main?", route.Request{}, of(route.IntentValidation, none)},
		{"tell me about tokenizer performance", route.Request{}, of(route.IntentSearch, none)},
		{"anything about AuthService and retries", route.Request{}, of(route.IntentSearch, precision, "AuthService")},

		// An explicit intent overrides the text; the text still gives names.
		{"explicit callers", route.Request{Text: "AuthService", Intent: route.IntentCallers},
			of(route.IntentCallers, precision, "AuthService")},
		{"explicit history over a definition question",
			route.Request{Text: "Where is AuthService defined?", Intent: route.IntentHistory},
			of(route.IntentHistory, none, "AuthService")},
		{"explicit structural with a pattern", route.Request{Text: "who calls foo", Intent: route.IntentStructural, Pattern: "foo($X)"},
			summary{Intent: route.IntentStructural, Optional: structural, Names: []string{"foo"}, Pattern: "foo($X)"}},
		{"explicit migration with nothing declared",
			route.Request{Text: "Migrate all old API calls to the new shape.", Intent: route.IntentMigration, Declared: []string{}},
			of(route.IntentMigration, []route.Layer{route.Precision, route.Structural})},
		{"unknown explicit intent is ignored",
			route.Request{Text: "Migrate all old API calls to the new shape.", Intent: "apply"},
			of(route.IntentMigration, []route.Layer{route.Precision, route.DependencyDocs, route.Structural})},
		{"a symbol and no text", route.Request{Symbol: "AuthService.Refresh"}, def(precision, "AuthService.Refresh")},
		{"a symbol of a declared dependency", route.Request{Symbol: "react.useEffect", Intent: route.IntentDependencyAPI},
			summary{Intent: route.IntentDependencyAPI, Optional: []route.Layer{route.DependencyDocs, route.Precision},
				Names: []string{"react.useEffect"}, Dependencies: []string{"npm:react"}}},
	}
	if len(cases) < 60 {
		t.Fatalf("only %d phrasings", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := c.req
			if req.Text == "" && req.Path == "" && req.Pattern == "" && req.Symbol == "" && req.Intent == "" {
				req.Text = c.name
			}
			if req.Declared == nil {
				req.Declared = declared
			}
			p := route.Route(req)
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, summarise(p)); diff != "" {
				t.Errorf("plan for %q (-want +got):\n%s", req.Text, diff)
			}
		})
	}
}
