package route

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSegment(t *testing.T) {
	type piece struct {
		Code       bool
		Text, Lang string
	}
	for _, tc := range []struct {
		in   string
		want []piece
	}{
		{"plain words", []piece{{false, "plain words", ""}}},
		{"find `oldAPI($X)` now", []piece{{false, "find ", ""}, {true, "oldAPI($X)", ""}, {false, " now", ""}}},
		{"a ``x ` y`` b", []piece{{false, "a ", ""}, {true, "x ` y", ""}, {false, " b", ""}}},
		{"find\n```go\nfoo($X)\n```\nthen", []piece{{false, "find\n", ""}, {true, "foo($X)", "go"}, {false, "\nthen", ""}}},
		{"inline ```foo()``` fence", []piece{{false, "inline ", ""}, {true, "foo()", ""}, {false, " fence", ""}}},
		{"unclosed ```ts\nbar($X)", []piece{{false, "unclosed ", ""}, {true, "bar($X)", "ts"}, {false, "", ""}}},
		{"a lone ` backtick", []piece{{false, "a lone ` backtick", ""}}},
		{"`a` and ``b`` and `", []piece{{false, "", ""}, {true, "a", ""}, {false, " and ", ""}, {true, "b", ""}, {false, " and `", ""}}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			var got []piece
			segment(tc.in, func(s string, off int) {
				got = append(got, piece{false, s, ""})
				if tc.in[off:off+len(s)] != s {
					t.Errorf("prose %q is not at offset %d", s, off)
				}
			}, func(sp span, off int) {
				got = append(got, piece{true, sp.text, sp.lang})
				if tc.in[off] != '`' {
					t.Errorf("code %q does not start at a backtick (offset %d)", sp.text, off)
				}
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFieldsJoinPatterns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"find oldAPI($X, $Y) now", []string{"find", "oldAPI($X, $Y)", "now"}},
		{"calls like foo($A, $$$REST).", []string{"calls", "like", "foo($A, $$$REST)."}},
		{"$A( apply the rewrite", []string{"$A(", "apply", "the", "rewrite"}},
		{"f(a, b) $X", []string{"f(a,", "b)", "$X"}},
		{"  spaced\tout\n", []string{"spaced", "out"}},
	} {
		var got []string
		for _, f := range fields(tc.in) {
			got = append(got, tc.in[f[0]:f[1]])
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("fields(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestHasMetaVar(t *testing.T) {
	for in, want := range map[string]bool{
		"$X": true, "$$X": true, "$$$": true, "$$$ARGS": true, "$_": true, "foo($A)": true,
		"$x": false, "$": false, "$$": false, "US$5": false, "cost $1": false, "": false,
	} {
		if got := hasMetaVar(in); got != want {
			t.Errorf("hasMetaVar(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestTrimWord(t *testing.T) {
	for in, want := range map[string]string{
		"refresh()?": "refresh()", "(AuthService)": "AuthService", `"react's"`: "react's",
		"foo.": "foo", "http.Get(url)).": "http.Get(url)", "**bold**": "bold", "why?!": "why",
		"don’t": "don't", "...": "", "[x]": "x", "a[0]": "a[0]",
	} {
		if got := trimWord(in); got != want {
			t.Errorf("trimWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitWord(t *testing.T) {
	for _, tc := range []struct {
		in          string
		words, raws []string
	}{
		{"Where's", []string{"where", "is"}, []string{"Where", "is"}},
		{"isn't", []string{"is", "not"}, []string{"is", "not"}},
		{"Can't", []string{"can", "not"}, []string{"Ca", "not"}},
		{"React's", []string{"react"}, []string{"React"}},
		{"we're", []string{"we", "are"}, []string{"we", "are"}},
		{"AuthService", []string{"authservice"}, []string{"AuthService"}},
		{"'s", []string{"'s"}, []string{"'s"}},
	} {
		words, raws := splitWord(tc.in)
		if diff := cmp.Diff([][]string{tc.words, tc.raws}, [][]string{words, raws}); diff != "" {
			t.Errorf("splitWord(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestCodeLike(t *testing.T) {
	for in, want := range map[string]string{
		"AuthService": "AuthService", "refresh_token": "refresh_token", "Type.Method": "Type.Method",
		"pkg.Name": "pkg.Name", "Vec::new": "Vec::new", "Foo#bar": "Foo#bar", "refresh()": "refresh",
		"http.Get(url)": "http.Get", "useEffect": "useEffect", "HTTPClient": "HTTPClient",
		"__init__": "__init__", "MAX_SIZE": "MAX_SIZE",
		// Not code: prose, acronyms, files, versions, abbreviations, product names.
		"Where": "", "API": "", "main.go": "", "v1.2.3": "", "e.g": "", "GitHub": "", "TypeScript": "",
		"react": "", "a:b": "", "1_000": "",
	} {
		got, ok := codeLike(in)
		if ok != (want != "") || got != want {
			t.Errorf("codeLike(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestMakeName(t *testing.T) {
	for _, tc := range []struct{ in, qualifier, base string }{
		{"AuthService", "", "AuthService"},
		{"AuthService.Refresh", "AuthService", "Refresh"},
		{"evidence.Record.Validate", "evidence.Record", "Validate"},
		{"std::vec::Vec::new", "std::vec::Vec", "new"},
		{"Foo#bar", "Foo", "bar"},
	} {
		n := makeName(tc.in, FromText)
		if n.Qualifier != tc.qualifier || n.Base != tc.base {
			t.Errorf("makeName(%q) = %q + %q, want %q + %q", tc.in, n.Qualifier, n.Base, tc.qualifier, tc.base)
		}
	}
}

func TestAliases(t *testing.T) {
	for _, tc := range []struct {
		entry string
		want  []string
	}{
		{"npm:react", []string{"react"}},
		{"react", []string{"react"}},
		{"go:github.com/spf13/cobra", []string{"github-com/spf13/cobra", "cobra", "spf13/cobra"}},
		{"go:github.com/jackc/pgx/v5", []string{"github-com/jackc/pgx/v5", "github-com/jackc/pgx", "pgx", "jackc/pgx"}},
		{"maven:org.slf4j:slf4j-api", []string{"org-slf4j:slf4j-api", "slf4j-api"}},
		{"npm:@tanstack/react-query", []string{"@tanstack/react-query", "react-query"}},
		{"pypi:Django_REST", []string{"django-rest"}},
		{"nuget:Newtonsoft.Json", []string{"newtonsoft-json"}},
		{"npm:is", nil}, {"a", nil}, {"npm:", nil}, {"", nil},
	} {
		if diff := cmp.Diff(tc.want, aliases(tc.entry)); diff != "" {
			t.Errorf("aliases(%q) (-want +got):\n%s", tc.entry, diff)
		}
	}
}

func TestDeclaredIndexIgnoresMalformedEntries(t *testing.T) {
	d := newDeclaredIndex([]string{" npm:react ", "npm: lodash", "0\r:left", "go:", "", "react"})
	if d.count != 2 {
		t.Errorf("count = %d, want 2 (npm:react and react)", d.count)
	}
	if diff := cmp.Diff([]string{"npm:react", "react"}, d.byAlias["react"]); diff != "" {
		t.Errorf("react (-want +got):\n%s", diff)
	}
	for _, w := range []string{"lodash", "left"} {
		if d.names(w) {
			t.Errorf("%q names a malformed entry", w)
		}
	}
}
