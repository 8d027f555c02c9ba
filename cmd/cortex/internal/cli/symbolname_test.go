package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShortSymbol(t *testing.T) {
	for _, tc := range []struct{ sym, want string }{
		{"scip-go gomod example.com/m v1.0.0 `example.com/m/promql`/Engine#NewInstantQuery().", "promql.Engine.NewInstantQuery"},
		{"scip-go gomod example.com/p v1.0.0 `example.com/p`/Greet().", "p.Greet"},
		{"scip-go gomod github.com/a/b/v2 v2.1.0 `github.com/a/b/v2`/Client#Do().", "b.Client.Do"},
		{"scip-go gomod std . `net/http`/Server#ListenAndServe().", "http.Server.ListenAndServe"},
		{"scip-go gomod example.com/m v1.0.0 `example.com/m`/Options#Timeout.", "m.Options.Timeout"},
		{"scip-go gomod example.com/m v1.0.0 `example.com/m`/", "m"},
		{"scip-typescript npm app 1.0.0 src/`auth.ts`/Session#token().", "auth.Session.token"},
		{"scip-typescript npm @types/node 20.0.0 `fs.d.ts`/readFile().", "fs.readFile"},
		{"scip-typescript npm app 1.0.0 src/`index.tsx`/App().", "index.App"},
		{"scip-python python app 0.1 `app.auth`/Session#token().", "auth.Session.token"},
		{"scip-python python app 0.1 `app.auth`/Session#__init__().(self)", "auth.Session.__init__.self"},
		{"scip-python python app 0.1 `app`/main().", "app.main"},
		{"scip-java maven com.example:lib 1.0 com/example/Lib#run().", "example.Lib.run"},
		// The project graph's nodes.
		{"promql/engine.go#Engine.NewInstantQuery", "promql.Engine.NewInstantQuery"},
		{"engine.go#Engine.Ask", "Engine.Ask"},
		{"src/auth.ts#Session.token", "auth.Session.token"},
		{"app/auth.py#Session.token", "auth.Session.token"},
		{"Makefile#all", "Makefile#all"},
		// Neither: as they are.
		{"Engine.Ask", "Engine.Ask"},
		{"local 12", "local 12"},
		{"", ""},
		{"not a symbol at all", "not a symbol at all"},
	} {
		t.Run(tc.sym, func(t *testing.T) {
			if got := shortSymbol(tc.sym); got != tc.want {
				t.Errorf("shortSymbol(%q) = %q, want %q", tc.sym, got, tc.want)
			}
		})
	}
}

// FuzzShortSymbol: whatever the symbol string, the short name is never
// longer, is valid UTF-8 when the symbol is, is empty only for an empty
// symbol, and a name with neither a space nor a '#' (neither a SCIP symbol
// nor a graph node) comes back as it is.
func FuzzShortSymbol(f *testing.F) {
	for _, s := range []string{
		"scip-go gomod example.com/m v1.0.0 `example.com/m/promql`/Engine#NewInstantQuery().",
		"scip-typescript npm app 1.0.0 src/`auth.ts`/Session#token().",
		"scip-python python app 0.1 `app.auth`/Session#__init__().(self)",
		"scip-go gomod a v `a`/T#[K]M(+1).",
		"scip-go gomod a v `a``b`/x.",
		"local 7", "Engine.Ask", "a b c d `e/`", "a/b.go#T.M", "x.ts#", "#.go",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sym string) {
		got := shortSymbol(sym)
		if len(got) > len(sym) {
			t.Errorf("shortSymbol(%q) = %q, longer", sym, got)
		}
		if utf8.ValidString(sym) && !utf8.ValidString(got) {
			t.Errorf("shortSymbol(%q) = %q, not UTF-8", sym, got)
		}
		if (got == "") != (sym == "") {
			t.Errorf("shortSymbol(%q) = %q", sym, got)
		}
		if !strings.ContainsAny(sym, " #") && got != sym {
			t.Errorf("shortSymbol(%q) = %q, want it unchanged", sym, got)
		}
	})
}
