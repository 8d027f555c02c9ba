package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// pflagCacheProject is a project that requires pflag v1.0.9, whose copy
// is a module cache of one small file (GOMODCACHE is set to it) with the
// hash go.sum records.
func pflagCacheProject(t *testing.T) string {
	t.Helper()
	const hash = "h1:Ju3EvvbrcDjpmfHIxu2uMaj0jhlmzvzI+yY8W7Ls3nM="
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/go.mod":                    "module github.com/spf13/pflag\n\ngo 1.21\n",
		"github.com/spf13/pflag@v1.0.9/flag.go":                   "package pflag\n\n// A FlagSet is a set of flags.\ntype FlagSet struct {\n\tname string\n}\n",
		"cache/download/github.com/spf13/pflag/@v/v1.0.9.ziphash": hash + "\n",
	})
	t.Setenv("GOMODCACHE", cache)
	return testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"go.sum":  "github.com/spf13/pflag v1.0.9 " + hash + "\ngithub.com/spf13/pflag v1.0.9/go.mod h1:xxx=\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar fs *pflag.FlagSet\n",
	})
}

// def and ask answer a dependency's symbol from its copy in the module
// cache, at the version go.mod requires and go.sum vouches for, marked
// outside the project, in words and in JSON.
func TestDefDependencySymbol(t *testing.T) {
	if !cgoBuild {
		t.Skip("a dependency's definitions are read from syntax, which needs cgo")
	}
	dir := pflagCacheProject(t)
	code, out, errs := run(t, dir, nil, "def", "pflag.FlagSet")
	if code != ExitOK || !strings.HasPrefix(out, "github.com/spf13/pflag@v1.0.9/flag.go:4:6-4:13\tstructural\tpflag.FlagSet\t") ||
		!strings.Contains(out, "dependency github.com/spf13/pflag v1.0.9 (in GOMODCACHE, checked against go.sum; outside the project)") {
		t.Fatalf("def: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "def", "--json", "pflag.FlagSet")
	var located struct {
		Records []struct {
			Path     string `json:"path"`
			Metadata struct {
				Attributes map[string]string `json:"attributes"`
			} `json:"metadata"`
		} `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &located); code != ExitOK || err != nil || len(located.Records) == 0 {
		t.Fatalf("def --json: %d %v\n%s\n%s", code, err, out, errs)
	}
	if a := located.Records[0].Metadata.Attributes; a["outside_project"] != "true" || a["version"] != "v1.0.9" || a["dependency"] != "github.com/spf13/pflag" {
		t.Errorf("def --json attributes %v", a)
	}
	code, out, errs = run(t, dir, nil, "refs", "pflag.FlagSet")
	if code != ExitOK || !strings.HasPrefix(out, "github.com/spf13/pflag@v1.0.9/flag.go:4:6-4:13\tstructural\tpflag.FlagSet\t(declaration)\tdependency github.com/spf13/pflag v1.0.9") ||
		!strings.Contains(out, "\nmain.go:5:") {
		t.Fatalf("refs: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "ask", "where is pflag.FlagSet defined?")
	if code != ExitOK || !strings.Contains(out, "github.com/spf13/pflag@v1.0.9/flag.go:4:6-4:13  definition via symbol-index (dependency-source), dependency github.com/spf13/pflag v1.0.9") {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "ask", "--json", "where is pflag.FlagSet defined?")
	compact := strings.ReplaceAll(out, `": "`, `":"`)
	if code != ExitOK || !strings.Contains(compact, `"path":"github.com/spf13/pflag@v1.0.9/flag.go"`) || !strings.Contains(compact, `"outside_project":"true"`) {
		t.Fatalf("ask --json: %d\n%s\n%s", code, out, errs)
	}
}

// symbols DEP outlines a dependency's exported definitions from its copy
// in the module cache, file by file, in words and in JSON; a project path
// of the same name is the path; a copy go.sum does not vouch for is
// reported and not read; a name that is neither is still a bad path.
func TestSymbolsDependency(t *testing.T) {
	if !cgoBuild {
		t.Skip("a dependency's definitions are read from syntax, which needs cgo")
	}
	const hash = "h1:Ju3EvvbrcDjpmfHIxu2uMaj0jhlmzvzI+yY8W7Ls3nM="
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/flag.go": "package pflag\n\n// A FlagSet is a set of flags.\ntype FlagSet struct {\n\tname string\n}\n\n" +
			"func (f *FlagSet) Parse(args []string) error { return nil }\n\nfunc helper() {}\n",
		"github.com/spf13/pflag@v1.0.9/bool.go":                   "package pflag\n\nfunc Bool(name string) *bool { return nil }\n",
		"cache/download/github.com/spf13/pflag/@v/v1.0.9.ziphash": hash + "\n",
	})
	t.Setenv("GOMODCACHE", cache)
	files := map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"go.sum":  "github.com/spf13/pflag v1.0.9 " + hash + "\ngithub.com/spf13/pflag v1.0.9/go.mod h1:xxx=\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar fs *pflag.FlagSet\n",
	}
	dir := testtool.WriteTree(t, files)
	want := "dependency github.com/spf13/pflag v1.0.9 (in GOMODCACHE, checked against go.sum; outside the project)\n" +
		"github.com/spf13/pflag@v1.0.9/bool.go\n  3  function func Bool(name string) *bool\n" +
		"github.com/spf13/pflag@v1.0.9/flag.go\n  4  struct type FlagSet struct\n    8  method func (f *FlagSet) Parse(args []string) error\n"
	for _, name := range []string{"pflag", "github.com/spf13/pflag"} {
		code, out, errs := run(t, dir, nil, "symbols", name)
		if code != ExitOK || out != want {
			t.Fatalf("symbols %s: %d\n%s\nwant\n%s\n%s", name, code, out, want, errs)
		}
	}
	code, out, errs := run(t, dir, nil, "symbols", "--json", "pflag")
	var outline struct {
		Dependency string `json:"dependency"`
		Records    []struct {
			Path     string `json:"path"`
			Symbol   string `json:"symbol"`
			Metadata struct {
				Attributes map[string]string `json:"attributes"`
			} `json:"metadata"`
		} `json:"records"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal([]byte(out), &outline); code != ExitOK || err != nil || len(outline.Records) != 3 || outline.Dependency != "pflag" {
		t.Fatalf("symbols --json: %d %v\n%s\n%s", code, err, out, errs)
	}
	for _, r := range outline.Records {
		if a := r.Metadata.Attributes; a["outside_project"] != "true" || a["version"] != "v1.0.9" || a["dependency"] != "github.com/spf13/pflag" {
			t.Errorf("symbols --json: record %s attributes %v", r.Symbol, a)
		}
	}
	if code, _, _ := run(t, dir, nil, "symbols", "--all", "pflag"); code != ExitOK {
		t.Errorf("symbols --all: %d", code)
	}
	if code, out, _ := run(t, dir, nil, "symbols", "--all", "--json", "pflag"); code != ExitOK || !strings.Contains(out, `"pflag.helper"`) {
		t.Errorf("symbols --all --json: %d\n%s", code, out)
	}
	if code, _, errs := run(t, dir, nil, "symbols", "nothing"); code != ExitUsage || !strings.Contains(errs, "nothing") {
		t.Errorf("symbols nothing: %d %s", code, errs)
	}

	// A directory of the project named so is the directory.
	files["pflag/own.go"] = "package pflag\n\nfunc Own() {}\n"
	own := testtool.WriteTree(t, files)
	if code, out, errs := run(t, own, nil, "symbols", "pflag"); code != ExitOK || !strings.Contains(out, "pflag/own.go") || strings.Contains(out, "dependency") {
		t.Errorf("symbols pflag with a pflag directory: %d\n%s\n%s", code, out, errs)
	}

	// A copy go.sum does not vouch for is reported, with the reason.
	files["go.sum"] = "github.com/spf13/pflag v1.0.9 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	delete(files, "pflag/own.go")
	bad := testtool.WriteTree(t, files)
	code, out, errs = run(t, bad, nil, "symbols", "pflag")
	if code != ExitFail || strings.Contains(out, "FlagSet") || !strings.Contains(errs, "go.sum records") {
		t.Errorf("mismatched copy: %d\n%s\n%s", code, out, errs)
	}
}

// index --dependency runs scip-go over the dependency's copy and keeps the
// index under .codecortex/deps; def then answers exact. A name that names
// no dependency is a usage error; --json gives the indexes.
func TestIndexDependency(t *testing.T) {
	if !cgoBuild {
		t.Skip("a dependency's definitions are read from syntax, which needs cgo")
	}
	testtool.Require(t, "scip-go", "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26")
	dir := pflagCacheProject(t)
	code, out, errs := run(t, dir, nil, "index", "--dependency", "pflag")
	if code != ExitOK || !strings.HasPrefix(out, "github.com/spf13/pflag v1.0.9: .codecortex/deps/go/github.com%2Fspf13%2Fpflag@v1.0.9.scip, 1 files by scip-go") {
		t.Fatalf("index --dependency: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "def", "pflag.FlagSet")
	if code != ExitOK || !strings.HasPrefix(out, "github.com/spf13/pflag@v1.0.9/flag.go:4:6-4:13\texact\tpflag.FlagSet\t") {
		t.Fatalf("def after indexing: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "refs", "pflag.FlagSet")
	if code != ExitOK || !strings.Contains(out, "\nmain.go:5:15-5:22\tinferred_high\t") {
		t.Fatalf("refs: %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, dir, nil, "index", "--dependency", "pflag", "--json")
	var res struct {
		Indexes []struct {
			Path      string `json:"path"`
			Documents int    `json:"documents"`
		} `json:"indexes"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || len(res.Indexes) != 1 || res.Indexes[0].Documents != 1 {
		t.Fatalf("--json: %d %v\n%s\n%s", code, err, out, errs)
	}
	if code, _, errs := run(t, dir, nil, "index", "--dependency", "nothing"); code != ExitUsage || !strings.Contains(errs, "names no dependency") {
		t.Fatalf("a name that names no dependency: %d %s", code, errs)
	}
}
