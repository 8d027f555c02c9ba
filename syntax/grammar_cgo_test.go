//go:build cgo

package syntax

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestKindTablesMatchRuntime: the kind names, named flags and keywords a
// grammar reads from its tables in one call are what the runtime's
// per-kind functions give, in every language.
func TestKindTablesMatchRuntime(t *testing.T) {
	for l := range languages {
		g, err := GrammarOf(l)
		if err != nil {
			t.Fatal(err)
		}
		tl := sitter.NewLanguage(g.ptr)
		if n := int(tl.NodeKindCount()); len(g.kinds) != n || len(g.named) != n {
			t.Fatalf("%s: %d kinds and %d named flags, the runtime counts %d", l, len(g.kinds), len(g.named), n)
		}
		var keywords []string
		for i := range g.kinds {
			id := uint16(i)
			if name := tl.NodeKindForId(id); g.kinds[i] != name {
				t.Fatalf("%s: kind %d is %q, the runtime's %q", l, i, g.kinds[i], name)
			}
			if named := tl.NodeKindIsNamed(id); (g.named[i] == 1) != named {
				t.Fatalf("%s: kind %d (%s) named %d, the runtime says %v", l, i, g.kinds[i], g.named[i], named)
			}
			if !tl.NodeKindIsNamed(id) && tl.NodeKindIsVisible(id) && isWord(g.kinds[i]) {
				keywords = append(keywords, g.kinds[i])
			}
		}
		if len(keywords) != len(g.keywords) {
			t.Fatalf("%s: %d keywords, the runtime's kinds give %d", l, len(g.keywords), len(keywords))
		}
		for i := range keywords {
			if keywords[i] != g.keywords[i] {
				t.Fatalf("%s: keyword %d is %q, the runtime's kinds give %q", l, i, g.keywords[i], keywords[i])
			}
		}
	}
}
