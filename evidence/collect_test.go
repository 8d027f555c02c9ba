package evidence

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
)

type fakeProvider struct {
	name string
	fn   func(ctx context.Context, q Query) (Response, error)
}

func (p fakeProvider) Name() string { return p.name }
func (p fakeProvider) Gather(ctx context.Context, q Query) (Response, error) {
	return p.fn(ctx, q)
}

func TestCollectTurnsFailuresIntoReports(t *testing.T) {
	ok := goodRecord()
	overclaim := goodRecord()
	overclaim.Provenance, overclaim.StartLine, overclaim.EndLine = trust.Lexical, 30, 30 // lexical claiming exact
	invalid := goodRecord()
	invalid.Confidence = 3
	outside := goodRecord()
	outside.StartLine, outside.EndLine = 50, 50
	outside.Path = "vendor/x.go"

	providers := []Provider{
		fakeProvider{"good", func(context.Context, Query) (Response, error) {
			return Response{Records: []Record{ok, overclaim, invalid, outside}}, nil
		}},
		fakeProvider{"broken", func(context.Context, Query) (Response, error) {
			return Response{}, errors.New("index truncated")
		}},
		fakeProvider{"guided", func(context.Context, Query) (Response, error) {
			return Response{}, &UnavailableError{Reason: "no index", Guidance: "run scip-go"}
		}},
		fakeProvider{"off", func(context.Context, Query) (Response, error) {
			return Response{}, ErrDisabled
		}},
		fakeProvider{"panics", func(context.Context, Query) (Response, error) {
			panic("boom")
		}},
		fakeProvider{"stale", func(context.Context, Query) (Response, error) {
			return Response{Records: []Record{MarkStale(ok)}, Report: Report{State: StaleState, Reason: "index older than sources", Guidance: "reindex"}}, nil
		}},
	}
	check := func(r *Record) error {
		if strings.HasPrefix(r.Path, "vendor/") {
			return errors.New("outside the project")
		}
		return nil
	}
	recs, reports := Collect(context.Background(), Query{}, providers, CollectOptions{Check: check})
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 3 (good, lowered overclaim, stale)", len(recs))
	}
	for _, r := range recs {
		if r.Provenance == trust.Lexical && r.Trust != trust.Weak {
			t.Errorf("overclaim kept tier %s", r.Trust)
		}
		if err := r.Validate(); err != nil {
			t.Error(err)
		}
	}
	type brief struct {
		Provider, State, Guidance string
		Records, Lowered, Dropped int
	}
	var got []brief
	for _, r := range reports {
		got = append(got, brief{r.Provider, string(r.State), r.Guidance, r.Records, len(r.Lowered), len(r.Dropped)})
	}
	want := []brief{
		{"good", "available", "", 2, 1, 2},
		{"broken", "unavailable", "", 0, 0, 0},
		{"guided", "unavailable", "run scip-go", 0, 0, 0},
		{"off", "disabled", "", 0, 0, 0},
		{"panics", "unavailable", "", 0, 0, 0},
		{"stale", "stale", "reindex", 1, 0, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
	if !strings.Contains(reports[4].Reason, "panicked: boom") || !strings.Contains(reports[1].Reason, "index truncated") {
		t.Errorf("reasons: %q, %q", reports[4].Reason, reports[1].Reason)
	}
}

func TestCollectCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	_, reports := Collect(ctx, Query{}, []Provider{fakeProvider{"p", func(context.Context, Query) (Response, error) {
		called = true
		return Response{}, nil
	}}}, CollectOptions{})
	if called || reports[0].State != Unavailable {
		t.Errorf("called=%v report=%+v", called, reports[0])
	}
}

func TestQueryWants(t *testing.T) {
	q := Query{}
	if !q.Wants(Definition) {
		t.Error("empty Kinds must want everything")
	}
	q.Kinds = []Kind{Reference}
	if q.Wants(Definition) || !q.Wants(Reference) {
		t.Error("Kinds filter wrong")
	}
}
