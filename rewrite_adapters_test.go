package codecortex

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/rewrite/rewritetest"
	"github.com/codecortex/codecortex/syntax"
)

// TestRewriterUsesTheEngine applies a rewrite through the engine's
// rewriter on a Go module with a local index and a scip-go precision
// index, and checks that the rewrite consulted the engine's layers: the
// impact is the project graph's, the engine's local index is refreshed
// and answers with the new code, the precision index is regenerated
// through the trusted configuration's generator or reported stale with
// guidance without one, and the configured validation (go build) runs.
func TestRewriterUsesTheEngine(t *testing.T) {
	gobin := testtool.Require(t, "go", "install Go")
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	tests := []struct {
		name      string
		generate  bool
		precision evidence.State
	}{
		{"stale precision index", false, evidence.StaleState},
		{"regenerated precision index", true, evidence.Available},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			dir := shopProject(t)
			conf := map[string]any{"validation": map[string]any{"commands": []map[string]any{
				{"name": "go build", "argv": []string{gobin, "build", "./..."}, "format": "go"}}}}
			if tt.generate {
				conf["precision_index"] = map[string]any{"auto_generate": true, "generator_command": []string{scipGo, "--output", "index.scip"}}
			}
			b, err := json.Marshal(conf)
			if err != nil {
				t.Fatal(err)
			}
			testtool.WriteFiles(t, dir, map[string]string{config.File: string(b)})
			e := openEngine(t, dir, Options{Project: config.ProjectOptions{Trust: config.TrustAlways}})
			if err := e.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			r, err := e.Rewriter()
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Preview(ctx, rewrite.Request{Pattern: `c.Add($X)`, Template: `c.Add($X + "zebra")`, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Impact == nil || p.Impact.Analyzer != graphAnalyzer {
				t.Errorf("the preview's impact is not the project graph's: %+v", p.Impact)
			}
			res, err := r.Apply(ctx, p.ID, rewrite.Authorization{Principal: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != rewrite.Applied || res.FilesChanged != 1 {
				t.Fatalf("outcome %s, %d files", res.Outcome, res.FilesChanged)
			}
			if res.Reindex.Index != rewrite.IndexRefreshed {
				t.Errorf("local index %s: %s", res.Reindex.Index, res.Reindex.IndexReason)
			}
			if pr := res.Reindex.Precision; pr.State != tt.precision || (pr.State == evidence.StaleState && pr.Guidance == "") {
				t.Errorf("precision %+v, want %s with guidance", pr, tt.precision)
			}
			if res.Validation.Status != rewrite.ValidationPassed {
				t.Errorf("validation %s (%s), want passed", res.Validation.Status, res.Validation.Reason)
			}

			// The engine's local index answers with the new code without
			// another refresh.
			ix, err := e.Index()
			if err != nil {
				t.Fatal(err)
			}
			hits, err := ix.Search(ctx, "zebra", index.SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if hits.Freshness.PendingCount != 0 || len(hits.Hits) == 0 || hits.Hits[0].Path != "main.go" {
				t.Errorf("the local index after the apply: %+v", hits)
			}
		})
	}
}

// Without a local index, the engine's rewriter estimates impact from the
// changed files alone and says there was no local index to refresh.
func TestRewriterWithoutIndex(t *testing.T) {
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
	dir := testtool.WriteTree(t, map[string]string{"app.py": "old_api(1)\n"})
	e := openEngine(t, dir, Options{})
	r, err := e.Rewriter()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := r.Preview(ctx, rewrite.Request{Pattern: "old_api($X)", Template: "new_api($X)", Language: "python"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Impact == nil || p.Impact.Analyzer != rewrite.LocalImpactName {
		t.Errorf("impact %+v, want the changed files' own", p.Impact)
	}
	res, err := r.Apply(ctx, p.ID, rewrite.Authorization{Principal: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reindex.Index != rewrite.IndexNone || res.Validation.Status != rewrite.ValidationSkipped {
		t.Errorf("reindex %s (%s), validation %s (%s)", res.Reindex.Index, res.Reindex.IndexReason, res.Validation.Status, res.Validation.Reason)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(index.StorageDir))); err == nil {
		t.Error("the rewrite created a local index")
	}
}

// The engine's layers that its rewriter consults keep the contracts a
// rewrite relies on: its structural search as the Matcher, its project
// graph as the Impact.
func TestRewriterLayersConform(t *testing.T) {
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
	e := openEngine(t, testtool.WriteTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}), Options{})
	rewritetest.TestMatcher(t, e.Structural())
	g, err := e.Graph()
	if err != nil {
		t.Fatal(err)
	}
	rewritetest.TestImpact(t, graphImpact{g})
}
