package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

// tiny is a corpus small enough to check by eye: an interface with two
// implementations, a function called twice from one function and once
// from a test, and a name defined in two packages.
var tiny = map[string]string{
	"go.mod": "module example.com/tiny\n\ngo 1.22\n",
	"shapes.go": `package tiny

// Shape has an area.
type Shape interface {
	Area() float64
}

// Square is a shape.
type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

// Circle is a shape.
type Circle struct{ R float64 }

func (c Circle) Area() float64 { return 3 * c.R * c.R }

// Total sums the areas.
func Total(shapes []Shape) float64 {
	t := 0.0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

// Double is twice the total.
func Double(shapes []Shape) float64 {
	return Total(shapes) + Total(shapes)
}

func helper() int { return 1 }
`,
	"shapes_test.go": `package tiny

import "testing"

func TestTotal(t *testing.T) {
	if Total([]Shape{Square{Side: 2}}) != 4 {
		t.Fatal("wrong")
	}
}
`,
	"other/other.go": `package other

func helper() int { return 2 }

// Use calls helper.
func Use() int { return helper() }
`,
	"names.go": `package tiny

import "fmt"

// String names a square.
func (s Square) String() string { return "square" }

// Name names any stringer.
func Name(v fmt.Stringer) string { return v.String() }
`,
	"other/names.go": `package other

import "fmt"

// Describe describes any stringer.
func Describe(v fmt.Stringer) string { return v.String() }

// Label is a label.
type Label struct{}

func (Label) String() string { return "label" }
`,
}

var tinyOnce struct {
	sync.Mutex
	truth *Truth
	dir   string
}

// tinyTruth indexes the tiny corpus with scip-go, once for every test; the
// tests only read what it returns.
func tinyTruth(t *testing.T) (*Truth, string) {
	t.Helper()
	tinyOnce.Lock()
	defer tinyOnce.Unlock()
	if tinyOnce.truth != nil {
		return tinyOnce.truth, tinyOnce.dir
	}
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	dir, err := os.MkdirTemp("", "gen-tiny-")
	if err != nil {
		t.Fatal(err)
	}
	testtool.WriteFiles(t, dir, tiny)
	out := filepath.Join(dir, ".index.scip")
	cmd := exec.Command(scipGo, "--quiet", "--output", out)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scip-go: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ReadSCIP(f, os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(out)
	tinyOnce.truth, tinyOnce.dir = tr, dir
	return tr, dir
}

func TestReadSCIP(t *testing.T) {
	tr, _ := tinyTruth(t)
	x := newIndex(tr)
	def := func(name, container string) Def {
		t.Helper()
		for _, i := range x.byName[name] {
			if d := tr.Defs[i]; d.Container == container {
				return d
			}
		}
		t.Fatalf("no definition of %s.%s", container, name)
		return Def{}
	}
	got := map[string]string{}
	for _, d := range []Def{def("Shape", ""), def("Area", "Shape"), def("Square", ""), def("Area", "Square"), def("Total", ""), def("helper", "")} {
		got[d.Container+"."+d.Name] = d.Kind + " " + d.Path + ":" + itoa(d.Line)
	}
	want := map[string]string{
		".Shape":      "interface shapes.go:4",
		"Shape.Area":  "method shapes.go:5",
		".Square":     "struct shapes.go:9",
		"Square.Area": "method shapes.go:11",
		".Total":      "function shapes.go:19",
		".helper":     "function other/other.go:3",
	}
	// helper is defined twice; the first found is other/other.go (sorted
	// documents) or shapes.go: accept either, checked below.
	if got[".helper"] != want[".helper"] {
		want[".helper"] = "function shapes.go:32"
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("definitions (-want +got):\n%s", d)
	}
	// Total: called twice on line 29 (one site), once from the test on line 6.
	if d := cmp.Diff([]Site{{"shapes.go", 29}, {"shapes_test.go", 6}}, x.refSites(def("Total", ""), true)); d != "" {
		t.Errorf("callers of Total (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Site{{"shapes_test.go", 6}}, x.testSites(def("Total", ""))); d != "" {
		t.Errorf("tests of Total (-want +got):\n%s", d)
	}
	// The call through the interface (line 22) is the interface method's
	// and, as gopls reports references, each implementation's; a struct
	// field is no definition.
	if d := cmp.Diff([]Site{{"shapes.go", 22}}, x.refSites(def("Area", "Shape"), true)); d != "" {
		t.Errorf("callers of Shape.Area (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Site{{"shapes.go", 22}}, x.refSites(def("Area", "Circle"), true)); d != "" {
		t.Errorf("callers of Circle.Area (-want +got):\n%s", d)
	}
	// A call through an interface of another module (fmt.Stringer) is
	// the method's in its own package alone, as gopls counts it.
	if d := cmp.Diff([]Site{{"names.go", 9}}, x.refSites(def("String", "Square"), true)); d != "" {
		t.Errorf("callers of Square.String (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Site{{"other/names.go", 6}}, x.refSites(def("String", "Label"), true)); d != "" {
		t.Errorf("callers of other.Label.String (-want +got):\n%s", d)
	}
	for _, d := range tr.Defs {
		if d.Name == "Side" || d.Name == "R" {
			t.Errorf("a field is a definition: %+v", d)
		}
	}
	if d := cmp.Diff([]Site{{"shapes.go", 9}, {"shapes.go", 14}}, x.subtypes(def("Shape", ""))); d != "" {
		t.Errorf("implementations of Shape (-want +got):\n%s", d)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestGenerate(t *testing.T) {
	tr, dir := tinyTruth(t)
	meta := Meta{Corpus: "tiny", Language: "go", Version: "v0"}
	s1, err := Generate(tr, meta, os.DirFS(dir), 1)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Generate(tr, meta, os.DirFS(dir), 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s1, s2); d != "" {
		t.Fatalf("the same seed gave two suites (-first +second):\n%s", d)
	}
	b, err := json.Marshal(s1)
	if err != nil {
		t.Fatal(err)
	}
	s3, err := ParseSuite(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("the generated suite does not parse: %v", err)
	}
	if d := cmp.Diff(s1, s3); d != "" {
		t.Errorf("round trip (-generated +parsed):\n%s", d)
	}
	kinds := map[string]bool{}
	for _, c := range s1.Cases {
		kinds[c.Kind] = true
		switch c.Kind {
		case KindAmbiguous:
			if want := map[string]int{"helper": 2, "Area": 3, "String": 2}[c.Name]; len(c.Sites) != want {
				t.Errorf("ambiguous %q: sites %v, want helper's two, Area's three or String's two", c.Question, c.Sites)
			}
		case KindSubtypes:
			if c.Name != "Shape" || len(c.Sites) != 2 {
				t.Errorf("subtypes %q: sites %v, want Square and Circle", c.Question, c.Sites)
			}
		case KindAbsent:
			if strings.Contains(tiny["shapes.go"]+tiny["other/other.go"]+tiny["shapes_test.go"], c.Name) {
				t.Errorf("absent %q is written in the corpus", c.Name)
			}
		}
	}
	for _, k := range []string{KindDefinition, KindAmbiguous, KindCallers, KindUsages, KindSubtypes, KindTests, KindAbsent} {
		if !kinds[k] {
			t.Errorf("no %s question in %d", k, len(s1.Cases))
		}
	}
	s4, err := Generate(tr, meta, os.DirFS(dir), 2)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(s1.Cases, s4.Cases) {
		t.Error("seeds 1 and 2 gave the same questions")
	}
}

// The runner asks a suite of the engine and scores every case; the
// answers' quality is what the evaluation measures, not what this checks.
func TestRunnerIndexed(t *testing.T) {
	tr, dir := tinyTruth(t)
	s, err := Generate(tr, Meta{Corpus: "tiny", Language: "go"}, os.DirFS(dir), 1)
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Work: t.TempDir()}
	outs, err := r.Run(context.Background(), dir, "", s, ModeIndexed)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != len(s.Cases) {
		t.Fatalf("%d outcomes for %d cases", len(outs), len(s.Cases))
	}
	for _, o := range outs {
		if o.Mode != ModeIndexed || o.Budget != s.Budget || o.Document == 0 || o.Expected != len(findCase(s, o.Question).Sites) {
			t.Errorf("outcome %+v", o)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecortex")); err == nil {
		t.Error("the runner wrote into the corpus instead of a copy")
	}
}

func findCase(s *Suite, q string) Case {
	for _, c := range s.Cases {
		if c.Question == q {
			return c
		}
	}
	return Case{}
}

// TestReadSCIPShorthand: a property an object literal writes as a
// function's name ({each}) and a local a destructuring binds by it, each
// defined by scip-typescript at the range that refers to the function,
// are the function to the truth: a call of either is a call of the
// function; another document's local of the same number is not.
func TestReadSCIPShorthand(t *testing.T) {
	const (
		fn   = "scip-typescript npm m 1 lib/`utils.js`/each()."
		prop = "scip-typescript npm m 1 lib/`utils.js`/each0:"
		def  = int32(scip.SymbolRole_Definition)
	)
	idx := &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-typescript", Version: "1"}},
		Documents: []*scip.Document{{
			RelativePath: "lib/utils.js",
			Occurrences: []*scip.Occurrence{
				{Range: []int32{0, 9, 13}, Symbol: fn, SymbolRoles: def},
				{Range: []int32{5, 2, 6}, Symbol: prop, SymbolRoles: def},
				{Range: []int32{5, 2, 6}, Symbol: fn},
			},
		}, {
			RelativePath: "lib/use.js",
			Occurrences:  []*scip.Occurrence{{Range: []int32{3, 8, 12}, Symbol: prop}},
		}, {
			RelativePath: "lib/lazy.test.js",
			Occurrences: []*scip.Occurrence{
				{Range: []int32{1, 10, 14}, Symbol: "local 3", SymbolRoles: def},
				{Range: []int32{1, 10, 14}, Symbol: fn},
				{Range: []int32{2, 2, 6}, Symbol: "local 3"},
			},
		}, {
			RelativePath: "lib/other.js",
			Occurrences:  []*scip.Occurrence{{Range: []int32{0, 0, 4}, Symbol: "local 3"}},
		}},
	}
	b, err := proto.Marshal(idx)
	if err != nil {
		t.Fatal(err)
	}
	src := fstest.MapFS{
		"lib/utils.js":     {Data: []byte("function each(a) {\n  return a;\n}\n\nexport default {\n  each,\n};\n")},
		"lib/use.js":       {Data: []byte("import utils from './utils.js';\n\nexport function f(x) {\n  utils.each(x);\n}\n")},
		"lib/lazy.test.js": {Data: []byte("test('each', async () => {\n  const { each } = await import('./utils.js');\n  each(1);\n});\n")},
		"lib/other.js":     {Data: []byte("each(2);\n")},
	}
	tr, err := ReadSCIP(bytes.NewReader(b), src)
	if err != nil {
		t.Fatal(err)
	}
	x := newIndex(tr)
	if len(tr.Defs) != 1 || tr.Defs[0].ID != fn {
		t.Fatalf("definitions %+v, want each() alone", tr.Defs)
	}
	if d := cmp.Diff([]Site{{"lib/lazy.test.js", 3}, {"lib/use.js", 4}}, x.refSites(tr.Defs[0], true)); d != "" {
		t.Errorf("callers of each (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Site{{"lib/lazy.test.js", 2}, {"lib/lazy.test.js", 3}, {"lib/use.js", 4}, {"lib/utils.js", 6}}, x.refSites(tr.Defs[0], false)); d != "" {
		t.Errorf("references of each (-want +got):\n%s", d)
	}
}

// TestReadSCIPConstructor: new C(…), which scip-typescript refers to C's
// constructor, is a use of the class C to the truth, as TypeScript's own
// references of C list it; the constructor's declaration is no use.
func TestReadSCIPConstructor(t *testing.T) {
	const (
		class = "scip-typescript npm m 1 src/`utils.ts`/Tuple#"
		ctor  = class + "`<constructor>`()."
		def   = int32(scip.SymbolRole_Definition)
	)
	idx := &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-typescript", Version: "1"}},
		Documents: []*scip.Document{{
			RelativePath: "src/utils.ts",
			Occurrences: []*scip.Occurrence{
				{Range: []int32{0, 13, 18}, Symbol: class, SymbolRoles: def},
				{Range: []int32{1, 2, 13}, Symbol: ctor, SymbolRoles: def},
			},
		}, {
			RelativePath: "src/tests/tuple.test.ts",
			Occurrences: []*scip.Occurrence{
				{Range: []int32{0, 9, 14}, Symbol: class},
				{Range: []int32{2, 16, 21}, Symbol: ctor},
			},
		}},
	}
	b, err := proto.Marshal(idx)
	if err != nil {
		t.Fatal(err)
	}
	src := fstest.MapFS{
		"src/utils.ts":            {Data: []byte("export class Tuple {\n  constructor() {}\n}\n")},
		"src/tests/tuple.test.ts": {Data: []byte("import { Tuple } from '../utils'\n\nconst t = new Tuple()\n")},
	}
	tr, err := ReadSCIP(bytes.NewReader(b), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Defs) != 1 || tr.Defs[0].ID != class {
		t.Fatalf("definitions %+v, want Tuple alone", tr.Defs)
	}
	x := newIndex(tr)
	if d := cmp.Diff([]Site{{"src/tests/tuple.test.ts", 1}, {"src/tests/tuple.test.ts", 3}}, x.refSites(tr.Defs[0], false)); d != "" {
		t.Errorf("references of Tuple (-want +got):\n%s", d)
	}
}
