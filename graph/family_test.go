package graph

import (
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestUsesStayInTheirLanguage: a use names a definition of its own
// language's family only, however alike the names: a JavaScript class's
// super call reaches its base's method and never a Ruby class of the
// base's name, a Ruby script's x.size never a C struct's field, a Python
// class's base never a Ruby class. Kotlin
// calls Java, and TypeScript JavaScript.
func TestUsesStayInTheirLanguage(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"js/base.ts":     "export class Shape { area() { return 0 } }\n",
		"js/square.ts":   "import { Shape } from './base'\nexport class Square extends Shape {\n  area() {\n    return super.area() + 1\n  }\n}\n",
		"js/use.js":      "const { Square } = require('./square')\nnew Square().area()\n",
		"rb/shape.rb":    "class Shape\n  def area\n    2\n  end\nend\n\nclass Box < Shape\nend\n",
		"rb/runner.rb":   "def check(list)\n  list.capacity\nend\n",
		"c/buf.h":        "struct buffer { int capacity; };\n",
		"c/buf.c":        "#include \"buf.h\"\nint cap(struct buffer *b) { return b->capacity; }\n",
		"java/Tool.java": "public class Tool {\n  public static int measure() { return 1; }\n}\n",
		"kt/Use.kt":      "fun use() {\n  Tool.measure()\n}\n",
		"rb/vessel.rb":   "class Vessel\nend\n",
		"py/crate.py":    "class Crate(Vessel):\n    pass\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	wantUses(t, p, []useCase{
		{"js/base.ts#Shape.area", []string{"call js/square.ts:4"}},
		{"rb/shape.rb#Shape.area", nil},
		{"js/base.ts#Shape", []string{"import js/square.ts:1", "reference js/square.ts:2"}},
		{"capacity", []string{"reference c/buf.c:2"}},
		{"measure", []string{"call kt/Use.kt:2"}},
		{"Vessel", nil},
	}, evidence.Reference, evidence.Call, evidence.Import)
}
