package memory

import (
	"context"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
)

func providerStore(t *testing.T) (*Store, map[string]string) {
	c := &clock{now: t0}
	s := openStore(t, t.TempDir(), c)
	ids := rememberAll(t, s, c, []aged{
		{"sqlite", 10 * day, Entry{Type: Decision, Text: "Use SQLite for the local index", Reason: "no server to run",
			Scope: Scope{Paths: []string{"index"}}}},
		{"clock", 200 * day, Entry{Type: Gotcha, Text: "The fixture clock is UTC",
			Scope: Scope{Paths: []string{"testdata/clock.go"}, Symbols: []string{"Clock.Now"}}}},
		{"ask", 1 * day, Entry{Type: Convention, Text: "Ask never fails on a provider error",
			Scope: Scope{Symbols: []string{"Engine.Ask"}}}},
		{"global", 1 * day, Entry{Type: Convention, Text: "Every error wraps its cause"}},
		{"secret", 1 * day, Entry{Type: Failure, Text: "The deploy leaked token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 in logs",
			Scope: Scope{Paths: []string{"deploy"}}}},
	})
	return s, ids
}

func TestProviderConformance(t *testing.T) {
	s, _ := providerStore(t)
	evidencetest.TestProvider(t, s, s.root.Dir(),
		evidence.Query{Path: "index/store.go"},
		evidence.Query{Symbol: "Clock.Now"},
		evidence.Query{Text: "why SQLite?"},
		evidence.Query{Text: "error"},
		evidence.Query{},
		evidence.Query{Path: "../outside"},
		evidence.Query{Text: "sqlite", Kinds: []evidence.Kind{evidence.Definition}},
	)
	empty := openStore(t, t.TempDir(), nil)
	evidencetest.TestProvider(t, empty, empty.root.Dir(), evidence.Query{Text: "anything"})
}

func TestProviderRecords(t *testing.T) {
	s, ids := providerStore(t)
	resp, err := s.Gather(context.Background(), evidence.Query{Symbol: "Now", Path: "testdata/clock.go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 {
		t.Fatalf("records = %+v", resp.Records)
	}
	r := resp.Records[0]
	if r.Kind != evidence.Memory || r.Provenance != trust.Memory || r.Trust != trust.Inferred || r.Provider != ProviderName ||
		r.HasLocation() || r.Stale || r.Exact || !near(r.Confidence, 0.2143) {
		t.Errorf("record = %+v", r)
	}
	wantAttrs := map[string]string{
		"id": ids["clock"], "type": "gotcha", "author": "ada", "created": "2023-08-14T09:00:00Z",
		"half_life": "90d", "decay": "stale", "matched": "path,symbol", "paths": "testdata/clock.go", "symbols": "Clock.Now",
		"review": "reviewed", "provenance": "user",
	}
	got := r.Metadata.Attributes
	delete(got, "digest")
	if diff := cmp.Diff(wantAttrs, got); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
	wantEx := "gotcha " + ids["clock"] + ": The fixture clock is UTC [scope: testdata/clock.go, Clock.Now] — ada, 2023-08-14; stale (confidence 0.21): check before relying on it"
	if r.Metadata.Excerpt != wantEx {
		t.Errorf("excerpt\n%s\nwant\n%s", r.Metadata.Excerpt, wantEx)
	}

	// A credential in a memory does not reach the evidence.
	resp, _ = s.Gather(context.Background(), evidence.Query{Path: "deploy/run.sh"})
	if len(resp.Records) != 1 || strings.Contains(resp.Records[0].Metadata.Excerpt, "ghp_") {
		t.Errorf("deploy memory: %+v", resp.Records)
	}
	// Nothing to go on, or another kind asked: no records.
	for _, q := range []evidence.Query{{}, {Text: "sqlite", Kinds: []evidence.Kind{evidence.Definition}}} {
		if resp, _ := s.Gather(context.Background(), q); len(resp.Records) != 0 {
			t.Errorf("Gather(%+v) = %d records", q, len(resp.Records))
		}
	}
}

func TestAttach(t *testing.T) {
	s, ids := providerStore(t)
	name := map[string]string{}
	for n, id := range ids {
		name[id] = n
	}
	cited := []evidence.Record{
		{Kind: evidence.Definition, Provider: "precision", Path: "engine.go", StartLine: 3, StartColumn: 1, EndLine: 3, EndColumn: 4,
			Symbol: "scip-go gomod github.com/codecortex/codecortex v1 `github.com/codecortex/codecortex`/Engine#Ask()."},
		{Kind: evidence.Reference, Provider: "structural", Path: "index/store.go", StartLine: 9, StartColumn: 1, EndLine: 9, EndColumn: 2},
		{Kind: evidence.GitHistory, Provider: "history", Metadata: evidence.Metadata{Attributes: map[string]string{"path": "testdata/clock.go"}}},
		{Kind: evidence.Memory, Provider: "memory", Path: "deploy/x", StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 1},
	}
	recs, err := s.Attach(context.Background(), cited)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Name, To string }
	var got []row
	for _, r := range recs {
		got = append(got, row{name[r.Metadata.Attributes["id"]], r.Metadata.Attributes["attached_to"]})
	}
	// ask: exact symbol, never decays (1.0); sqlite: directory (0.8 ×
	// 0.96); clock: exact path but stale (1.0 × 0.21). The project-wide
	// convention and the memory cited by a memory record are not
	// attached.
	want := []row{{"ask", "Engine.Ask"}, {"sqlite", "index/store.go"}, {"clock", "testdata/clock.go"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Attach (-want +got):\n%s", diff)
	}
	limited, _ := Open(Options{Dir: s.root.Dir(), Now: s.opts.Now, AttachLimit: 1})
	defer limited.Close()
	if recs, _ := limited.Attach(context.Background(), cited); len(recs) != 1 {
		t.Errorf("AttachLimit 1: %d records", len(recs))
	}
	if recs, err := s.Attach(context.Background(), nil); err != nil || len(recs) != 0 {
		t.Errorf("Attach(nil) = %v, %v", recs, err)
	}
}

func TestSymbolName(t *testing.T) {
	for in, want := range map[string]string{
		"Engine.Ask": "Engine.Ask",
		"scip-go gomod github.com/x/m v1.2.3 `github.com/x/m/pkg`/Engine#Ask().": "Engine.Ask",
		"scip-typescript npm pkg 1.0.0 src/`auth.ts`/AuthService#refresh().":     "AuthService.refresh",
		"scip-python python m 0.1 `m.auth`/AuthService#refresh_token().":         "AuthService.refresh_token",
		"local 12": "",
		"":         "",
	} {
		if got := SymbolName(in); got != want {
			t.Errorf("SymbolName(%q) = %q, want %q", in, got, want)
		}
	}
}
