package rewrite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/validation"
)

// TestAfterTheChange checks steps 9 to 12 on a Go module with a local
// index and a scip-go precision index: the local index is refreshed and
// answers with the new code; the precision index is regenerated through
// its generator when one is configured and reported stale with guidance
// when not; validation (go build) passes, or fails and sets the residual
// risk to 1 without hiding that the files were changed.
func TestAfterTheChange(t *testing.T) {
	requireSyntax(t)
	gobin := testtool.Require(t, "go", "install Go")
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	build := validation.Options{Commands: []validation.Command{{Name: "go build", Argv: []string{gobin, "build", "./..."}, Format: "go"}}}
	tests := []struct {
		name       string
		template   string
		generate   bool
		precision  evidence.State
		validation string
	}{
		{"stale precision index", "api.NewAPI($X)", false, evidence.StaleState, ValidationPassed},
		{"regenerated precision index", "api.NewAPI($X)", true, evidence.Available, ValidationPassed},
		{"a change that breaks the build", "api.Missing($X)", false, evidence.StaleState, ValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			dir := testtool.WriteTree(t, project)
			// Sources older than the index, as after a real indexing run.
			old := time.Now().Add(-time.Hour)
			for name := range project {
				_ = chtimes(dir, name, old)
			}
			res, err := safeexec.Run(ctx, safeexec.Invocation{Path: scipGo, Args: []string{"--output", "index.scip"}, Dir: dir,
				Env: safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOCACHE", "GOFLAGS", "GOPROXY")})
			if err != nil {
				t.Fatalf("scip-go: %v\n%s", err, res.Stderr)
			}
			pv := precision.New(precision.Options{Dir: dir, NoSnapshot: true})
			if _, err := pv.Accept(ctx); err != nil {
				t.Fatal(err)
			}
			pv.Close()
			ix, err := index.Open(index.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ix.Update(ctx); err != nil {
				t.Fatal(err)
			}
			ix.Close()

			r := openTest(t, dir, func(o *Options) {
				o.SkipValidation = false
				o.Validation = build
				if tt.generate {
					o.Precision = precision.Options{AutoGenerate: true, GeneratorCommand: []string{scipGo, "--output", "index.scip"}}
				}
			})
			p, err := r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: tt.template, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Apply(ctx, p.ID, Authorization{Principal: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != Applied || got.FilesChanged != 2 {
				t.Fatalf("outcome %s, %d files", got.Outcome, got.FilesChanged)
			}
			if got.Reindex.Index != "refreshed" {
				t.Errorf("local index %s: %s", got.Reindex.Index, got.Reindex.IndexReason)
			}
			if pr := got.Reindex.Precision; pr.State != tt.precision || (pr.State == evidence.StaleState && pr.Guidance == "") {
				t.Errorf("precision %+v, want %s with guidance", pr, tt.precision)
			}
			if got.Validation.Status != tt.validation {
				t.Errorf("validation %s (%s), want %s", got.Validation.Status, got.Validation.Reason, tt.validation)
			}
			if got.ImpactAfter == nil || got.ImpactAfter.Stage != StageAfter {
				t.Errorf("impact after: %+v", got.ImpactAfter)
			}
			switch tt.validation {
			case ValidationFailed:
				if got.ResidualRisk != 1 || got.OK() {
					t.Errorf("a failed validation: residual risk %v, OK %v", got.ResidualRisk, got.OK())
				}
			default:
				if got.ResidualRisk != got.ImpactAfter.Risk || !got.OK() {
					t.Errorf("residual risk %v, impact after %v, OK %v", got.ResidualRisk, got.ImpactAfter.Risk, got.OK())
				}
			}

			// The local index answers with the new code without another
			// refresh.
			ix, err = index.Open(index.Options{Dir: dir, Budget: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			word := strings.TrimSuffix(strings.TrimPrefix(tt.template, "api."), "($X)")
			hits, err := ix.Search(ctx, word, index.SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if hits.Freshness.PendingCount != 0 || !hasHit(hits, "main.go") {
				t.Errorf("the local index after the apply: %+v", hits)
			}
		})
	}
}

func hasHit(res index.SearchResult, path string) bool {
	for _, h := range res.Hits {
		if h.Path == path {
			return true
		}
	}
	return false
}

func chtimes(dir, name string, t time.Time) error {
	return os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), t, t)
}
