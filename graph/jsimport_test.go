package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestDefaultImportNamesDefinition: an ES module's default import names
// the definition it binds on its own line, as a named import does, and
// its uses below resolve to it: the import is one of the name's uses.
func TestDefaultImportNamesDefinition(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"lib/build.js": "export default function buildFullPath(base, url) {\n  return base + url;\n}\n",
		"lib/named.js": "export function other() {}\n",
		"lib/use.js":   "import buildFullPath from './build.js';\nimport { other } from './named.js';\n\nexport function go() {\n  other();\n  return buildFullPath('a', 'b');\n}\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	for _, tt := range []struct {
		symbol string
		want   []string
	}{
		{"buildFullPath", []string{"import lib/use.js:1", "call lib/use.js:6"}},
		{"other", []string{"import lib/use.js:2", "call lib/use.js:5"}},
	} {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: tt.symbol,
			Kinds: []evidence.Kind{evidence.Reference, evidence.Call, evidence.Import}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Records {
			got = append(got, fmt.Sprintf("%s %s:%d", r.Kind, r.Path, r.StartLine))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("uses of %s (-want +got):\n%s", tt.symbol, diff)
		}
	}
}
