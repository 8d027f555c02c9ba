package evidencetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

type provider struct {
	name    string
	records []evidence.Record
	report  evidence.Report
	panics  bool
}

func (p provider) Name() string { return p.name }
func (p provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if p.panics {
		panic("boom")
	}
	return evidence.Response{Records: p.records, Report: p.report}, nil
}

func rec(path string, line, col, endCol int) evidence.Record {
	return evidence.Record{Kind: evidence.StructuralMatch, Provider: "ok", Provenance: trust.StructuralMatch,
		Trust: trust.Structural, Confidence: 1, Path: path, StartLine: line, StartColumn: col, EndLine: line, EndColumn: endCol}
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc é() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("x\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	overclaim := rec("main.go", 3, 6, 7)
	overclaim.Trust = trust.Exact
	overclaim.Exact = true
	wrongName := rec("main.go", 1, 1, 8)
	wrongName.Provider = "other"

	tests := []struct {
		name string
		p    provider
		want []string // substrings, one per expected problem
	}{
		{"conforming", provider{name: "ok", records: []evidence.Record{rec("main.go", 3, 6, 7), rec("main.go", 3, 12, 12)}}, nil},
		{"empty name", provider{name: ""}, []string{"Name() is empty"}},
		{"panics", provider{name: "ok", panics: true}, []string{"Gather panicked", "Gather panicked on a cancelled context"}},
		{"overclaim", provider{name: "ok", records: []evidence.Record{overclaim}}, []string{"may claim at most structural"}},
		{"wrong provider", provider{name: "ok", records: []evidence.Record{wrongName}}, []string{`provider "other"`}},
		{"symlink escape", provider{name: "ok", records: []evidence.Record{rec("link/secret.go", 1, 1, 2)}}, []string{"outside the project root"}},
		{"missing file", provider{name: "ok", records: []evidence.Record{rec("nope.go", 1, 1, 2)}}, []string{"names no file"}},
		{"past the last line", provider{name: "ok", records: []evidence.Record{rec("main.go", 9, 1, 2)}}, []string{"line 9 is past the end"}},
		{"past the line end", provider{name: "ok", records: []evidence.Record{rec("main.go", 3, 6, 13)}}, []string{"column 13 is past the end"}},
		{"stale report without reason", provider{name: "ok", report: evidence.Report{State: evidence.StaleState}}, []string{"without a reason"}},
		{"unknown state", provider{name: "ok", report: evidence.Report{State: "fine"}}, []string{"unknown report state"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := Check(context.Background(), tc.p, root, evidence.Query{Text: "q"})
			if len(errs) != len(tc.want) {
				t.Fatalf("got %d problems %v, want %d", len(errs), errs, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("problem %d = %q, want it to mention %q", i, errs[i], w)
				}
			}
		})
	}
}

// TestProviderPasses shows the call a host makes from its own tests.
func TestProviderPasses(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.py"), []byte("def f():\n    pass\n"), 0o644)
	TestProvider(t, provider{name: "ok", records: []evidence.Record{rec("a.py", 1, 5, 6)}}, root, evidence.Query{Symbol: "f"})
}
