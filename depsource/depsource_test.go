package depsource

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

func TestSplitName(t *testing.T) {
	for in, want := range map[string]target{
		"pflag.FlagSet":                          {qual: "pflag", name: "FlagSet"},
		"pflag.FlagSet.Parse":                    {qual: "pflag", container: "FlagSet", name: "Parse"},
		"@scope/pkg.fn":                          {qual: "@scope/pkg", name: "fn"},
		"github.com/spf13/cobra/doc.GenMarkdown": {qual: "github.com/spf13/cobra/doc", name: "GenMarkdown"},
	} {
		got, ok := splitName(in)
		if !ok || got != want {
			t.Errorf("splitName(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "FlagSet", "pflag.", ".FlagSet", "a..b", "a b.c", "x/.y", "dir/name"} {
		if got, ok := splitName(in); ok {
			t.Errorf("splitName(%q) = %+v, want no qualified name", in, got)
		}
	}
}

func TestGoPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/spf13/pflag":    "pflag",
		"github.com/jackc/pgx/v5":   "pgx",
		"gopkg.in/yaml.v3":          "yaml",
		"golang.org/x/mod":          "mod",
		"example.com/v2":            "example.com",
		"github.com/foo/go.version": "go.version",
	} {
		if got := goPackageName(in); got != want {
			t.Errorf("goPackageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A module path with capitals lives in the cache with each capital
// escaped as "!" and the letter in lower case; the record says so.
func TestCapitalsEscaped(t *testing.T) {
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/!burnt!sushi/toml@v1.0.0/decode.go":      "package toml\n\n// Decode decodes.\nfunc Decode(data string, v any) error { return nil }\n",
		"github.com/!burnt!sushi/toml@v1.0.0/decode_test.go": "package toml\n\nfunc Decode() {}\n",
	})
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire github.com/BurntSushi/toml v1.0.0\n"})
	p := New(Options{Dir: dir, GoModCache: cache})
	res, err := p.Find(context.Background(), "toml.Decode")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 1 || res.Definitions[0].Path != "github.com/!burnt!sushi/toml@v1.0.0/decode.go" || res.Definitions[0].Copy.Checked != "go.mod" {
		t.Fatalf("%+v", res)
	}
	r := res.Definitions[0].Record()
	if r.Symbol != "toml.Decode" || r.Metadata.Excerpt != "func Decode(data string, v any) error { return nil }" || p.CheckRecord(&r) != nil {
		t.Fatalf("record %+v: %v", r, p.CheckRecord(&r))
	}
	// A record claiming a path outside the dependency's directory fails the check.
	bad := r
	bad.Path = "github.com/!burnt!sushi/toml@v1.0.0/../../../etc/passwd"
	if p.CheckRecord(&bad) == nil {
		t.Error("an escaping path passed CheckRecord")
	}
	bad.Path = "github.com/other/mod@v1.0.0/x.go"
	if p.CheckRecord(&bad) == nil {
		t.Error("a path outside the named dependency passed CheckRecord")
	}
}

// A replaced module is reported: the module cache's copy is not what
// builds.
func TestReplacedModule(t *testing.T) {
	cache := testtool.WriteTree(t, map[string]string{"github.com/a/b@v1.0.0/b.go": "package b\n\nfunc F() {}\n"})
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module m\n\ngo 1.21\n\nrequire github.com/a/b v1.0.0\n\nreplace github.com/a/b => ../b\n"})
	res, err := New(Options{Dir: dir, GoModCache: cache}).Find(context.Background(), "b.F")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "replaced") {
		t.Fatalf("%+v", res)
	}
}

const lock = `{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {
  "": {"name": "app", "dependencies": {"left-pad": "^1.3.0"}},
  "node_modules/left-pad": {"version": "1.3.0", "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"}}}`

func npmTree(t *testing.T, files map[string]string) string {
	t.Helper()
	base := map[string]string{
		"package.json":      `{"name": "app", "dependencies": {"left-pad": "^1.3.0"}}`,
		"package-lock.json": lock,
	}
	for k, v := range files {
		base[k] = v
	}
	return testtool.WriteTree(t, base)
}

func TestNodeModulesSynthetic(t *testing.T) {
	ctx := context.Background()
	t.Run("locked", func(t *testing.T) {
		dir := npmTree(t, map[string]string{
			"node_modules/left-pad/package.json":            `{"name": "left-pad", "version": "1.3.0"}`,
			"node_modules/left-pad/index.js":                "function leftPad(str, len, ch) {}\nmodule.exports = leftPad;\n",
			"node_modules/left-pad/node_modules/x/index.js": "function leftPad() {}\n",
			"node_modules/left-pad/.hidden/index.js":        "function leftPad() {}\n",
		})
		res, err := New(Options{Dir: dir}).Find(ctx, "leftPad.leftPad")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Definitions) != 1 || res.Definitions[0].Path != "node_modules/left-pad/index.js" ||
			res.Definitions[0].Copy.Version != "1.3.0" || res.Definitions[0].Copy.Checked != "package-lock.json" {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("mismatch", func(t *testing.T) {
		dir := npmTree(t, map[string]string{
			"node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.2.0"}`,
			"node_modules/left-pad/index.js":     "function leftPad() {}\n",
		})
		res, _ := New(Options{Dir: dir}).Find(ctx, "left-pad.leftPad")
		if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is version 1.2.0, package-lock.json resolves 1.3.0") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("not installed", func(t *testing.T) {
		dir := npmTree(t, nil)
		res, _ := New(Options{Dir: dir}).Find(ctx, "left-pad.leftPad")
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is not installed") || res.Problems[0].Guidance == "" {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("another package installed", func(t *testing.T) {
		dir := npmTree(t, map[string]string{"node_modules/left-pad/package.json": `{"name": "right-pad", "version": "1.3.0"}`})
		res, _ := New(Options{Dir: dir}).Find(ctx, "left-pad.leftPad")
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "holds right-pad") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("package directory links outside", func(t *testing.T) {
		outside := testtool.WriteTree(t, map[string]string{
			"package.json": `{"name": "left-pad", "version": "1.3.0"}`,
			"index.js":     "function leftPad() {}\n",
		})
		dir := npmTree(t, map[string]string{"node_modules/.keep": ""})
		if err := os.Symlink(outside, filepath.Join(dir, "node_modules", "left-pad")); err != nil {
			t.Skip(err)
		}
		res, _ := New(Options{Dir: dir}).Find(ctx, "left-pad.leftPad")
		if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "leaves the project") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("link inside the package to outside", func(t *testing.T) {
		outside := testtool.WriteTree(t, map[string]string{"evil.js": "function leftPad() {}\n"})
		dir := npmTree(t, map[string]string{"node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.3.0"}`})
		if err := os.Symlink(filepath.Join(outside, "evil.js"), filepath.Join(dir, "node_modules", "left-pad", "index.js")); err != nil {
			t.Skip(err)
		}
		if err := os.Symlink("../../../"+filepath.Base(outside)+"/evil.js", filepath.Join(dir, "node_modules", "left-pad", "rel.js")); err != nil {
			t.Skip(err)
		}
		res, _ := New(Options{Dir: dir}).Find(ctx, "left-pad.leftPad")
		if len(res.Definitions) != 0 || len(res.Problems) != 0 {
			t.Fatalf("a link out of the package was read: %+v", res)
		}
	})
	t.Run("pnpm link inside the project", func(t *testing.T) {
		dir := npmTree(t, map[string]string{
			"node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.3.0"}`,
			"node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js":     "function leftPad() {}\n",
		})
		if err := os.Symlink(".pnpm/left-pad@1.3.0/node_modules/left-pad", filepath.Join(dir, "node_modules", "left-pad")); err != nil {
			t.Skip(err)
		}
		p := New(Options{Dir: dir})
		res, _ := p.Find(ctx, "left-pad.leftPad")
		if len(res.Definitions) != 1 || res.Definitions[0].Path != "node_modules/left-pad/index.js" {
			t.Fatalf("%+v", res)
		}
		r := res.Definitions[0].Record()
		if err := p.CheckRecord(&r); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("file cap", func(t *testing.T) {
		files := map[string]string{"node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.3.0"}`}
		for _, n := range []string{"a", "b", "c"} {
			files["node_modules/left-pad/"+n+".js"] = "function leftPad() {}\n"
		}
		dir := npmTree(t, files)
		res, _ := New(Options{Dir: dir, MaxFiles: 2}).Find(ctx, "left-pad.leftPad")
		if len(res.Definitions) != 2 || !strings.Contains(res.Partial, "only the first 2 source files") {
			t.Fatalf("%+v", res)
		}
	})
}

// A name that names no dependency, or a query that asks no definition
// of a provider without Options.Uses, gives nothing and no problem.
func TestGatherNothing(t *testing.T) {
	dir := npmTree(t, nil)
	p := New(Options{Dir: dir})
	for _, q := range []evidence.Query{
		{Symbol: "react.useState"},
		{Symbol: "leftPad"},
		{Symbol: "left-pad.leftPad", Kinds: []evidence.Kind{evidence.Reference}},
		{Text: "where is leftPad defined?"},
	} {
		resp, err := p.Gather(context.Background(), q)
		if err != nil || len(resp.Records) != 0 || resp.Report.State != "" {
			t.Errorf("%+v: %v %+v", q, err, resp)
		}
	}
}

func TestPackageVersion(t *testing.T) {
	for in, want := range map[string]string{
		`{"name": "a", "version": "1.2.3"}`: "1.2.3",
		`{"version": "1.0.0-beta.1+x"}`:     "1.0.0-beta.1+x",
	} {
		if _, v, err := packageVersion([]byte(in)); err != nil || v != want {
			t.Errorf("%s: %q %v", in, v, err)
		}
	}
	for _, in := range []string{`{}`, `[]`, `{"version": 1}`, `{"version": ""}`, `{"version": "1 2"}`, `{"name": 3, "version": "1"}`, `nul`} {
		if _, v, err := packageVersion([]byte(in)); err == nil {
			t.Errorf("%s: %q without an error", in, v)
		}
	}
}

func FuzzPackageVersion(f *testing.F) {
	f.Add([]byte(`{"name": "a", "version": "1.2.3"}`))
	f.Add([]byte(`{"version": "\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, v, err := packageVersion(data)
		if err == nil && (v == "" || strings.ContainsAny(v, " \t\n\x00") || len(v) > 256) {
			t.Fatalf("accepted version %q", v)
		}
	})
}

func FuzzGoSumLine(f *testing.F) {
	f.Add("github.com/a/b v1.0.0 h1:abc=")
	f.Add("github.com/a/b v1.0.0/go.mod h1:abc=")
	f.Fuzz(func(t *testing.T, line string) {
		if h, ok := goSumLine(line, "github.com/a/b", "v1.0.0"); ok && !strings.HasPrefix(h, "h1:") {
			t.Fatalf("hash %q", h)
		}
	})
}

func FuzzSplitName(f *testing.F) {
	for _, s := range []string{"pflag.FlagSet", "@a/b.c", "a.b.c.d", "x/y.z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, ok := splitName(s)
		if !ok {
			return
		}
		if tg.qual == "" || tg.name == "" || strings.Contains(tg.name, ".") {
			t.Fatalf("%q: %+v", s, tg)
		}
		back := tg.qual + "."
		if tg.container != "" {
			back += tg.container + "."
		}
		if back+tg.name != strings.TrimSpace(s) {
			t.Fatalf("%q: %+v does not join back", s, tg)
		}
	})
}

// A package inside a module is named by its last path element, one or two
// levels down; internal packages and testdata are not.
func TestGoSubpackage(t *testing.T) {
	cache := testtool.WriteTree(t, map[string]string{
		"golang.org/x/mod@v0.1.0/modfile/rule.go":              "package modfile\n\nfunc Parse(file string, data []byte) error { return nil }\n",
		"k8s.io/client-go@v0.30.0/tools/cache/store.go":        "package cache\n\ntype Store interface{ Add(obj any) error }\n",
		"k8s.io/client-go@v0.30.0/internal/hidden/x.go":        "package hidden\n\nfunc Secret() {}\n",
		"k8s.io/client-go@v0.30.0/testdata/fixture/fixture.go": "package fixture\n\nfunc F() {}\n",
		"golang.org/x/sync@v0.1.0/errgroup/errgroup.go":        "package errgroup\n\ntype Group struct{}\n",
	})
	dir := testtool.WriteTree(t, map[string]string{"go.mod": "module m\n\ngo 1.21\n\nrequire (\n\tgolang.org/x/mod v0.1.0\n\tk8s.io/client-go v0.30.0\n\tgolang.org/x/sync v0.1.0 // indirect\n)\n"})
	p := New(Options{Dir: dir, GoModCache: cache})
	for name, want := range map[string]string{
		"modfile.Parse": "golang.org/x/mod@v0.1.0/modfile/rule.go",
		"cache.Store":   "k8s.io/client-go@v0.30.0/tools/cache/store.go",
		"hidden.Secret": "",
		"fixture.F":     "",
		// An indirect requirement: the project imports none of its packages.
		"errgroup.Group": "",
	} {
		res, err := p.Find(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if len(res.Definitions) > 0 {
			got = res.Definitions[0].Path
		}
		if got != want || len(res.Definitions) > 1 {
			t.Errorf("%s: %+v, want %q", name, res.Definitions, want)
		}
	}
}

func TestEnvFileSets(t *testing.T) {
	if !envFileSets([]byte("GOPROXY=direct\nGOMODCACHE=/x\n"), "GOMODCACHE", "GOPATH") {
		t.Error("GOMODCACHE set, not seen")
	}
	if envFileSets([]byte("GOPROXY=direct\nGOFLAGS=-mod=mod\n# GOPATH=/y\n"), "GOMODCACHE", "GOPATH") {
		t.Error("nothing set, seen")
	}
}

// With the environment file setting GOPATH, the go command is asked and
// its answer taken.
func TestModCacheFromGoEnvFile(t *testing.T) {
	testtool.Require(t, "go", "install Go")
	gopath := t.TempDir()
	envFile := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(envFile, []byte("GOPATH="+gopath+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOENV", envFile)
	t.Setenv("GOMODCACHE", "")
	t.Setenv("GOPATH", "")
	got, err := findModCache(context.Background(), "")
	if err != nil || got != filepath.Join(gopath, "pkg", "mod") {
		t.Fatalf("%q %v, want %s/pkg/mod", got, err, gopath)
	}
}
