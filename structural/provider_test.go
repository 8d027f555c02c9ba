package structural

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// summary is what a test compares of a response: each record's kind,
// tier, provider and location, and the report's state.
func summary(resp evidence.Response) (recs []string, state evidence.State) {
	for _, r := range resp.Records {
		recs = append(recs, fmt.Sprintf("%s %s %s %s", r.Kind, r.Trust, r.Provider, r.Location()))
	}
	return recs, resp.Report.State
}

func TestProviderGather(t *testing.T) {
	root := projectWith(t, map[string]string{
		"a.py": "old_api(1)\n# old_api in a comment\nAuthService = 1\n",
		"b.go": "package b\n\ntype AuthService struct{}\n\nfunc (AuthService) Refresh() {}\n",
	})
	symbols := &lockedSymbols{resp: evidence.Response{Records: []evidence.Record{symbolRecord("a.py", 1)}}}
	const (
		ref  = "reference exact structural a.py:1:1-1:8"
		weak = "structural_match weak structural"
	)
	tests := []struct {
		name       string
		opts       Options
		q          evidence.Query
		cgo        bool // the answer needs the built-in engine
		want       []string
		state      evidence.State
		wantReason []string
		wantNames  []string // asked of the symbol searcher
	}{
		{name: "pattern", cgo: true, q: evidence.Query{Pattern: "old_api($X)", Language: "py"},
			want: []string{"structural_match structural structural a.py:1:1-1:11"}, state: evidence.Available},
		{name: "pattern in every language", cgo: true, q: evidence.Query{Pattern: "old_api($X)"},
			want: []string{"structural_match structural structural a.py:1:1-1:11"}, state: evidence.Available},
		{name: "pattern, disabled", opts: Options{Disabled: true}, q: evidence.Query{Pattern: "old_api($X)", Language: "python"},
			want:  []string{weak + " a.py:1:1-1:8", weak + " a.py:2:3-2:10", ref},
			state: evidence.Disabled, wantReason: []string{"disabled", "without structural precision", "symbol fallback"},
			wantNames: []string{"old_api"}},
		{name: "pattern, unknown language", q: evidence.Query{Pattern: "old_api($X)", Language: "cobol"},
			want:  []string{weak + " a.py:1:1-1:8", weak + " a.py:2:3-2:10", ref},
			state: evidence.Unavailable, wantReason: []string{`"cobol"`, "without structural precision"},
			wantNames: []string{"old_api"}},
		{name: "pattern, kinds", opts: Options{Disabled: true}, q: evidence.Query{Pattern: "old_api($X)", Kinds: []evidence.Kind{evidence.Reference}},
			want: []string{ref}, state: evidence.Disabled, wantNames: []string{"old_api"}},
		{name: "words", q: evidence.Query{Text: "Where is AuthService defined?"},
			want:  []string{weak + " a.py:3:1-3:12", weak + " b.go:3:6-3:17", weak + " b.go:5:7-5:18", ref},
			state: evidence.Available, wantReason: []string{"in words", "(AuthService)", "without structural precision", "symbol fallback"},
			wantNames: []string{"AuthService"}},
		{name: "words with a method", q: evidence.Query{Text: "who calls `AuthService.Refresh`?", Language: "go"},
			want:  []string{weak + " b.go:3:6-3:17", weak + " b.go:5:7-5:18", weak + " b.go:5:20-5:27", ref},
			state: evidence.Available, wantReason: []string{"(AuthService.Refresh)"},
			wantNames: []string{"Refresh", "AuthService"}},
		{name: "symbol", q: evidence.Query{Symbol: "old_api"},
			want:  []string{weak + " a.py:1:1-1:8", weak + " a.py:2:3-2:10", ref},
			state: evidence.Available, wantNames: []string{"old_api"}},
		{name: "words naming nothing", q: evidence.Query{Text: "what changed in this file?"},
			state: evidence.Available, wantReason: []string{"names no identifier"}},
		{name: "words, disabled", opts: Options{Disabled: true}, q: evidence.Query{Text: "Where is AuthService defined?"},
			want:  []string{weak + " a.py:3:1-3:12", weak + " b.go:3:6-3:17", weak + " b.go:5:7-5:18", ref},
			state: evidence.Disabled, wantReason: []string{"disabled"}, wantNames: []string{"AuthService"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cgo && !cgoEnabled {
				t.Skip("the built-in engine needs cgo")
			}
			f := &lockedSymbols{resp: symbols.resp}
			tc.opts.Dir, tc.opts.Symbols = root, f
			resp, err := New(tc.opts).Gather(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			recs, state := summary(resp)
			if diff := cmp.Diff(tc.want, recs); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if state != tc.state || resp.Report.Records != len(recs) {
				t.Errorf("report %+v, want state %s and %d records", resp.Report, tc.state, len(recs))
			}
			for _, w := range tc.wantReason {
				if !strings.Contains(resp.Report.Reason, w) {
					t.Errorf("report reason %q does not say %q", resp.Report.Reason, w)
				}
			}
			var asked []string
			for _, c := range f.calls {
				asked = append(asked, c...)
			}
			if diff := cmp.Diff(tc.wantNames, asked); diff != "" {
				t.Errorf("names asked (-want +got):\n%s", diff)
			}
			for _, r := range resp.Records {
				if r.Provenance == trust.PrecisionIndex && r.Metadata.Attributes["via"] != "precision" {
					t.Errorf("a symbol record does not say it came via precision: %+v", r.Metadata.Attributes)
				}
				if r.Provenance == trust.Lexical && r.Metadata.Attributes["precision"] != LexicalNotice {
					t.Errorf("a lexical record does not carry the notice: %+v", r.Metadata.Attributes)
				}
			}
		})
	}
	// The searcher's own record is not changed by the provider's relabelling.
	if symbols.resp.Records[0].Provider != "precision" || symbols.resp.Records[0].Metadata.Attributes != nil {
		t.Errorf("the searcher's record was modified: %+v", symbols.resp.Records[0])
	}
}

func TestProviderInvalidPattern(t *testing.T) {
	if !cgoEnabled {
		t.Skip("patterns are checked by the built-in engine")
	}
	root := projectWith(t, map[string]string{"a.py": "old_api(1)\n"})
	_, err := New(Options{Dir: root}).Gather(context.Background(), evidence.Query{Pattern: "old_api(", Language: "python"})
	if !errors.Is(err, ErrInvalidPattern) {
		t.Fatalf("Gather error = %v, want ErrInvalidPattern", err)
	}
	// Collect reports it as the provider being unable to answer.
	_, reps := evidence.Collect(context.Background(), evidence.Query{Pattern: "old_api("}, []evidence.Provider{New(Options{Dir: root})}, evidence.CollectOptions{})
	if reps[0].State != evidence.Unavailable || !strings.Contains(reps[0].Reason, "invalid") {
		t.Errorf("report %+v", reps[0])
	}
}

// TestProviderConcurrent runs queries of every kind at once on one
// provider, which shares its engine and parse cache (run with -race).
func TestProviderConcurrent(t *testing.T) {
	root := conformanceTree(t)
	p := New(Options{Dir: root, Symbols: &lockedSymbols{}})
	qs := []evidence.Query{{Pattern: "old_api($$$A)"}, {Pattern: "old_api($X)", Language: "go"}, {Text: "who calls old_api?"}}
	want := make([]int, len(qs))
	for i, q := range qs {
		resp, err := p.Gather(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = len(resp.Records)
	}
	var wg sync.WaitGroup
	for range 4 {
		for i, q := range qs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := p.Gather(context.Background(), q)
				if err != nil || len(resp.Records) != want[i] {
					t.Errorf("query %d: %d records, %v; want %d", i, len(resp.Records), err, want[i])
				}
			}()
		}
	}
	wg.Wait()
}

func TestProviderRewrite(t *testing.T) {
	if !cgoEnabled {
		t.Skip("the built-in engine needs cgo")
	}
	root := projectWith(t, map[string]string{"a.go": "package a\n\nfunc f() {\n\toldAPI(1, 2)\n}\n"})
	p := New(Options{Dir: root})
	ans, err := p.Search(context.Background(), Request{Pattern: "oldAPI($A, $B)", Language: Go})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		template string
		want     TemplateProblem // "" means valid
	}{
		{"newAPI($B, $A)", ""},
		{"newAPI($A, $C)", TemplateUnbound},
		{"newAPI($A", TemplateSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.template, func(t *testing.T) {
			edits, err := p.Rewrite(context.Background(), ans, tc.template)
			if tc.want == "" {
				if err != nil || len(edits) != 1 || edits[0].New != "newAPI(2, 1)" {
					t.Fatalf("Rewrite = %+v, %v", edits, err)
				}
				return
			}
			var te *TemplateError
			if !errors.As(err, &te) || te.Problem != tc.want {
				t.Fatalf("Rewrite error = %v, want a %s TemplateError", err, tc.want)
			}
		})
	}
	fallback, err := New(Options{Dir: root, Disabled: true}).Search(context.Background(), Request{Pattern: "oldAPI($A, $B)", Language: Go})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Rewrite(context.Background(), fallback, "newAPI($A, $B)"); !errors.Is(err, ErrNoMatches) {
		t.Errorf("a fallback answer drove a rewrite: %v", err)
	}
}
