package mcp

import (
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
