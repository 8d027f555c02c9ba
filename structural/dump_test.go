package structural

import (
	"fmt"
	"strings"
	"testing"
)

func dumpTree(t *tree) string {
	var b strings.Builder
	var rec func(i uint32, depth int)
	rec = func(i uint32, depth int) {
		n := t.nodes[i]
		fmt.Fprintf(&b, "%s%s [%d,%d) f=%d %q\n", strings.Repeat("  ", depth), t.g.name(n.sym), n.start, n.end, n.flags, t.text(i))
		for _, c := range t.appendKids(nil, i) {
			rec(c, depth+1)
		}
	}
	rec(0, 0)
	return b.String()
}

func TestDump(t *testing.T) {
	for _, s := range []struct {
		l   Language
		src string
	}{{Go, "fmt.Println(µµµARGS)"}, {JavaScript, "import $D, { $$$N } from $M"}, {Rust, "impl µT for µS { µµµ }"}, {Java, "throw new $E($$$)"}} {
		g, _ := grammarOf(s.l)
		p, _ := newParser(g)
		nodes, _ := p.parse([]byte(s.src))
		t.Log("\n" + dumpTree(&tree{g: g, src: []byte(s.src), nodes: nodes}))
	}
}
