package codecortex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/trust"
)

// pflagProject is a module that uses github.com/spf13/pflag v1.0.9,
// resolved by the go command into the user's module cache, with go.sum.
func pflagProject(t *testing.T) (dir, modDir string) {
	t.Helper()
	gobin := testtool.Require(t, "go", "install Go")
	modDir = testtool.ModuleDir(t, "github.com/spf13/pflag@v1.0.9")
	dir = testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nfunc main() {\n\tfs := pflag.NewFlagSet(\"app\", pflag.ContinueOnError)\n\t_ = fs\n}\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"mod", "tidy"}, Dir: dir,
		Env: append(safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOCACHE", "GOSUMDB"), "GOTOOLCHAIN=local")})
	if err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, res.Stderr)
	}
	return dir, modDir
}

// lineOf is the oracle: the one-based line of the module's file that
// holds text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s holds no line starting %q", file, text)
	return 0
}

func depRecords(recs []evidence.Record) []evidence.Record {
	var out []evidence.Record
	for i := range recs {
		if depsource.Outside(&recs[i]) {
			out = append(out, recs[i])
		}
	}
	return out
}

func TestDependencySourceGo(t *testing.T) {
	dir, modDir := pflagProject(t)
	want := lineOf(t, filepath.Join(modDir, "flag.go"), "type FlagSet struct")
	e := openEngine(t, dir, Options{})
	ctx := context.Background()

	check := func(what string, recs []evidence.Record, sym string, line int) {
		t.Helper()
		deps := depRecords(recs)
		if len(deps) != 1 {
			t.Fatalf("%s: %d dependency records in %+v", what, len(deps), recs)
		}
		r := deps[0]
		a := r.Metadata.Attributes
		if r.Path != "github.com/spf13/pflag@v1.0.9/flag.go" || r.StartLine != line || r.Symbol != sym ||
			a["dependency"] != "github.com/spf13/pflag" || a["version"] != "v1.0.9" || a["root"] != depsource.RootModCache ||
			a["checked_against"] != "go.sum" {
			t.Errorf("%s: %s %s %v", what, r.Location(), r.Symbol, a)
		}
	}

	ans, err := e.Ask(ctx, Question{Text: "where is pflag.FlagSet defined?"})
	if err != nil {
		t.Fatal(err)
	}
	check("ask", ans.Records, "pflag.FlagSet", want)

	loc, err := e.Locate(ctx, LocateQuery{Relation: Definitions, Target: Target{Symbol: "pflag.FlagSet"}})
	if err != nil {
		t.Fatal(err)
	}
	check("def by name", loc.Records, "pflag.FlagSet", want)

	// A position on a dependency's name in the project's code: the
	// qualifier written before it picks the dependency.
	loc, err = e.Locate(ctx, LocateQuery{Relation: Definitions, Target: Target{Path: "main.go", Line: 6, Column: 15}})
	if err != nil {
		t.Fatal(err)
	}
	check("def at a position", loc.Records, "pflag.NewFlagSet", lineOf(t, filepath.Join(modDir, "flag.go"), "func NewFlagSet("))
	if loc.ByName != "pflag.NewFlagSet" {
		t.Errorf("by name %q", loc.ByName)
	}

	// A rename refuses a dependency's symbol.
	_, err = e.Rename(ctx, RenameRequest{Target: Target{Symbol: "pflag.FlagSet"}, NewName: "Flags", AllowInferred: true})
	var re *RenameError
	if !errors.As(err, &re) || len(re.Plan.Conflicts) == 0 || re.Plan.Conflicts[0].Kind != ConflictExternal ||
		!strings.Contains(re.Plan.Conflicts[0].Reason, "dependency github.com/spf13/pflag v1.0.9") {
		t.Fatalf("rename of a dependency's symbol: %v", err)
	}

	// A version the module cache does not hold is reported, not served.
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.999\n"), 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "go.mod"), later, later)
	ans, err = e.Ask(ctx, Question{Text: "where is pflag.FlagSet defined?"})
	if err != nil {
		t.Fatal(err)
	}
	if d := depRecords(ans.Records); len(d) != 0 {
		t.Fatalf("served a copy that is not the required version: %+v", d)
	}
	found := false
	for _, r := range ans.Reports {
		if r.Provider == depsource.ProviderName {
			found = r.State == evidence.Unavailable && strings.Contains(r.Reason, "v1.0.999: not in the module cache")
		}
	}
	if !found {
		t.Errorf("no report of the missing version: %+v", ans.Reports)
	}
}

func TestDependencySourceNodeModules(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"package.json": `{"name": "app", "dependencies": {"left-pad": "^1.3.0"}}`,
		"package-lock.json": `{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {
  "": {"name": "app", "dependencies": {"left-pad": "^1.3.0"}},
  "node_modules/left-pad": {"version": "1.3.0"}}}`,
		"index.js":                           "const leftPad = require('left-pad');\nleftPad('x', 3);\n",
		"node_modules/left-pad/package.json": `{"name": "left-pad", "version": "1.3.0"}`,
		"node_modules/left-pad/index.js":     "module.exports = leftPad;\n\nfunction leftPad(str, len, ch) {\n  return str;\n}\n",
	})
	e := openEngine(t, dir, Options{})
	ans, err := e.Ask(context.Background(), Question{Text: "where is leftPad.leftPad defined?"})
	if err != nil {
		t.Fatal(err)
	}
	deps := depRecords(ans.Records)
	if len(deps) != 1 || deps[0].Location() != "node_modules/left-pad/index.js:3:10-3:17" ||
		deps[0].Metadata.Attributes["checked_against"] != "package-lock.json" || deps[0].Metadata.Attributes["root"] != depsource.RootProject {
		t.Fatalf("records %+v reports %+v", ans.Records, ans.Reports)
	}
}

// A qualified name the project itself defines as written is answered from
// the project alone: no dependency is read for it.
func TestDependencySourceOwnNameFirst(t *testing.T) {
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/flag.go": "package pflag\n\ntype FlagSet struct{}\n\ntype Value interface{}\n",
	})
	t.Setenv("GOMODCACHE", cache)
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":         "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"pflag/flags.go": "package pflag\n\n// FlagSet is the project's own.\ntype FlagSet struct{}\n",
	})
	e := openEngine(t, dir, Options{})
	ctx := context.Background()
	loc, err := e.Locate(ctx, LocateQuery{Relation: Definitions, Target: Target{Symbol: "pflag.FlagSet"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(loc.Records) != 1 || loc.Records[0].Path != "pflag/flags.go" {
		t.Fatalf("records %+v", loc.Records)
	}
	// A name the project does not define is still read from the dependency.
	loc, err = e.Locate(ctx, LocateQuery{Relation: Definitions, Target: Target{Symbol: "pflag.Value"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := depRecords(loc.Records); len(d) != 1 || d[0].Path != "github.com/spf13/pflag@v1.0.9/flag.go" {
		t.Fatalf("records %+v", loc.Records)
	}
}

// The outline of pflag is its exported definitions from the module cache's
// copy, FlagSet at the line the file holds it, each record outside the
// project and checked; a name that is no dependency names nothing.
func TestDependencyOutlineGo(t *testing.T) {
	dir, modDir := pflagProject(t)
	e := openEngine(t, dir, Options{})
	ctx := context.Background()
	want := lineOf(t, filepath.Join(modDir, "flag.go"), "type FlagSet struct")
	for _, name := range []string{"pflag", "github.com/spf13/pflag"} {
		out, err := e.DependencyOutline(ctx, DependencyOutlineQuery{Dependency: name})
		if err != nil || !out.Names() || len(out.Problems) != 0 || len(out.Copies) != 1 || out.Copies[0].Checked != "go.sum" {
			t.Fatalf("%s: %v %+v", name, err, out)
		}
		found := false
		for i := range out.Records {
			r := &out.Records[i]
			a := r.Metadata.Attributes
			if !depsource.Outside(r) || a["dependency"] != "github.com/spf13/pflag" || a["version"] != "v1.0.9" || a["exported"] != "true" {
				t.Fatalf("%s: record %+v", name, r)
			}
			if r.Symbol == "pflag.FlagSet" && r.Path == "github.com/spf13/pflag@v1.0.9/flag.go" && r.StartLine == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no pflag.FlagSet at flag.go:%d in %d records", name, want, len(out.Records))
		}
	}
	out, err := e.DependencyOutline(ctx, DependencyOutlineQuery{Dependency: "main"})
	if err != nil || out.Names() || len(out.Records) != 0 {
		t.Fatalf("main: %v %+v", err, out)
	}
}

// References of a dependency's symbol by name hold its definition in the
// dependency's copy as the declaration, beside the project's uses; without
// the declaration they hold only the uses.
func TestDependencyReferences(t *testing.T) {
	dir, modDir := pflagProject(t)
	e := openEngine(t, dir, Options{})
	ctx := context.Background()
	want := lineOf(t, filepath.Join(modDir, "flag.go"), "func NewFlagSet(")
	loc, err := e.Locate(ctx, LocateQuery{Relation: References, Target: Target{Symbol: "pflag.NewFlagSet"}})
	if err != nil {
		t.Fatal(err)
	}
	var decl, uses int
	for i := range loc.Records {
		r := &loc.Records[i]
		switch {
		case depsource.Outside(r):
			if r.Kind != evidence.Reference || r.Metadata.Attributes["declaration"] != "true" ||
				r.Path != "github.com/spf13/pflag@v1.0.9/flag.go" || r.StartLine != want {
				t.Errorf("declaration %+v, want flag.go:%d", r, want)
			}
			decl++
		case r.Path == "main.go" && r.StartLine == 6:
			uses++
		}
	}
	if decl != 1 || uses != 1 {
		t.Fatalf("%d declarations, %d uses in main.go:6: %+v", decl, uses, loc.Records)
	}
	loc, err = e.Locate(ctx, LocateQuery{Relation: References, Target: Target{Symbol: "pflag.NewFlagSet"}, NoDeclaration: true})
	if err != nil || len(depRecords(loc.Records)) != 0 || len(loc.Records) == 0 {
		t.Fatalf("without the declaration: %v %+v", err, loc.Records)
	}
}

// usesProject imports pflag plainly, under an alias, and the standard
// library's flag package, whose FlagSet and NewFlagSet are not pflag's.
func usesProject(t *testing.T) string {
	t.Helper()
	dir, _ := pflagProject(t)
	testtool.WriteFiles(t, dir, map[string]string{
		"main.go":  "package main\n\nimport \"github.com/spf13/pflag\"\n\nfunc main() {\n\tfs := pflag.NewFlagSet(\"app\", pflag.ContinueOnError)\n\tuse(fs)\n}\n\nfunc use(fs *pflag.FlagSet) { _ = fs }\n",
		"alias.go": "package main\n\nimport flag \"github.com/spf13/pflag\"\n\ntype opts struct{ set *flag.FlagSet }\n\nfunc aliased() *flag.FlagSet {\n\treturn flag.NewFlagSet(\"b\", flag.ExitOnError)\n}\n",
		"std.go":   "package main\n\nimport \"flag\"\n\nfunc standard() *flag.FlagSet {\n\treturn flag.NewFlagSet(\"c\", flag.ExitOnError)\n}\n",
	})
	return dir
}

// scipReferences is the oracle: the places scip-go's index of the project
// refers to the symbol name, which LookupName resolves by identity.
func scipReferences(t *testing.T, dir, name string) (locs []string, symbol string) {
	t.Helper()
	scipGo := testtool.Require(t, "scip-go", "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26")
	out := filepath.Join(t.TempDir(), "index.scip")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: scipGo, Args: []string{"--quiet", "--output", out}, Dir: dir,
		Env: append(safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOCACHE"), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")})
	if err != nil {
		t.Fatalf("scip-go: %v\n%s", err, res.Stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ix, err := precision.Load(ctx, f, precision.LoadOptions{Source: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	cands := ix.LookupName(name)
	if len(cands) != 1 {
		t.Fatalf("scip-go's index has %d symbols named %s", len(cands), name)
	}
	for _, l := range ix.References(cands[0].Symbol) {
		locs = append(locs, fmt.Sprintf("%s:%d:%d", l.Path, l.StartLine, l.StartColumn))
	}
	slices.Sort(locs)
	return locs, cands[0].Symbol.Name
}

// Without any index of the project, a dependency's top-level name is
// found where the project's imports bind it, at inferred_high: the same
// places scip-go's index of the project names, and not the standard
// library's flag.FlagSet. With the dependency's own index, its definition
// is exact and carries the very symbol the project's index refers to.
func TestDependencyUsesAndExactDefinition(t *testing.T) {
	dir := usesProject(t)
	e := openEngine(t, dir, Options{})
	ctx := context.Background()
	for _, name := range []string{"pflag.FlagSet", "pflag.NewFlagSet"} {
		want, _ := scipReferences(t, dir, name)
		loc, err := e.Locate(ctx, LocateQuery{Relation: References, Target: Target{Symbol: name}, NoDeclaration: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range loc.Records {
			if r.Provider == depsource.ProviderName {
				if r.Trust != trust.InferredHigh || r.TargetSymbol != name || r.Metadata.Attributes["version"] != "v1.0.9" {
					t.Errorf("%s: use %+v", name, r)
				}
				got = append(got, fmt.Sprintf("%s:%d:%d", r.Path, r.StartLine, r.StartColumn))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || len(want) < 2 {
			t.Errorf("%s: uses %v, scip-go %v", name, got, want)
		}
		// ask answers the same uses.
		ans, err := e.Ask(ctx, Question{Text: "who uses " + name + "?"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range ans.Records {
			if r.Provider == depsource.ProviderName && !depsource.Outside(&r) {
				n++
				if r.Metadata.Excerpt == "" {
					t.Errorf("%s: ask: a use without its line of code: %+v", name, r)
				}
			}
		}
		if n != len(want) {
			t.Errorf("%s: ask gave %d uses, want %d: %+v", name, n, len(want), ans.Records)
		}
	}

	// The dependency's definition: structural, then exact once indexed.
	_, projectSymbol := scipReferences(t, dir, "pflag.FlagSet")
	def := func() evidence.Record {
		t.Helper()
		loc, err := e.Locate(ctx, LocateQuery{Relation: Definitions, Target: Target{Symbol: "pflag.FlagSet"}})
		if err != nil {
			t.Fatal(err)
		}
		d := depRecords(loc.Records)
		if len(d) != 1 {
			t.Fatalf("definitions %+v", loc.Records)
		}
		return d[0]
	}
	if r := def(); r.Trust != trust.Structural {
		t.Fatalf("before the dependency is indexed: %+v", r)
	}
	testtool.Require(t, "scip-go", "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26")
	res, err := e.IndexDependency(ctx, "pflag")
	if err != nil || len(res.Indexes) != 1 || len(res.Problems) != 0 || res.Indexes[0].Documents == 0 {
		t.Fatalf("IndexDependency: %v %+v", err, res)
	}
	r := def()
	if r.Trust != trust.Exact || !r.Exact || r.Metadata.Attributes["scip_symbol"] != projectSymbol || r.Validate() != nil {
		t.Fatalf("after: %+v, the project's index names %q", r, projectSymbol)
	}

	// An index that is not this user's is not served: the seal no longer
	// matches its bytes.
	ixPath := filepath.Join(dir, filepath.FromSlash(res.Indexes[0].Path))
	data, err := os.ReadFile(ixPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ixPath, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	r = def()
	if r.Trust != trust.Structural {
		t.Fatalf("a tampered index was served: %+v", r)
	}
}
