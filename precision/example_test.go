package precision_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing/fstest"
	"time"

	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
)

// An index as scip-go writes it: columns in UTF-8 bytes, with no declared
// encoding. "é" is two bytes, so Hello starts at byte 14, code point 13.
func exampleIndex() []byte {
	const hello = "scip-go gomod example.com/m v1.0.0 `example.com/m`/Hello()."
	b, _ := proto.Marshal(&scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go", Version: "0.1.26"}},
		Documents: []*scip.Document{{RelativePath: "m.go", Occurrences: []*scip.Occurrence{
			{Range: []int32{2, 14, 19}, Symbol: hello, SymbolRoles: int32(scip.SymbolRole_Definition)},
			{Range: []int32{4, 8, 13}, Symbol: hello, SymbolRoles: int32(scip.SymbolRole_ReadAccess)},
		}}},
	})
	return b
}

func ExampleLoad() {
	src := fstest.MapFS{"m.go": {Data: []byte("package m\n\n/* é */ func Hello() {}\n\nvar _ = Hello\n")}}
	ix, err := precision.Load(context.Background(), bytes.NewReader(exampleIndex()), precision.LoadOptions{Source: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	// One-based code points in, one-based code points out.
	sym, _, err := ix.SymbolAt("m.go", 5, 9)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range ix.Definitions(sym) {
		fmt.Printf("%s:%d:%d-%d:%d %s (%s)\n", d.Path, d.StartLine, d.StartColumn, d.EndLine, d.EndColumn, d.Encoding, d.EncodingSource)
	}
	// Output:
	// m.go:3:14-3:19 utf-8 (measured)
}

func ExampleResolveEncoding() {
	for _, tool := range []string{"scip-go", "scip-typescript", "my-indexer"} {
		enc, how := precision.ResolveEncoding(scip.PositionEncoding_UnspecifiedPositionEncoding, tool)
		fmt.Println(tool, enc, how)
	}
	// Output:
	// scip-go utf-8 measured
	// scip-typescript utf-16 measured
	// my-indexer code-points assumed
}

// exampleProject writes m.go and its index, the source dated before the
// index, into a new directory the caller removes, and vouches for the
// index as the user who made it does (see ExampleProvider_Accept).
func exampleProject() string {
	dir := exampleForeignProject()
	p := precision.New(precision.Options{Dir: dir, NoSnapshot: true})
	defer p.Close()
	if _, err := p.Accept(context.Background()); err != nil {
		panic(err)
	}
	return dir
}

// exampleForeignProject is exampleProject before anyone vouched for the
// index: as a clone of a repository that commits one gives it.
func exampleForeignProject() string {
	dir, _ := os.MkdirTemp("", "precision-example")
	src := filepath.Join(dir, "m.go")
	os.WriteFile(src, []byte("package m\n\n/* é */ func Hello() {}\n\nvar _ = Hello\n"), 0o644)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(src, old, old) // written before the index
	os.WriteFile(filepath.Join(dir, "index.scip"), exampleIndex(), 0o644)
	return dir
}

// An index that this user's cortex neither generated nor accepted may have
// come with the repository: it is served, but stale and marked foreign, so
// its answers never outrank fresh syntax evidence. The user who made it
// (here, by running an indexer by hand) vouches for it with Accept; from
// then on it is exact while its sources are unchanged.
func ExampleProvider_Accept() {
	dir := exampleForeignProject()
	defer os.RemoveAll(dir)
	q := evidence.Query{Symbol: "Hello", Kinds: []evidence.Kind{evidence.Definition}}

	p := precision.New(precision.Options{Dir: dir})
	resp, _ := p.Gather(context.Background(), q)
	r := resp.Records[0]
	fmt.Println(r.Location(), r.Trust, r.Metadata.Attributes[precision.OriginAttribute])

	st, err := p.Accept(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.State)
	resp, _ = p.Gather(context.Background(), q)
	fmt.Println(resp.Records[0].Location(), resp.Records[0].Trust)
	p.Close()
	// Output:
	// m.go:3:14-3:19 inferred_high foreign
	// available
	// m.go:3:14-3:19 exact
}

func ExampleProvider() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	p := precision.New(precision.Options{Dir: dir})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "m.go", Line: 3, Column: 14,
		Kinds: []evidence.Kind{evidence.Reference}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The reference answer starts with the declaration, marked as such.
	for _, r := range resp.Records {
		fmt.Println(r.Kind, r.Location(), r.Trust, r.Exact, precision.IsDeclaration(&r))
	}
	// Output:
	// reference m.go:3:14-3:19 exact true true
	// reference m.go:5:9-5:14 exact true false
}

// The first process to load an index writes its snapshot under
// SnapshotDir; a later one (here, a new provider) reads the snapshot
// instead of parsing the index, and answers the same.
func ExampleSnapshotDir() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	for range 2 {
		p := precision.New(precision.Options{Dir: dir})
		resp, _ := p.Gather(context.Background(), evidence.Query{Symbol: "Hello",
			Kinds: []evidence.Kind{evidence.Definition}})
		fmt.Println(resp.Records[0].Location(), "—", p.Status(context.Background()).Snapshot)
		p.Close()
	}
	// Output:
	// m.go:3:14-3:19 — parsed the index (no snapshot yet); wrote the snapshot .codecortex/precision/cache/index.scip-3eaff6260be4ef5c.snap
	// m.go:3:14-3:19 — read from the snapshot .codecortex/precision/cache/index.scip-3eaff6260be4ef5c.snap
}

// WithoutDeclarations is the reference answer without the declaration, as
// `gopls references` gives it without -d.
func ExampleWithoutDeclarations() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	p := precision.New(precision.Options{Dir: dir})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "m.go", Line: 3, Column: 14,
		Kinds: []evidence.Kind{evidence.Reference}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range precision.WithoutDeclarations(resp.Records) {
		fmt.Println(r.Kind, r.Location())
	}
	// Output:
	// reference m.go:5:9-5:14
}

// SearchSymbols is the symbol half of the structural fallback: the
// definitions and references of every symbol a name may mean, resolved by
// the index.
func ExampleProvider_SearchSymbols() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	p := precision.New(precision.Options{Dir: dir})
	defer p.Close()
	resp, err := p.SearchSymbols(context.Background(), []string{"Hello"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range resp.Records {
		fmt.Println(r.Kind, r.Location(), r.Trust)
	}
	fmt.Println(resp.Report.State)
	// Output:
	// definition m.go:3:14-3:19 exact
	// reference m.go:5:9-5:14 exact
	// available
}

// With no IndexPath, a provider serves the first of these that exists.
func ExampleIndexCandidates() {
	for _, p := range precision.IndexCandidates() {
		fmt.Println(p)
	}
	// Output:
	// .codecortex/precision/index.cortexidx
	// index.cortexidx
	// .codecortex/index.cortexidx
	// build/index.cortexidx
	// index.scip
}

// A name instead of a position: every symbol the name may mean is
// answered, each record naming its candidate.
func ExampleProvider_Gather_name() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	p := precision.New(precision.Options{Dir: dir})
	defer p.Close()
	for _, name := range []string{"Hello", "m.Hello", "Goodbye"} {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: name,
			Kinds: []evidence.Kind{evidence.Definition}})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, r := range resp.Records {
			a := r.Metadata.Attributes
			fmt.Println(name, r.Location(), a["qualified_name"], a["package"], a["candidates"])
		}
		if resp.Report.Reason != "" {
			fmt.Println(name, resp.Report.Reason)
		}
	}
	// Output:
	// Hello m.go:3:14-3:19 example.com/m.Hello gomod example.com/m v1.0.0 1
	// m.Hello m.go:3:14-3:19 example.com/m.Hello gomod example.com/m v1.0.0 1
	// Goodbye the index has no symbol named "Goodbye"
}

// A position question without an answer says why.
func ExampleProvider_Gather_position() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	p := precision.New(precision.Options{Dir: dir})
	defer p.Close()
	for _, q := range []evidence.Query{
		{Path: "m.go", Line: 40, Column: 1},
		{Path: "gone.go", Line: 1, Column: 1},
		{Path: "m.go", Line: 1, Column: 1},
	} {
		resp, err := p.Gather(context.Background(), q)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(len(resp.Records), resp.Report.State, resp.Report.Reason)
	}
	// Output:
	// 0 available m.go:40:1: line 40 is past the end of m.go, which has 5 lines
	// 0 available gone.go:1:1: gone.go is not a file in the project
	// 0 available m.go:1:1: no indexed symbol at this position
}

func ExampleIndex_LookupName() {
	src := fstest.MapFS{"m.go": {Data: []byte("package m\n\n/* é */ func Hello() {}\n\nvar _ = Hello\n")}}
	ix, err := precision.Load(context.Background(), bytes.NewReader(exampleIndex()), precision.LoadOptions{Source: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"Hello", "m.Hello", "example.com/m.Hello", "x.Hello"} {
		fmt.Println(name, len(ix.LookupName(name)))
	}
	c := ix.LookupName("Hello")[0]
	fmt.Println(c.QualifiedName, c.Package, c.Definitions[0].Path, c.Definitions[0].StartLine)
	// Output:
	// Hello 1
	// m.Hello 1
	// example.com/m.Hello 1
	// x.Hello 0
	// example.com/m.Hello gomod example.com/m v1.0.0 m.go 3
}

// A language server that cannot answer is reported with its reason; the
// zero LSPOptions bound every wait by DefaultRequestTimeout, and the first
// request of each kind by DefaultLoadTimeout.
func ExampleLSPProvider() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	lsp := precision.NewLSP(precision.LSPOptions{Dir: dir, Command: []string{"no-such-language-server"}})
	defer lsp.Close()
	_, err := lsp.Gather(context.Background(), evidence.Query{Path: "m.go", Line: 3, Column: 14})
	var ue *evidence.UnavailableError
	fmt.Println(errors.As(err, &ue), errors.Is(err, precision.ErrServerNotFound))
	fmt.Println(ue.Reason)
	fmt.Println(precision.DefaultRequestTimeout, precision.DefaultLoadTimeout)
	// Output:
	// true true
	// language server no-such-language-server not found
	// 5s 1m0s
}

// Each file goes to the server of its language, found by the file name's
// extension.
func ExampleLSPLanguageOf() {
	for _, f := range []string{"m.go", "pkg/app.py", "src/App.tsx", "lib/x.mjs", "README.md"} {
		fmt.Printf("%s %q\n", f, precision.LSPLanguageOf(f))
	}
	// Output:
	// m.go "go"
	// pkg/app.py "python"
	// src/App.tsx "typescript"
	// lib/x.mjs "javascript"
	// README.md ""
}

// Servers reports each language's server without starting it; an empty
// argv turns a language off.
func ExampleLSPProvider_Servers() {
	off := []string{}
	lsp := precision.NewLSP(precision.LSPOptions{
		Command: []string{"no-such-gopls"},
		Servers: map[string][]string{"python": {"no-such-pyright-langserver", "--stdio"},
			"typescript": off, "javascript": off, "rust": off, "c": off, "cpp": off},
	})
	defer lsp.Close()
	for _, s := range lsp.Servers() {
		fmt.Println(s.Languages, s.Command, s.State)
	}
	// Output:
	// [go] [no-such-gopls] not found
	// [python] [no-such-pyright-langserver --stdio] not found
}

// Rename returns a server's edits by file, or says why there are none:
// here the new name is refused before any server is asked, then the
// server is missing.
func ExampleLSPProvider_Rename() {
	dir := exampleProject()
	defer os.RemoveAll(dir)

	lsp := precision.NewLSP(precision.LSPOptions{Dir: dir, Command: []string{"no-such-language-server"}})
	defer lsp.Close()
	_, err := lsp.Rename(context.Background(), "m.go", 3, 6, "two\nlines")
	fmt.Println(err)
	_, err = lsp.Rename(context.Background(), "m.go", 3, 6, "Greet")
	fmt.Println(errors.Is(err, precision.ErrServerNotFound))
	// Output:
	// precision: "two\nlines" is not a name to rename to (non-empty, one line, at most 1024 bytes of UTF-8)
	// true
}
