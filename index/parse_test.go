package index

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in    string
		terms []string // words of each term, joined by spaces
		and   string   // the FTS5 expression of every term
		names []string
	}{
		{in: "validateSession", terms: []string{"validatesession"},
			and: `("validatesession" OR "validate session")`, names: []string{"validatesession"}},
		{in: "validate session", terms: []string{"validate", "session"},
			and: `"validate" AND "session"`, names: []string{"validate", "session", "validatesession"}},
		{in: `"validate session" cart`, terms: []string{"validate session", "cart"},
			and: `("validate session" OR "validatesession") AND "cart"`, names: []string{"validatesession", "cart", "validatesessioncart"}},
		{in: "validate_session", terms: []string{"validate_session"},
			and: `("validate_session" OR "validate session")`, names: []string{"validate_session", "validatesession"}},
		{in: "Where is the HTTPServer defined?", terms: []string{"httpserver"},
			and: `("httpserver" OR "http server")`, names: []string{"httpserver"}},
		{in: "where is it", terms: []string{"where", "is", "it"}, and: `"where" AND "is" AND "it"`,
			names: []string{"where", "is", "it", "whereisit"}},
		{in: `say "hi`, terms: []string{"say", "hi"}, and: `"say" AND "hi"`, names: []string{"say", "hi", "sayhi"}},
		{in: `x"y""z`, terms: []string{"x", "y", "z"}, and: `"x" AND "y" AND "z"`, names: []string{"x", "y", "z", "xyz"}},
		{in: "x x X", terms: []string{"x"}, and: `"x"`, names: []string{"x"}},
		{in: "?!", terms: nil, and: "", names: nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			terms := parseQuery(tt.in)
			var got []string
			for _, q := range terms {
				got = append(got, strings.Join(q.words, " "))
			}
			if diff := cmp.Diff(tt.terms, got); diff != "" {
				t.Errorf("terms (-want +got):\n%s", diff)
			}
			if got := ftsExpr(terms, "AND"); got != tt.and {
				t.Errorf("expression %s, want %s", got, tt.and)
			}
			if diff := cmp.Diff(tt.names, queryNames(terms)); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
	if n := len(parseQuery(strings.Repeat("word", 1) + strings.Repeat(" w", 0) + " a1 a2 a3 a4 a5 a6 a7 a8 a9 a10")); n != maxQueryTerms {
		t.Errorf("%d terms, want at most %d", n, maxQueryTerms)
	}
}

func TestParseName(t *testing.T) {
	tests := []struct {
		in    string
		quals []string
		name  string
		ok    bool
	}{
		{"Name", nil, "Name", true},
		{"  Name  ", nil, "Name", true},
		{"Type.Method", []string{"Type"}, "Method", true},
		{"pkg.Type.Method", []string{"pkg", "Type"}, "Method", true},
		{"(*Server).Start", []string{"Server"}, "Start", true},
		{"(Server).Start()", []string{"Server"}, "Start", true},
		{"Class::method", []string{"Class"}, "method", true},
		{"Class#method", []string{"Class"}, "method", true},
		{"obj->method", []string{"obj"}, "method", true},
		{`App\Models\User`, []string{"App", "Models"}, "User", true},
		{"github.com/x/y.Func", []string{"y"}, "Func", true},
		{"List<T>", nil, "List", true},
		{"Map[K, V]", nil, "Map", true},
		{"$scope", nil, "$scope", true},
		{"a.b.c.d.e", nil, "", false},
		{"two words", nil, "", false},
		{"", nil, "", false},
		{"...", nil, "", false},
		{"x;drop table", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			nq, ok := parseName(tt.in)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, nq)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(tt.quals, nq.quals, cmpopts.EquateEmpty()); diff != "" || nq.name != tt.name {
				t.Errorf("parseName = %q %q, want %q %q", nq.quals, nq.name, tt.quals, tt.name)
			}
		})
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"validateSession", `"a b" c`, `"`, `""""`, "where is X?", "\xff\xfe", strings.Repeat("a ", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := parseQuery(s)
		if len(terms) > maxQueryTerms {
			t.Fatalf("%d terms", len(terms))
		}
		for _, q := range terms {
			if len(q.words) == 0 || len(q.words) > maxPhraseWords {
				t.Fatalf("term %+v", q)
			}
			for _, w := range q.words {
				if w == "" || !utf8.ValidString(w) || utf8.RuneCountInString(w) > maxTermRunes || strings.ContainsAny(w, `" `) {
					t.Fatalf("word %q of %q", w, s)
				}
			}
		}
		// The expression quotes every word: no FTS5 operator or column
		// filter can come from the text.
		for _, op := range []string{"AND", "OR"} {
			expr := ftsExpr(terms, op)
			if strings.Count(expr, `"`)%2 != 0 {
				t.Fatalf("unbalanced quotes in %s", expr)
			}
		}
	})
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{"pkg.Type.Method", "(*T).M", "a::b#c->d", "x/y.Z", "List<T>", "(", ")", "(*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nq, ok := parseName(s)
		if !ok {
			return
		}
		if nq.name == "" || len(nq.quals) >= maxNameParts {
			t.Fatalf("parseName(%q) = %+v", s, nq)
		}
		for _, p := range append(nq.quals, nq.name) {
			if p == "" || strings.ContainsAny(p, ".:#/ ") {
				t.Fatalf("part %q of parseName(%q)", p, s)
			}
		}
	})
}
