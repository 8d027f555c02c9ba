package graph

import (
	"context"
	"iter"
	"testing"

	"github.com/codecortex/codecortex/evidence"
)

// closingSource is an EdgeSource that counts its closes.
type closingSource struct{ closed int }

func (s *closingSource) Edges(context.Context) (iter.Seq[evidence.Record], evidence.Report, error) {
	return func(func(evidence.Record) bool) {}, evidence.Report{}, nil
}

func (s *closingSource) Close() error { s.closed++; return nil }

// Close closes Exact only when CloseExact hands it over.
func TestCloseExact(t *testing.T) {
	for _, hand := range []bool{false, true} {
		src := &closingSource{}
		p := New(Options{Dir: t.TempDir(), Exact: src, CloseExact: hand})
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		want := 0
		if hand {
			want = 1
		}
		if src.closed != want {
			t.Errorf("CloseExact %v: closed %d times, want %d", hand, src.closed, want)
		}
	}
}
