package rewrite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
)

func TestLocalImpact(t *testing.T) {
	requireSyntax(t)
	dir := testtool.WriteTree(t, map[string]string{
		"api/api.go":                    "package api\n\n// Old is old.\nfunc Old(x int) int { return x }\n\nfunc helper() {}\n",
		"api/api_test.go":               "package api\n",
		"app/app.py":                    "def run():\n    return 1\n",
		"src/main/java/p/Cart.java":     "package p;\n\nclass Cart {\n  int total() { return 1; }\n}\n",
		"src/test/java/p/CartTest.java": "package p;\n",
		"app/test_app.py":               "",
	})
	src := "package api\n\n// Old is old.\nfunc Old(x int) int { return x }\n\nfunc helper() {}\n"
	renamed := strings.Replace(src, "func Old(", "func New(", 1)
	at := strings.Index(src, "Old(")
	span := Span{Old: ByteRange{Start: at, End: at + 3, StartLine: 4, EndLine: 4}, New: ByteRange{Start: at, End: at + 3, StartLine: 4, EndLine: 4}}
	tests := []struct {
		name      string
		stage     ImpactStage
		files     []FileChange
		symbols   []string // path:name
		removed   []string
		tests     []string
		risk      float64
		structure int
	}{
		{"before: the function enclosing the change", StageBefore,
			[]FileChange{{Path: "api/api.go", Before: []byte(src), After: []byte(renamed), Spans: []Span{span}}},
			[]string{"api/api.go:Old"}, nil, []string{"api/api_test.go"},
			0.15, 1},
		{"after: the new function, and the old one removed", StageAfter,
			[]FileChange{{Path: "api/api.go", Before: []byte(src), After: []byte(renamed), Spans: []Span{span}}},
			[]string{"api/api.go:New"}, []string{"api/api.go:Old"}, []string{"api/api_test.go"},
			// 1 - (1-0.15)(1-0.4)
			0.49, 2},
		{"python test_ prefix, and java src/test beside src/main", StageBefore,
			[]FileChange{
				{Path: "app/app.py", Before: []byte("def run():\n    return 1\n"), After: []byte("def run():\n    return 2\n"),
					Spans: []Span{{Old: ByteRange{Start: 22, End: 23}, New: ByteRange{Start: 22, End: 23}}}},
				{Path: "src/main/java/p/Cart.java", Before: []byte("package p;\n\nclass Cart {\n  int total() { return 1; }\n}\n"),
					After: []byte("package p;\n\nclass Cart {\n  int total() { return 2; }\n}\n"),
					Spans: []Span{{Old: ByteRange{Start: 46, End: 47}, New: ByteRange{Start: 46, End: 47}}}},
			},
			[]string{"app/app.py:run", "src/main/java/p/Cart.java:Cart", "src/main/java/p/Cart.java:total"}, nil,
			[]string{"app/test_app.py", "src/test/java/p/CartTest.java"},
			// run is exported (no underscore); Cart and total are not
			// public: 1 - (1-0.15)(1-0.05)(1-0.05)
			0.233, 3},
		{"a file of no language the syntax floor parses: no symbol, no test expected", StageBefore,
			[]FileChange{{Path: "notes.txt", Before: []byte("a\n"), After: []byte("b\n"), Spans: []Span{{Old: ByteRange{Start: 0, End: 1}, New: ByteRange{Start: 0, End: 1}}}}},
			nil, nil, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := LocalImpact{}.Analyze(context.Background(), ImpactRequest{Dir: dir, Stage: tt.stage, Files: tt.files})
			if err != nil {
				t.Fatal(err)
			}
			names := func(ss []AffectedSymbol) []string {
				var out []string
				for _, s := range ss {
					out = append(out, s.Path+":"+s.Name)
					if s.Tier != trust.Structural {
						t.Errorf("%s: tier %s, want structural", s.Name, s.Tier)
					}
				}
				return out
			}
			var tests []string
			for _, x := range rep.Tests {
				tests = append(tests, x.Path)
			}
			got := []any{names(rep.Symbols), names(rep.Removed), tests, rep.Risk, rep.Structural, rep.Inferred, rep.Tier}
			want := []any{tt.symbols, tt.removed, tt.tests, tt.risk, tt.structure, len(tt.tests), trust.Inferred}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nrisk reason: %s", diff, rep.RiskReason)
			}
			if !strings.HasPrefix(rep.Basis, "inferred:") {
				t.Errorf("basis %q does not say it is inferred", rep.Basis)
			}
		})
	}
}

// closingImpact is an Impact that counts its closes.
type closingImpact struct {
	LocalImpact
	closed int
}

func (c *closingImpact) Close() error { c.closed++; return nil }

// The rewriter owns its Impact: Close closes it, and so does a failed Open.
func TestImpactClosed(t *testing.T) {
	im := &closingImpact{}
	r, err := Open(Options{Dir: t.TempDir(), Impact: im})
	if err != nil {
		t.Fatal(err)
	}
	if im.closed != 0 {
		t.Fatalf("closed %d times before Close", im.closed)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if im.closed != 1 {
		t.Errorf("Close closed the impact %d times, want 1", im.closed)
	}

	im = &closingImpact{}
	if _, err := Open(Options{Dir: filepath.Join(t.TempDir(), "missing"), Impact: im}); err == nil {
		t.Fatal("Open of a missing directory succeeded")
	}
	if im.closed != 1 {
		t.Errorf("a failed Open closed the impact %d times, want 1", im.closed)
	}
}
