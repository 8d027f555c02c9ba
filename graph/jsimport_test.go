package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// usesOf asks p for the records of kinds about symbol and returns them,
// those of its other definitions left out, as "kind path:line".
func usesOf(t *testing.T, p *Provider, symbol string, kinds ...evidence.Kind) []string {
	t.Helper()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: symbol, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range resp.Records {
		if r.Metadata.Attributes[OtherDefinitionAttribute] != "true" {
			got = append(got, fmt.Sprintf("%s %s:%d", r.Kind, r.Path, r.StartLine))
		}
	}
	return got
}

// A useCase is a symbol and the uses it should have, as usesOf writes
// them.
type useCase struct {
	symbol string
	want   []string
}

// wantUses checks p's records of kinds about each case's symbol.
func wantUses(t *testing.T, p *Provider, cases []useCase, kinds ...evidence.Kind) {
	t.Helper()
	for _, c := range cases {
		if diff := cmp.Diff(c.want, usesOf(t, p, c.symbol, kinds...)); diff != "" {
			t.Errorf("uses of %s (-want +got):\n%s", c.symbol, diff)
		}
	}
}

// wantNamedEqualsWhole checks, on a tree of files, that the per-name
// answer of every name is the whole graph's, and that some name was
// answered per name.
func wantNamedEqualsWhole(t *testing.T, files map[string]string) {
	t.Helper()
	if compared, _ := compareNamed(t, testtool.WriteTree(t, files), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestDefaultImportNamesDefinition: an ES module's default import names
// the definition it binds on its own line, as a named import does, and
// its uses below resolve to it: the import is one of the name's uses. A
// member selected from a default import is the bound class's (H.make) or,
// when the module defines nothing of the bound name (export default
// {each}), the module's top-level definition of that name.
func TestDefaultImportNamesDefinition(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"lib/build.js": "export default function buildFullPath(base, url) {\n  return base + url;\n}\n",
		"lib/named.js": "export function other() {}\n",
		"lib/use.js":   "import buildFullPath from './build.js';\nimport { other } from './named.js';\n\nexport function go() {\n  other();\n  return buildFullPath('a', 'b');\n}\n",
		"lib/h.js":     "class H {\n  static make(x) {\n    return new H(x);\n  }\n}\n\nexport function make() {}\n\nexport default H;\n",
		"lib/utils.js": "function each(a) {\n  return a;\n}\n\nexport default {\n  each,\n};\n",
		"lib/more.js":  "import H from './h.js';\nimport utils from './utils.js';\n\nexport function f(x) {\n  utils.each(x);\n  return H.make(x);\n}\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	wantUses(t, p, []useCase{
		{"buildFullPath", []string{"import lib/use.js:1", "call lib/use.js:6"}},
		{"other", []string{"import lib/use.js:2", "call lib/use.js:5"}},
		{"H.make", []string{"call lib/more.js:6"}},
		{"lib/h.js#make", nil},
		{"each", []string{"call lib/more.js:5", "reference lib/utils.js:6"}},
	}, evidence.Reference, evidence.Call, evidence.Import)
	wantNamedEqualsWhole(t, files)
}
