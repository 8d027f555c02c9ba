package index

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/trust"
)

var conformanceQueries = []evidence.Query{
	{Symbol: "validateSession"},
	{Symbol: "auth.Session"},
	{Symbol: "Session.Refresh"},
	{Symbol: "Missing"},
	{Symbol: "not a name"},
	{Text: "validate session"},
	{Text: "where is the http server defined?"},
	{Text: "the"},
	{Text: "?!"},
	{},
	{Symbol: "Session", Kinds: []evidence.Kind{evidence.Reference}},
}

func TestProviderConformance(t *testing.T) {
	dir := writeTree(t, project)
	t.Run("opened by the provider", func(t *testing.T) {
		p := NewProvider(Options{Dir: dir, Extract: fakeExtract})
		defer p.Close()
		evidencetest.TestProvider(t, p, dir, conformanceQueries...)
	})
	t.Run("over an open index", func(t *testing.T) {
		evidencetest.TestProvider(t, openTest(t, dir, nil).Provider(), dir, conformanceQueries...)
	})
	t.Run("text only, zero options", func(t *testing.T) {
		t.Chdir(dir)
		p := NewProvider(Options{})
		defer p.Close()
		evidencetest.TestProvider(t, p, dir, conformanceQueries...)
	})
	t.Run("partial, with stale records", func(t *testing.T) {
		other := writeTree(t, project)
		if _, err := openTest(t, other, nil).Update(context.Background()); err != nil {
			t.Fatal(err)
		}
		writeFile(t, other, "auth/session.go", "\n\n"+project["auth/session.go"])
		evidencetest.TestProvider(t, openTest(t, other, func(o *Options) { o.Budget = time.Nanosecond }).Provider(), other, conformanceQueries...)
	})
}

func TestProviderDefinitions(t *testing.T) {
	dir := writeTree(t, project)
	p := openTest(t, dir, nil).Provider()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "Session"})
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Kind       evidence.Kind
		Provenance trust.Method
		Trust      trust.Tier
		Location   string
		Symbol     string
		Attrs      map[string]string
		Excerpt    string
	}
	var got []rec
	for _, r := range resp.Records {
		got = append(got, rec{r.Kind, r.Provenance, r.Trust, r.Location(), r.Symbol, r.Metadata.Attributes, r.Metadata.Excerpt})
	}
	attrs := func(pkg string) map[string]string {
		return map[string]string{"kind": "type", "language": "go", "match": "exact", "package": pkg, "exported": "true",
			"signature": "type Session struct", "module": "example.com/shop", "import_path": "example.com/shop/" + pkg}
	}
	otherAttrs := attrs("other")
	otherAttrs["signature"] = "type Session struct{}"
	want := []rec{
		{evidence.Definition, trust.SymbolIndex, trust.Structural, "auth/session.go:14:6-14:13", "auth.Session", attrs("auth"), "type Session struct {"},
		{evidence.Definition, trust.SymbolIndex, trust.Structural, "other/session.go:4:6-4:13", "other.Session", otherAttrs, "type Session struct{}"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if resp.Report.State != evidence.Available || !strings.HasPrefix(resp.Report.Reason, "freshness: fresh") {
		t.Errorf("report %+v", resp.Report)
	}
}

func TestProviderText(t *testing.T) {
	dir := writeTree(t, project)
	p := openTest(t, dir, nil).Provider()
	resp, err := p.Gather(context.Background(), evidence.Query{Text: "where do we validate the session?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) < 3 {
		t.Fatalf("records %+v", resp.Records)
	}
	first := resp.Records[0]
	if first.Kind != evidence.Definition || first.Path != "auth/session.go" || first.Symbol != "auth.validateSession" {
		t.Errorf("first record %s %s %s, want the definition chunk of auth.validateSession", first.Kind, first.Location(), first.Symbol)
	}
	// Every record is weak lexical evidence; symbol-name hits outrank
	// mere text in the order evidence.Rank gives.
	ranked := evidence.Rank(resp.Records)
	lastClass := 3
	for _, r := range ranked {
		if r.Provenance != trust.Lexical || r.Trust != trust.Weak {
			t.Errorf("record %s: %s/%s, want lexical/weak", r.Location(), r.Provenance, r.Trust)
		}
		class := map[string]int{MatchDefinition: 2, MatchSymbol: 1, MatchText: 0}[r.Metadata.Attributes["match"]]
		if class > lastClass {
			t.Errorf("a %s hit ranks below a weaker class: %v", r.Metadata.Attributes["match"], ranked)
		}
		lastClass = class
	}
}

func TestProviderFallsBackToText(t *testing.T) {
	dir := writeTree(t, project)
	t.Chdir(dir)
	p := NewProvider(Options{TextOnly: true}) // no symbols to look up
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "validateSession"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) == 0 || resp.Records[0].Provenance != trust.Lexical || resp.Records[0].Path != "auth/session.go" {
		t.Errorf("records %+v", resp.Records)
	}
	if !strings.Contains(resp.Report.Reason, `no definition of "validateSession" in the symbol index; text matches instead`) {
		t.Errorf("report %+v", resp.Report)
	}
	// Asked for definitions alone, the text's lines are no answer, and
	// the report does not promise them.
	resp, err = p.Gather(context.Background(), evidence.Query{Symbol: "validateSession", Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 0 || strings.Contains(resp.Report.Reason, "text matches") ||
		!strings.Contains(resp.Report.Reason, `no definition of "validateSession" in the symbol index`) {
		t.Errorf("asked for definitions: records %+v, report %+v", resp.Records, resp.Report)
	}
}

func TestProviderPartial(t *testing.T) {
	dir := writeTree(t, project)
	ctx := context.Background()
	if _, err := openTest(t, dir, nil).Update(ctx); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "auth/session.go", "\n\n"+project["auth/session.go"])
	p := openTest(t, dir, func(o *Options) { o.Budget = time.Nanosecond }).Provider()
	resp, err := p.Gather(ctx, evidence.Query{Symbol: "Session"})
	if err != nil {
		t.Fatal(err)
	}
	rep := resp.Report
	if rep.State != evidence.StaleState || !strings.Contains(rep.Reason, "freshness: partial: 1 changed files are not indexed yet (auth/session.go)") || rep.Guidance == "" {
		t.Errorf("report %+v", rep)
	}
	for _, r := range resp.Records {
		if stale := r.Path == "auth/session.go"; r.Stale != stale {
			t.Errorf("record %s: stale %v, want %v", r.Location(), r.Stale, stale)
		}
	}
}

func TestProviderClosed(t *testing.T) {
	p := NewProvider(Options{Dir: writeTree(t, project)})
	if _, err := p.Gather(context.Background(), evidence.Query{Text: "session"}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if _, err := p.Gather(context.Background(), evidence.Query{Text: "session"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Gather after Close: %v, want ErrClosed", err)
	}
}

// A question for the uses of a name reads each file once: its search's
// excerpts and the records made of its hits share what was read.
func TestProviderReadsEachFileOnce(t *testing.T) {
	dir := writeTree(t, project)
	p := openTest(t, dir, nil).Provider()
	reads := map[string]int{}
	testHookRead = func(p string) { reads[p]++ }
	defer func() { testHookRead = nil }()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "Session", Kinds: []evidence.Kind{evidence.Reference}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) == 0 || len(reads) == 0 {
		t.Fatalf("%d records from %d files read: want some", len(resp.Records), len(reads))
	}
	for p, n := range reads {
		if n > 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
}
