package depsource

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// outlineNames lists an outline's definitions as path:name.
func outlineNames(res *Result) string {
	var out []string
	for _, d := range res.Definitions {
		out = append(out, d.Path+":"+d.Symbol.Name)
	}
	return strings.Join(out, ",")
}

func TestOutlineGoSynthetic(t *testing.T) {
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/!burnt!sushi/toml@v1.0.0/decode.go":      "package toml\n\n// Decode decodes.\nfunc Decode(data string, v any) error { return nil }\n\nfunc decode() {}\n",
		"github.com/!burnt!sushi/toml@v1.0.0/decode_test.go": "package toml\n\nfunc TestDecode() {}\n",
		"github.com/!burnt!sushi/toml@v1.0.0/type.go":        "package toml\n\ntype Key []string\n\nfunc (k Key) String() string { return \"\" }\n\ntype key struct{}\n\nfunc (key) String() string { return \"\" }\n",
		"github.com/!burnt!sushi/toml@v1.0.0/sub/sub.go":     "package sub\n\nfunc Sub() {}\n",
	})
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire github.com/BurntSushi/toml v1.0.0\n"})
	p := New(Options{Dir: dir, GoModCache: cache})
	ctx := context.Background()
	const base = "github.com/!burnt!sushi/toml@v1.0.0/"
	for _, name := range []string{"toml", "github.com/BurntSushi/toml"} {
		res, err := p.Outline(ctx, name, OutlineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := outlineNames(res), base+"decode.go:Decode,"+base+"type.go:Key,"+base+"type.go:String"; got != want || len(res.Problems) != 0 {
			t.Fatalf("%s: %s, want %s; %+v", name, got, want, res.Problems)
		}
		r := res.Definitions[0].Record()
		if r.Symbol != "toml.Decode" || r.Metadata.Attributes["signature"] == "" || !Outside(&r) ||
			r.Metadata.Attributes["version"] != "v1.0.0" || p.CheckRecord(&r) != nil {
			t.Fatalf("%s: record %+v", name, r)
		}
	}
	res, _ := p.Outline(ctx, "toml", OutlineOptions{All: true})
	if !strings.Contains(outlineNames(res), base+"decode.go:decode") {
		t.Errorf("All: %s", outlineNames(res))
	}
	// A package inside the module, by its import path.
	res, _ = p.Outline(ctx, "github.com/BurntSushi/toml/sub", OutlineOptions{})
	if got := outlineNames(res); got != base+"sub/sub.go:Sub" {
		t.Errorf("subpackage: %s", got)
	}
	// A name no dependency has gives nothing.
	for _, name := range []string{"nothing", "", "a b"} {
		if res, err := p.Outline(ctx, name, OutlineOptions{}); err != nil || len(res.Definitions)+len(res.Copies)+len(res.Problems) != 0 {
			t.Errorf("%q: %+v %v", name, res, err)
		}
	}
	// A replaced module is reported and not read.
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.21\n\nrequire github.com/BurntSushi/toml v1.0.0\n\nreplace github.com/BurntSushi/toml => ../toml\n"), 0o644)
	res, _ = New(Options{Dir: dir, GoModCache: cache}).Outline(ctx, "toml", OutlineOptions{})
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "replaced") {
		t.Fatalf("replaced: %+v", res)
	}
}

func TestOutlineNodeModulesSynthetic(t *testing.T) {
	ctx := context.Background()
	dir := npmTree(t, map[string]string{
		"node_modules/left-pad/package.json":            `{"name": "left-pad", "version": "1.3.0"}`,
		"node_modules/left-pad/index.js":                "function leftPad(str, len, ch) {\n  function inner() {}\n}\nclass Pad {\n  run() {}\n}\nmodule.exports = leftPad;\n",
		"node_modules/left-pad/lib/util.js":             "export const pad = 1;\n",
		"node_modules/left-pad/node_modules/x/index.js": "function other() {}\n",
	})
	p := New(Options{Dir: dir})
	res, err := p.Outline(ctx, "left-pad", OutlineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := outlineNames(res)
	for _, want := range []string{"node_modules/left-pad/index.js:leftPad", "node_modules/left-pad/index.js:Pad", "node_modules/left-pad/lib/util.js:pad"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
	if strings.Contains(got, ":run") || strings.Contains(got, ":other") || res.Copies[0].Checked != "package-lock.json" {
		t.Errorf("outline %s, copies %+v", got, res.Copies)
	}
	for _, d := range res.Definitions {
		if r := d.Record(); p.CheckRecord(&r) != nil || r.Metadata.Attributes["dependency"] != "left-pad" {
			t.Errorf("record %+v", r)
		}
	}
	if res, _ := p.Outline(ctx, "left-pad", OutlineOptions{All: true}); !strings.Contains(outlineNames(res), ":run") {
		t.Errorf("All: %s", outlineNames(res))
	}
	if res, _ := New(Options{Dir: dir, MaxFiles: 1}).Outline(ctx, "left-pad", OutlineOptions{}); len(res.Definitions) == 0 ||
		!strings.Contains(res.Partial, "only the first 1 source files") {
		t.Errorf("file cap: %+v", res)
	}
	mismatch := npmTree(t, map[string]string{
		"node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.2.0"}`,
		"node_modules/left-pad/index.js":     "function leftPad() {}\n",
	})
	res, _ = New(Options{Dir: mismatch}).Outline(ctx, "left-pad", OutlineOptions{})
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is version 1.2.0, package-lock.json resolves 1.3.0") {
		t.Fatalf("mismatch: %+v", res)
	}
	res, _ = New(Options{Dir: npmTree(t, nil)}).Outline(ctx, "left-pad", OutlineOptions{})
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is not installed") {
		t.Fatalf("not installed: %+v", res)
	}
}

// The real pflag copy's outline holds every exported function, type and
// method of an exported type go/parser finds in it, at the same line, and
// nothing unexported nor a member of an unexported type.
func TestOutlineGoModuleCache(t *testing.T) {
	dir, cache := goProject(t)
	ctx := context.Background()
	res, err := New(Options{Dir: dir, GoModCache: cache}).Outline(ctx, "pflag", OutlineOptions{})
	if err != nil || len(res.Problems) != 0 || res.Partial != "" {
		t.Fatalf("%v %+v %s", err, res.Problems, res.Partial)
	}
	prefix := "github.com/spf13/pflag@" + pflagVersion + "/"
	have := map[string]bool{}
	for _, d := range res.Definitions {
		if !d.Symbol.Exported || !ast.IsExported(d.Symbol.Name) || d.Symbol.Container != "" && !ast.IsExported(normContainer(d.Symbol.Container)) {
			t.Errorf("unexported %s.%s", d.Symbol.Container, d.Symbol.Name)
		}
		have[strings.TrimPrefix(d.Path, prefix)+":"+strconv.Itoa(d.Symbol.NameRange.StartLine)+":"+d.Symbol.Name] = true
	}
	modDir := filepath.Join(cache, "github.com", "spf13", "pflag@"+pflagVersion)
	ents, _ := os.ReadDir(modDir)
	fset := token.NewFileSet()
	n := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(modDir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		check := func(id *ast.Ident) {
			if !id.IsExported() {
				return
			}
			n++
			if k := e.Name() + ":" + strconv.Itoa(fset.Position(id.Pos()).Line) + ":" + id.Name; !have[k] {
				t.Errorf("go/parser declares %s, not in the outline", k)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					typ := d.Recv.List[0].Type
					if st, ok := typ.(*ast.StarExpr); ok {
						typ = st.X
					}
					if id, ok := typ.(*ast.Ident); !ok || !id.IsExported() {
						continue // a method of an unexported type
					}
				}
				check(d.Name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						check(ts.Name)
					}
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("go/parser found only %d exported declarations", n)
	}
	// A copy whose hash is not go.sum's is reported, never read.
	zh := filepath.Join(cache, "cache", "download", "github.com", "spf13", "pflag", "@v", pflagVersion+".ziphash")
	if err := os.WriteFile(zh, []byte("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ = New(Options{Dir: dir, GoModCache: cache}).Outline(ctx, "github.com/spf13/pflag", OutlineOptions{})
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "go.sum records") {
		t.Fatalf("tampered copy: %+v", res)
	}
}

// A Python package's outline is its modules' top-level definitions; a
// module found through a distribution's top_level.txt (PyYAML's yaml) is
// outlined too, and a name no installed distribution provides names
// nothing, even when another is not installed.
func TestOutlineSitePackages(t *testing.T) {
	ctx := context.Background()
	p := New(Options{Dir: pythonTree(t, nil)})
	for name, want := range map[string]string{
		"requests": sp + "requests/api.py:request," + sp + "requests/api.py:get," + sp + "requests/sessions.py:Session",
		"yaml":     sp + "yaml/__init__.py:safe_load",
		"six":      sp + "six.py:iteritems",
	} {
		res, err := p.Outline(ctx, name, OutlineOptions{})
		if err != nil || len(res.Problems) != 0 || outlineNames(res) != want {
			t.Errorf("%s: %v %s %v, want %s", name, err, outlineNames(res), res.Problems, want)
		}
	}
	dir := pythonTree(t, map[string]string{"requirements.txt": "requests==2.31.0\nPyYAML==6.0.1\nsix==1.16.0\nattrs==23.1.0\n"})
	res, err := New(Options{Dir: dir}).Outline(ctx, "nothing", OutlineOptions{})
	if err != nil || len(res.Copies)+len(res.Problems)+len(res.Definitions) != 0 {
		t.Errorf("nothing: %v %+v", err, res)
	}
	res, _ = New(Options{Dir: dir}).Outline(ctx, "attrs", OutlineOptions{})
	if len(res.Problems) != 1 || res.Problems[0].Name != "attrs" {
		t.Errorf("attrs not installed: %+v", res)
	}
}
