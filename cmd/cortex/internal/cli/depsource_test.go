package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// def and ask answer a dependency's symbol from its copy in the module
// cache, at the version go.mod requires and go.sum vouches for, marked
// outside the project, in words and in JSON.
func TestDefDependencySymbol(t *testing.T) {
	if !cgoBuild {
		t.Skip("a dependency's definitions are read from syntax, which needs cgo")
	}
	const hash = "h1:Ju3EvvbrcDjpmfHIxu2uMaj0jhlmzvzI+yY8W7Ls3nM="
	cache := testtool.WriteTree(t, map[string]string{
		"github.com/spf13/pflag@v1.0.9/flag.go":                   "package pflag\n\n// A FlagSet is a set of flags.\ntype FlagSet struct {\n\tname string\n}\n",
		"cache/download/github.com/spf13/pflag/@v/v1.0.9.ziphash": hash + "\n",
	})
	t.Setenv("GOMODCACHE", cache)
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
		"go.sum":  "github.com/spf13/pflag v1.0.9 " + hash + "\ngithub.com/spf13/pflag v1.0.9/go.mod h1:xxx=\n",
		"main.go": "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar fs *pflag.FlagSet\n",
	})
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
