package contain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func TestKeepInside(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.go"), []byte("package in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.go", filepath.Join(dir, "alias.go")); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec := func(path string) evidence.Record {
		return evidence.Record{Kind: evidence.StructuralMatch, Provider: "p", Provenance: trust.StructuralMatch,
			Trust: trust.Structural, Confidence: 1, Path: path, StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 2}
	}
	noLoc := rec("")
	noLoc.StartLine, noLoc.StartColumn, noLoc.EndLine, noLoc.EndColumn = 0, 0, 0, 0
	in := []evidence.Record{rec("in.go"), rec("alias.go"), rec("out/secret.go"), rec("missing/but/inside.go"), noLoc}
	kept, dropped := r.KeepInside(in)
	if len(kept) != 4 || len(dropped) != 1 || !strings.Contains(dropped[0], "out/secret.go") {
		t.Fatalf("kept %d, dropped %v", len(kept), dropped)
	}

	// Wired into Collect, a record outside the root is dropped and reported.
	p := provider{recs: in}
	recs, reports := evidence.Collect(context.Background(), evidence.Query{}, []evidence.Provider{p}, evidence.CollectOptions{Check: r.CheckRecord})
	if len(recs) != 4 || len(reports[0].Dropped) != 1 {
		t.Fatalf("Collect kept %d, report %+v", len(recs), reports[0])
	}
}

type provider struct{ recs []evidence.Record }

func (provider) Name() string { return "p" }
func (p provider) Gather(context.Context, evidence.Query) (evidence.Response, error) {
	return evidence.Response{Records: p.recs}, nil
}
