package depsource

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// pflagVersion is the real module the Go tests resolve.
const pflagVersion = "v1.0.5"

// goProject writes a module that requires pflag at pflagVersion and lets
// the go command resolve it into a fresh module cache (writable, so the
// test can remove it) and write go.sum. It returns the project and cache.
func goProject(t *testing.T) (dir, cache string) {
	t.Helper()
	gobin := testtool.Require(t, "go", "install Go")
	dir = testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag " + pflagVersion + "\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nfunc main() { _ = pflag.NewFlagSet(\"x\", pflag.ContinueOnError) }\n",
	})
	cache = t.TempDir()
	env := append(safeexec.Environ("HOME", "PATH", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOCACHE"),
		"GOMODCACHE="+cache, "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"mod", "tidy"}, Dir: dir, Env: env})
	if err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, res.Stderr)
	}
	return dir, cache
}

// goDeclared is the oracle: where go/parser finds type name (or method
// recv.name) declared in the package directory dir.
func goDeclared(t *testing.T, dir, recv, name string) []string {
	t.Helper()
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && recv == "" && ts.Name.Name == name {
						p := fset.Position(ts.Name.Pos())
						out = append(out, e.Name()+":"+strconv.Itoa(p.Line))
					}
				}
			case *ast.FuncDecl:
				if d.Name.Name != name || (d.Recv == nil) != (recv == "") {
					continue
				}
				if recv != "" {
					typ := d.Recv.List[0].Type
					if st, ok := typ.(*ast.StarExpr); ok {
						typ = st.X
					}
					if id, ok := typ.(*ast.Ident); !ok || id.Name != recv {
						continue
					}
				}
				p := fset.Position(d.Name.Pos())
				out = append(out, e.Name()+":"+strconv.Itoa(p.Line))
			}
		}
	}
	return out
}

// found lists a result's definitions as file:line relative to the package.
func found(res *Result, prefix string) []string {
	var out []string
	for _, d := range res.Definitions {
		out = append(out, strings.TrimPrefix(d.Path, prefix)+":"+strconv.Itoa(d.Symbol.NameRange.StartLine))
	}
	return out
}

func TestGoModuleCache(t *testing.T) {
	dir, cache := goProject(t)
	p := New(Options{Dir: dir, GoModCache: cache})
	ctx := context.Background()
	modDir := filepath.Join(cache, "github.com", "spf13", "pflag@"+pflagVersion)
	for _, c := range []struct{ name, recv, sym string }{
		{"pflag.FlagSet", "", "FlagSet"},
		{"pflag.FlagSet.Parse", "FlagSet", "Parse"},
		{"pflag.NewFlagSet", "", "NewFlagSet"},
	} {
		res, err := p.Find(ctx, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Problems) > 0 {
			t.Fatalf("%s: problems %v", c.name, res.Problems)
		}
		want := goDeclared(t, modDir, c.recv, c.sym)
		got := found(res, "github.com/spf13/pflag@"+pflagVersion+"/")
		if strings.Join(got, ",") != strings.Join(want, ",") || len(want) == 0 {
			t.Errorf("%s: found %v, go/parser %v", c.name, got, want)
		}
		for _, d := range res.Definitions {
			if d.Copy.Version != pflagVersion || d.Copy.Checked != "go.sum" || d.Copy.Root != RootModCache {
				t.Errorf("%s: copy %+v", c.name, d.Copy)
			}
			r := d.Record()
			if err := r.Validate(); err != nil {
				t.Errorf("%s: record: %v", c.name, err)
			}
			if !Outside(&r) || r.Trust != trust.Structural || r.Metadata.Attributes["dependency"] != "github.com/spf13/pflag" {
				t.Errorf("%s: record %+v", c.name, r)
			}
			if err := p.CheckRecord(&r); err != nil {
				t.Errorf("%s: CheckRecord: %v", c.name, err)
			}
		}
	}

	// The provider answers a definition query with the same records.
	resp, err := p.Gather(ctx, evidence.Query{Symbol: "pflag.FlagSet", Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil || len(resp.Records) != 1 || resp.Records[0].Symbol != "pflag.FlagSet" {
		t.Fatalf("Gather: %v %+v", err, resp)
	}

	// A copy whose hash is not go.sum's is reported, never served.
	zh := filepath.Join(cache, "cache", "download", "github.com", "spf13", "pflag", "@v", pflagVersion+".ziphash")
	if err := os.WriteFile(zh, []byte("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := New(Options{Dir: dir, GoModCache: cache}).Find(ctx, "pflag.FlagSet")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "go.sum records") {
		t.Fatalf("tampered copy: %+v", res)
	}
	resp, _ = New(Options{Dir: dir, GoModCache: cache}).Gather(ctx, evidence.Query{Symbol: "pflag.FlagSet"})
	if resp.Report.State != evidence.Unavailable || !strings.Contains(resp.Report.Reason, "go.sum records") {
		t.Fatalf("tampered copy report: %+v", resp.Report)
	}

	// A version go.mod requires that the cache does not hold is reported.
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.3\n"), 0o644)
	res, _ = New(Options{Dir: dir, GoModCache: cache}).Find(ctx, "pflag.FlagSet")
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "not in the module cache") ||
		!strings.Contains(res.Problems[0].Guidance, "go mod download github.com/spf13/pflag@v1.0.3") {
		t.Fatalf("missing version: %+v", res)
	}
}

// npmProject installs uuid at a pinned version into a new project.
func npmProject(t *testing.T) string {
	t.Helper()
	npm := testtool.Require(t, "npm", "Node.js 20 and npm are on CI machines (apt or nodesource)")
	dir := testtool.WriteTree(t, map[string]string{
		"package.json": `{"name": "app", "version": "1.0.0", "private": true, "dependencies": {"uuid": "9.0.1"}}`,
		"index.js":     "const uuid = require('uuid');\nconsole.log(uuid.v4());\n",
	})
	env := append(safeexec.Environ("PATH", "HOME", "npm_config_registry", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"),
		"npm_config_cache="+filepath.Join(t.TempDir(), "npm-cache"), "npm_config_update_notifier=false",
		"npm_config_fund=false", "npm_config_audit=false")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: npm, Args: []string{"install", "--ignore-scripts"}, Dir: dir, Env: env})
	if err != nil {
		t.Fatalf("npm install: %v\n%s", err, res.Stderr)
	}
	return dir
}

func TestNodeModules(t *testing.T) {
	dir := npmProject(t)
	ctx := context.Background()
	p := New(Options{Dir: dir})
	res, err := p.Find(ctx, "uuid.v4")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 || len(res.Definitions) == 0 {
		t.Fatalf("uuid.v4: %+v", res)
	}
	for _, d := range res.Definitions {
		if d.Copy.Version != "9.0.1" || d.Copy.Checked != "package-lock.json" || !strings.HasPrefix(d.Path, "node_modules/uuid/") {
			t.Errorf("definition %+v", d)
		}
		// The oracle is the file itself: the line named declares v4.
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Split(string(src), "\n")[d.Symbol.NameRange.StartLine-1]
		if !strings.Contains(line, "function v4(") && !strings.Contains(line, "const v4 = ") {
			t.Errorf("%s:%d is %q", d.Path, d.Symbol.NameRange.StartLine, line)
		}
		r := d.Record()
		if err := r.Validate(); err != nil || p.CheckRecord(&r) != nil {
			t.Errorf("record %s: %v %v", r.Location(), err, p.CheckRecord(&r))
		}
	}
	var files []string
	for _, d := range res.Definitions {
		files = append(files, d.Path)
	}
	if !strings.Contains(strings.Join(files, " "), "node_modules/uuid/dist/v4.js") {
		t.Errorf("the CommonJS build's v4 is missing: %v", files)
	}

	// An installed version that is not the lockfile's is reported.
	pj := filepath.Join(dir, "node_modules", "uuid", "package.json")
	data, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pj, []byte(strings.Replace(string(data), `"version": "9.0.1"`, `"version": "9.0.0"`, 1)), 0o644)
	res, _ = New(Options{Dir: dir}).Find(ctx, "uuid.v4")
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is version 9.0.0, package-lock.json resolves 9.0.1") {
		t.Fatalf("mismatch: %+v", res)
	}
}

// goMayDefine lets through every file that defines a name: for every
// definition symbols.Extract reads from real modules' files (pflag, cobra,
// and a package of the standard library), the file is let through for that
// name.
func TestGoMayDefineMissesNothing(t *testing.T) {
	dirs := []string{
		testtool.ModuleDir(t, "github.com/spf13/pflag@v1.0.9"),
		testtool.ModuleDir(t, testtool.Cobra),
		filepath.Join(testtool.GOROOT(t), "src", "net", "http"),
	}
	checked := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sf, err := symbols.Extract(f, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sf.Symbols {
				checked++
				if !goMayDefine(src, []byte(s.Name)) {
					t.Errorf("%s: %s %s (line %d) is not let through", f, s.Kind, s.Name, s.NameRange.StartLine)
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d definitions checked", checked)
	}
}

// A dependency indexed with scip-typescript answers its definitions
// exact, each confirmed by the index at the very place the syntax found
// it; an index sealed by another key is not served.
func TestIndexNodeModulesExact(t *testing.T) {
	testtool.Require(t, "scip-typescript", "npm install -g @sourcegraph/scip-typescript@0.4.0")
	dir := npmProject(t)
	ctx := context.Background()
	mine, err := seal.NewKey(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Dir: dir, Seal: mine})
	res, err := p.Index(ctx, "uuid")
	if err != nil || len(res.Indexes) != 1 || len(res.Problems) != 0 {
		t.Fatalf("Index: %v %+v", err, res)
	}
	ix := res.Indexes[0]
	if ix.Path != ".codecortex/deps/npm/uuid@9.0.1.scip" || ix.Documents == 0 || !strings.HasPrefix(ix.Indexer, "scip-typescript") {
		t.Errorf("index %+v", ix)
	}
	// Nothing is left beside it, and nothing was written into node_modules.
	ents, _ := os.ReadDir(filepath.Join(dir, ".codecortex", "deps"))
	if len(ents) != 1 || ents[0].Name() != "npm" {
		t.Errorf(".codecortex/deps holds %v", ents)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "uuid", "tsconfig.json")); err == nil {
		t.Error("a tsconfig.json was written into node_modules/uuid")
	}

	found, err := p.Find(ctx, "uuid.v4")
	if err != nil || len(found.Definitions) == 0 {
		t.Fatalf("Find: %v %+v", err, found)
	}
	for _, d := range found.Definitions {
		r := d.Record()
		if d.SCIPSymbol == "" || r.Trust != trust.Exact || !r.Exact || r.Validate() != nil || p.CheckRecord(&r) != nil {
			t.Errorf("%s: not exact: %+v", d.Path, r)
		}
		if !strings.Contains(d.SCIPSymbol, "npm uuid 9.0.1") || !strings.HasSuffix(d.SCIPSymbol, "v4().") && !strings.HasSuffix(d.SCIPSymbol, "v4.") {
			t.Errorf("%s: symbol %q", d.Path, d.SCIPSymbol)
		}
	}

	other, _ := seal.NewKey(bytes.Repeat([]byte{8}, 32))
	found, err = New(Options{Dir: dir, Seal: other}).Find(ctx, "uuid.v4")
	if err != nil || len(found.Definitions) == 0 {
		t.Fatalf("Find: %v %+v", err, found)
	}
	for _, d := range found.Definitions {
		if d.SCIPSymbol != "" {
			t.Errorf("%s: served an index another key sealed", d.Path)
		}
	}
	if len(found.Notes) != 1 || !strings.Contains(found.Notes[0], "not sealed by this user's cortex") {
		t.Errorf("notes %v", found.Notes)
	}
}

// A dependency of an ecosystem no indexer is run for, or a name that
// names none, is said, and nothing is written.
func TestIndexWithoutIndexer(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
		"Cargo.lock": "version = 3\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
	})
	cargo := t.TempDir()
	src := filepath.Join(cargo, "registry", "src", "index.crates.io-6f17d22bba15001f", "serde-1.0.200")
	testtool.WriteFiles(t, src, map[string]string{
		"Cargo.toml": "[package]\nname = \"serde\"\nversion = \"1.0.200\"\n",
		"src/lib.rs": "pub trait Serialize {}\n",
	})
	p := New(Options{Dir: dir, CargoHome: cargo})
	res, err := p.Index(context.Background(), "serde")
	if err != nil || len(res.Indexes) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "no SCIP indexer is run for cargo") {
		t.Fatalf("%v %+v", err, res)
	}
	res, err = p.Index(context.Background(), "nosuchdep")
	if err != nil || len(res.Indexes)+len(res.Problems) != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecortex")); err == nil {
		t.Error(".codecortex was written")
	}
}

// scip-go indexes a Go module in the module cache the provider reads
// (not the environment's), off the network; a type and a method are then
// exact, each at the place go/parser declares it.
func TestIndexGoModule(t *testing.T) {
	testtool.Require(t, "scip-go", "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26")
	dir, cache := goProject(t)
	key, _ := seal.NewKey(bytes.Repeat([]byte{9}, 32))
	p := New(Options{Dir: dir, GoModCache: cache, Seal: key})
	ctx := context.Background()
	ixr, err := p.Index(ctx, "github.com/spf13/pflag")
	if err != nil || len(ixr.Indexes) != 1 || len(ixr.Problems) != 0 {
		t.Fatalf("Index: %v %+v", err, ixr)
	}
	if ixr.Indexes[0].Path != ".codecortex/deps/go/github.com%2Fspf13%2Fpflag@"+pflagVersion+".scip" {
		t.Errorf("path %s", ixr.Indexes[0].Path)
	}
	modDir := filepath.Join(cache, "github.com", "spf13", "pflag@"+pflagVersion)
	for _, c := range []struct{ name, recv, sym string }{
		{"pflag.FlagSet", "", "FlagSet"},
		{"pflag.FlagSet.Parse", "FlagSet", "Parse"},
	} {
		res, err := p.Find(ctx, c.name)
		if err != nil {
			t.Fatal(err)
		}
		want := goDeclared(t, modDir, c.recv, c.sym)
		if got := found(res, "github.com/spf13/pflag@"+pflagVersion+"/"); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %v, go/parser %v", c.name, got, want)
		}
		for _, d := range res.Definitions {
			if r := d.Record(); r.Trust != trust.Exact || !strings.Contains(d.SCIPSymbol, "gomod github.com/spf13/pflag "+pflagVersion) {
				t.Errorf("%s: %+v (symbol %q)", c.name, r, d.SCIPSymbol)
			}
		}
	}
}

// debianPyYAML is Debian's python3-yaml: a real distribution (its
// .dist-info and its yaml package), which .ci/run installs with apt, as
// this machine reaches no Python package index.
const debianPyYAML = "/usr/lib/python3/dist-packages"

// pyYAMLProject copies Debian's PyYAML into a project's virtual
// environment, pinned by requirements.txt at the version it holds.
func pyYAMLProject(t *testing.T) (dir, version string) {
	t.Helper()
	infos, _ := filepath.Glob(filepath.Join(debianPyYAML, "PyYAML-*.dist-info"))
	if len(infos) != 1 {
		if testtool.InCI() {
			t.Fatalf("Debian's python3-yaml is required in CI (.ci/run installs it with apt): %v", infos)
		}
		t.Skip("Debian's python3-yaml is not installed: apt-get install python3-yaml")
	}
	version = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(infos[0]), "PyYAML-"), ".dist-info")
	dir = testtool.WriteTree(t, map[string]string{"requirements.txt": "PyYAML==" + version + "\n"})
	sp := filepath.Join(dir, ".venv", "lib", "python3.11", "site-packages")
	for _, d := range []string{infos[0], filepath.Join(debianPyYAML, "yaml")} {
		if err := os.CopyFS(filepath.Join(sp, filepath.Base(d)), os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
	}
	return dir, version
}

// On a real distribution (Debian's PyYAML), yaml.safe_load is found in
// the package the distribution's top_level.txt names, at the version
// requirements.txt pins; with the module indexed by scip-python, exact.
func TestSitePackagesExact(t *testing.T) {
	dir, version := pyYAMLProject(t)
	ctx := context.Background()
	key, _ := seal.NewKey(bytes.Repeat([]byte{5}, 32))
	p := New(Options{Dir: dir, Seal: key})
	res, err := p.Find(ctx, "yaml.safe_load")
	if err != nil || len(res.Problems) != 0 || len(res.Definitions) != 1 {
		t.Fatalf("Find: %v %+v", err, res)
	}
	d := res.Definitions[0]
	if d.Path != ".venv/lib/python3.11/site-packages/yaml/__init__.py" || d.Copy.Version != version || d.Copy.Checked != "requirements.txt" ||
		!strings.HasPrefix(d.Line, "def safe_load(") || d.Record().Trust != trust.Structural {
		t.Fatalf("definition %+v", d)
	}

	testtool.Require(t, "scip-python", "npm install -g @sourcegraph/scip-python@0.6.6")
	ixr, err := p.Index(ctx, "yaml")
	if err != nil || len(ixr.Indexes) != 1 || len(ixr.Problems) != 0 {
		t.Fatalf("Index: %v %+v", err, ixr)
	}
	if want := ".codecortex/deps/pypi/pyyaml@" + version + "+yaml.scip"; ixr.Indexes[0].Path != want {
		t.Errorf("index at %s, want %s", ixr.Indexes[0].Path, want)
	}
	res, err = p.Find(ctx, "yaml.safe_load")
	if err != nil || len(res.Definitions) != 1 {
		t.Fatalf("Find: %v %+v", err, res)
	}
	d = res.Definitions[0]
	// The symbol a project's scip-python index refers to it by.
	if r := d.Record(); r.Trust != trust.Exact || d.SCIPSymbol != "scip-python python PyYAML "+version+" yaml/safe_load()." {
		t.Fatalf("after indexing: %+v (symbol %q)", r, d.SCIPSymbol)
	}
}

// debianCrates holds the sources of Debian's librust-*-dev packages, real
// crates as crates.io serves them, which .ci/run installs with apt (this
// machine reaches no crate registry).
const debianCrates = "/usr/share/cargo/registry"

// On a real crate (Debian's itoa), itoa::Buffer and its method format are
// found in Cargo's registry at the version Cargo.lock resolves, where the
// crate's own source declares them; the copy's Cargo.toml version is
// checked.
func TestCargoRegistryDebian(t *testing.T) {
	srcs, _ := filepath.Glob(filepath.Join(debianCrates, "itoa-1.*"))
	if len(srcs) != 1 {
		if testtool.InCI() {
			t.Fatalf("Debian's librust-itoa-dev is required in CI (.ci/run installs it with apt): %v", srcs)
		}
		t.Skip("Debian's librust-itoa-dev is not installed: apt-get install librust-itoa-dev")
	}
	version := strings.TrimPrefix(filepath.Base(srcs[0]), "itoa-")
	home := t.TempDir()
	crate := "registry/src/index.crates.io-6f17d22bba15001f/itoa-" + version
	if err := os.CopyFS(filepath.Join(home, filepath.FromSlash(crate)), os.DirFS(srcs[0])); err != nil {
		t.Fatal(err)
	}
	dir := testtool.WriteTree(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nitoa = \"1\"\n",
		"Cargo.lock": "version = 3\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\ndependencies = [\"itoa\"]\n\n" +
			"[[package]]\nname = \"itoa\"\nversion = \"" + version + "\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
	})
	lib, err := os.ReadFile(filepath.Join(srcs[0], "src", "lib.rs"))
	if err != nil {
		t.Fatal(err)
	}
	// The oracle: the lines of lib.rs that declare them.
	lineOf := func(prefix string) string {
		for i, l := range strings.Split(string(lib), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return crate + "/src/lib.rs:" + strconv.Itoa(i+1)
			}
		}
		t.Fatalf("lib.rs declares no %q", prefix)
		return ""
	}
	p := New(Options{Dir: dir, CargoHome: home})
	for name, want := range map[string]string{
		"itoa::Buffer":         lineOf("pub struct Buffer"),
		"itoa::Buffer::format": lineOf("pub fn format<"),
	} {
		res, err := p.Find(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(found(res, ""), ","); got != want || len(res.Problems) > 0 {
			t.Errorf("%s: %q %v, want %q", name, got, res.Problems, want)
		}
		for _, d := range res.Definitions {
			if r := d.Record(); d.Copy.Version != version || d.Copy.Checked != "Cargo.lock" || p.CheckRecord(&r) != nil {
				t.Errorf("%s: %+v", name, d.Copy)
			}
		}
	}
}
