package precision

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
)

// The real-indexer tests index the fixtures in testdata/{go,ts,py} with the
// real indexers, which .ci/install-precision.sh installs at pinned versions.
// Each fixture has é, 日本 and 😀 before identifiers.

const installHint = "bash .ci/install-precision.sh"

// toolEnv is what the indexers and gopls need from the environment.
var toolEnv = []string{"PATH", "HOME", "TMPDIR", "GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOROOT", "GOTOOLCHAIN"}

// copyFixture copies testdata/<name> into a temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", name), dst)
	return dst
}

func run(t testing.TB, dir, tool string, args ...string) safeexec.Result {
	t.Helper()
	exe := testtool.Require(t, tool, installHint)
	res, err := runTool(dir, exe, args...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runTool runs the tool at the absolute path exe in dir.
func runTool(dir, exe string, args ...string) (safeexec.Result, error) {
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{
		Path: exe, Args: args, Dir: dir, Env: safeexec.Environ(toolEnv...)})
	if err != nil {
		return res, fmt.Errorf("%s %s: %w\n%s%s", filepath.Base(exe), strings.Join(args, " "), err, res.Stdout, res.Stderr)
	}
	return res, nil
}

// indexedProject returns a directory holding the project lang ("go",
// "ts" or "py" from testdata, or "cobra") and its index.scip, which the
// real indexer writes once per test binary: the tests share it and only
// read it; a test that writes works on a copy (copyIndexedProject).
func indexedProject(t *testing.T, lang string) string {
	t.Helper()
	tool := map[string]string{"go": "scip-go", "ts": "scip-typescript", "py": "scip-python", "cobra": "scip-go"}[lang]
	if tool == "" {
		t.Fatalf("no indexer for %q", lang)
	}
	exe := testtool.Require(t, tool, installHint)
	src := filepath.Join("testdata", lang)
	var gobin string
	if lang == "cobra" {
		src = testtool.ModuleDir(t, testtool.Cobra)
		gobin = testtool.Require(t, "go", installHint)
	}
	return testtool.Fixture(t, "precision-"+lang, func(dir string) error {
		if err := testtool.Copy(src, dir); err != nil {
			return err
		}
		if gobin != "" {
			// cobra's dependencies, for the indexer and gopls.
			if _, err := runTool(dir, gobin, "mod", "download"); err != nil {
				return err
			}
		}
		return runIndexer(lang, exe, dir)
	})
}

// copyIndexedProject returns a copy of indexedProject(t, lang), which the
// test may change. The copies keep their originals' modification times,
// so no document is newer than the index.
func copyIndexedProject(t *testing.T, lang string) string {
	t.Helper()
	src := indexedProject(t, lang)
	dir := t.TempDir()
	testtool.CopyTree(t, src, dir)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return os.Chtimes(filepath.Join(dir, rel), info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// indexFixture loads the shared index of a fixture, which the real
// indexer wrote (see indexedProject), and returns it with the project's
// directory, which the test must not change.
func indexFixture(t *testing.T, lang string) (*Index, string) {
	t.Helper()
	dir := indexedProject(t, lang)
	f, err := os.Open(filepath.Join(dir, "index.scip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ix, err := Load(context.Background(), f, LoadOptions{Source: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

// runIndexer indexes the project at dir with exe, the real indexer of
// lang, into dir/index.scip.
func runIndexer(lang, exe, dir string) error {
	var args []string
	switch lang {
	case "go", "cobra":
		args = []string{"--output", "index.scip"}
	case "ts":
		// Two tsconfig projects include the same files, so every document
		// is written twice.
		args = []string{"index", "tsconfig.json", "tsconfig.b.json", "--output", "index.scip"}
	case "py":
		// An empty environment list: the fixture has no dependencies, and
		// without it scip-python runs pip, which CI machines may lack.
		tmp, err := os.MkdirTemp("", "scip-python-env-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		env := filepath.Join(tmp, "environment.json")
		if err := os.WriteFile(env, []byte("[]"), 0o644); err != nil {
			return err
		}
		args = []string{"index", ".", "--project-name", "shapes", "--project-version", "0.1.0",
			"--environment", env, "--output", "index.scip"}
	default:
		return fmt.Errorf("no indexer for %q", lang)
	}
	_, err := runTool(dir, exe, args...)
	return err
}

// sliceCodePoints returns line[from:to) counted in code points.
func sliceCodePoints(line string, from, to int) string {
	r := []rune(line)
	if from < 0 || to > len(r) || from > to {
		return "\x00out of range"
	}
	return string(r[from:to])
}

// coversDescriptor reports whether text is (the end of) one of the
// symbol's descriptor names: "Square" for Square#, "other" for the
// `pkg.other` module, "constructor" or the class name for a constructor.
func coversDescriptor(s *scip.Symbol, text string) bool {
	if text == "" {
		return false
	}
	text = strings.TrimPrefix(text, "./")
	for _, d := range s.Descriptors {
		name := strings.TrimSuffix(d.Name, ".ts")
		if strings.HasSuffix(name, text) || (d.Name == "<constructor>" && text == "constructor") {
			return true
		}
	}
	return false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' && c != '$' {
			return false
		}
	}
	return true
}

// checkEveryPosition converts every occurrence of the index and checks the
// source text the converted range covers: a global symbol's range must
// cover (a suffix of) its last descriptor's name, and a local's an
// identifier, the same at every occurrence. A wrong encoding shifts columns
// after é, 日本 and 😀 and fails this.
func checkEveryPosition(t *testing.T, ix *Index, dir string, wantEnc Encoding) {
	t.Helper()
	checked, nonASCII := 0, 0
	localText := map[string]string{}
	for di := range ix.docs {
		d := &ix.docs[di]
		if d.enc != wantEnc || d.encSrc != Measured {
			t.Errorf("%s: encoding %s (%s), want %s (measured)", d.path, d.enc, d.encSrc, wantEnc)
		}
		src, err := os.ReadFile(filepath.Join(dir, d.path))
		if err != nil {
			t.Fatal(err)
		}
		lines := splitLines(string(src))
		for oi := range d.occs {
			l := ix.location(uint32(di), uint32(oi))
			if !l.Exact {
				t.Errorf("%s:%d:%d is not exact", l.Path, l.StartLine, l.StartColumn)
			}
			if l.StartLine != l.EndLine || l.StartColumn == l.EndColumn {
				continue // module occurrences are zero-width or span lines
			}
			line := lines[l.StartLine-1]
			text := sliceCodePoints(line, l.StartColumn-1, l.EndColumn-1)
			where := fmt.Sprintf("%s:%d:%d-%d %q", l.Path, l.StartLine, l.StartColumn, l.EndColumn, text)
			checked++
			if !isASCII([]byte(line[:min(len(line), int(d.occs[oi].sc))])) {
				nonASCII++
			}
			if isLocal(l.Symbol) {
				if !isIdent(text) {
					t.Errorf("%s: local %s covers a non-identifier", where, l.Symbol)
				}
				key := l.Path + " " + l.Symbol
				if prev, ok := localText[key]; ok && prev != text {
					t.Errorf("%s: local %s covers %q elsewhere", where, l.Symbol, prev)
				}
				localText[key] = text
				continue
			}
			parsed, err := scip.ParseSymbol(l.Symbol)
			if err != nil {
				t.Errorf("%s: symbol %q does not parse: %v", where, l.Symbol, err)
				continue
			}
			if !coversDescriptor(parsed, strings.Trim(text, `"'`)) {
				t.Errorf("%s: covers %q, not a name of %s", where, text, l.Symbol)
			}
		}
	}
	if nonASCII == 0 {
		t.Errorf("no occurrence after non-ASCII text was checked (%d checked)", checked)
	}
	t.Logf("checked %d converted positions, %d after non-ASCII text", checked, nonASCII)
}

// expectDef checks a hand-checked expectation: the identifier ident on the
// line containing marker, at its n-th occurrence, resolves to a symbol whose
// definition is at the one-based code-point position (defLine, defCol).
func expectDef(t *testing.T, ix *Index, dir, path, marker, ident string, defPath string, defLine, defCol int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range splitLines(string(src)) {
		m := strings.Index(line, marker)
		if m < 0 {
			continue
		}
		b := m + strings.Index(line[m:], ident)
		col := utf8.RuneCountInString(line[:b]) + 1
		s, _, err := ix.SymbolAt(path, i+1, col)
		if err != nil {
			t.Fatalf("%s:%d:%d (%s): %v", path, i+1, col, ident, err)
		}
		defs := ix.Definitions(s)
		var got []string
		for _, d := range defs {
			got = append(got, fmt.Sprintf("%s:%d:%d", d.Path, d.StartLine, d.StartColumn))
		}
		want := []string{fmt.Sprintf("%s:%d:%d", defPath, defLine, defCol)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("definition of %s at %s:%d:%d (-want +got):\n%s", ident, path, i+1, col, diff)
		}
		return
	}
	t.Fatalf("marker %q not in %s", marker, path)
}

// implementers returns the names of the symbols implementing the one at
// the position.
func implementers(t *testing.T, ix *Index, path string, line, col int) []string {
	t.Helper()
	s, _, err := ix.SymbolAt(path, line, col)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, i := range ix.Implementations(s) {
		names = append(names, i.Name)
	}
	return names
}

func TestRealIndexerGo(t *testing.T) {
	ix, dir := indexFixture(t, "go")
	if ix.Metadata().Tool != "scip-go" {
		t.Fatalf("tool = %q", ix.Metadata().Tool)
	}
	checkEveryPosition(t, ix, dir, UTF8)
	// scip-go writes the generated test main under the build cache, with
	// a path that climbs out of the root: dropped, counted, never served.
	dropped := ix.Dropped()
	if len(dropped) == 0 {
		t.Error("no document dropped; scip-go v0.1.26 writes the test main outside the root")
	}
	for _, d := range dropped {
		if !strings.HasPrefix(d.Path, "../") || d.Reason != "outside the project root" {
			t.Errorf("dropped %+v", d)
		}
		if _, _, err := ix.SymbolAt(d.Path, 1, 1); !errors.Is(err, ErrNoDocument) {
			t.Errorf("dropped document %s is served: %v", d.Path, err)
		}
	}
	// Hand-checked: Area after "é" is at code point 25 (byte 26).
	expectDef(t, ix, dir, "shapes.go", "x.Area()", "Area", "shapes.go", 8, 23)
	expectDef(t, ix, dir, "shapes.go", `"日本", Shape(Square`, "Square", "shapes.go", 11, 6)
	expectDef(t, ix, dir, "shapes.go", "return Unit, other.Shape", "Shape{", "other/other.go", 5, 6)
	expectDef(t, ix, dir, "shapes.go", `"é日本😀" + greeting`, "greeting", "shapes.go", 15, 5)
	// The measured fact: after `var greeting, Unit = "日本", ` scip-go's
	// column is a byte offset: 31, where code points give 27 (zero-based).
	s, err := ix.Lookup("scip-go gomod example.com/shapes . `example.com/shapes`/Shape#", "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range ix.refs[ix.refOff[s.id]:ix.refOff[s.id+1]] {
		raw := ix.docs[r.doc].occs[r.occ]
		if raw.sl != 14 {
			continue
		}
		found = true
		if got := ix.location(r.doc, r.occ); raw.sc != 31 || got.StartColumn != 28 || got.EndColumn != 33 {
			t.Errorf("Shape on line 15: raw column %d, converted %d-%d; want raw 31 (bytes), converted 28-33 (one-based code points)", raw.sc, got.StartColumn, got.EndColumn)
		}
	}
	if !found {
		t.Error("no reference to Shape on line 15")
	}
}

// A real index cut short is never served: cut after its metadata (the
// issue's head -c 47 of a scip-go index lands inside the first document's
// header), or anywhere inside a document, it is unavailable with its
// reason, not "available, fresh, 0 documents".
func TestTruncatedRealIndex(t *testing.T) {
	dir := copyIndexedProject(t, "go")
	data, err := os.ReadFile(filepath.Join(dir, "index.scip"))
	if err != nil {
		t.Fatal(err)
	}
	// The metadata is the first top-level message: tag, length, body.
	_, _, n := protowire.ConsumeTag(data)
	length, m := protowire.ConsumeVarint(data[n:])
	afterMeta := n + m + int(length)
	for _, cut := range []int{47, afterMeta, afterMeta + 1, afterMeta + 3, len(data) / 2, len(data) - 1} {
		t.Run(fmt.Sprintf("%d of %d bytes", cut, len(data)), func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, "index.cortexidx"), data[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			p := New(Options{Dir: dir, IndexPath: "index.cortexidx"})
			defer p.Close()
			st := p.Status(context.Background())
			if st.State != evidence.Unavailable || !strings.Contains(st.Reason, "precision index index.cortexidx is unusable") {
				t.Errorf("status = %s (%s), %d documents; want unavailable", st.State, st.Reason, st.Stats.Documents)
			}
			t.Log(st.Reason)
		})
	}
}

func TestRealIndexerTypeScript(t *testing.T) {
	ix, dir := indexFixture(t, "ts")
	checkEveryPosition(t, ix, dir, UTF16)
	// The repeats are merged by path, their occurrences deduplicated.
	if st := ix.Stats(); st.MergedDocuments != 3 || st.Documents != 3 {
		t.Errorf("stats = %+v, want 3 documents and 3 merged repeats", st)
	}
	s, err := ix.Lookup("scip-typescript npm shapes-ts 1.0.0 src/`shapes.ts`/total().", "")
	if err != nil {
		t.Fatal(err)
	}
	if d, r := ix.Definitions(s), ix.References(s); len(d) != 1 || len(r) != 2 {
		t.Errorf("total: %d definitions and %d references, want 1 and 2 (repeats deduplicated)", len(d), len(r))
	}
	// "new Square" refers to the constructor, defined after "é" on line 4.
	expectDef(t, ix, dir, "src/shapes.ts", "/* 日本 */ export const unit: Shape = new Square", "Square", "src/shapes.ts", 4, 48)
	expectDef(t, ix, dir, "src/shapes.ts", "/* 日本 */ export const unit: Shape", "Shape", "src/shapes.ts", 2, 18)
	expectDef(t, ix, dir, "src/main.ts", "const all = total", "total", "src/shapes.ts", 8, 25)
	expectDef(t, ix, dir, "src/other.ts", "function label(s: Shape)", "Shape", "src/other.ts", 2, 22)
	// Two Shapes, two packages' worth of identity.
	c := ix.LookupName("Shape")
	if len(c) != 2 || c[0].Symbol.Name == c[1].Symbol.Name {
		t.Errorf("LookupName(Shape) = %+v, want two distinct symbols", c)
	}
	if diff := cmp.Diff([]string{"scip-typescript npm shapes-ts 1.0.0 src/`shapes.ts`/Square#"}, implementers(t, ix, "src/shapes.ts", 2, 18)); diff != "" {
		t.Errorf("implementations of Shape (-want +got):\n%s", diff)
	}
}

func TestRealIndexerPython(t *testing.T) {
	ix, dir := indexFixture(t, "py")
	checkEveryPosition(t, ix, dir, UTF16)

	expectDef(t, ix, dir, "pkg/shapes.py", `t = "日本"; unit = Square(1)`, "Square", "pkg/shapes.py", 9, 7)
	expectDef(t, ix, dir, "main.py", `b = total(`, "total", "pkg/shapes.py", 20, 5)
	expectDef(t, ix, dir, "pkg/other.py", `e = "😀é"; x = s.name`, "name", "pkg/other.py", 6, 14)
	if diff := cmp.Diff([]string{"scip-python python shapes 0.1.0 `pkg.shapes`/Square#"}, implementers(t, ix, "pkg/shapes.py", 4, 7)); diff != "" {
		t.Errorf("implementations of Shape (-want +got):\n%s", diff)
	}
}

// answerSet returns the records of a kind as sorted, distinct strings: the
// location, and " declaration" for a reference at the declaration.
func answerSet(rs []evidence.Record, kind evidence.Kind) []string {
	var out []string
	for _, r := range rs {
		if r.Kind != kind {
			continue
		}
		s := r.Location()
		if IsDeclaration(&r) {
			s += " declaration"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// A divergence is a known, explained difference between gopls's answer and
// the index's for one kind of question about one symbol. It must occur
// exactly as recorded, so the record cannot go stale silently.
type divergence struct {
	onlyGopls, onlyIndex []string
	// unindexed, when set, is the source text of every further location
	// only gopls answers, at which the index holds no occurrence at all:
	// the indexer wrote nothing there. At least one must occur.
	unindexed string
	why       string
}

// withDivergence applies d to the index's answer: what gopls answers, if d
// is all that differs.
func withDivergence(index []string, d divergence) []string {
	out := slices.DeleteFunc(slices.Clone(index), func(s string) bool { return slices.Contains(d.onlyIndex, s) })
	out = append(out, d.onlyGopls...)
	sort.Strings(out)
	return slices.Compact(out)
}

// compareWithGopls asks gopls (one server, through the LSP provider) and the
// index the same questions at each position: definition, references with the
// declaration, and implementation. In-repository answers must agree, except
// for the known divergences, keyed by kind and SCIP symbol, each of which
// must occur exactly as recorded. It also checks that the LSP provider's
// records are near_exact and that one server serves every query, and
// returns how many records of each kind gopls gave.
func compareWithGopls(t *testing.T, ix *Index, dir string, lsp *LSPProvider, positions []Location, known map[string]divergence) map[evidence.Kind]int {
	t.Helper()
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	var firstProc any
	nonEmpty := map[evidence.Kind]int{}
	seen := map[string]bool{}
	for _, l := range positions {
		pos := fmt.Sprintf("%s:%d:%d", l.Path, l.StartLine, l.StartColumn)
		t.Run(pos, func(t *testing.T) {
			s, _, err := ix.SymbolAt(l.Path, l.StartLine, l.StartColumn)
			if err != nil {
				t.Fatal(err)
			}
			q := evidence.Query{Path: l.Path, Line: l.StartLine, Column: l.StartColumn}
			resp, err := lsp.Gather(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range resp.Records {
				nonEmpty[r.Kind]++
				if r.Trust != trust.NearExact || r.Exact || r.Provenance != trust.LanguageServer {
					t.Errorf("LSP record %s: trust %s exact %v provenance %s", r.Location(), r.Trust, r.Exact, r.Provenance)
				}
				if err := r.Validate(); err != nil {
					t.Error(err)
				}
			}
			gs, _ := lsp.server("go")
			if firstProc == nil {
				firstProc = gs.proc
			} else if firstProc != any(gs.proc) {
				t.Error("a second language server was started")
			}
			answer, why := snap.atPosition(&q)
			if why != "" {
				t.Fatalf("the index has no answer: %s", why)
			}
			for _, kind := range []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation} {
				key := string(kind) + " " + s.Name
				want := answerSet(answer, kind)
				d, ok := known[key]
				if ok {
					seen[key] = true
					want = withDivergence(want, d)
				}
				got := answerSet(resp.Records, kind)
				if ok && d.unindexed != "" {
					got = dropUnindexed(t, ix, dir, got, want, d.unindexed)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s of %s (-index +gopls):\n%s", kind, s.Name, diff)
					if ok {
						t.Logf("known divergence: %s", d.why)
					}
				}
			}
		})
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("known divergence %q was not compared", key)
		}
	}
	return nonEmpty
}

// dropUnindexed removes from got the locations want lacks where the index
// holds no occurrence and the source reads text, and fails unless there is
// at least one.
func dropUnindexed(t *testing.T, ix *Index, dir string, got, want []string, text string) []string {
	t.Helper()
	n := 0
	out := slices.DeleteFunc(slices.Clone(got), func(g string) bool {
		if slices.Contains(want, g) {
			return false
		}
		var p string
		var sl, sc, el, ec int
		i := strings.IndexByte(g, ':')
		if _, err := fmt.Sscanf(g[i+1:], "%d:%d-%d:%d", &sl, &sc, &el, &ec); err != nil || sl != el {
			return false
		}
		p = g[:i]
		if _, _, err := ix.SymbolAt(p, sl, sc); !errors.Is(err, ErrNoSymbol) {
			return false
		}
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil || sliceCodePoints(splitLines(string(src))[sl-1], sc-1, ec-1) != text {
			return false
		}
		n++
		return true
	})
	if n == 0 {
		t.Errorf("no unindexed %q location: the divergence no longer occurs", text)
	}
	return out
}

// firstOccurrences returns one occurrence of every global symbol of the
// index, in index order, leaving out packages, which gopls does not
// resolve as symbols.
func firstOccurrences(ix *Index) []Location {
	seen := map[uint32]bool{}
	var out []Location
	for di := range ix.docs {
		d := &ix.docs[di]
		for oi, o := range d.occs {
			e := ix.syms[o.sym]
			if seen[o.sym] || isLocal(e.name) || strings.HasSuffix(e.name, "/") {
				continue
			}
			seen[o.sym] = true
			out = append(out, ix.location(uint32(di), uint32(oi)))
		}
	}
	return out
}

// goFixtureDivergences are where gopls and an index of the Go fixture
// disagree, and why. scip-go v0.1.26 relates only concrete types to the
// interfaces they implement (and their methods to interface methods); gopls
// also relates an interface to the interfaces whose method sets hold its
// own, by embedding or by declaring the same methods. The index proves no
// such edge, and inferring one would mean type-checking, so its answer
// leaves them out.
var goFixtureDivergences = func() map[string]divergence {
	const (
		shapes = "scip-go gomod example.com/shapes . `example.com/shapes`/"
		why    = "gopls relates interfaces to interfaces (SizedReader embeds Sizer, Measured declares its method); scip-go records no such edge"
	)
	return map[string]divergence{
		"implementation " + shapes + "Sizer#": {why: why,
			onlyGopls: []string{"sizes.go:10:6-10:17", "sizes.go:16:6-16:14"}},
		"implementation " + shapes + "Sizer#Size.": {why: why,
			onlyGopls: []string{"sizes.go:17:2-17:6"}},
		"implementation scip-go gomod github.com/golang/go/src go1.22 io/Reader#": {why: why,
			onlyGopls: []string{"sizes.go:10:6-10:17"}},
		// m.Size() calls Measured.Size, which corresponds to Sizer.Size.
		"reference " + shapes + "Sizer#Size.": {why: why,
			onlyGopls: []string{"sizes.go:40:38-40:42"}},
		// s.Size() and r.Size() call Sizer.Size.
		"reference " + shapes + "Measured#Size.": {why: why,
			onlyGopls: []string{"sizes.go:40:11-40:15", "sizes.go:40:49-40:53"}},
	}
}()

// TestAgainstGopls compares the index of the Go fixture with gopls at one
// occurrence of every global symbol.
func TestAgainstGopls(t *testing.T) {
	testtool.Require(t, "gopls", installHint)
	ix, dir := indexFixture(t, "go")
	lsp := NewLSP(LSPOptions{Dir: dir, RequestTimeout: realServerTimeout})
	defer func() {
		if err := lsp.Close(); err != nil {
			t.Errorf("gopls did not shut down cleanly: %v", err)
		}
	}()
	positions := firstOccurrences(ix)
	if len(positions) < 8 {
		t.Errorf("compared only %d symbols", len(positions))
	}
	nonEmpty := compareWithGopls(t, ix, dir, lsp, positions, goFixtureDivergences)
	for _, k := range []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation} {
		if nonEmpty[k] < 2 {
			t.Errorf("gopls gave only %d %s records: the comparison proves little", nonEmpty[k], k)
		}
	}
	t.Logf("compared %d symbols; gopls records: %v", len(positions), nonEmpty)

	// A name: the index and the language server answer the same
	// candidates, defined at the same places.
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	for _, name := range []string{"Shape", "Square.Area", "Total", "other.Shape", "shapes.Shape", "Nothing"} {
		t.Run("name "+name, func(t *testing.T) {
			q := evidence.Query{Symbol: name, Kinds: []evidence.Kind{evidence.Definition}}
			recs, why := snap.byName(&q)
			resp, err := lsp.Gather(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(answerSet(recs, evidence.Definition), answerSet(resp.Records, evidence.Definition)); diff != "" {
				t.Errorf("definitions of %q (-index +gopls):\n%s", name, diff)
			}
			for i := range min(len(recs), len(resp.Records)) {
				if a, b := recs[i].Metadata.Attributes["candidates"], resp.Records[i].Metadata.Attributes["candidates"]; a != b {
					t.Errorf("candidates: index %s, gopls %s", a, b)
				}
			}
			if (why == "") != (resp.Report.Reason == "") {
				t.Errorf("reasons: index %q, gopls %q", why, resp.Report.Reason)
			}
		})
	}
}

// cobraModule copies cobra from the module cache (the go command
// downloads it and its dependencies through the module proxy when missing)
// into a temporary directory.
func cobraModule(t testing.TB) string {
	t.Helper()
	dir := testtool.ModuleCopy(t, testtool.Cobra)
	run(t, dir, "go", "mod", "download")
	return dir
}

// cobraDivergences are where gopls v0.23.0 and scip-go v0.1.26's index of
// cobra disagree, and why.
var cobraDivergences = map[string]divergence{
	"reference scip-go gomod github.com/spf13/cobra . `github.com/spf13/cobra`/flagCompError#Error().": {
		unindexed: "Error",
		why: "scip-go writes no occurrence for the built-in error interface's method, so calls such as err.Error() are not in the index; " +
			"gopls counts them among the references of every Error() string method",
	},
}

// cobraPositions are the positions the parity test asks about: every type,
// every symbol in an implementation relation (where answers go through
// interfaces), every symbol of a known divergence, and every sixteenth
// other symbol; with CODECORTEX_PARITY_ALL=1, every global symbol (989 in
// cobra v1.10.2; all agree but for the recorded divergences).
func cobraPositions(ix *Index, known map[string]divergence) []Location {
	all := firstOccurrences(ix)
	if os.Getenv("CODECORTEX_PARITY_ALL") == "1" {
		return all
	}
	diverging := map[string]bool{}
	for key := range known {
		diverging[key[strings.IndexByte(key, ' ')+1:]] = true
	}
	var out []Location
	for i, l := range all {
		s, err := ix.Lookup(l.Symbol, "")
		related := err == nil && (len(ix.implBy[s.id]) > 0 || len(ix.implOf[s.id]) > 0)
		if related || diverging[l.Symbol] || strings.HasSuffix(l.Symbol, "#") || i%16 == 0 {
			out = append(out, l)
		}
	}
	return out
}

// TestCobraAgainstGopls compares the index of cobra with gopls: definition,
// references with the declaration, and implementation at one occurrence of
// the symbols cobraPositions picks, the implementation answers the issue
// names, and name lookup against gopls's workspace symbols.
func TestCobraAgainstGopls(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes cobra and asks gopls hundreds of questions")
	}
	testtool.Require(t, "gopls", installHint)
	ix, dir := indexFixture(t, "cobra")
	lsp := NewLSP(LSPOptions{Dir: dir, RequestTimeout: realServerTimeout})
	defer lsp.Close()

	// Implementation both ways, as the issue measured it: the concrete
	// customMultiString implements SliceValue (and outside interfaces,
	// which are not in the repository).
	const cobra = "scip-go gomod github.com/spf13/cobra . `github.com/spf13/cobra`/"
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	for _, tt := range []struct {
		path      string
		line, col int
		want      []string
	}{
		{"completions_test.go", 676, 6, []string{"implementation completions.go:311:6-311:16 " + cobra + "SliceValue# implemented_by"}},
		{"completions.go", 311, 6, []string{"implementation completions_test.go:676:6-676:23 " + cobra + "customMultiString# implements"}},
		{"completions.go", 313, 2, []string{"implementation completions_test.go:693:29-693:37 " + cobra + "customMultiString#GetSlice(). implements"}},
		{"completions_test.go", 693, 29, []string{"implementation completions.go:313:2-313:10 " + cobra + "SliceValue#GetSlice. implemented_by"}},
	} {
		q := evidence.Query{Path: tt.path, Line: tt.line, Column: tt.col, Kinds: []evidence.Kind{evidence.Implementation}}
		recs, why := snap.atPosition(&q)
		var got []string
		for _, r := range recs {
			got = append(got, strings.Join([]string{string(r.Kind), r.Location(), r.Symbol, r.Metadata.Attributes[RelationAttribute]}, " "))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("implementation at %s:%d:%d (-want +got):\n%s%s", tt.path, tt.line, tt.col, diff, why)
		}
	}

	positions := cobraPositions(ix, cobraDivergences)
	nonEmpty := compareWithGopls(t, ix, dir, lsp, positions, cobraDivergences)
	t.Logf("compared %d positions; gopls records: %v", len(positions), nonEmpty)

	// Names: every candidate the index finds is defined where gopls's
	// workspace symbol of that name is, in the repository.
	for _, name := range []string{"ExecuteC", "Command.Find", "SliceValue", "cobra.Command", "GetSlice", "Type", "GenManTree"} {
		t.Run("name "+name, func(t *testing.T) {
			var got []string
			for _, c := range ix.LookupName(name) {
				for _, d := range c.Definitions {
					got = append(got, fmt.Sprintf("%s:%d:%d-%d:%d", d.Path, d.StartLine, d.StartColumn, d.EndLine, d.EndColumn))
				}
			}
			sort.Strings(got)
			want := goplsSymbols(t, lsp, dir, name)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("definitions of %q (-gopls +index):\n%s", name, diff)
			}
			if len(want) == 0 {
				t.Errorf("gopls knows no symbol %q: the comparison proves nothing", name)
			}
		})
	}
}

// goplsSymbols asks gopls for the workspace symbols matching name and
// returns the in-repository locations of those it names exactly name or
// ending in "."+name, as the index's name lookup reads a name.
func goplsSymbols(t *testing.T, lsp *LSPProvider, dir, name string) []string {
	t.Helper()
	gs, err := lsp.startServer(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	raw, err := gs.conn.call(ctx, "workspace/symbol", map[string]string{"query": name})
	if err != nil {
		t.Fatal(err)
	}
	var syms []struct {
		Name     string      `json:"name"`
		Location lspLocation `json:"location"`
	}
	if err := json.Unmarshal(raw, &syms); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range syms {
		if s.Name != name && !strings.HasSuffix(s.Name, "."+name) {
			continue
		}
		r, ok, _ := gs.record(evidence.Definition, s.Location, map[string][]string{})
		if ok {
			out = append(out, r.Location())
		}
	}
	sort.Strings(out)
	return out
}
