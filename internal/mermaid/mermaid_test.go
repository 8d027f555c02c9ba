package mermaid

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzLabel: whatever a name holds, its label stays one label of one
// node (Parse reads it back as the only statement) and reads back as the
// name, control characters and invalid bytes shown as '?'.
func FuzzLabel(f *testing.F) {
	for _, s := range []string{"", `a"b`, "x]\n  evil[\"pwn\"]", "a|b", "#quot;", "<script>", "`md`", "a;b", "%%", "日本\u2028x", "\xff", "}{()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := "flowchart LR\n  n0[\"" + Label(s) + Break + Label(s) + "\"]\n  n1[\"x\"]\n  n0 -->|\"" + Label(s) + "\"| n1\n"
		c, err := Parse(src)
		if err != nil {
			t.Fatalf("%q: %v\n%s", s, err, src)
		}
		var w strings.Builder
		for _, r := range s { // an invalid byte is a RuneError each
			if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
				r = '?'
			}
			w.WriteRune(r)
		}
		want := w.String()
		if len(c.Nodes) != 2 || len(c.Edges) != 1 || c.Nodes["n0"].Label != want+"\n"+want || c.Edges[0].Label != want {
			t.Fatalf("%q: read back %+v", s, c)
		}
	})
}

// TestParseRejects: a line a broken label would leave is an error.
func TestParseRejects(t *testing.T) {
	for _, src := range []string{
		"graph LR\n",
		"flowchart LR\n  n0[\"a\"b\"]\n",
		"flowchart LR\n  n0[\"a\"]\n  evil\n",
		"flowchart LR\n  n0[\"a\"]\n  n0 --> n9\n",
		"flowchart LR\n  n0[\"a\"]\n  n0[\"b\"]\n",
		"flowchart LR\n  n0[\"<b>x</b>\"]\n",
	} {
		if _, err := Parse(src); err == nil {
			t.Errorf("accepted %q", src)
		}
	}
}
