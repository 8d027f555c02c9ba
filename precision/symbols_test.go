package precision

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func TestSearchSymbols(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir})
	defer p.Close()
	tests := []struct {
		name   string
		names  []string
		limit  int
		want   []string // kind symbol location
		reason string
	}{
		{"both packages' Shape, then Square", []string{"Shape", "Square"}, MaxSymbolRecords, []string{
			"definition " + shapeA + " a.go:3:6-3:11",
			"reference " + shapeA + " a.go:4:7-4:12",
			"definition " + shapeB + " b/b.go:2:6-2:11",
			"reference " + shapeB + " b/c.go:3:7-3:12",
			"definition " + square + " a.go:2:12-2:18",
			"reference " + square + " a.go:4:15-4:21",
		}, ""},
		{"a symbol is answered once", []string{"Square", "Square"}, MaxSymbolRecords, []string{
			"definition " + square + " a.go:2:12-2:18",
			"reference " + square + " a.go:4:15-4:21",
		}, ""},
		{"capped", []string{"Shape", "Square"}, 3, []string{
			"definition " + shapeA + " a.go:3:6-3:11",
			"reference " + shapeA + " a.go:4:7-4:12",
			"definition " + shapeB + " b/b.go:2:6-2:11",
		}, "stopped after 3 of 6 records (limit 3)"},
		{"a text match is not a symbol", []string{"Squ", "x", "package"}, MaxSymbolRecords, nil,
			"the index has no symbol named Squ, x, package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := p.searchSymbols(context.Background(), tt.names, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range resp.Records {
				if err := r.Validate(); err != nil {
					t.Errorf("invalid record: %v", err)
				}
				if !r.Exact || r.Trust != trust.Exact || r.Provenance != trust.PrecisionIndex {
					t.Errorf("fresh record %s is not exact precision evidence", r.Location())
				}
				got = append(got, string(r.Kind)+" "+r.Symbol+" "+r.Location())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if resp.Report.State != evidence.Available || resp.Report.Reason != tt.reason || resp.Report.Records != len(got) {
				t.Errorf("report = %+v, want available with reason %q", resp.Report, tt.reason)
			}
		})
	}
	t.Run("public entry point caps at MaxSymbolRecords", func(t *testing.T) {
		resp, err := p.SearchSymbols(context.Background(), []string{"Square"})
		if err != nil || len(resp.Records) != 2 {
			t.Fatalf("records %+v, err %v", resp.Records, err)
		}
	})
}

func TestSearchSymbolsStaleAndUnavailable(t *testing.T) {
	ctx := context.Background()
	dir := writeProject(t)
	touch(t, filepath.Join(dir, "a.go"), time.Now().Add(time.Hour))
	p := New(Options{Dir: dir})
	defer p.Close()
	resp, err := p.SearchSymbols(ctx, []string{"Square"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 2 {
		t.Fatalf("a stale index must still answer: records %+v", resp.Records)
	}
	for _, r := range resp.Records {
		if !r.Stale || r.Exact || r.Trust != trust.InferredHigh {
			t.Errorf("stale record %s: stale %v exact %v trust %s", r.Location(), r.Stale, r.Exact, r.Trust)
		}
	}
	if resp.Report.State != evidence.StaleState || !strings.Contains(resp.Report.Reason, "a.go") || resp.Report.Guidance == "" {
		t.Errorf("report = %+v, want stale with guidance", resp.Report)
	}

	if _, err := New(Options{Dir: dir, Disabled: true}).SearchSymbols(ctx, []string{"Square"}); !errors.Is(err, evidence.ErrDisabled) {
		t.Errorf("disabled: err = %v", err)
	}
	var ue *evidence.UnavailableError
	if _, err := New(Options{Dir: t.TempDir()}).SearchSymbols(ctx, []string{"Square"}); !errors.As(err, &ue) {
		t.Errorf("no index: err = %v", err)
	}
}
