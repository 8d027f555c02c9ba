package precision

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
)

func TestFallbackToLanguageServer(t *testing.T) {
	testtool.Require(t, "gopls", installHint)
	dir := copyIndexedProject(t, "go")
	accept(t, Options{Dir: dir, NoSnapshot: true})
	lsp := NewLSP(LSPOptions{Dir: dir, RequestTimeout: realServerTimeout})
	defer lsp.Close()
	f := &Fallback{Index: New(Options{Dir: dir}), Server: lsp}
	defer f.Index.Close()
	ctx := context.Background()
	// Greeting on line 24 ("é日本😀" + greeting), defined at 15:5.
	q := evidence.Query{Path: "shapes.go", Line: 24, Column: 78, Kinds: []evidence.Kind{evidence.Definition}}
	tiers := func(resp evidence.Response) []string {
		var out []string
		for _, r := range resp.Records {
			out = append(out, r.Location()+" "+r.Trust.String())
		}
		return out
	}

	resp, err := f.Gather(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got := tiers(resp); len(got) != 1 || got[0] != "shapes.go:15:5-15:13 exact" {
		t.Fatalf("fresh index: %v, want only the exact record (%+v)", got, resp.Report)
	}

	// Stale: the stale index record and the server's near_exact one.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "other/other.go"), later, later)
	resp, err = f.Gather(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tiers(resp), ", ")
	if got != "shapes.go:15:5-15:13 inferred_high, shapes.go:15:5-15:13 near_exact" || resp.Report.State != evidence.StaleState {
		t.Errorf("stale index: %s (report %+v)", got, resp.Report)
	}

	// No index: the server alone.
	os.Remove(filepath.Join(dir, "index.scip"))
	resp, err = f.Gather(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || resp.Records[0].Trust != trust.NearExact || !strings.Contains(resp.Report.Reason, "answered by the language server") {
		t.Errorf("no index: %v (report %+v)", tiers(resp), resp.Report)
	}
}

func TestLSPUnavailable(t *testing.T) {
	dir := writeProject(t)
	lsp := NewLSP(LSPOptions{Dir: dir, Command: []string{"no-such-language-server-xyz"}})
	defer lsp.Close()
	_, reps := evidence.Collect(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12},
		[]evidence.Provider{lsp}, evidence.CollectOptions{})
	if reps[0].State != evidence.Unavailable || !strings.Contains(reps[0].Reason, "language server no-such-language-server-xyz not found") {
		t.Errorf("report = %+v", reps[0])
	}
	// With no fresh index either, the fallback reports both reasons.
	os.Remove(filepath.Join(dir, "index.scip"))
	f := &Fallback{Index: New(Options{Dir: dir}), Server: lsp}
	defer f.Index.Close()
	_, reps = evidence.Collect(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12},
		[]evidence.Provider{f}, evidence.CollectOptions{})
	for _, want := range []string{"no precision index at", "language server no-such-language-server-xyz not found"} {
		if reps[0].State != evidence.Unavailable || !strings.Contains(reps[0].Reason, want) {
			t.Errorf("report %+v does not say %q", reps[0], want)
		}
	}
	if !strings.Contains(reps[0].Guidance, "generate a SCIP index") {
		t.Errorf("guidance = %q, want the index's", reps[0].Guidance)
	}
	_, err := f.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12})
	if !errors.Is(err, ErrServerNotFound) {
		t.Errorf("Gather error = %v, want one wrapping ErrServerNotFound", err)
	}

	// With an index that has no answer, the report says why the server
	// did not help.
	dir = writeProject(t)
	f2 := &Fallback{Index: New(Options{Dir: dir}), Server: lsp}
	defer f2.Index.Close()
	resp, err := f2.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 1, Column: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.Report.Reason, "a.go:1:1: no indexed symbol at this position; the language server fallback failed: language server no-such-language-server-xyz not found") {
		t.Errorf("report = %+v", resp.Report)
	}
}

// The zero LSPOptions bound every wait by a few seconds, the first
// requests (which wait for the workspace to load) by more.
func TestLSPDefaultTimeouts(t *testing.T) {
	p := &lspServer{opts: &LSPOptions{}}
	if got := p.requestTimeout(); got != DefaultRequestTimeout || got > 10*time.Second {
		t.Errorf("request timeout = %s", got)
	}
	if got := p.loadTimeout(); got != DefaultLoadTimeout || got < DefaultRequestTimeout {
		t.Errorf("load timeout = %s", got)
	}
}

// The language-server provider and the fallback keep the evidence contract
// the conformance kit checks: positions of every kind, a name, and a file
// that is not there.
func TestLSPConformance(t *testing.T) {
	testtool.Require(t, "gopls", installHint)
	dir := copyFixture(t, "go")
	lsp := NewLSP(LSPOptions{Dir: dir, RequestTimeout: realServerTimeout})
	defer lsp.Close()
	queries := []evidence.Query{
		{Path: "shapes.go", Line: 24, Column: 78, Kinds: []evidence.Kind{evidence.Definition}},
		{Path: "shapes.go", Line: 15, Column: 5, Kinds: []evidence.Kind{evidence.Reference}},
		{Path: "shapes.go", Line: 24, Column: 78},
		{Symbol: "Greeting"},
		{Path: "missing.go", Line: 1, Column: 1},
	}
	evidencetest.TestProvider(t, lsp, dir, queries...)
	f := &Fallback{Index: New(Options{Dir: dir}), Server: lsp}
	defer f.Index.Close()
	evidencetest.TestProvider(t, f, dir, queries...)
}

// realServerTimeout bounds a real server's handshake and requests in the
// tests: these check answers, not speed, and a busy machine (the race
// detector, parallel packages) can keep gopls from initialising within
// DefaultRequestTimeout.
const realServerTimeout = 30 * time.Second
