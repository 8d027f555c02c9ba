package codecortex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/trust"
)

// shopProject is a small Go module with a package.json, indexed with
// scip-go (index.scip at the root).
func shopProject(t *testing.T) string {
	t.Helper()
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n\tc.Add(\"pear\")\n}\n",
		"package.json": `{"name": "shop-ui", "dependencies": {"left-pad": "^1.3.0"}}`,
	})
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"go.mod", "cart/cart.go", "main.go"} {
		os.Chtimes(filepath.Join(dir, f), old, old)
	}
	cmd := exec.Command(scipGo, "--output", "index.scip")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scip-go: %v\n%s", err, out)
	}
	acceptIndex(t, dir)
	return dir
}

// acceptIndex vouches for the project's precision index, as the user who
// generated it does (cortex precision-status --accept).
func acceptIndex(t testing.TB, dir string) {
	t.Helper()
	p := precision.New(precision.Options{Dir: dir, NoSnapshot: true})
	defer p.Close()
	if _, err := p.Accept(context.Background()); err != nil {
		t.Fatalf("accepting the index: %v", err)
	}
}

func openEngine(t *testing.T, dir string, opts Options) *Engine {
	t.Helper()
	opts.Project.Store = config.TrustStore{Path: filepath.Join(t.TempDir(), "trusted.json")}
	e, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestAskDefinitionByName(t *testing.T) {
	dir := shopProject(t)
	e := openEngine(t, dir, Options{})
	ans, err := e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Plan.Intent != route.IntentDefinition || !ans.Plan.Proposes(route.Precision) {
		t.Fatalf("plan %+v", ans.Plan)
	}
	if len(ans.Records) == 0 {
		t.Fatalf("no records; reports %+v", ans.Reports)
	}
	first := ans.Records[0]
	if first.Location() != "cart/cart.go:7:16-7:19" || first.Trust != trust.Exact || first.Kind != evidence.Definition {
		t.Errorf("first record %s %s %s, want the exact definition of Add", first.Location(), first.Kind, first.Trust)
	}
	if ans.Freshness.Precision != "fresh" || len(ans.Context.Prompt) == 0 || ans.Context.Included == 0 {
		t.Errorf("freshness %+v, context %d bytes, %d included", ans.Freshness, len(ans.Context.Prompt), ans.Context.Included)
	}

	// The sources newer than the index: the right location still comes
	// first, no longer exact: the local index's fresh structural record
	// leads, and the stale exact one is kept under it.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "cart/cart.go"), later, later)
	ans, err = e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Records) == 0 {
		t.Fatalf("stale index: no records; reports %+v", ans.Reports)
	}
	first = ans.Records[0]
	if first.Location() != "cart/cart.go:7:16-7:19" || first.Trust != trust.Structural || first.Stale || ans.Freshness.Precision != "stale" {
		t.Errorf("stale index: first %s %s stale=%v, freshness %+v", first.Location(), first.Trust, first.Stale, ans.Freshness)
	}
	if sup := first.Metadata.Superseded; len(sup) != 1 || !sup[0].Stale || sup[0].Metadata.StaleFrom != trust.Exact {
		t.Errorf("the stale exact record is not kept under the fresh one: %+v", sup)
	}

	// No index at all: still the right location first.
	os.Remove(filepath.Join(dir, "index.scip"))
	ans, err = e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Records) == 0 || ans.Records[0].Location() != "cart/cart.go:7:16-7:19" || ans.Freshness.Precision != "unavailable" {
		t.Errorf("no index: records %v, freshness %+v", ans.Records, ans.Freshness)
	}
}

// TestAskFollowsAlias: a name the project defines nowhere but exports as
// another name's alias is asked about as that name, whose uses through the
// alias are its uses, and the plan says so; an alias of an outside
// package's name stays as asked.
func TestAskFollowsAlias(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"package.json":          `{"name": "@acme/kit", "main": "dist/index.js"}`,
		"src/index.ts":          "export { isFSA as isFluxStandardAction } from './action'\n",
		"src/action.ts":         "export function isFSA(a: unknown) {\n  return true\n}\n",
		"src/hooks.ts":          "import { useState as useLocal } from 'react'\n\nexport function f() {\n  return useLocal(1)\n}\n",
		"src/tests/fsa.test.ts": "import { isFluxStandardAction } from '@acme/kit'\n\ntest('fsa', () => {\n  isFluxStandardAction(1)\n})\n",
	})
	e := openEngine(t, dir, Options{})
	for _, tt := range []struct {
		text, symbol string
		at           []string // path:line of every record
	}{
		{"where is isFluxStandardAction defined?", "isFSA", []string{"src/action.ts:1"}},
		{"who calls isFluxStandardAction?", "isFSA", []string{"src/tests/fsa.test.ts:4"}},
		{"who calls useLocal?", "useLocal", []string{"src/hooks.ts:4"}},
	} {
		ans, err := e.Ask(context.Background(), Question{Text: tt.text})
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, r := range ans.Records {
			at = append(at, fmt.Sprintf("%s:%d", r.Path, r.StartLine))
		}
		noted := slices.ContainsFunc(ans.Plan.Notes, func(n string) bool { return strings.Contains(n, "src/index.ts:1 binds isFSA") })
		if ans.Query.Symbol != tt.symbol || !slices.Equal(at, tt.at) || noted != (tt.symbol == "isFSA") {
			t.Errorf("%q: looked up %q, records at %v, notes %q; want %q at %v", tt.text, ans.Query.Symbol, at, ans.Plan.Notes, tt.symbol, tt.at)
		}
	}
	// Locate (cortex def and callers, the MCP navigate tool) agrees, by
	// name and at a position where the alias is written.
	for _, q := range []LocateQuery{{Relation: Callers, Target: Target{Symbol: "isFluxStandardAction"}},
		{Relation: Definitions, Target: Target{Path: "src/tests/fsa.test.ts", Line: 4, Column: 3}}} {
		loc, err := e.Locate(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, r := range loc.Records {
			at = append(at, fmt.Sprintf("%s:%d", r.Path, r.StartLine))
		}
		want := map[Relation][]string{Callers: {"src/tests/fsa.test.ts:4"}, Definitions: {"src/action.ts:1"}}[q.Relation]
		if a := loc.Alias; a == nil || a.Name != "isFSA" || a.As != "isFluxStandardAction" || a.Path != "src/index.ts" || !slices.Equal(at, want) {
			t.Errorf("locate %+v: alias %+v, records at %v; want isFSA's at %v", q, loc.Alias, at, want)
		}
	}
}

// TestAskDefinitionFallsBackToText: a definition question about a name
// no layer defines but the text writes answers with the lines that write
// it, and says so; a name written nowhere has no evidence.
func TestAskDefinitionFallsBackToText(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"src/batch.ts": "export const SHOULD_AUTOBATCH = 'RTK_autoBatch'\n",
	})
	e := openEngine(t, dir, Options{})
	for _, tt := range []struct {
		name string
		at   []string
	}{{"RTK_autoBatch", []string{"src/batch.ts:1"}}, {"NoSuchNameAnywhere", nil}} {
		ans, err := e.Ask(context.Background(), Question{Text: "where is " + tt.name + " defined?"})
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, r := range ans.Records {
			at = append(at, fmt.Sprintf("%s:%d", r.Path, r.StartLine))
		}
		noted := slices.ContainsFunc(ans.Plan.Notes, func(n string) bool { return strings.HasPrefix(n, "No layer found a definition") })
		if !slices.Equal(at, tt.at) || noted != (tt.at != nil) {
			t.Errorf("%s: records at %v, notes %q; want %v", tt.name, at, ans.Plan.Notes, tt.at)
		}
	}
}

func TestAskReferencesAndVersions(t *testing.T) {
	dir := shopProject(t)
	e := openEngine(t, dir, Options{})
	ans, err := e.Ask(context.Background(), Question{Text: "who calls Cart.Add?"})
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	for _, r := range ans.Records {
		if r.Kind == evidence.Reference && r.Path == "main.go" && r.Trust == trust.Exact {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("%d references in main.go, want 2: %v", calls, ans.Records)
	}
	ans, err = e.Ask(context.Background(), Question{Text: "which version of left-pad do we use?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Records) == 0 || ans.Records[0].Symbol != "npm:left-pad" || ans.Records[0].Path != "package.json" {
		t.Errorf("version question: %v (plan %+v)", ans.Records, ans.Plan)
	}
}

// A provider that fails, panics or outlives the deadline degrades the
// answer into a report; it never aborts it.
func TestAskDegradesGracefully(t *testing.T) {
	dir := shopProject(t)
	e := openEngine(t, dir, Options{Timeout: 2 * time.Second, Extra: []evidence.Provider{
		providerFunc{"panics", func(context.Context, evidence.Query) (evidence.Response, error) { panic("boom") }},
		providerFunc{"fails", func(context.Context, evidence.Query) (evidence.Response, error) {
			return evidence.Response{}, errors.New("broken")
		}},
		providerFunc{"hangs", func(ctx context.Context, _ evidence.Query) (evidence.Response, error) {
			<-ctx.Done()
			return evidence.Response{}, ctx.Err()
		}},
	}})
	start := time.Now()
	ans, err := e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the deadline did not bound the question")
	}
	if len(ans.Records) == 0 || ans.Records[0].Trust != trust.Exact {
		t.Errorf("the healthy providers' answer was lost: %v", ans.Records)
	}
	states := map[string]evidence.State{}
	for _, r := range ans.Reports {
		states[r.Provider] = r.State
	}
	for _, name := range []string{"panics", "fails", "hangs"} {
		if states[name] != evidence.Unavailable {
			t.Errorf("%s: state %q, want unavailable", name, states[name])
		}
	}
}

// A host replaces or removes a layer's provider.
func TestEngineProviders(t *testing.T) {
	dir := shopProject(t)
	mine := providerFunc{"mine", func(context.Context, evidence.Query) (evidence.Response, error) {
		return evidence.Response{Records: []evidence.Record{{Kind: evidence.Definition, Provider: "mine",
			Provenance: trust.Heuristic, Trust: trust.Inferred, Path: "main.go", StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 8, Confidence: 0.5}}}, nil
	}}
	e := openEngine(t, dir, Options{Providers: map[route.Layer]evidence.Provider{route.Precision: nil, route.LocalIndex: mine}})
	ans, err := e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ans.Reports {
		if r.Provider == "precision" {
			t.Errorf("removed provider was asked: %+v", r)
		}
	}
	if len(ans.Records) != 1 || ans.Records[0].Provider != "mine" {
		t.Errorf("records %v, want only the host's", ans.Records)
	}
}

// Concurrent questions on one engine all answer, and alike.
func TestAskConcurrently(t *testing.T) {
	dir := shopProject(t)
	e := openEngine(t, dir, Options{})
	questions := []string{"where is Cart.Add defined?", "who calls Cart.Add?", "find `c.Add($X)`", "which version of left-pad?"}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ans, err := e.Ask(context.Background(), Question{Text: questions[i%len(questions)]})
			if err == nil && len(ans.Records) == 0 {
				err = errors.New(questions[i%len(questions)] + ": no records")
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestAskEmpty(t *testing.T) {
	e := openEngine(t, t.TempDir(), Options{})
	if _, err := e.Ask(context.Background(), Question{Text: "  "}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty question: %v", err)
	}
}

// An engine writes nothing until it is asked: NewEngine and Close leave
// the project's files as they were.
func TestNewEngineWritesNothing(t *testing.T) {
	dir := t.TempDir()
	p, err := config.OpenProject(dir, config.ProjectOptions{Trust: config.TrustNever})
	if err != nil {
		t.Fatal(err)
	}
	before := listFiles(t, dir)
	e, err := NewEngine(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if after := listFiles(t, dir); !slices.Equal(before, after) {
		t.Errorf("NewEngine and Close wrote files:\nbefore %q\nafter  %q", before, after)
	}
}

// listFiles names every file and directory under dir.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type providerFunc struct {
	name string
	fn   func(context.Context, evidence.Query) (evidence.Response, error)
}

func (p providerFunc) Name() string { return p.name }
func (p providerFunc) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	return p.fn(ctx, q)
}

// "What changed?" is answered by git history, and the memories whose scope
// covers a cited location come with the answer.
func TestAskHistoryAndMemory(t *testing.T) {
	dir := shopProject(t)
	git := testtool.Require(t, "git", "apt-get install git")
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "go.mod", "cart", "main.go")
	gitRun("commit", "-q", "-m", "Add the cart (#42)")
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)

	e := openEngine(t, dir, Options{Author: "ada"})
	ans, err := e.Ask(context.Background(), Question{Text: "what changed?"})
	if err != nil {
		t.Fatal(err)
	}
	var changed, commits bool
	for _, r := range ans.Records {
		if r.Kind != evidence.GitHistory {
			t.Errorf("a history question got %s evidence: %s", r.Kind, r.Location())
		}
		changed = changed || r.Path == "main.go"
		commits = commits || r.Metadata.Attributes["pr"] == "42"
	}
	if !changed || !commits {
		t.Errorf("what changed: main.go %v, the commit of #42 %v: %v (reports %+v)", changed, commits, ans.Records, ans.Reports)
	}

	store, err := memory.Open(memory.Options{Dir: dir, Author: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.Remember(context.Background(), memory.Entry{Type: memory.Gotcha, Text: "Add does not deduplicate items",
		Scope: memory.Scope{Paths: []string{"cart/cart.go"}}}); err != nil {
		t.Fatal(err)
	}
	ans, err = e.Ask(context.Background(), Question{Text: "where is Cart.Add defined?"})
	if err != nil {
		t.Fatal(err)
	}
	var attached bool
	for _, r := range ans.Records {
		attached = attached || (r.Kind == evidence.Memory && strings.Contains(r.Metadata.Excerpt, "deduplicate"))
	}
	if !attached {
		t.Errorf("the memory about cart/cart.go is not attached: %v", ans.Records)
	}
}

// A position with no precision index is answered by the name written there.
func TestAskPositionWithoutIndex(t *testing.T) {
	dir := shopProject(t)
	os.Remove(filepath.Join(dir, "index.scip"))
	e := openEngine(t, dir, Options{})
	ans, err := e.Ask(context.Background(), Question{Path: "main.go", Line: 7, Column: 4, Intent: route.IntentDefinition})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Query.Symbol != "Add" || len(ans.Records) == 0 || ans.Records[0].Location() != "cart/cart.go:7:16-7:19" {
		t.Errorf("query %+v, records %v", ans.Query, ans.Records)
	}
}

// Status reports every layer, each with a state, and a reason where the
// state is not plainly available; with nothing configured, nothing can be
// fixed, and a status never runs the index generator.
func TestStatusEveryLayer(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module example.com/s\n\ngo 1.22\n", "s.go": "package s\n"})
	e := openEngine(t, dir, Options{})
	defer e.Close()
	var names []string
	for _, st := range e.Status(context.Background()) {
		names = append(names, st.Layer)
		if st.State == "" || (st.State != StateAvailable && st.Reason == "") {
			t.Errorf("%s: state %q, reason %q", st.Layer, st.State, st.Reason)
		}
		if st.FixNeeded {
			t.Errorf("%s needs a fix in an empty project: %+v", st.Layer, st)
		}
	}
	want := []string{"precision intelligence", "language server", "structural engine", "local index", "project graph",
		"git history", "memory", "validation", "dependency manifests", "dependency docs"}
	if !slices.Equal(names, want) {
		t.Errorf("layers %q, want %q", names, want)
	}
}
