package index

// Benchmarks on github.com/prometheus/prometheus v0.308.0, copied from the
// module cache into a temporary directory (the cache is read-only, and the
// index writes only under the tree's .codecortex/). Run them with
//
//	go test ./index/ -run '^$' -bench . -benchtime 20x
//
// Each reports its median (p50-ms) besides Go's mean; the cold build also
// reports the peak Go heap while it ran.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/symbols"
)

const (
	benchModule  = "github.com/prometheus/prometheus"
	benchVersion = "v0.308.0"
)

var (
	benchSrcOnce sync.Once
	benchSrc     string
	benchSrcErr  error
)

// benchSource returns the module's directory in the module cache,
// downloading it through the Go command if needed.
func benchSource(b *testing.B) string {
	goPath := testtool.Require(b, "go", "install Go")
	benchSrcOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		res, err := safeexec.Run(ctx, safeexec.Invocation{Path: goPath,
			Args: []string{"mod", "download", "-json", benchModule + "@" + benchVersion}, Dir: os.TempDir(), Env: os.Environ()})
		if err != nil {
			benchSrcErr = fmt.Errorf("go mod download: %v\n%s", err, res.Stderr)
			return
		}
		var info struct{ Dir string }
		if err := json.Unmarshal(res.Stdout, &info); err != nil || info.Dir == "" {
			benchSrcErr = fmt.Errorf("go mod download: %v: %s", err, res.Stdout)
			return
		}
		benchSrc = info.Dir
	})
	if benchSrcErr != nil {
		b.Skip(benchSrcErr)
	}
	return benchSrc
}

// benchTree copies the module into a new temporary directory, writable and
// dated an hour back, as a checked-out tree is.
func benchTree(b *testing.B) string {
	src := benchSource(b)
	dst := b.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	ageTree(b, dst)
	return dst
}

// A timer records each operation's wall time and the process's CPU time
// over all of them: on a shared machine the CPU time is the steadier
// figure.
type timer struct {
	b     *testing.B
	times []time.Duration
	cpu   time.Duration
	start time.Time
	cpu0  time.Duration
}

func (t *timer) begin() { t.start, t.cpu0 = time.Now(), testtool.CPUTime() }

func (t *timer) end() {
	t.times = append(t.times, time.Since(t.start))
	t.cpu += testtool.CPUTime() - t.cpu0
}

// report adds p50-ms (the median wall time) and cpu-ms/op.
func (t *timer) report() {
	t.b.ReportMetric(medianMS(t.times), "p50-ms")
	if len(t.times) > 0 {
		t.b.ReportMetric(float64(t.cpu)/float64(time.Millisecond)/float64(len(t.times)), "cpu-ms/op")
	}
}

// medianMS returns the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}

// heapPeak samples the Go heap until stop is called and returns the
// largest value seen, in MB.
func heapPeak() (stop func() float64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64() + sample[1].Value.Uint64(); v > peak {
			peak = v
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() float64 {
		close(done)
		<-finished
		return float64(peak) / (1 << 20)
	}
}

func benchColdBuild(b *testing.B, extract func(string, []byte) (*symbols.File, error)) {
	dir := benchTree(b)
	ctx := context.Background()
	tm := timer{b: b}
	var peak float64
	files := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir, ".codecortex"))
		runtime.GC()
		stop := heapPeak()
		b.StartTimer()
		tm.begin()
		ix, err := Open(Options{Dir: dir, Extract: extract})
		if err != nil {
			b.Fatal(err)
		}
		fr, err := ix.Update(ctx)
		if err != nil || fr.State != Fresh {
			b.Fatalf("update: %+v, %v", fr, err)
		}
		ix.Close()
		tm.end()
		b.StopTimer()
		peak = max(peak, stop())
		files = fr.Files
		b.StartTimer()
	}
	tm.report()
	b.ReportMetric(peak, "peak-heap-MB")
	b.ReportMetric(float64(files), "files")
}

// BenchmarkColdBuild indexes the tree from nothing, text only.
func BenchmarkColdBuild(b *testing.B) { benchColdBuild(b, nil) }

// BenchmarkColdBuildGoSymbols indexes the tree from nothing with the Go
// files' symbols read by go/parser (a stand-in for the tree-sitter
// extractor, which parses more languages).
func BenchmarkColdBuildGoSymbols(b *testing.B) { benchColdBuild(b, goExtract) }

// builtIndex returns an index of the tree, fully built.
func benchIndex(b *testing.B, extract func(string, []byte) (*symbols.File, error)) (*Index, string) {
	dir := benchTree(b)
	ix, err := Open(Options{Dir: dir, Extract: extract})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background()); err != nil {
		b.Fatal(err)
	}
	return ix, dir
}

var benchQueries = []string{"scrape loop", "appendable", "remote write queue", "validateConfig", "HTTPServer", "rule group evaluation"}

// BenchmarkWarmSearch runs text searches on a built index, freshness check
// included.
func BenchmarkWarmSearch(b *testing.B) {
	ix, _ := benchIndex(b, nil)
	ctx := context.Background()
	tm := timer{b: b}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tm.begin()
		res, err := ix.Search(ctx, benchQueries[i%len(benchQueries)], SearchOptions{})
		tm.end()
		if err != nil || res.Freshness.State != Fresh {
			b.Fatalf("search: %+v, %v", res.Freshness, err)
		}
	}
	tm.report()
}

// BenchmarkRefreshAfterEdit edits one file and brings the index up to
// date.
func BenchmarkRefreshAfterEdit(b *testing.B) {
	ix, dir := benchIndex(b, nil)
	ctx := context.Background()
	target := filepath.Join(dir, "scrape", "scrape.go")
	orig, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	tm := timer{b: b}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		data := fmt.Appendf(slices.Clone(orig), "\n// edit %d\n", i)
		if err := os.WriteFile(target, data, 0o644); err != nil {
			b.Fatal(err)
		}
		later := time.Now().Add(time.Duration(i+1) * time.Second) // a new mtime each time, not racy
		os.Chtimes(target, later, later)
		b.StartTimer()
		tm.begin()
		fr, err := ix.Refresh(ctx)
		tm.end()
		if err != nil || fr.Indexed != 1 {
			b.Fatalf("refresh: %+v, %v", fr, err)
		}
	}
	tm.report()
}

var benchNames = []string{"NewManager", "Appender", "scrapeLoop.run", "storage.Appendable", "DB.Head", "QueueManager", "newScrapePool", "Labels"}

// BenchmarkLookup looks names up on an index with the Go files' symbols,
// freshness check included.
func BenchmarkLookup(b *testing.B) {
	ix, _ := benchIndex(b, goExtract)
	ctx := context.Background()
	for _, n := range benchNames {
		if res, err := ix.Lookup(ctx, n); err != nil || len(res.Definitions) == 0 {
			b.Fatalf("Lookup(%q): %+v, %v", n, res.Definitions, err)
		}
	}
	tm := timer{b: b}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tm.begin()
		_, err := ix.Lookup(ctx, benchNames[i%len(benchNames)])
		tm.end()
		if err != nil {
			b.Fatal(err)
		}
	}
	tm.report()
}

// BenchmarkFreshnessCheck is the check every query makes on an unchanged
// tree: identity, walk, and comparison with the stored rows.
func BenchmarkFreshnessCheck(b *testing.B) {
	ix, _ := benchIndex(b, nil)
	ctx := context.Background()
	tm := timer{b: b}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		tm.begin()
		_, err := ix.Refresh(ctx)
		tm.end()
		if err != nil {
			b.Fatal(err)
		}
	}
	tm.report()
}

// goExtract reads a Go file's declarations with go/parser, for the
// benchmarks only.
func goExtract(path string, src []byte) (*symbols.File, error) {
	if !strings.HasSuffix(path, ".go") {
		return &symbols.File{Path: path, Language: languageOf(path)}, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return nil, err
	}
	out := &symbols.File{Path: path, Language: "go", Package: f.Name.Name, Errors: err != nil}
	rng := func(from, to token.Pos) symbols.Range {
		a, z := fset.Position(from), fset.Position(to)
		col := func(p token.Position) int {
			start := p.Offset - (p.Column - 1)
			return utf8.RuneCount(src[start:p.Offset]) + 1
		}
		return symbols.Range{StartLine: a.Line, StartColumn: col(a), EndLine: z.Line, EndColumn: col(z), StartByte: a.Offset, EndByte: z.Offset}
	}
	add := func(name *ast.Ident, kind symbols.Kind, container string, from, to token.Pos, doc *ast.CommentGroup) {
		r := rng(from, to)
		s := symbols.Symbol{Name: name.Name, Kind: kind, Container: container, Package: f.Name.Name,
			Exported: unicode.IsUpper([]rune(name.Name)[0]), NameRange: rng(name.Pos(), name.End()), Range: r, DocLine: r.StartLine}
		if doc != nil {
			s.DocLine = fset.Position(doc.Pos()).Line
		}
		rest := src[r.StartByte-(r.StartColumn-1):]
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		line := string(rest)
		s.Signature = bounded(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "{")), 200)
		out.Symbols = append(out.Symbols, s)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			kind, container := symbols.Function, ""
			if d.Recv != nil && len(d.Recv.List) > 0 {
				kind = symbols.Method
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if ix, ok := t.(*ast.IndexExpr); ok {
					t = ix.X
				}
				if ix, ok := t.(*ast.IndexListExpr); ok {
					t = ix.X
				}
				if id, ok := t.(*ast.Ident); ok {
					container = id.Name
				}
			}
			add(d.Name, kind, container, d.Pos(), d.End(), d.Doc)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				doc := d.Doc
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					kind := symbols.Type
					switch sp.Type.(type) {
					case *ast.StructType:
						kind = symbols.Struct
					case *ast.InterfaceType:
						kind = symbols.Interface
					}
					if sp.Doc != nil {
						doc = sp.Doc
					}
					add(sp.Name, kind, "", sp.Pos(), sp.End(), doc)
				case *ast.ValueSpec:
					kind := symbols.Variable
					if d.Tok == token.CONST {
						kind = symbols.Constant
					}
					for _, n := range sp.Names {
						add(n, kind, "", sp.Pos(), sp.End(), nil)
					}
				}
			}
		case *ast.BadDecl:
		}
	}
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "\"`")
		alias := ""
		if im.Name != nil {
			alias = im.Name.Name
		}
		out.Imports = append(out.Imports, symbols.Import{Path: p, Alias: alias, Range: rng(im.Pos(), im.End())})
	}
	return out, nil
}

// runProcess runs this test binary as a helper to completion and returns
// its standard output and wall time.
func runProcess(b *testing.B, dir, helper string) (string, time.Duration) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{
		Path: exe, Args: []string{"-test.run=^$"}, Dir: dir,
		Env: append(os.Environ(), helperEnv+"="+helper, "CODECORTEX_INDEX_TEST_DIR="+dir),
	})
	took := time.Since(start)
	if err != nil {
		b.Fatalf("helper %q: %v\n%s", helper, err, res.Stderr)
	}
	return string(res.Stdout), took
}

// BenchmarkProcessColdBuild indexes the tree from nothing in a process of
// its own, text only, and reports that process's peak resident memory.
func BenchmarkProcessColdBuild(b *testing.B) {
	dir := benchTree(b)
	var times []time.Duration
	var peak float64
	for range b.N {
		os.RemoveAll(filepath.Join(dir, ".codecortex"))
		out, took := runProcess(b, dir, "build")
		times = append(times, took)
		var kb float64
		if _, err := fmt.Sscanf(out, "maxrss %f", &kb); err != nil {
			b.Fatalf("helper said %q", out)
		}
		peak = max(peak, kb/1024)
	}
	b.ReportMetric(medianMS(times), "p50-ms")
	b.ReportMetric(peak, "maxrss-MB")
}

// BenchmarkProcessWarmSearch is a whole-process text query on a built
// index, freshness check included: start, open, search, print, exit.
func BenchmarkProcessWarmSearch(b *testing.B) {
	dir := benchTree(b)
	runProcess(b, dir, "build")
	var times []time.Duration
	for i := range b.N {
		out, took := runProcess(b, dir, "search "+benchQueries[i%len(benchQueries)])
		if i < len(benchQueries) && benchQueries[i] == "scrape loop" && !strings.Contains(out, "scrape/") {
			b.Fatalf("search printed %q", out)
		}
		times = append(times, took)
	}
	b.ReportMetric(medianMS(times), "p50-ms")
}

// BenchmarkProcessStart is the cost of starting the helper process
// itself, to subtract from BenchmarkProcessWarmSearch (a cortex binary
// starts faster than this test binary).
func BenchmarkProcessStart(b *testing.B) {
	dir := b.TempDir()
	var times []time.Duration
	for range b.N {
		_, took := runProcess(b, dir, "noop")
		times = append(times, took)
	}
	b.ReportMetric(medianMS(times), "p50-ms")
}

// BenchmarkRipgrep runs `rg -n` over the same tree for the same queries,
// for comparison with BenchmarkProcessWarmSearch.
func BenchmarkRipgrep(b *testing.B) {
	rg := testtool.Require(b, "rg", "apt-get install ripgrep")
	dir := benchTree(b)
	var times []time.Duration
	for i := range b.N {
		start := time.Now()
		res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: rg,
			Args: []string{"-n", benchQueries[i%len(benchQueries)], "."}, Dir: dir})
		times = append(times, time.Since(start))
		var ee *safeexec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.Code == 1) { // 1: no match
			b.Fatalf("rg: %v\n%s", err, res.Stderr)
		}
	}
	b.ReportMetric(medianMS(times), "p50-ms")
}

// TestNamesInCobra asks "where is X defined?" for 20 names of
// github.com/spf13/cobra v1.10.2 (from the module cache) with no precision
// index: the lookup and the text search must both put the definition
// first, with the symbols the syntax floor extracts (the default).
func TestNamesInCobra(t *testing.T) {
	if testing.Short() {
		t.Skip("reads github.com/spf13/cobra from the module cache")
	}
	goPath := testtool.Require(t, "go", "install Go")
	ctx := context.Background()
	_ = goPath
	dir := testtool.ModuleCopy(t, testtool.Cobra)
	ix := openTest(t, dir, func(o *Options) { o.Extract, o.ExtractorVersion = nil, "" })
	names := []struct{ name, file string }{
		{"Command", "command.go"}, {"Command.Execute", "command.go"}, {"ExecuteC", "command.go"},
		{"AddCommand", "command.go"}, {"PersistentFlags", "command.go"}, {"MinimumNArgs", "args.go"},
		{"ExactArgs", "args.go"}, {"RangeArgs", "args.go"}, {"OnInitialize", "cobra.go"},
		{"GenBashCompletion", "bash_completions.go"}, {"GenZshCompletion", "zsh_completions.go"},
		{"GenFishCompletion", "fish_completions.go"}, {"GenPowerShellCompletion", "powershell_completions.go"},
		{"MarkFlagRequired", "shell_completions.go"}, {"RegisterFlagCompletionFunc", "completions.go"},
		{"ShellCompDirective", "completions.go"}, {"CompletionOptions", "completions.go"}, {"Group", "command.go"},
		{"CheckErr", "cobra.go"}, {"doc.GenMarkdownTree", "doc/md_docs.go"},
	}
	lookupFirst, searchFirst := 0, 0
	for _, n := range names {
		res, err := ix.Lookup(ctx, n.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Definitions) > 0 && res.Definitions[0].Path == n.file {
			lookupFirst++
		} else {
			t.Errorf("Lookup(%q): first %+v, want a definition in %s", n.name, res.Definitions, n.file)
		}
		q := n.name[strings.LastIndexByte(n.name, '.')+1:]
		sres, err := ix.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(sres.Hits) > 0 && sres.Hits[0].Path == n.file && sres.Hits[0].Match == MatchDefinition {
			searchFirst++
		} else {
			t.Errorf("Search(%q): hits %v, want the definition in %s first", q, hitPaths(sres.Hits), n.file)
		}
	}
	t.Logf("definition first: lookup %d/%d, search %d/%d", lookupFirst, len(names), searchFirst, len(names))
}

// benchBuilt returns a tree with a fully built index (the default
// extractor): $CODECORTEX_BENCH_TREE when set (a copy of the module that
// `cortex index` has indexed, to profile without a cold build each time),
// otherwise a new copy, built here.
func benchBuilt(b *testing.B) string {
	if dir := os.Getenv("CODECORTEX_BENCH_TREE"); dir != "" {
		return dir
	}
	dir := benchTree(b)
	ix, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background()); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpenSearch is the index's part of a whole-process `cortex
// search TEXT` on a warm tree: Open, Search (freshness check included) and
// Close, with a new Index each time, as a new process has.
func BenchmarkOpenSearch(b *testing.B) {
	dir := benchBuilt(b)
	ctx := context.Background()
	tm := timer{b: b}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tm.begin()
		ix, err := Open(Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		res, err := ix.Search(ctx, benchQueries[i%len(benchQueries)], SearchOptions{})
		ix.Close()
		tm.end()
		if err != nil || res.Freshness.State != Fresh || len(res.Hits) == 0 {
			b.Fatalf("search: %+v, %d hits, %v", res.Freshness, len(res.Hits), err)
		}
	}
	tm.report()
}

// BenchmarkOpenChecks is what opening a database costs with the checks
// that make it trusted (the files beside it, the schema against the one
// made in memory, the seal), against an open with none of them, on the
// test project's database: open, the check activation makes (sane), and
// close. "schema-in-memory" is the once-a-process making of the schema
// the check compares with.
func BenchmarkOpenChecks(b *testing.B) {
	dir := writeTree(b, project)
	ix, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, err := ix.Status(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ix.Close()
	path := filepath.Join(dir, filepath.FromSlash(st.Database))
	sealed := &sealing{sealer: seal.User(), root: ix.Dir()}
	open := func(b *testing.B, fn func() (*store, error)) {
		var times []time.Duration
		for range b.N {
			t0 := time.Now()
			s, err := fn()
			if err == nil {
				err = s.sane(ctx, true)
				s.close()
			}
			times = append(times, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(medianMS(times)*1e3, "p50-µs")
	}
	b.Run("checked", func(b *testing.B) {
		open(b, func() (*store, error) { return openStore(ctx, path, false, sealed) })
	})
	b.Run("unchecked", func(b *testing.B) {
		open(b, func() (*store, error) {
			db, err := sql.Open("sqlite", dsn(path))
			if err != nil {
				return nil, err
			}
			s := &store{path: path, db: db}
			var v int
			err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
			return s, err
		})
	})
	b.Run("checks-alone", func(b *testing.B) {
		s, err := openStore(ctx, path, false, sealed)
		if err != nil {
			b.Fatal(err)
		}
		defer s.close()
		var times []time.Duration
		for range b.N {
			t0 := time.Now()
			_, err := checkFiles(path)
			if err == nil {
				err = s.checkSchema(ctx)
			}
			if err == nil {
				err = s.checkSeal(ctx, *sealed)
			}
			times = append(times, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(medianMS(times)*1e3, "p50-µs")
	})
	b.Run("schema-in-memory", func(b *testing.B) {
		var times []time.Duration
		for range b.N {
			t0 := time.Now()
			if _, err := memorySchema(ctx); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		b.ReportMetric(medianMS(times)*1e3, "p50-µs")
	})
}
