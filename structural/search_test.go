package structural

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func TestSearchFallsBackToLexical(t *testing.T) {
	root := projectWith(t, map[string]string{
		"a.py": "old_api(1)\n# old_api in a comment\nold_api_v2(3)\nx.old_api\n",
		"b.go": "package b\n",
	})
	req := Request{Root: root, Pattern: "old_api($X)", Language: Python}
	tests := []struct {
		name  string
		opts  Options
		req   Request
		state evidence.State
	}{
		{"disabled", Options{Disabled: true}, req, evidence.Disabled},
		{"ast-grep missing", Options{Command: filepath.Join(t.TempDir(), "ast-grep")}, req, evidence.Unavailable},
		{"ast-grep not the verified version", Options{Command: fakeAstGrep(t, "ast-grep 0.40.0", "", "", 0)}, req, evidence.Unavailable},
		{"unsupported language", Options{}, Request{Root: root, Pattern: "old_api($X)", Language: "cobol"}, evidence.Unavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ans, err := Search(context.Background(), tc.opts, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if ans.Structural != nil || ans.Lexical == nil {
				t.Fatalf("want a lexical answer, got %+v", ans)
			}
			if ans.Report.State != tc.state || !strings.Contains(ans.Report.Reason, "without structural precision") {
				t.Errorf("report %+v", ans.Report)
			}
			var got []string
			for _, h := range ans.Lexical.Hits {
				got = append(got, h.Line)
			}
			// Text search cannot tell the comment or the attribute apart:
			// that is exactly why it is labelled weak.
			want := []string{"old_api(1)", "# old_api in a comment", "x.old_api"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			for _, r := range ans.Records(tc.req.Pattern) {
				if r.Provenance != trust.Lexical || r.Trust != trust.Weak {
					t.Errorf("record %+v is not weak lexical evidence", r)
				}
				if err := r.Validate(); err != nil {
					t.Errorf("invalid record: %v", err)
				}
			}
		})
	}
}

func TestPatternWords(t *testing.T) {
	if diff := cmp.Diff([]string{"println", "System", "out"}, patternWords("System.out.println($$$ARGS, $X)")); diff != "" {
		t.Errorf("patternWords (-want +got):\n%s", diff)
	}
	if got := patternWords("$A == $A"); len(got) != 0 {
		t.Errorf("patternWords of a pure metavariable pattern = %q", got)
	}
}

func TestSearchStructuralOrError(t *testing.T) {
	if !cgoEnabled {
		t.Skip("the built-in engine needs cgo")
	}
	root := projectWith(t, map[string]string{"a.py": "old_api(1)\n# old_api(2)\n"})
	ans, err := Search(context.Background(), Options{}, Request{Root: root, Pattern: "old_api($X)", Language: Python})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Lexical != nil || ans.Structural == nil || len(ans.Structural.Matches) != 1 {
		t.Fatalf("answer %+v", ans)
	}
	recs := ans.Records("old_api($X)")
	if len(recs) != 1 || recs[0].Provenance != trust.StructuralMatch || recs[0].Trust != trust.Structural || recs[0].Metadata.Attributes["capture.X"] != "1" {
		t.Fatalf("records %+v", recs)
	}
	_, err = Search(context.Background(), Options{}, Request{Root: root, Pattern: "old_api(", Language: Python})
	if !errors.Is(err, ErrInvalidPattern) {
		t.Fatalf("invalid pattern: err = %v", err)
	}
}
