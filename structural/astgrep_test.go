package structural

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// Two lines as ast-grep 0.51.1 prints them: metaVariables are unordered
// maps, lines are zero-based, columns count characters (é is one).
const sampleStream = `{"text":"foo(é, 2)","range":{"byteOffset":{"start":10,"end":20},"start":{"line":0,"column":9},"end":{"line":0,"column":18}},"file":"u.js","lines":"x = \"é\"; foo(é, 2)","charCount":{"leading":9,"trailing":0},"language":"JavaScript","metaVariables":{"single":{"F":{"text":"foo","range":{"byteOffset":{"start":10,"end":13},"start":{"line":0,"column":9},"end":{"line":0,"column":12}}}},"multi":{"A":[{"text":"é","range":{"byteOffset":{"start":14,"end":16},"start":{"line":0,"column":13},"end":{"line":0,"column":14}}},{"text":",","range":{"byteOffset":{"start":16,"end":17},"start":{"line":0,"column":14},"end":{"line":0,"column":15}}},{"text":"2","range":{"byteOffset":{"start":18,"end":19},"start":{"line":0,"column":16},"end":{"line":0,"column":17}}}]},"transformed":{}}}

{"text":"g()","range":{"byteOffset":{"start":0,"end":3},"start":{"line":1,"column":0},"end":{"line":1,"column":3}},"file":"b/v.js","lines":"g()","metaVariables":{"single":{},"multi":{"A":[]},"transformed":{}}}
`

func TestParseAstGrepStream(t *testing.T) {
	got, err := ParseAstGrepStream(strings.NewReader(sampleStream))
	if err != nil {
		t.Fatal(err)
	}
	want := []Match{
		{
			Path: "u.js", Text: "foo(é, 2)", Lines: `x = "é"; foo(é, 2)`,
			Range: Range{StartLine: 1, StartColumn: 10, EndLine: 1, EndColumn: 19, StartByte: 10, EndByte: 20},
			Captures: []Capture{
				{Name: "A", Multi: true, Text: "é, 2", Nodes: []Node{
					{Text: "é", Named: true, Range: Range{StartLine: 1, StartColumn: 14, EndLine: 1, EndColumn: 15, StartByte: 14, EndByte: 16}},
					{Text: ",", Range: Range{StartLine: 1, StartColumn: 15, EndLine: 1, EndColumn: 16, StartByte: 16, EndByte: 17}},
					{Text: "2", Named: true, Range: Range{StartLine: 1, StartColumn: 17, EndLine: 1, EndColumn: 18, StartByte: 18, EndByte: 19}},
				}},
				{Name: "F", Text: "foo", Nodes: []Node{{Text: "foo", Named: true, Range: Range{StartLine: 1, StartColumn: 10, EndLine: 1, EndColumn: 13, StartByte: 10, EndByte: 13}}}},
			},
		},
		{
			Path: "b/v.js", Text: "g()", Lines: "g()",
			Range:    Range{StartLine: 2, StartColumn: 1, EndLine: 2, EndColumn: 4, StartByte: 0, EndByte: 3},
			Captures: []Capture{{Name: "A", Multi: true, Nodes: []Node{}}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseAstGrepStream (-want +got):\n%s", diff)
	}
	if items := got[0].Captures[0].Items(); len(items) != 2 {
		t.Errorf("Items() = %v, want the two arguments without the comma", items)
	}
}

func TestParseAstGrepStreamRejects(t *testing.T) {
	for _, in := range []string{
		`{"text":"x"}`,
		`{"text":"ab","range":{"byteOffset":{"start":0,"end":1},"start":{"line":0,"column":0},"end":{"line":0,"column":2}},"file":"a.js"}`,
		`{"text":"a","range":{"byteOffset":{"start":0,"end":1},"start":{"line":0,"column":0},"end":{"line":0,"column":1}},"file":""}`,
		`{"text":"a","range":{"byteOffset":{"start":0,"end":1},"start":{"line":-1,"column":0},"end":{"line":0,"column":1}},"file":"a.js"}`,
		`not json`,
		`{} {}`,
	} {
		if _, err := ParseAstGrepStream(strings.NewReader(in)); err == nil {
			t.Errorf("ParseAstGrepStream(%q) accepted bad input", in)
		}
	}
}

func FuzzParseAstGrepStream(f *testing.F) {
	f.Add(sampleStream)
	f.Add(`{"text":"a","range":{"byteOffset":{"start":0,"end":1},"start":{"line":0,"column":0},"end":{"line":0,"column":1}},"file":"a.js","metaVariables":{"single":{"A":{"text":"a","range":{"byteOffset":{"start":0,"end":1},"start":{"line":0,"column":0},"end":{"line":0,"column":1}}}},"multi":{"A":[]}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		ms, err := ParseAstGrepStream(strings.NewReader(in))
		if err != nil {
			return
		}
		for i := range ms {
			if err := ms[i].validateShape(); err != nil || ms[i].Path == "" {
				t.Fatalf("parsed an invalid match %+v: %v", ms[i], err)
			}
		}
	})
}

// fakeAstGrep writes an executable script standing in for ast-grep.
func fakeAstGrep(t *testing.T, version, runOut, runErr string, code int) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "ast-grep")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; exit 0; fi\n" +
		"cat <<'EOF'\n" + runOut + "\nEOF\n" +
		"echo '" + runErr + "' >&2\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func projectWith(t *testing.T, files map[string]string) string {
	t.Helper()
	return testtool.WriteTree(t, files)
}

func TestAstGrepAdapterFakes(t *testing.T) {
	root := projectWith(t, map[string]string{"a.js": "foo(1)\n"})
	inside := `{"text":"foo(1)","range":{"byteOffset":{"start":0,"end":6},"start":{"line":0,"column":0},"end":{"line":0,"column":6}},"file":"a.js","lines":"foo(1)","metaVariables":{"single":{},"multi":{}}}`
	outside := strings.Replace(inside, `"file":"a.js"`, `"file":"../evil.js"`, 1)
	req := Request{Root: root, Pattern: "foo($X)", Language: JavaScript}

	t.Run("version mismatch", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: fakeAstGrep(t, "ast-grep 0.50.0", "", "", 0)})
		_, v, err := a.Check(context.Background())
		if !errors.Is(err, ErrVersionMismatch) || v != "0.50.0" {
			t.Fatalf("Check = %q, %v; want a version mismatch for 0.50.0", v, err)
		}
		if _, err := a.Search(context.Background(), req); !errors.Is(err, ErrVersionMismatch) {
			t.Fatalf("Search with the wrong version: %v", err)
		}
	})
	t.Run("not ast-grep", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: fakeAstGrep(t, "sg 4.8", "", "", 0)})
		if _, _, err := a.Check(context.Background()); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Check = %v, want unavailable", err)
		}
	})
	t.Run("missing binary", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: filepath.Join(t.TempDir(), "nope")})
		if _, err := a.Search(context.Background(), req); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Search = %v, want unavailable", err)
		}
	})
	t.Run("unparsable pattern warning", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: fakeAstGrep(t, "ast-grep 0.51.1", "", "Warning: Pattern contains an ERROR node and may cause unexpected results.", 0)})
		_, err := a.Search(context.Background(), req)
		var pe *PatternError
		if !errors.As(err, &pe) || pe.Problem != ProblemSyntax {
			t.Fatalf("Search = %v, want a syntax PatternError", err)
		}
	})
	t.Run("match outside the root is dropped", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: fakeAstGrep(t, "ast-grep 0.51.1", inside+"\n"+outside, "", 0)})
		res, err := a.Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || res.Matches[0].Path != "a.js" || len(res.Notes) != 1 {
			t.Fatalf("matches %+v notes %q; want only a.js and a note", res.Matches, res.Notes)
		}
	})
	t.Run("output cap", func(t *testing.T) {
		a := NewAstGrep(AstGrepOptions{Command: fakeAstGrep(t, "ast-grep 0.51.1", inside, "", 0), MaxOutput: 10})
		if _, err := a.Search(context.Background(), req); err == nil || !strings.Contains(err.Error(), "more than 10 bytes") {
			t.Fatalf("Search = %v, want the output cap error", err)
		}
	})
}

func TestAstGrepAdapterReal(t *testing.T) {
	testtool.Require(t, "ast-grep", astGrepInstall)
	root := projectWith(t, map[string]string{
		"a.js":        "foo(1, 2)\nbar(foo(3))\n",
		"sub/b.js":    "foo()\n",
		"vendor/c.js": "foo(9)\n",
	})
	a := NewAstGrep(AstGrepOptions{Command: "ast-grep"})
	if _, v, err := a.Check(context.Background()); err != nil || v != AstGrepVersion {
		t.Fatalf("Check = %q, %v", v, err)
	}
	res, err := a.Search(context.Background(), Request{Root: root, Pattern: "foo($$$A)", Language: JavaScript})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, m.Path+":"+m.Text)
	}
	want := []string{"a.js:foo(1, 2)", "a.js:foo(3)", "sub/b.js:foo()"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	// A Go call pattern that ast-grep's --pattern reads as a type
	// conversion goes to it as a rule with the built-in engine's reading
	// (which a build without cgo does not have).
	if cgoEnabled {
		goRoot := projectWith(t, map[string]string{"m.go": "package m\n\nfunc f() {\n\tfmt.Println(\"é\")\n\tfoo.Bar(1)\n}\n"})
		for _, pat := range []string{"fmt.Println($X)", "$P.Bar($$$)", "foo.Bar(1)"} {
			res, err := a.Search(context.Background(), Request{Root: goRoot, Pattern: pat, Language: Go})
			if err != nil {
				t.Fatal(err)
			}
			built, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: goRoot, Pattern: pat, Language: Go})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Matches) != 1 {
				t.Errorf("%s: ast-grep adapter found %d matches, want 1", pat, len(res.Matches))
			}
			if diff := cmp.Diff(built.Matches, res.Matches); diff != "" {
				t.Errorf("%s: adapter and built-in differ (-built-in +adapter):\n%s", pat, diff)
			}
		}
	}
	for _, bad := range []string{"foo(", "import $D, { $$$N } from $M"} {
		_, err = a.Search(context.Background(), Request{Root: root, Pattern: bad, Language: JavaScript})
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("unparsable pattern %q: err = %v, want a PatternError", bad, err)
		}
	}
}

const astGrepInstall = "bash .ci/install-structural.sh (npm install @ast-grep/cli@0.51.1)"
