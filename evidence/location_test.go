package evidence_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func TestLocationCheck(t *testing.T) {
	inside := func(p string) error {
		if strings.HasPrefix(p, "out/") {
			return errors.New("leaves the project root")
		}
		return nil
	}
	rec := func(path string) evidence.Record {
		return evidence.Record{Kind: evidence.StructuralMatch, Provider: "p", Provenance: trust.StructuralMatch,
			Trust: trust.Structural, Confidence: 1, Path: path, StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 2}
	}
	noLoc := rec("")
	noLoc.StartLine, noLoc.StartColumn, noLoc.EndLine, noLoc.EndColumn = 0, 0, 0, 0
	in := []evidence.Record{rec("in.go"), rec("out/secret.go"), rec("missing/but/inside.go"), noLoc}
	check := evidence.LocationCheck(inside)
	kept, dropped := evidence.Keep(in, check)
	if len(kept) != 3 || len(dropped) != 1 || !strings.Contains(dropped[0], "out/secret.go") || !strings.Contains(dropped[0], "leaves the project root") {
		t.Fatalf("kept %d, dropped %v", len(kept), dropped)
	}
	if in[1].Path != "out/secret.go" {
		t.Error("Keep modified its input")
	}
	// Wired into Collect, a record outside the root is dropped and reported.
	recs, reports := evidence.Collect(context.Background(), evidence.Query{}, []evidence.Provider{fixed{in}}, evidence.CollectOptions{Check: check})
	if len(recs) != 3 || len(reports[0].Dropped) != 1 {
		t.Fatalf("Collect kept %d, report %+v", len(recs), reports[0])
	}
}

type fixed struct{ recs []evidence.Record }

func (fixed) Name() string { return "p" }
func (p fixed) Gather(context.Context, evidence.Query) (evidence.Response, error) {
	return evidence.Response{Records: p.recs}, nil
}
