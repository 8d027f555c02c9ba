package mcp

import (
	"strconv"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// An MCP client asks about a dependency's symbol through cortex_navigate
// and cortex_ask, and gets the definition in the dependency's copy, at the
// version go.mod requires, marked outside the project.
func TestDependencySymbol(t *testing.T) {
	const hash = "h1:Ju3EvvbrcDjpmfHIxu2uMaj0jhlmzvzI+yY8W7Ls3nM="
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/flag.go":                   "package pflag\n\n// A FlagSet is a set of flags.\ntype FlagSet struct {\n\tname string\n}\n",
		"cache/download/github.com/spf13/pflag/@v/v1.0.9.ziphash": hash + "\n",
	})
	t.Setenv("GOMODCACHE", cache)
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"go.sum":  "github.com/spf13/pflag v1.0.9 " + hash + "\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar fs *pflag.FlagSet\n",
	})
	cs := connect(t, newServer(t, dir, Options{}), ReadOnly)
	for name, args := range map[string]map[string]any{
		"cortex_navigate": {"relation": "definition", "symbol": "pflag.FlagSet"},
		"cortex_ask":      {"question": "where is pflag.FlagSet defined?"},
	} {
		res := call(t, cs, name, args)
		out := strings.ReplaceAll(text(res), `": "`, `":"`)
		if res.IsError || !strings.Contains(out, `"github.com/spf13/pflag@v1.0.9/flag.go"`) ||
			!strings.Contains(out, `{"name":"outside_project","value":"true"}`) || !strings.Contains(out, `{"name":"version","value":"v1.0.9"}`) {
			t.Errorf("%s: %s", name, out)
		}
	}
}

// cortex_symbols's path may name a dependency: its API from the copy at
// the locked version, the result's path saying which copy and that it is
// outside the project; a project path of that name is the path; a copy
// go.sum does not vouch for is an error with the reason.
func TestDependencySymbols(t *testing.T) {
	const hash = "h1:Ju3EvvbrcDjpmfHIxu2uMaj0jhlmzvzI+yY8W7Ls3nM="
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/flag.go": "package pflag\n\n// A FlagSet is a set of flags.\ntype FlagSet struct {\n\tname string\n}\n\n" +
			"func (f *FlagSet) Parse(args []string) error {\n\treturn nil\n}\n\nfunc helper() {}\n",
		"cache/download/github.com/spf13/pflag/@v/v1.0.9.ziphash": hash + "\n",
	})
	t.Setenv("GOMODCACHE", cache)
	files := map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"go.sum":  "github.com/spf13/pflag v1.0.9 " + hash + "\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar fs *pflag.FlagSet\n",
	}
	cs := connect(t, newServer(t, testtool.WriteTree(t, files), Options{}), ReadOnly)
	out := decode[symbolsResult](t, "cortex_symbols", call(t, cs, "cortex_symbols", map[string]any{"path": "pflag"}))
	var got []string
	for _, d := range out.Definitions {
		got = append(got, d.Path+":"+strconv.Itoa(d.Line)+"-"+strconv.Itoa(d.EndLine)+":"+d.Container+"."+d.Name+":"+d.Kind)
	}
	want := "github.com/spf13/pflag@v1.0.9/flag.go:4-6:.FlagSet:struct,github.com/spf13/pflag@v1.0.9/flag.go:8-10:FlagSet.Parse:method"
	if strings.Join(got, ",") != want ||
		out.Path != "github.com/spf13/pflag@v1.0.9: dependency github.com/spf13/pflag v1.0.9 (in GOMODCACHE, checked against go.sum; outside the project)" {
		t.Errorf("cortex_symbols pflag: %s %v, want %s", out.Path, got, want)
	}

	files["pflag/own.go"] = "package pflag\n\nfunc Own() {}\n"
	cs = connect(t, newServer(t, testtool.WriteTree(t, files), Options{}), ReadOnly)
	if out := decode[symbolsResult](t, "cortex_symbols", call(t, cs, "cortex_symbols", map[string]any{"path": "pflag"})); out.Path != "pflag" {
		t.Errorf("a pflag directory: %+v", out)
	}

	delete(files, "pflag/own.go")
	files["go.sum"] = "github.com/spf13/pflag v1.0.9 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	cs = connect(t, newServer(t, testtool.WriteTree(t, files), Options{}), ReadOnly)
	if res := call(t, cs, "cortex_symbols", map[string]any{"path": "pflag"}); !res.IsError || !strings.Contains(text(res), "go.sum records") {
		t.Errorf("a mismatched copy: %s", text(res))
	}
}
