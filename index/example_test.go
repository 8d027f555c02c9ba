package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
)

// project writes a small project into a temporary directory.
func project() string {
	dir, err := os.MkdirTemp("", "index-example")
	if err != nil {
		panic(err)
	}
	files := map[string]string{
		"auth/session.go": "package auth\n\n// validateSession checks a session.\nfunc validateSession(id string) bool {\n\treturn id != \"\"\n}\n",
		"web/server.go":   "package web\n\nfunc serve(id string) {\n\tif !validateSession(id) {\n\t\treturn\n\t}\n}\n",
		"README.md":       "# Shop\n\nEvery request must validate the session first.\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	return dir
}

// funcs is a toy extractor for the examples: every line "func NAME(" in
// a .go file defines a function that ends at the next line "}". A host
// passes the project's extractor (symbols.Extract) instead.
func funcs(path string, src []byte) (*symbols.File, error) {
	f := &symbols.File{Path: path, Language: "go"}
	lines := strings.Split(string(src), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "package ") {
			f.Package = strings.TrimPrefix(line, "package ")
		}
		name, ok := strings.CutPrefix(line, "func ")
		if !ok || !strings.HasSuffix(path, ".go") {
			continue
		}
		name, _, _ = strings.Cut(name, "(")
		end := i
		for end < len(lines)-1 && lines[end] != "}" {
			end++
		}
		doc := i
		for doc > 0 && strings.HasPrefix(lines[doc-1], "//") {
			doc--
		}
		f.Symbols = append(f.Symbols, symbols.Symbol{
			Name: name, Kind: symbols.Function, Package: f.Package, Signature: strings.TrimSuffix(line, " {"),
			NameRange: symbols.Range{StartLine: i + 1, StartColumn: 6, EndLine: i + 1, EndColumn: 6 + utf8.RuneCountInString(name)},
			Range:     symbols.Range{StartLine: i + 1, StartColumn: 1, EndLine: end + 1, EndColumn: 2},
			DocLine:   doc + 1,
		})
	}
	return f, nil
}

func ExampleIndex_Search() {
	dir := project()
	defer os.RemoveAll(dir)
	ix, err := index.Open(index.Options{Dir: dir, Extract: funcs})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ix.Close()
	// "validate session" also matches the identifier validateSession.
	res, err := ix.Search(context.Background(), "validate session", index.SearchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("freshness:", res.Freshness.State)
	for _, h := range res.Hits {
		fmt.Printf("%s:%d-%d %s %q\n", h.Path, h.StartLine, h.EndLine, h.Match, h.Symbol)
	}
	// Output:
	// freshness: fresh
	// auth/session.go:3-6 definition "auth.validateSession"
	// README.md:1-3 text ""
	// web/server.go:3-7 text "web.serve"
}

func ExampleIndex_Lookup() {
	dir := project()
	defer os.RemoveAll(dir)
	ix, err := index.Open(index.Options{Dir: dir, Extract: funcs})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ix.Close()
	for _, name := range []string{"auth.validateSession", "VALIDATESESSION"} {
		res, err := ix.Lookup(context.Background(), name)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, d := range res.Definitions {
			fmt.Printf("%s: %s:%d:%d %s (%s)\n", name, d.Path, d.NameRange.StartLine, d.NameRange.StartColumn, d.QualifiedName(), d.Match)
		}
	}
	// Output:
	// auth.validateSession: auth/session.go:4:6 auth.validateSession (exact)
	// VALIDATESESSION: auth/session.go:4:6 auth.validateSession (case-insensitive)
}

func ExampleIndex_Update() {
	dir := project()
	defer os.RemoveAll(dir)
	done := 0
	ix, err := index.Open(index.Options{Dir: dir, Progress: func(n, total int) { done = n }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ix.Close()
	fr, err := ix.Update(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fr.State, fr.Indexed, "files indexed; progress reached", done)
	// Output:
	// fresh 3 files indexed; progress reached 3
}

func ExampleSubTokens() {
	for _, id := range []string{"validateSession", "HTTPServer", "max_conns", "utf8Decode"} {
		fmt.Println(id, index.SubTokens(id))
	}
	// Output:
	// validateSession [validate session]
	// HTTPServer [http server]
	// max_conns [max conns]
	// utf8Decode [utf 8 decode]
}

func ExampleNewProvider() {
	dir := project()
	defer os.RemoveAll(dir)
	p := index.NewProvider(index.Options{Dir: dir, Extract: funcs})
	defer p.Close()
	recs, reports := evidence.Collect(context.Background(), evidence.Query{Symbol: "validateSession"},
		[]evidence.Provider{p}, evidence.CollectOptions{})
	for _, r := range recs {
		fmt.Println(r.Kind, r.Provenance, r.Trust, r.Location(), r.Symbol, r.Metadata.Attributes["package"])
	}
	fmt.Println(reports[0].State)
	// Output:
	// definition symbol-index structural auth/session.go:4:6-4:21 auth.validateSession auth
	// available
}
