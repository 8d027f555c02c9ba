package gen

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/google/go-cmp/cmp"
)

// The rules on a snippet per language: each definition with its kind and
// container, each call site, each relation, and test regions.
func TestAstGrepRules(t *testing.T) {
	exe := testtool.Require(t, "ast-grep", "bash .ci/install-structural.sh")
	tests := []struct {
		lang  string
		files map[string]string
		want  []string
	}{
		{"rust", map[string]string{"src/lib.rs": `pub trait Shape { fn area(&self) -> f64; }
pub struct Square(f64);
impl Shape for Square {
    fn area(&self) -> f64 { helper::scale(self.0) * self.0 }
}
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}
pub fn total(v: &[Square]) -> f64 { v.iter().map(|s| s.area()).sum::<f64>() + total(&[]) }
#[cfg(test)]
mod tests {
    fn t() { super::total(&[]); }
}
`}, []string{
			"def trait Shape src/lib.rs:1", "def method Shape.area src/lib.rs:1", "def struct Square src/lib.rs:2",
			"impl Square < Shape src/lib.rs:3", "def method Square.area src/lib.rs:4", "call scale src/lib.rs:4",
			"impl Square < Display src/lib.rs:6", "def method Square.fmt src/lib.rs:7", "call Ok src/lib.rs:7",
			"def function total src/lib.rs:9", "call iter src/lib.rs:9", "call map src/lib.rs:9", "call area src/lib.rs:9",
			"call sum src/lib.rs:9", "call total src/lib.rs:9", "def function t src/lib.rs:12", "test call total src/lib.rs:12",
		}},
		{"ruby", map[string]string{"lib/a.rb": `module Shapes
  class Square < Base
    include Comparable
    def area
      helper(side) * side
    end
    def self.build; new; end
  end
end
`}, []string{
			"def module Shapes lib/a.rb:1", "def class Square lib/a.rb:2", "impl Square < Base lib/a.rb:2",
			"impl Square < Comparable lib/a.rb:2", "def method Square.area lib/a.rb:4", "call helper lib/a.rb:5",
			"def method Square.build lib/a.rb:7",
		}},
		{"java", map[string]string{"src/main/java/A.java": `class Square extends Base implements Shape, Comparable<Square> {
    @Override
    public double area() { return Util.scale(side) * side; }
}
interface Shape { double area(); }
`, "src/test/java/ATest.java": `class ATest { void t() { new Square().area(); } }
`}, []string{
			"def class Square src/main/java/A.java:1", "impl Square < Base src/main/java/A.java:1", "impl Square < Shape src/main/java/A.java:1",
			"def method Square.area src/main/java/A.java:3", "call scale src/main/java/A.java:3",
			"def interface Shape src/main/java/A.java:5", "def method Shape.area src/main/java/A.java:5",
			"def class ATest src/test/java/ATest.java:1", "def method ATest.t src/test/java/ATest.java:1", "test call area src/test/java/ATest.java:1",
		}},
		{"c", map[string]string{"src/a.c": `struct point { int x; };
static int helper(int x) { return x; }
char *name(struct point *p) { return helper(p->x) ? "a" : 0; }
int proto(void);
`}, []string{
			"def struct point src/a.c:1", "def function helper src/a.c:2", "def function name src/a.c:3", "call helper src/a.c:3",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			dir := testtool.WriteTree(t, tt.files)
			tr, err := RunAstGrep(context.Background(), exe, tt.lang, dir)
			if err != nil {
				t.Fatal(err)
			}
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if d := cmp.Diff(want, describeTruth(tr)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func describeTruth(tr *Truth) []string {
	var out []string
	for _, d := range tr.Defs {
		n := d.Name
		if d.Container != "" {
			n = d.Container + "." + n
		}
		out = append(out, fmt.Sprintf("def %s %s %s:%d", d.Kind, n, d.Path, d.Line))
	}
	for _, r := range tr.Refs {
		p := "call"
		if r.Test {
			p = "test call"
		}
		out = append(out, fmt.Sprintf("%s %s %s:%d", p, r.To, r.Path, r.Line))
	}
	for _, im := range tr.Impls {
		out = append(out, fmt.Sprintf("impl %s < %s %s:%d", im.Sub, im.Super, im.Path, im.Line))
	}
	sort.Strings(out)
	return out
}

func TestParseAstGrep(t *testing.T) {
	stream := `{"file":"a.rs","ruleId":"def-method","range":{"start":{"line":0},"end":{"line":0}},"metaVariables":{"single":{"NAME":{"text":"area","range":{"start":{"line":3},"end":{"line":3}}},"TYPE":{"text":"Square<'a>","range":{"start":{"line":1},"end":{"line":1}}}}}}

{"file":"../escape.rs","ruleId":"call","metaVariables":{"single":{"NAME":{"text":"x","range":{"start":{"line":1}}}}}}
{"file":"a.rs","ruleId":"call","metaVariables":{"single":{"NAME":{"text":"a-b","range":{"start":{"line":1}}}}}}
{"file":"a.rs","ruleId":"impl","metaVariables":{"single":{"SUPER":{"text":"fmt::Display","range":{"start":{"line":5}}},"SUB":{"text":"Square","range":{"start":{"line":5}}}}}}
`
	tr, err := ParseAstGrep(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"def method Square.area a.rs:4", "impl Square < Display a.rs:6"}
	if d := cmp.Diff(want, describeTruth(tr)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := ParseAstGrep(strings.NewReader("{\"file\":\n")); err == nil {
		t.Error("a broken line parsed")
	}
}

func FuzzParseAstGrep(f *testing.F) {
	f.Add([]byte(`{"file":"a.rs","ruleId":"call","metaVariables":{"single":{"NAME":{"text":"f","range":{"start":{"line":1}}}}}}`))
	f.Add([]byte(`{"file":"b.rb","ruleId":"testscope","range":{"start":{"line":1},"end":{"line":9}}}` + "\n" +
		`{"file":"b.rb","ruleId":"impl","metaVariables":{"single":{"SUPER":{"text":"A::B"},"SUB":{"text":"C"}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := ParseAstGrep(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, d := range tr.Defs {
			if !validPath(d.Path) || !isIdent(d.Name) {
				t.Fatalf("definition %+v", d)
			}
		}
		for _, r := range tr.Refs {
			if !validPath(r.Path) || !isIdent(r.To) {
				t.Fatalf("reference %+v", r)
			}
		}
	})
}
