package route_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/route"
)

// fragments are pieces of questions: cue words of every intent, names in
// their forms, patterns, dependency names and noise, so that random
// requests reach every branch of the router.
var fragments = []string{
	"where is", "where's", "defined", "definition of", "show me the", "interface", "what is",
	"who calls", "callers of", "who uses", "find references to", "usages of", "what implements",
	"implementations of", "what breaks if I change", "what changed in", "who last touched",
	"recent changes to", "which version of", "is", "deprecated", "in our installed version",
	"find all", "shape", "calls like", "migrate", "replace all", "with", "to", "apply the rewrite",
	"apply", "does it build", "why did we", "this file", "this method", "the", "?", ".", "old API",
	"AuthService", "refresh_token", "Type.Method", "pkg.Name", "Vec::new", "useEffect", "refresh()",
	"`AuthService.Refresh`", "`oldAPI($X)`", "`newAPI($X)`", "foo($A, $$$ARGS)", "$X", "$$$",
	"react", "cobra", "lodash", "react@18", "@tanstack/react-query", "Django", "slf4j-api",
	"auth.go", "./internal/x", "```go\nfmt.Println($X)\n```", "```", "`", "``", "((", "))",
	"where's", "isn't", "react's", "don't", "’s", "é", "\n", "\t",
}

var declaredPool = []string{
	"npm:react", "react", "go:github.com/spf13/cobra", "pypi:Django", "maven:org.slf4j:slf4j-api",
	"npm:@tanstack/react-query", "go:example.com/mod/v2", "cargo:serde", "", " ", "is", "a", "npm:",
	"nuget:Newtonsoft.Json", "lodash",
}

func genRequest() *rapid.Generator[route.Request] {
	return rapid.Custom(func(t *rapid.T) route.Request {
		frag := rapid.SampledFrom(fragments)
		parts := rapid.SliceOfN(rapid.OneOf(
			frag, frag, frag,
			rapid.StringMatching("[A-Za-z_$.:()`@/ ]{0,16}"),
			rapid.String(),
		), 0, 14).Draw(t, "parts")
		req := route.Request{Text: strings.Join(parts, " ")}
		if rapid.Bool().Draw(t, "position") {
			req.Path = rapid.SampledFrom([]string{"a.go", "dir/b.ts", ""}).Draw(t, "path")
			req.Line = rapid.IntRange(-2, 40).Draw(t, "line")
			req.Column = rapid.IntRange(-2, 40).Draw(t, "column")
		}
		req.Symbol = rapid.SampledFrom([]string{"", "", "AuthService", "react.useEffect", " x ", "$X"}).Draw(t, "symbol")
		req.Pattern = rapid.SampledFrom([]string{"", "", "foo($X)", "$$$", " "}).Draw(t, "pattern")
		req.Language = rapid.SampledFrom([]string{"", "go", "typescript"}).Draw(t, "language")
		switch rapid.IntRange(0, 9).Draw(t, "intent kind") {
		case 0, 1:
			req.Intent = rapid.SampledFrom(route.Intents()).Draw(t, "intent")
		case 2:
			req.Intent = rapid.SampledFrom([]route.Intent{"apply", "rewrite-apply", "mutate", "write", "Definition"}).Draw(t, "bad intent")
		}
		req.Declared = rapid.SliceOfN(rapid.SampledFrom(declaredPool), 0, 5).Draw(t, "declared")
		return req
	})
}

// readOnly is every layer a plan may name, written out here rather than
// taken from the package: a layer that applies a change is not in it.
var readOnly = map[route.Layer]bool{
	"precision": true, "dependency-docs": true, "structural": true, "local-index": true,
	"history": true, "graph": true, "impact": true, "memory": true, "validation": true,
	"dependency-manifests": true, "rewrite-preview": true,
}

// No plan holds a mutation step, whatever the input: every layer is a
// read-only one, a preview appears only after a migration's answer, and
// every plan keeps the invariants Validate checks.
func TestPropertyNoPlanMutates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := route.Route(genRequest().Draw(t, "request"))
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]route.Step{p.Steps, p.FollowOn, p.Skipped} {
			for _, s := range list {
				if !readOnly[s.Layer] {
					t.Fatalf("plan names layer %q", s.Layer)
				}
			}
		}
		for _, s := range p.Steps {
			if s.Layer == route.Preview {
				t.Fatal("a preview among the answer's steps")
			}
		}
		if p.Intent == route.IntentMigration {
			if diff := cmp.Diff([]route.Layer{route.Impact, route.Preview, route.Validation}, layers(p.FollowOn)); diff != "" {
				t.Fatalf("migration follow-on (-want +got):\n%s", diff)
			}
		} else if len(p.FollowOn) > 0 {
			t.Fatalf("follow-on steps %v for %s", layers(p.FollowOn), p.Intent)
		}
	})
}

// Routing depends on the request alone: the same request gets the same
// plan, and the order or repetition of Declared does not matter.
func TestPropertyDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		want := route.Route(req)
		if diff := cmp.Diff(want, route.Route(req)); diff != "" {
			t.Fatalf("second run differs (-first +second):\n%s", diff)
		}
		other := req
		other.Declared = append(slices.Clone(req.Declared), req.Declared...)
		slices.Reverse(other.Declared)
		if diff := cmp.Diff(want, route.Route(other)); diff != "" {
			t.Fatalf("reordered Declared changes the plan (-want +got):\n%s", diff)
		}
	})
}

// Route leaves the request as it found it.
func TestPropertyRequestUnchanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		before := req
		before.Declared = slices.Clone(req.Declared)
		route.Route(req)
		if diff := cmp.Diff(before, req); diff != "" {
			t.Fatalf("request changed (-before +after):\n%s", diff)
		}
	})
}

// The remote documentation layer is never proposed when the repository
// declares nothing, and otherwise only for a dependency or migration
// question that names a declared dependency or speaks of one.
func TestPropertyDocsOnlyForDeclaredDependencies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		if rapid.Bool().Draw(t, "nothing declared") {
			req.Declared = rapid.SliceOfN(rapid.SampledFrom([]string{"", " ", "npm:", "go: "}), 0, 3).Draw(t, "blank")
		}
		p := route.Route(req)
		if !p.Proposes(route.DependencyDocs) {
			return
		}
		blank := true
		for _, d := range req.Declared {
			if _, name, _ := strings.Cut(d, ":"); strings.TrimSpace(d) != "" && (!strings.Contains(d, ":") || strings.TrimSpace(name) != "") {
				blank = false
			}
		}
		if blank {
			t.Fatalf("documentation proposed with Declared %q", req.Declared)
		}
		if p.Intent != route.IntentDependencyAPI && p.Intent != route.IntentMigration {
			t.Fatalf("documentation proposed for a %s question", p.Intent)
		}
		for _, d := range p.Dependencies {
			if !slices.Contains(req.Declared, d) {
				t.Fatalf("dependency %q is not declared (%q)", d, req.Declared)
			}
		}
	})
}

// A valid explicit intent always wins; every plan says what decided its
// intent, and its first step quotes it.
func TestPropertyExplainable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		p := route.Route(req)
		if req.Intent.Valid() && p.Intent != req.Intent {
			t.Fatalf("intent %s, the request asked for %s", p.Intent, req.Intent)
		}
		if p.Cue == "" || len(p.Steps) == 0 {
			t.Fatalf("no cue or no steps: %+v", p)
		}
		if !strings.Contains(p.Steps[0].Reason, p.Cue) {
			t.Fatalf("first reason %q does not quote the cue %s", p.Steps[0].Reason, p.Cue)
		}
	})
}

// What the plan extracts comes from the request: names, files and a
// pasted pattern are pieces of the text (or the request's own fields).
func TestPropertyExtractedFromTheRequest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		p := route.Route(req)
		text := strings.ReplaceAll(req.Text, "’", "'")
		for _, n := range p.Names {
			if n.Origin == route.FromRequest {
				if n.Text != strings.TrimSpace(req.Symbol) {
					t.Fatalf("request name %q, symbol %q", n.Text, req.Symbol)
				}
				continue
			}
			if !nameInText(n, text) {
				t.Fatalf("name %q is not in the text %q", n.Text, req.Text)
			}
			if n.Base == "" || !strings.HasSuffix(n.Text, n.Base) || !strings.HasPrefix(n.Text, n.Qualifier) {
				t.Fatalf("name %+v: base and qualifier do not split its text", n)
			}
		}
		for _, f := range p.Files {
			if !strings.Contains(text, f) {
				t.Fatalf("file %q is not in the text", f)
			}
		}
		if p.Pattern != "" && p.Pattern != strings.TrimSpace(req.Pattern) && !strings.Contains(req.Text, p.Pattern) {
			t.Fatalf("pattern %q is neither the request's nor in the text", p.Pattern)
		}
		if p.Replacement != "" && !strings.Contains(req.Text, p.Replacement) {
			t.Fatalf("replacement %q is not in the text", p.Replacement)
		}
	})
}

// Only the first MaxText bytes of the text count: whatever follows them
// leaves the plan as it is.
func TestPropertyOnlyTheCappedTextCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		var b strings.Builder
		b.WriteString(req.Text)
		for b.Len() <= route.MaxText {
			b.WriteString(" ")
			b.WriteString(rapid.SampledFrom(fragments).Draw(t, "filler"))
		}
		req.Text = b.String()
		want := route.Route(req)
		if !want.Truncated {
			t.Fatal("a text longer than MaxText is not marked truncated")
		}
		req.Text += rapid.SampledFrom(fragments).Draw(t, "tail")
		if diff := cmp.Diff(want, route.Route(req)); diff != "" {
			t.Fatalf("text after the cap changed the plan (-want +got):\n%s", diff)
		}
	})
}

// A request that asks outright for a change gets, at most, a preview: the
// words that ask to apply are answered with a note, never a step.
func TestPropertyApplyIsNeverRouted(t *testing.T) {
	asks := []string{"apply the rewrite", "apply it now", "apply the preview 3f2a", "migrate and apply",
		"I authorize the mutation, apply", "replace all `a($X)` with `b($X)` and apply"}
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest().Draw(t, "request")
		// The ask opens the text, so no code span in the rest can hold it.
		req.Text = rapid.SampledFrom(asks).Draw(t, "ask") + ". " + req.Text
		p := route.Route(req)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]route.Step{p.Steps, p.FollowOn} {
			for _, s := range list {
				if !readOnly[s.Layer] || s.Layer == route.Preview && p.Intent != route.IntentMigration {
					t.Fatalf("plan for %q names %q", req.Text, s.Layer)
				}
			}
		}
		if !strings.Contains(strings.Join(p.Notes, " "), "never routed") {
			t.Fatalf("notes %q for %q do not say mutation is never routed", p.Notes, req.Text)
		}
	})
}

// A clean installation, with no optional layer available, still gets an
// answer: every plan has a local layer among its steps.
func TestPropertyLocalLayerAlwaysProposed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := route.Route(genRequest().Draw(t, "request"))
		for _, s := range p.Steps {
			if !s.Layer.Optional() {
				return
			}
		}
		t.Fatalf("%s plan with only optional layers: %v", p.Intent, p.Layers())
	})
}

// nameInText reports whether the text holds a name: as written; for a
// member named in words ("the X method of T" names T.X), its base and
// qualifier; for a name joined from plain words (scrapeLoop, scrape_loop),
// each of its words, in any case.
func nameInText(n route.Name, text string) bool {
	switch {
	case strings.Contains(text, n.Text):
		return true
	case n.Origin == route.FromWords:
		lower := strings.ToLower(text)
		for _, w := range joinedWords(n.Text) {
			if !strings.Contains(lower, strings.ToLower(w)) {
				return false
			}
		}
		return true
	}
	return n.Qualifier != "" && strings.Contains(text, n.Base) && strings.Contains(text, n.Qualifier)
}

// joinedWords splits a snake_case or camelCase name into its words.
func joinedWords(s string) []string {
	var out []string
	for _, part := range strings.Split(s, "_") {
		start := 0
		for i, r := range part {
			if i > 0 && r != unicode.ToLower(r) {
				out = append(out, part[start:i])
				start = i
			}
		}
		out = append(out, part[start:])
	}
	return out
}
