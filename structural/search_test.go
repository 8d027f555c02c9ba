package structural

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

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
			for _, r := range ans.Records() {
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
	recs := ans.Records()
	if len(recs) != 1 || recs[0].Provenance != trust.StructuralMatch || recs[0].Trust != trust.Structural || recs[0].Metadata.Attributes["capture.X"] != "1" {
		t.Fatalf("records %+v", recs)
	}
	_, err = Search(context.Background(), Options{}, Request{Root: root, Pattern: "old_api(", Language: Python})
	if !errors.Is(err, ErrInvalidPattern) {
		t.Fatalf("invalid pattern: err = %v", err)
	}
}

// fakeSymbols is a SymbolSearcher that records what it was asked.
type fakeSymbols struct {
	calls [][]string
	resp  evidence.Response
	err   error
}

func (f *fakeSymbols) SearchSymbols(_ context.Context, names []string) (evidence.Response, error) {
	f.calls = append(f.calls, names)
	return f.resp, f.err
}

func symbolRecord(path string, line int) evidence.Record {
	return evidence.Record{Kind: evidence.Reference, Provider: "precision", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1, Path: path, StartLine: line, StartColumn: 1,
		EndLine: line, EndColumn: 8, Symbol: "scip-python python m 1 `m`/old_api()."}
}

func TestSearchFallbackAsksSymbols(t *testing.T) {
	root := projectWith(t, map[string]string{"a.py": "old_api(1)\n# old_api in a comment\n"})
	req := Request{Root: root, Pattern: "old_api($X)", Language: Python}
	recs := []evidence.Record{symbolRecord("a.py", 1)}
	tests := []struct {
		name       string
		opts       Options
		req        Request
		resp       evidence.Response
		err        error
		wantNames  [][]string
		wantRecs   int // lexical + symbol records
		wantReason []string
	}{
		{"disabled", Options{Disabled: true}, req, evidence.Response{Records: recs}, nil,
			[][]string{{"old_api"}}, 3, []string{"without structural precision", "symbol fallback", "asked about old_api"}},
		{"ast-grep missing", Options{Command: filepath.Join(t.TempDir(), "ast-grep")}, req, evidence.Response{Records: recs}, nil,
			[][]string{{"old_api"}}, 3, []string{"without structural precision", "symbol fallback"}},
		{"unknown language", Options{}, Request{Root: root, Pattern: "old_api($X)", Language: "cobol"}, evidence.Response{Records: recs}, nil,
			[][]string{{"old_api"}}, 3, []string{"without structural precision"}},
		{"stale searcher", Options{Disabled: true}, req,
			evidence.Response{Records: []evidence.Record{evidence.MarkStale(recs[0])},
				Report: evidence.Report{State: evidence.StaleState, Reason: "a.py changed", Guidance: "run: reindex"}}, nil,
			[][]string{{"old_api"}}, 3, []string{"stale: a.py changed"}},
		{"searcher fails", Options{Disabled: true}, req, evidence.Response{}, errors.New("index is broken"),
			[][]string{{"old_api"}}, 2, []string{"without structural precision", "unavailable: symbol search failed: index is broken"}},
		{"invalid record dropped", Options{Disabled: true}, req,
			evidence.Response{Records: []evidence.Record{recs[0], {Kind: evidence.Reference, Path: "a.py"}}}, nil,
			[][]string{{"old_api"}}, 3, []string{"symbol fallback"}},
		{"no identifier", Options{Disabled: true}, Request{Root: root, Pattern: "$A == $A", Language: Python}, evidence.Response{Records: recs}, nil,
			nil, 0, []string{"names no identifier"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeSymbols{resp: tc.resp, err: tc.err}
			tc.opts.Symbols = f
			ans, err := Search(context.Background(), tc.opts, tc.req)
			if err != nil {
				t.Fatalf("a failing symbol searcher failed the search: %v", err)
			}
			if diff := cmp.Diff(tc.wantNames, f.calls); diff != "" {
				t.Errorf("names asked (-want +got):\n%s", diff)
			}
			if ans.Symbols == nil || ans.Lexical == nil || ans.Structural != nil {
				t.Fatalf("answer %+v", ans)
			}
			got := ans.Records()
			if len(got) != tc.wantRecs || ans.Report.Records != tc.wantRecs {
				t.Errorf("%d records, report says %d, want %d", len(got), ans.Report.Records, tc.wantRecs)
			}
			if tc.err == nil && len(tc.wantNames) > 0 {
				if diff := cmp.Diff(tc.resp.Records[:1], got[len(got)-1:]); diff != "" {
					t.Errorf("symbol records are not passed through as produced (-want +got):\n%s", diff)
				}
			}
			for _, w := range tc.wantReason {
				if !strings.Contains(ans.Report.Reason, w) {
					t.Errorf("report reason %q does not say %q", ans.Report.Reason, w)
				}
			}
			if wantDropped := len(tc.resp.Records) - len(ans.Symbols.Records); tc.err == nil && len(tc.wantNames) > 0 && len(ans.Symbols.Report.Dropped) != wantDropped {
				t.Errorf("dropped %q, want %d", ans.Symbols.Report.Dropped, wantDropped)
			}
			if ans.Report.Guidance != tc.resp.Report.Guidance {
				t.Errorf("guidance %q, want %q", ans.Report.Guidance, tc.resp.Report.Guidance)
			}
		})
	}
}

func TestSearchStructuralNeverAsksSymbols(t *testing.T) {
	if !cgoEnabled {
		t.Skip("the built-in engine needs cgo")
	}
	root := projectWith(t, map[string]string{"a.py": "old_api(1)\n"})
	f := &fakeSymbols{resp: evidence.Response{Records: []evidence.Record{symbolRecord("a.py", 1)}}}
	ans, err := Search(context.Background(), Options{Symbols: f}, Request{Root: root, Pattern: "old_api($X)", Language: Python})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 0 || ans.Symbols != nil || ans.Structural == nil {
		t.Fatalf("a structural answer asked the symbol searcher: calls %q, answer %+v", f.calls, ans)
	}
	if len(ans.Records()) != 1 {
		t.Errorf("records %+v", ans.Records())
	}
}

func TestSymbolNames(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{"old_api($X)", []string{"old_api"}},
		{"fmt.Println($X)", []string{"Println"}},
		{"$X.Close()", []string{"Close"}},
		{"System.out.println($$$ARGS, $X)", []string{"println"}},
		{"a.b(c.d($X))", []string{"b", "d"}},
		{"os.Args", []string{"Args"}},
		{"std::mem::swap", []string{"swap"}},
		{"if err != nil { return $X }", []string{"err"}},
		{"if ($A) { $$$ }", nil},
		{"$A == $A", nil},
		{"a(); b(); c(); d(); e()", []string{"a", "b", "c", "d"}},
		{"f($X, f($Y))", []string{"f"}},
		{"Héllo($X)", []string{"Héllo"}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, symbolNames(tt.pattern)); diff != "" {
				t.Errorf("symbolNames (-want +got):\n%s", diff)
			}
		})
	}
}

// symbolNames only ever asks about words the pattern spells: never a
// metavariable, never a keyword, at most maxSymbolNames, each once.
func TestSymbolNamesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pattern := rapid.StringMatching(`[a-zA-Z_$().: ,\->é]{0,40}`).Draw(t, "pattern")
		words := map[string]bool{}
		for _, w := range patternWords(pattern) {
			words[w] = true
		}
		names := symbolNames(pattern)
		if len(names) > maxSymbolNames {
			t.Fatalf("%d names %q", len(names), names)
		}
		seen := map[string]bool{}
		for _, n := range names {
			if !words[n] || symbolKeywords()[n] || seen[n] {
				t.Fatalf("name %q of %q: pattern word %v, keyword %v, repeated %v", n, pattern, words[n], symbolKeywords()[n], seen[n])
			}
			seen[n] = true
		}
	})
}

// TestMatchSlicesStandAlone: a file's matches share backing arrays for
// their captures and nodes (see matchScratch), yet appending to one match's
// slices never changes another's, and an empty multi capture's nodes are
// [] rather than nil.
func TestMatchSlicesStandAlone(t *testing.T) {
	if !cgoEnabled {
		t.Skip("needs cgo")
	}
	root := projectWith(t, map[string]string{"a.go": "package a\nfunc f() {\n\tg(1, 2)\n\tg()\n\tg(3)\n}\n"})
	res, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: root, Pattern: "$F($$$A)", Language: Go})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 3 {
		t.Fatalf("%d matches, want 3", len(res.Matches))
	}
	before := make([]string, len(res.Matches))
	for i, m := range res.Matches {
		before[i] = fmt.Sprint(m.Captures)
	}
	for i := range res.Matches {
		m := &res.Matches[i]
		m.Captures = append(m.Captures, Capture{Name: "X"})
		for k := range m.Captures {
			m.Captures[k].Nodes = append(m.Captures[k].Nodes, Node{Text: "clobber"})
		}
		before[i] = fmt.Sprint(m.Captures)
		for j, o := range res.Matches {
			if j != i && fmt.Sprint(o.Captures) != before[j] {
				t.Fatalf("appending to match %d changed match %d: %v", i, j, o.Captures)
			}
		}
	}
	res, _ = NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: root, Pattern: "$F($$$A)", Language: Go})
	for _, m := range res.Matches {
		if a := m.Captures[0]; a.Name == "A" && a.Nodes == nil {
			t.Errorf("%q: capture A has nil nodes", m.Text)
		}
	}
}

// TestMatchTextsOutliveReads: a match's texts are slices of its file's
// source, so they must stay what the file held when it was searched while
// the worker reads other files and the cache takes new contents: one
// worker, a cached tree used again, a file rewritten at the same size
// (read into the worker's buffer to compare, then parsed anew).
func TestMatchTextsOutliveReads(t *testing.T) {
	if !cgoEnabled {
		t.Skip("needs cgo")
	}
	root := projectWith(t, map[string]string{
		"a.go": "package a\nfunc f() { alpha(1) }\n",
		"b.go": "package b\nfunc g() { gamma(2) }\n",
	})
	b := NewBuiltin(BuiltinOptions{Workers: 1})
	req := Request{Root: root, Pattern: "$F($$$A)", Language: Go}
	texts := func(res *Result) []string {
		var out []string
		for _, m := range res.Matches {
			caps := make([]string, len(m.Captures))
			for k, c := range m.Captures {
				caps[k] = c.Name + "=" + c.Text
			}
			out = append(out, m.Path+" "+m.Text+" "+strings.Join(caps, ",")+" "+m.Lines)
		}
		return out
	}
	// texts copies what it reads (concatenation), so a later write to a
	// source would show.
	wantFirst := []string{"a.go alpha(1) A=1,F=alpha func f() { alpha(1) }", "b.go gamma(2) A=2,F=gamma func g() { gamma(2) }"}
	first, err := b.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantFirst, texts(first)); diff != "" {
		t.Fatalf("first search (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nfunc f() { delta(3) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := b.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	wantSecond := []string{"a.go delta(3) A=3,F=delta func f() { delta(3) }", "b.go gamma(2) A=2,F=gamma func g() { gamma(2) }"}
	if diff := cmp.Diff(wantSecond, texts(second)); diff != "" {
		t.Errorf("second search (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantFirst, texts(first)); diff != "" {
		t.Errorf("the first search's matches changed (-want +got):\n%s", diff)
	}
}

// TestRecordMultiCaptureJSON: a multi capture's attribute is its items'
// texts as json.Marshal writes them (separators left out), cut like any
// attribute.
func TestRecordMultiCaptureJSON(t *testing.T) {
	texts := []string{"a", "<b>&", "\"q\"", "\u2028", "\xff", "日本", strings.Repeat("x", excerptBytes)}
	rapid.Check(t, func(t *rapid.T) {
		var nodes []Node
		var items []string
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(texts)-1), 0, 6).Draw(t, "items") {
			named := rapid.Bool().Draw(t, "named")
			nodes = append(nodes, Node{Text: texts[i], Named: named})
			if named {
				items = append(items, texts[i])
			}
		}
		m := Match{Path: "a.go", Language: Go, Captures: []Capture{{Name: "A", Multi: true, Nodes: nodes}}}
		want, _ := json.Marshal(append([]string{}, items...))
		if got := m.Record(BuiltinName, "$F($$$A)").Metadata.Attributes["capture.A"]; got != excerpt(string(want), excerptBytes) {
			t.Fatalf("capture.A = %q, want %q", got, excerpt(string(want), excerptBytes))
		}
	})
}

// TestRecordPartsSortedLikeRecord: RecordParts' attributes are the
// record's attributes, sorted by key with none repeated, whatever order
// and repeats the captures come in and whatever the spare capacity of the
// slice it appends to holds (where it looks for keys to reuse).
func TestRecordPartsSortedLikeRecord(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := Match{Path: "a.go", Language: Go, Text: "f(x)", Range: Range{StartByte: 3, EndByte: 7}}
		want := map[string]string{
			"engine": BuiltinName, "language": "go", "pattern": "$F($$$A)", "start_byte": "3", "end_byte": "7",
		}
		for i, name := range rapid.SliceOfN(rapid.SampledFrom([]string{"A", "B", "F", "ARGS", "_", "Z9"}), 0, 6).Draw(t, "names") {
			text := strconv.Itoa(i)
			m.Captures = append(m.Captures, Capture{Name: name, Text: text})
			want["capture."+name] = text // a map keeps the last
		}
		rec := m.Record(BuiltinName, "$F($$$A)")
		if diff := cmp.Diff(want, rec.Metadata.Attributes); diff != "" {
			t.Fatalf("Record's attributes (-want +got):\n%s", diff)
		}
		spare := rapid.SliceOfN(rapid.SampledFrom([]string{"capture.A", "capture.B", "capture.ARGS", "capture.Z9",
			"capturE.A", "capture.XA", "capture.", "kept", ""}), 0, 8).Draw(t, "spare")
		in := [][2]string{{"kept", "x"}}
		for _, k := range spare {
			in = append(in, [2]string{k, "old"})
		}
		head, attrs := m.RecordParts(BuiltinName, "$F($$$A)", in[:1])
		if attrs[0] != [2]string{"kept", "x"} {
			t.Fatalf("RecordParts dropped what attrs held: %q", attrs)
		}
		attrs = attrs[1:]
		if !slices.IsSortedFunc(attrs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) }) {
			t.Fatalf("attributes not sorted: %q", attrs)
		}
		got := map[string]string{}
		for _, kv := range attrs {
			if _, dup := got[kv[0]]; dup {
				t.Fatalf("attribute %q repeated: %q", kv[0], attrs)
			}
			got[kv[0]] = kv[1]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("RecordParts' attributes (-want +got):\n%s", diff)
		}
		head.Metadata.Attributes = rec.Metadata.Attributes
		if diff := cmp.Diff(rec, head); diff != "" {
			t.Fatalf("RecordParts' record (-Record +RecordParts):\n%s", diff)
		}
	})
}
