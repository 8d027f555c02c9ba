package depdocs

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
)

func TestDocsRecord(t *testing.T) {
	exact := Resolution{Library: "next", Version: "15.1.8", State: DocsExact, Exact: true, Label: "v15.1.8", Content: "docs"}
	fallback := Resolution{Library: "next", Version: "15.1.9", State: DocsFallback, Content: "docs", Reason: "no label"}
	staleExact := exact
	staleExact.Stale, staleExact.Cached = true, true
	re, _ := DocsRecord(NPM, exact)
	rf, _ := DocsRecord(NPM, fallback)
	rs, _ := DocsRecord(NPM, staleExact)
	for _, r := range []evidence.Record{re, rf, rs} {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if re.Provenance != trust.VersionedDocs || re.Trust != trust.Structural || re.Exact {
		t.Errorf("exact docs: %s %s exact=%v", re.Provenance, re.Trust, re.Exact)
	}
	if rf.Provenance != trust.FallbackDocs || rf.Trust > trust.Inferred {
		t.Errorf("fallback docs: %s %s", rf.Provenance, rf.Trust)
	}
	if !(re.Score() > rf.Score()) {
		t.Errorf("fallback %v does not rank below exact %v", rf.Score(), re.Score())
	}
	if !rs.Stale || !(rs.Score() < re.Score()) {
		t.Errorf("stale docs: stale=%v score %v vs %v", rs.Stale, rs.Score(), re.Score())
	}
	for _, r := range []Resolution{{State: DocsPending, Library: "x"}, {State: DocsUnavailable, Library: "x"}} {
		if _, ok := DocsRecord(NPM, r); ok {
			t.Errorf("a record from %s", r.State)
		}
	}
	// A provider cannot lift documentation above structural.
	re.Trust = trust.Exact
	re.Exact = true
	if re.Validate() == nil {
		t.Error("documentation claimed exact")
	}
}

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	return testtool.WriteTree(t, files)
}

func TestProviders(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"package.json":      `{"dependencies":{"next":"^15.0.0"}}`,
		"package-lock.json": `{"lockfileVersion":3,"packages":{"":{"dependencies":{"next":"^15.0.0"}},"node_modules/next":{"version":"15.4.3"}}}`,
	})
	var asked DocsRequest
	docs := DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
		asked = req
		return Resolution{Library: req.Name, Version: req.Version, State: DocsUnavailable, Reason: "offline: test"}, nil
	})
	providers := []evidence.Provider{&ManifestProvider{Dir: dir}, &DocsEvidence{Dir: dir, Docs: docs}}
	recs, reps := evidence.Collect(context.Background(), evidence.Query{Text: "is next's router deprecated?"}, providers, evidence.CollectOptions{})
	if len(recs) != 1 || recs[0].Metadata.Attributes["resolved"] != "15.4.3" || recs[0].Metadata.Attributes["declared"] != "^15.0.0" {
		t.Fatalf("records: %+v", recs)
	}
	if asked.Version != "15.4.3" || asked.Name != "next" {
		t.Errorf("asked for %+v, want the resolved 15.4.3", asked)
	}
	if reps[0].State != evidence.Available || reps[1].State != evidence.Unavailable || reps[1].Reason != "unavailable: offline: test" {
		t.Errorf("reports: %+v", reps)
	}
	// Disabled docs: the manifest facts still answer.
	providers[1] = &DocsEvidence{Dir: dir, Docs: Disabled{}}
	recs, reps = evidence.Collect(context.Background(), evidence.Query{Symbol: "next"}, providers, evidence.CollectOptions{})
	if len(recs) != 1 || reps[1].State != evidence.Disabled {
		t.Errorf("disabled: %d records, %+v", len(recs), reps)
	}
}

// Both evidence providers keep the contract the conformance kit checks, for
// manifest facts and for documentation in every state: version-exact,
// fallback, stale from the cache, and unavailable.
func TestProvidersConform(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"package.json":      `{"dependencies":{"next":"^15.0.0","zod":"^4.0.0"}}`,
		"package-lock.json": `{"lockfileVersion":3,"packages":{"":{"dependencies":{"next":"^15.0.0","zod":"^4.0.0"}},"node_modules/next":{"version":"15.4.3"},"node_modules/zod":{"version":"4.4.3"}}}`,
	})
	queries := []evidence.Query{{Symbol: "next"}, {Text: "how does zod parse?"}, {Symbol: "npm:zod"}, {Symbol: "absent"}, {}}
	evidencetest.TestProvider(t, &ManifestProvider{Dir: dir}, dir, queries...)
	for _, res := range []Resolution{
		{State: DocsExact, Exact: true, Label: "v15.4.3", Content: "Router docs"},
		{State: DocsFallback, Reason: "no release label matches", Content: "main-branch docs"},
		{State: DocsExact, Exact: true, Label: "v15.4.3", Content: "cached docs", Cached: true, Stale: true},
		{State: DocsUnavailable, Reason: "offline"},
		{State: DocsPending, Reason: "library_not_finalized"},
	} {
		docs := DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
			r := res
			r.Library, r.Version = req.Name, req.Version
			return r, nil
		})
		t.Run(string(res.State), func(t *testing.T) {
			evidencetest.TestProvider(t, &DocsEvidence{Dir: dir, Docs: docs}, dir, queries...)
		})
	}
}

// TestManifestRecordLocated: a dependency's record points at the line that
// declares or resolves it, columns spanning the line's text; the alias is
// an attribute; without a line the record has no location.
func TestManifestRecordLocated(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"package.json": "{\n  \"dependencies\": {\n    \"lodash3\": \"npm:lodash@^3.10.1\"\n  }\n}\n",
		"package-lock.json": "{\n  \"lockfileVersion\": 3,\n  \"packages\": {\n    \"\": {\"dependencies\": {\"lodash3\": \"npm:lodash@^3.10.1\"}},\n" +
			"\t\t\"node_modules/lodash3\": {\"name\": \"lodash\", \"version\": \"3.10.1\"}  \r\n  }\n}\n",
	})
	resp, err := (&ManifestProvider{Dir: dir}).Gather(context.Background(), evidence.Query{Symbol: "lodash3"})
	if err != nil || len(resp.Records) != 1 {
		t.Fatalf("%v %+v", err, resp)
	}
	r := resp.Records[0]
	type loc struct {
		Path                                       string
		StartLine, StartColumn, EndLine, EndColumn int
		Alias, Symbol                              string
	}
	// Line 5 is `\t\t"node_modules/lodash3": {…}  \r`: 63 code points of
	// text after two tabs, so columns 3 to 65, half-open end 66.
	want := loc{"package-lock.json", 5, 3, 5, 66, "lodash3", "npm:lodash"}
	got := loc{r.Path, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, r.Metadata.Attributes["alias"], r.Symbol}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
	bare := ManifestRecord(Dependency{Ecosystem: NPM, Name: "x", Source: Registry, Relation: Direct, File: "package.json"}, "")
	if bare.HasLocation() || bare.Validate() != nil {
		t.Errorf("no line: %+v", bare)
	}
}

func TestLineSpan(t *testing.T) {
	for line, want := range map[string][2]int{
		"":                  {1, 1},
		"   \t":             {1, 1},
		"a":                 {1, 2},
		"  \"é\": \"1\",\r": {3, 12}, // 9 code points of text
		"\t<dependency> ":   {2, 14},
	} {
		if s, e := lineSpan(line); [2]int{s, e} != want {
			t.Errorf("lineSpan(%q) = %d, %d; want %v", line, s, e, want)
		}
	}
}

// TestProvidersConformCorpus runs the conformance kit over the providers
// on the real corpus: every record it locates must lie inside its file.
func TestProvidersConformCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	queries := []evidence.Query{{Symbol: "zod"}, {Symbol: "pypi:flask"}, {Symbol: "serde"}, {Symbol: "junit:junit"},
		{Symbol: "Polly.Core"}, {Symbol: "golang.org/x/tools"}, {Symbol: "string-width-cjs"}, {Text: "does lodash or react work here?"}}
	evidencetest.TestProvider(t, &ManifestProvider{Dir: dir}, dir, queries...)
	resp, err := (&ManifestProvider{Dir: dir}).Gather(context.Background(), evidence.Query{Symbol: "serde"})
	if err != nil {
		t.Fatal(err)
	}
	located := 0
	for _, r := range resp.Records {
		if r.HasLocation() {
			located++
		}
	}
	if len(resp.Records) == 0 || located != len(resp.Records) {
		t.Errorf("%d of %d serde records located", located, len(resp.Records))
	}
	docs := DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
		return Resolution{Library: req.Name, Version: req.Version, State: DocsFallback, Reason: "test", Content: "docs"}, nil
	})
	evidencetest.TestProvider(t, &DocsEvidence{Dir: dir, Docs: docs}, dir, queries...)
}

// TestProvidersZeroValue: the zero values read the working directory and,
// for documentation, answer disabled.
func TestProvidersZeroValue(t *testing.T) {
	t.Chdir(writeProject(t, map[string]string{"package.json": `{"dependencies":{"next":"^15.0.0"}}`}))
	recs, reps := evidence.Collect(context.Background(), evidence.Query{Symbol: "next"},
		[]evidence.Provider{&ManifestProvider{}, &DocsEvidence{}}, evidence.CollectOptions{})
	if len(recs) != 1 || recs[0].Path != "package.json" || recs[0].StartLine != 1 || reps[1].State != evidence.Disabled {
		t.Errorf("records %+v, reports %+v", recs, reps)
	}
}
