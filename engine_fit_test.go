package codecortex

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/trust"
)

// def is a definition record from the local index.
func def(path string, line int, symbol, container, kind, sig string) evidence.Record {
	attrs := map[string]string{"kind": kind, "language": "go", "signature": sig}
	if container != "" {
		attrs["container"] = container
	}
	return evidence.Record{Kind: evidence.Definition, Provider: "local-index", Provenance: trust.SymbolIndex,
		Trust: trust.Structural, Path: path, StartLine: line, StartColumn: 1, EndLine: line, EndColumn: 5,
		Symbol: symbol, Confidence: 0.9, Metadata: evidence.Metadata{Attributes: attrs}}
}

func scipDef(path string, line int, symbol string) evidence.Record {
	return evidence.Record{Kind: evidence.Definition, Provider: "precision", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Path: path, StartLine: line, StartColumn: 1, EndLine: line, EndColumn: 5,
		Symbol: symbol, Confidence: 1}
}

func text(path string, line int, excerpt string) evidence.Record {
	return evidence.Record{Kind: evidence.Reference, Provider: "local-index", Provenance: trust.Lexical,
		Trust: trust.Weak, Path: path, StartLine: line, StartColumn: 1, EndLine: line, EndColumn: 5,
		Confidence: 0.3, Metadata: evidence.Metadata{Excerpt: excerpt, Attributes: map[string]string{"content": "code"}}}
}

func call(path string, line, col int, caller string, tier trust.Tier) evidence.Record {
	m := trust.Heuristic
	if tier == trust.Exact {
		m = trust.PrecisionIndex
	}
	return evidence.Record{Kind: evidence.Reference, Provider: "graph", Provenance: m, Trust: tier,
		Path: path, StartLine: line, StartColumn: col, EndLine: line, EndColumn: col + 4, Symbol: caller,
		Confidence: 1, Exact: tier == trust.Exact}
}

// answerOf routes text and fills an answer from recs, reading files from src.
func answerOf(text string, recs []evidence.Record, src map[string][]string) *Answer {
	ans := &Answer{Plan: route.Route(route.Request{Text: text}), Records: []evidence.Record{}}
	ans.fill(recs, 100000, func(p string) []string { return src[p] })
	return ans
}

func symbols(recs []evidence.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Path+":"+r.Symbol)
	}
	return out
}

func TestFitDefinitions(t *testing.T) {
	iface := def("chi.go", 90, "chi.Router.HandleFunc", "Router", "method", "HandleFunc(pattern string, h http.HandlerFunc)")
	impl := def("mux.go", 121, "chi.Mux.HandleFunc", "Mux", "method", "func (mx *Mux) HandleFunc(pattern string, h http.HandlerFunc)")
	test := def("mux_test.go", 10, "chi.HandleFunc", "", "function", "func HandleFunc()")
	ref := text("mux.go", 300, "r.HandleFunc(\"/\", h)")
	tests := []struct {
		name, question string
		in             []evidence.Record
		want           []string
		omitted        map[string]int
	}{
		{"a body before a declaration, code before tests, and references leave",
			"where is HandleFunc defined?", []evidence.Record{ref, test, iface, impl},
			[]string{"mux.go:chi.Mux.HandleFunc", "chi.go:chi.Router.HandleFunc", "mux_test.go:chi.HandleFunc"},
			map[string]int{leftReference: 1}},
		{"the container named selects, the others leave",
			"the HandleFunc method of Router", []evidence.Record{impl, iface, ref},
			[]string{"chi.go:chi.Router.HandleFunc"}, map[string]int{leftReference: 1, leftQualifier: 1}},
		{"a member of a class nested in the container named, when none is its own (an anonymous class in a method)",
			"the head method of Element", []evidence.Record{
				def("HtmlToPlainText.java", 75, "examples.HtmlToPlainText.FormattingVisitor.head", "HtmlToPlainText.FormattingVisitor", "method", "public void head(Node node, int depth)"),
				def("Element.java", 1308, "nodes.Element.text.head", "Element.text", "method", "public void head(Node node, int depth)")},
			[]string{"Element.java:nodes.Element.text.head"}, map[string]int{leftQualifier: 1}},
		{"the container's own member before a nested one's",
			"the head method of Element", []evidence.Record{
				def("Element.java", 1308, "nodes.Element.text.head", "Element.text", "method", "public void head(Node node, int depth)"),
				def("Element.java", 20, "nodes.Element.head", "Element", "method", "public Element head()")},
			[]string{"Element.java:nodes.Element.head"}, map[string]int{leftQualifier: 1}},
		{"a kind word ranks that kind first",
			"show me the Value interface", []evidence.Record{
				def("a.go", 1, "p.Flag.Value", "Flag", "field", "Value Value"),
				def("b.go", 1, "p.Value", "", "interface", "type Value interface")},
			[]string{"b.go:p.Value", "a.go:p.Flag.Value"}, nil},
		{"the name as written before one that differs in case",
			"where is Version defined?", []evidence.Record{
				def("tests/util.go", 6, "util.version", "", "function", "func version()"),
				def("lib.go", 112, "semver.Version", "", "struct", "type Version struct")},
			[]string{"lib.go:semver.Version", "tests/util.go:util.version"}, nil},
		{"package-level before a member when no container is named",
			"definition of Parse", []evidence.Record{
				def("a.go", 1, "p.Parser.Parse", "Parser", "method", "func (p *Parser) Parse()"),
				def("b.go", 1, "p.Parse", "", "function", "func Parse()")},
			[]string{"b.go:p.Parse", "a.go:p.Parser.Parse"}, nil},
		{"a SCIP method before a SCIP term of the same name (a variable, or an interface's method as scip-go writes it)",
			"where is HandleFunc defined?", []evidence.Record{
				scipDef("chi.go", 90, "scip-go gomod m v `m`/Router#HandleFunc."),
				scipDef("mux.go", 121, "scip-go gomod m v `m`/Mux#HandleFunc().")},
			[]string{"mux.go:scip-go gomod m v `m`/Mux#HandleFunc().", "chi.go:scip-go gomod m v `m`/Router#HandleFunc."}, nil},
		{"a member of a type literal (a meta descriptor, as scip-typescript writes it) is a definition of its name",
			"where is the function make_?", []evidence.Record{
				scipDef("src/api/annotation.ts", 11, "scip-typescript npm mobx 6.12.0 src/api/`annotation.ts`/Annotation#typeLiteral3:make_()."),
				scipDef("src/types/autoannotation.ts", 30, "scip-typescript npm mobx 6.12.0 src/types/`autoannotation.ts`/make_().")},
			[]string{"src/types/autoannotation.ts:scip-typescript npm mobx 6.12.0 src/types/`autoannotation.ts`/make_().",
				"src/api/annotation.ts:scip-typescript npm mobx 6.12.0 src/api/`annotation.ts`/Annotation#typeLiteral3:make_()."}, nil},
		{"no definition: text matches stay",
			"where is Frobnicate defined?", []evidence.Record{ref}, []string{"mux.go:"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := answerOf(tt.question, slices.Clone(tt.in), nil)
			if got := symbols(ans.Records); !slices.Equal(got, tt.want) {
				t.Errorf("records %q, want %q", got, tt.want)
			}
			if len(tt.omitted) > 0 && !mapsEqual(ans.Omitted, tt.omitted) {
				t.Errorf("omitted %v, want %v", ans.Omitted, tt.omitted)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestFitCallers(t *testing.T) {
	src := map[string][]string{
		"a.ts": {
			"import { run } from './run'",
			"export function main() { run(1) }",
			"const f = run",
			"export function again() { run<number>(2) }",
		},
	}
	exact := func(line, col int) evidence.Record { return call("a.ts", line, col, "main", trust.Exact) }
	in := []evidence.Record{exact(1, 10), exact(2, 26), exact(3, 11), exact(4, 27),
		text("a.ts", 2, "export function main() { run(1) }"), text("b.ts", 9, "run(3)"), text("a.ts", 3, "const f = run")}
	ans := answerOf("who calls run?", in, src)
	var got []int
	for _, r := range ans.Records {
		got = append(got, r.StartLine)
	}
	if !slices.Equal(got, []int{2, 4}) {
		t.Errorf("lines %v, want the two calls (2 and 4)", got)
	}
	want := map[string]int{leftImport: 1, leftNotCall: 1, leftText: 3}
	if !mapsEqual(ans.Omitted, want) {
		t.Errorf("omitted %v, want %v", ans.Omitted, want)
	}

	// Where the graph answers, text matches leave: it read their files.
	in = []evidence.Record{call("a.go", 2, 5, "main", trust.Inferred), text("a.go", 2, "run(1)"),
		text("a.go", 7, "run(2)"), text("a.go", 8, "x := run"), text("README.md", 3, "call run(1)")}
	in[4].Metadata.Attributes["content"] = "prose"
	ans = answerOf("who calls run?", in, nil)
	got = got[:0]
	for _, r := range ans.Records {
		got = append(got, r.StartLine)
	}
	if !slices.Equal(got, []int{2}) || ans.Omitted[leftText] != 4 {
		t.Errorf("lines %v, omitted %v: want the graph's call alone", got, ans.Omitted)
	}

	// Nothing but text: the matches that read as calls stay.
	ans = answerOf("who calls run?", in[1:], nil)
	got = got[:0]
	for _, r := range ans.Records {
		got = append(got, r.StartLine)
	}
	if !slices.Equal(got, []int{2, 7}) {
		t.Errorf("lines %v, want the two calls text shows (2, 7)", got)
	}
}

// TestFitOtherDefinitions: the uses the graph typed to another type's
// member leave, and so do, asked about a member, the text matches it
// left untyped; asked about the name alone, those stay.
func TestFitOtherDefinitions(t *testing.T) {
	other := func(line int, target string) evidence.Record {
		r := call("m.go", line, 5, "p.main", trust.InferredHigh)
		r.Provenance, r.TargetSymbol = trust.GraphRelation, target
		r.Metadata.Attributes = map[string]string{graph.OtherDefinitionAttribute: "true"}
		return r
	}
	atOther := text("m.go", 2, "ok := route.Match(req)")
	atOther.StartColumn, atOther.EndColumn = 5, 9 // where the graph's record is: they fuse
	untyped := text("m.go", 7, "ok = v.matcher.Match(req)")
	tests := []struct {
		name, question string
		in             []evidence.Record
		lines          []int
		omitted        map[string]int
	}{
		{"asked about a member", "callers of methodMatcher.Match",
			[]evidence.Record{other(2, "m.go#Route.Match"), atOther, untyped}, nil,
			map[string]int{leftOther: 1, leftUntyped: 1}},
		{"the other definition is no member", "callers of mux.Match",
			[]evidence.Record{other(2, "m.go#Match"), untyped}, []int{7}, map[string]int{leftOther: 1}},
		{"asked about the name alone", "callers of Match",
			[]evidence.Record{other(2, "m.go#Route.Match"), untyped}, []int{7}, map[string]int{leftOther: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := answerOf(tt.question, evidence.Fuse(tt.in), nil)
			var lines []int
			for _, r := range ans.Records {
				lines = append(lines, r.StartLine)
			}
			if !slices.Equal(lines, tt.lines) || !mapsEqual(ans.Omitted, tt.omitted) {
				t.Errorf("lines %v, omitted %v; want %v, %v", lines, ans.Omitted, tt.lines, tt.omitted)
			}
		})
	}
}

func TestFitTests(t *testing.T) {
	in := []evidence.Record{call("a.go", 2, 5, "p.main", trust.Inferred), call("a_test.go", 9, 5, "p.TestRun", trust.Inferred),
		call("src/x.rs", 40, 5, "src/x.rs#tests.check", trust.Inferred)}
	ans := answerOf("which tests cover Run?", in, nil)
	if got := symbols(ans.Records); len(got) != 2 || ans.Omitted[leftNotTest] != 1 {
		t.Errorf("records %q, omitted %v: want the two in tests", got, ans.Omitted)
	}
	// The graph's uses are all outside tests: the text matches in tests
	// are what answers, not nothing.
	in = []evidence.Record{call("a.go", 2, 5, "p.main", trust.Inferred), text("a_test.go", 9, "w.Run(x)")}
	ans = answerOf("which tests cover Run?", in, nil)
	if got := symbols(ans.Records); len(got) != 1 || ans.Records[0].Path != "a_test.go" {
		t.Errorf("records %q, omitted %v: want the text match in a test", got, ans.Omitted)
	}
}

// TestFitTestsImportsAfterUses: a tests question is asked for the test
// files' imports of the name too, and they rank after the uses, which show
// what the test exercises: within a budget the uses come first.
func TestFitTestsImportsAfterUses(t *testing.T) {
	plan := route.Route(route.Request{Text: "tests of isFSA"})
	if q := queryFor(Question{Text: "tests of isFSA"}, plan); !q.Wants(evidence.Import) || !q.Wants(evidence.Call) {
		t.Errorf("kinds %v: want imports and calls", q.Kinds)
	}
	imp := call("a.test.ts", 1, 10, "a.test.ts", trust.InferredHigh)
	imp.Kind = evidence.Import
	in := []evidence.Record{imp, call("a.test.ts", 9, 5, "a.test.ts", trust.InferredHigh), call("b.test.ts", 4, 5, "b.test.ts", trust.InferredHigh)}
	ans := answerOf("tests of isFSA", in, nil)
	var got []int
	for _, r := range ans.Records {
		got = append(got, r.StartLine)
	}
	if want := []int{9, 4, 1}; !slices.Equal(got, want) {
		t.Errorf("lines %v, want %v (omitted %v)", got, want, ans.Omitted)
	}
}

func TestFitNameAskedOnly(t *testing.T) {
	// "latest" is a guess the route makes from a plain word: the fit reads
	// the question as about it only when the layers were asked about it.
	for _, tt := range []struct {
		symbol string
		want   int
	}{{"latest", 1}, {"", 0}} {
		ans := &Answer{Plan: route.Route(route.Request{Text: "callers of latest"}), Query: evidence.Query{Symbol: tt.symbol},
			Records: []evidence.Record{}}
		ans.fill([]evidence.Record{text("a.ts", 2, "const s = latest(state)")}, 100000, nil)
		if len(ans.Records) != tt.want {
			t.Errorf("asked about %q: %d records, want %d (omitted %v)", tt.symbol, len(ans.Records), tt.want, ans.Omitted)
		}
	}
}

func TestFitMemberUses(t *testing.T) {
	// Text alone answers: the matches that select or call the member stay,
	// prose and keys leave; a language that uses members bare keeps them.
	in := []evidence.Record{text("core.py", 1, "rv = self.invoke(ctx)"), text("core.py", 2, "are two ways to invoke this method:"),
		text("core.py", 3, "of :meth:`invoke`."), text("arg.js", 4, "default: x,"), text("arg.js", 5, "arg.default (v)"),
		text("Ctx.java", 6, "return invoke;"), text("core.py", 7, "self.invoker(ctx)")}
	ans := answerOf("usages of Context.invoke", in, nil)
	var got []int
	for _, r := range ans.Records {
		got = append(got, r.StartLine)
	}
	slices.Sort(got)
	if want := []int{1, 6}; !slices.Equal(got, want) || ans.Omitted[leftNotSelected] != 5 {
		t.Errorf("lines %v, omitted %v: want %v", got, ans.Omitted, want)
	}
	// A module's function (a lower-case qualifier) is used bare in its module.
	ans = answerOf("usages of utils.invoke", in[1:2], nil)
	if len(ans.Records) != 1 {
		t.Errorf("records %v, omitted %v: want the text match kept", symbols(ans.Records), ans.Omitted)
	}
	for _, c := range []struct {
		line string
		want bool
	}{{"x.invoke", true}, {"p->invoke", true}, {"T::invoke()", true}, {"invoke (1)", true}, {"invoker(1)", false},
		{"reinvoke(1)", false}, {"to invoke it", false}, {"'invoke'", false}, {"", false}} {
		if got := memberShaped(c.line, "invoke"); got != c.want {
			t.Errorf("memberShaped(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestDeclaresName(t *testing.T) {
	for _, c := range []struct {
		line, file string
		want       bool
	}{
		{"def get(self, key):", "a.py", true},
		{"export function get(x) {", "a.ts", true},
		{"unsafe fn get(mut ptr: *const u8) -> usize {", "a.rs", true},
		{"func (m *Map) get(k string) int {", "a.go", true},
		{"export interface get {", "a.ts", true},
		{"const get = () => 1", "a.js", true},
		{"get() {", "a.js", true},
		{"static async get<T>(target: T): T {", "a.ts", true},
		{"return obj.get(key)", "a.js", false},
		{"get(app, {", "a.js", false},
		{"get(() => {", "a.js", false},
		{"get(x) {", "a.rb", false},
		{"forget(x)", "a.py", false},
		{"x = get(y)", "a.py", false},
	} {
		if got := declaresName(c.line, "get", c.file); got != c.want {
			t.Errorf("declaresName(%q, %s) = %v, want %v", c.line, c.file, got, c.want)
		}
	}
}

func TestFitOutsideBuildAfterTests(t *testing.T) {
	// Same tier and score: the class alone orders them.
	in := []evidence.Record{call("_examples/todo/main.go", 3, 5, "main.main", trust.Inferred),
		call("a_test.go", 9, 5, "p.TestRun", trust.Inferred), call("a.go", 2, 5, "p.main", trust.Inferred)}
	ans := answerOf("who calls Run?", in, nil)
	want := []string{"a.go:p.main", "a_test.go:p.TestRun", "_examples/todo/main.go:main.main"}
	if got := symbols(ans.Records); !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}

// TestFitTypedTestsBeforeNames: a use the graph found by its name alone
// (inferred) in code ranks with the uses in tests, by tier: a typed use in
// a test (inferred_high) before it; a typed use in code before both, and a
// use by name in a test last.
func TestFitTypedTestsBeforeNames(t *testing.T) {
	in := []evidence.Record{call("a_test.go", 9, 5, "p.TestByName", trust.Inferred),
		call("b.go", 2, 5, "p.byName", trust.Inferred), call("a_test.go", 4, 5, "p.TestTyped", trust.InferredHigh),
		call("a.go", 2, 5, "p.typed", trust.InferredHigh)}
	ans := answerOf("where is Api.getState used?", in, nil)
	want := []string{"a.go:p.typed", "a_test.go:p.TestTyped", "b.go:p.byName", "a_test.go:p.TestByName"}
	if got := symbols(ans.Records); !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}

func TestFitBudgetBoundsTheDocument(t *testing.T) {
	var in, bare []evidence.Record
	for i := range 200 {
		r := call("a.go", i+1, 5, "p.caller", trust.Inferred)
		bare = append(bare, r)
		r.Metadata.Attributes = map[string]string{"encoding": "utf-8", "encoding_source": "measured",
			"indexer": "some-indexer 1.2.3", "relation": "calls"}
		in = append(in, r)
	}
	fill := func(recs []evidence.Record) (*Answer, []byte) {
		ans := &Answer{Plan: route.Route(route.Request{Text: "who calls run?"}), Records: []evidence.Record{}}
		ans.fill(recs, 2000, nil)
		doc, _ := json.Marshal(ans)
		return ans, doc
	}
	ans, doc := fill(in)
	if n := evidence.EstimateTokens(len(doc)); n > 2000 || len(ans.Records) == 0 || ans.Omitted[leftBudget] == 0 {
		t.Errorf("%d tokens, %d records, omitted %v", n, len(ans.Records), ans.Omitted)
	}
	if got := ans.Records[0].Metadata.Attributes["indexer"]; got != "some-indexer 1.2.3" {
		t.Errorf("the answer's record lost its attribute (%q): only the document writes it once", got)
	}
	// The attributes every record carries are written once, in shared: as
	// many records fit as without them.
	if !strings.Contains(string(doc), `"shared":{"graph":{`) {
		t.Errorf("no shared attributes in %.300s…", doc)
	}
	if plain, _ := fill(bare); len(ans.Records) < len(plain.Records)-1 {
		t.Errorf("%d records fit with attributes shared, %d without attributes", len(ans.Records), len(plain.Records))
	}
}

// TestFitTightBudget: with a budget that holds the route's reasons, the
// layers' guidance and no record, those make way for the first record;
// with one that holds no record even then, the answer says what budget
// the first needs, and that budget holds it.
func TestFitTightBudget(t *testing.T) {
	var in []evidence.Record
	for i := range 20 {
		in = append(in, call("pkg/caller.go", i+1, 5, "pkg.caller", trust.Inferred))
	}
	fill := func(budget int) (*Answer, int) {
		ans := &Answer{Plan: route.Route(route.Request{Text: "who calls run?"}), Records: []evidence.Record{},
			Reports: []evidence.Report{{Provider: "precision", State: evidence.Unavailable, Reason: "no precision index",
				Guidance: strings.Repeat("generate a SCIP index with the indexer of the language; ", 8)}}}
		ans.fill(slices.Clone(in), budget, nil)
		doc, _ := json.Marshal(ans)
		return ans, evidence.EstimateTokens(len(doc))
	}
	roomy, _ := fill(100000)
	if roomy.Compacted || roomy.NeedBudget != 0 || len(roomy.Records) != len(in) {
		t.Fatalf("a roomy budget: compacted %v, need %d, %d records", roomy.Compacted, roomy.NeedBudget, len(roomy.Records))
	}
	head, _ := json.Marshal(&Answer{Plan: roomy.Plan, Reports: roomy.Reports, Records: []evidence.Record{}})
	one, _ := json.Marshal(in[:1])
	budget := evidence.EstimateTokens(len(head)+answerSlack) + evidence.EstimateTokens(len(one))/2
	ans, used := fill(budget)
	if !ans.Compacted || len(ans.Records) == 0 || used > budget {
		t.Errorf("budget %d: compacted %v, %d records, %d tokens", budget, ans.Compacted, len(ans.Records), used)
	}
	if ans.Reports[0].Guidance != "" || ans.Plan.Steps[0].Reason != "" {
		t.Errorf("compacted, yet the guidance %q and the reason %q are kept", ans.Reports[0].Guidance, ans.Plan.Steps[0].Reason)
	}
	ans, _ = fill(40)
	if len(ans.Records) != 0 || ans.NeedBudget <= 40 {
		t.Fatalf("budget 40: %d records, need %d", len(ans.Records), ans.NeedBudget)
	}
	if more, used := fill(ans.NeedBudget); len(more.Records) == 0 || used > ans.NeedBudget {
		t.Errorf("the budget the answer asked for, %d, holds %d records in %d tokens", ans.NeedBudget, len(more.Records), used)
	}
}

// TestFitWhatTheKeptShare: the overrides of one method in one file share
// their file, symbol and signature in the document, though the record
// ranked last (the abstract method, in another file) does not: as many
// fit as the document of those kept holds, not as few as sharing with
// the last would leave room for.
func TestFitWhatTheKeptShare(t *testing.T) {
	var in []evidence.Record
	for i := range 60 {
		r := def("src/main/java/org/jsoup/parser/TokeniserState.java", 11+10*i, "org.jsoup.parser.TokeniserState.read",
			"TokeniserState", "method", "void read(Tokeniser t, CharacterReader r)")
		r.Metadata.Attributes["language"] = "java"
		in = append(in, r)
	}
	last := def("src/main/java/org/jsoup/parser/State.java", 1622, "org.jsoup.parser.TokeniserState.read",
		"TokeniserState", "method", "abstract void read(Tokeniser t, CharacterReader r);")
	last.Metadata.Attributes["language"] = "java"
	in = append(in, last)
	fill := func(recs []evidence.Record, budget int) (*Answer, int) {
		ans := &Answer{Plan: route.Route(route.Request{Text: "show me method read on TokeniserState"}), Records: []evidence.Record{}}
		ans.fill(slices.Clone(recs), budget, nil)
		doc, _ := json.Marshal(ans)
		return ans, evidence.EstimateTokens(len(doc))
	}
	// The budget the 60 overrides take alone, with room for the slack.
	_, alone := fill(in[:60], 100000)
	budget := alone + answerSlack/evidence.BytesPerToken + 10
	ans, used := fill(in, budget)
	if used > budget {
		t.Errorf("%d tokens over the budget of %d", used, budget)
	}
	if len(ans.Records) != 60 {
		t.Errorf("%d of the 60 overrides fit in %d tokens (omitted %v); alone they take %d", len(ans.Records), budget, ans.Omitted, alone)
	}
}

func TestFitSubtypes(t *testing.T) {
	impl := func(path string, line int, sym, rel string) evidence.Record {
		r := scipDef(path, line, sym)
		r.Kind, r.TargetSymbol = evidence.Implementation, "T#"
		r.Metadata.Attributes = map[string]string{"relation": rel}
		return r
	}
	in := []evidence.Record{impl("a.py", 1, "Base#", relSupertype), impl("a.py", 9, "Sub#", "implements"),
		def("a.py", 5, "p.T", "", "class", "class T(Base):")}
	ans := answerOf("subclasses of T", in, nil)
	if got := symbols(ans.Records); len(got) != 1 || got[0] != "a.py:Sub#" || ans.Omitted[leftSupertype] != 1 || ans.Omitted[leftSelf] != 1 {
		t.Errorf("records %q, omitted %v: want the subclass alone", got, ans.Omitted)
	}
	// Nothing extends T: what T extends is the answer.
	ans = answerOf("subclasses of T", in[:1], nil)
	if len(ans.Records) != 1 {
		t.Errorf("records %q: want what T extends", symbols(ans.Records))
	}
}

func TestCodeExcerpt(t *testing.T) {
	r := call("a.go", 2, 5, "p.main", trust.Inferred)
	r.Provider, r.Metadata.Excerpt = "graph", "a.go#main calls a.go#run (depth 1, scope)"
	got := codeExcerpt(r, func(string) []string { return []string{"package p", "\trun(1) // go\r"} })
	if got.Metadata.Excerpt != "run(1) // go" {
		t.Errorf("excerpt %q, want the line of code", got.Metadata.Excerpt)
	}
	if kept := codeExcerpt(r, func(string) []string { return nil }); kept.Metadata.Excerpt != r.Metadata.Excerpt {
		t.Errorf("a file that cannot be read changed the excerpt to %q", kept.Metadata.Excerpt)
	}
}

func TestFitForeignSymbols(t *testing.T) {
	use := func(line int, defined string) evidence.Record {
		r := call("a_test.go", line, 5, "p.TestX", trust.Exact)
		r.Provider = "precision"
		r.Metadata.Attributes = map[string]string{precision.DefinedAttribute: defined}
		return r
	}
	ans := answerOf("tests of Context", []evidence.Record{use(3, "true"), use(9, "false")}, nil)
	if len(ans.Records) != 1 || ans.Records[0].StartLine != 3 || ans.Omitted[leftForeign] != 1 {
		t.Errorf("records %v, omitted %v: want the project's symbol's use alone", symbols(ans.Records), ans.Omitted)
	}
	// Only another module's symbol has that name: its uses are the answer.
	if ans := answerOf("tests of Context", []evidence.Record{use(9, "false")}, nil); len(ans.Records) != 1 {
		t.Errorf("records %v: want the use", symbols(ans.Records))
	}
}

// TestDeclarationOnly: what only declares a name ranks after what defines
// it: declaration files of each module kind, interface methods and
// prototypes; not a definition with a body.
func TestDeclarationOnly(t *testing.T) {
	rec := func(path, lang, kind, sig string) *evidence.Record {
		return &evidence.Record{Path: path, Metadata: evidence.Metadata{Attributes: map[string]string{
			"language": lang, "kind": kind, "signature": sig}}}
	}
	tests := []struct {
		r    *evidence.Record
		want bool
	}{
		{rec("index.d.ts", "typescript", "class", "declare class Axios"), true},
		{rec("index.d.cts", "typescript", "class", "declare class Axios"), true},
		{rec("index.d.mts", "typescript", "class", "declare class Axios"), true},
		{rec("lib/core/Axios.js", "javascript", "class", "class Axios"), false},
		{rec("types.ts", "typescript", "method", "get(key: string): string;"), true},
		{rec("c.go", "go", "method", "Get(key string) any"), true},
		{rec("c.go", "go", "method", "func (c *context) Get(key string) any"), false},
	}
	for _, tt := range tests {
		if got := declarationOnly(tt.r); got != tt.want {
			t.Errorf("declarationOnly(%s %q) = %v, want %v", tt.r.Path, tt.r.Metadata.Attributes["signature"], got, tt.want)
		}
	}
}
