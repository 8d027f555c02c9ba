package structural

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// cuts returns where goSegments starts each segment after the first, or
// nil when it does not split src.
func cuts(src string) []int {
	segs := goSegments([]byte(src))
	if segs == nil {
		return nil
	}
	var out []int
	for _, s := range segs[1:] {
		out = append(out, int(s.start))
	}
	return out
}

func TestGoSegments(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []int // starts of the segments after the first
	}{
		{"declarations", "package p\n\nfunc a() {}\n\ntype T int\nvar v = 1\nconst c = 2\nimport \"x\"\n",
			[]int{11, 24, 35, 45, 57}},
		{"doc comments stay with the declaration before", "package p\n// A is.\nfunc A() {}\n", []int{19}},
		{"indented or nested keywords do not cut",
			"package p\nfunc a() {\nfunc() {}()\n\tvar x int\n}\nvar (\nfunc = 1\n)\n", []int{10, 46}},
		{"a line the one before continues", "package p\nvar f =\nfunc() {}\nvar g = 1 +\nvar2\n", []int{10, 28}},
		{"raw string holding a declaration", "package p\nvar s = `\nfunc x() {}\n`\nfunc y() {}\n", []int{10, 34}},
		{"comment holding a declaration", "package p\n/*\nfunc x() {}\n*/\nfunc y() {}\n", []int{28}},
		{"string and rune with brackets and quotes",
			"package p\nvar s = \"{\\\"\"\nvar r = '\\''\nvar q = '{'\nfunc f() {}\n", []int{10, 24, 37, 49}},
		{"keyword prefix is an identifier", "package p\nfunction()\nfuncs := 1\nvarx\n", nil},
		{"after ++: a statement, not a declaration", "package p\nx++\nfunc a() {}\n", nil},
		{"after an operator", "package p\nx :=\nfunc a() {}\n", nil},
		{"unterminated raw string", "package p\nvar s = `abc\nfunc a() {}\n", nil},
		{"unterminated comment", "package p\n/* abc\nfunc a() {}\n", nil},
		{"unterminated string", "package p\nvar s = \"abc\nfunc a() {}\n", nil},
		{"unbalanced", "package p\nfunc a() {\nfunc b() {}\n", nil},
		{"closing first", "package p\n}\nfunc b() {}\n{\n", nil},
		{"one segment", "package p\n", nil},
		{"methods and generic functions", "package p\nfunc (r *R[K]) M() {}\nfunc F[T any](t T) {}\nfunc\tG () {}\n",
			[]int{10, 32, 54}},
		{"an unnamed func never cuts: it can continue var A before it",
			"package p\nvar A\nfunc (){}\nvar B\nfunc() int\nfunc (x int) {}\n", []int{10}},
		{"a keyword is not a method name", "package p\nvar A\nfunc()func(){}\n", []int{10}},
		{"an empty receiver is not a method", "package p\nfunc()\nfunc()A(A)\n", nil},
		{"a declaration of a keyword and a name alone does not end", "package p\nvar A\nvar B int\ntype T\nfunc F() {}\n", []int{10, 26}},
		{"a file may start with a declaration", "func F() {}\nfunc G() {}\n", []int{12}},
		{"nothing cuts after a stray line", "package p\nA()0\nfunc (A)  \nfunc (A)A0(A) \n", nil},
		{"CRLF", "package p\r\nfunc a() {}\r\nfunc b() {}\r\n", []int{11, 24}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, cuts(tc.src)); diff != "" {
				t.Errorf("cuts (-want +got):\n%s", diff)
			}
			checkSegments(t, []byte(tc.src), goSegments([]byte(tc.src)))
		})
	}
}

// checkSegments checks what every split must be: segments that cover src
// in order, each starting at column 0 of the row it says, ending at the
// point it says, and every one after the first at a declaration keyword.
func checkSegments(t *testing.T, src []byte, segs []segment) {
	t.Helper()
	if segs == nil {
		return
	}
	if len(segs) < 2 {
		t.Fatalf("%d segments: a file that is not split has none", len(segs))
	}
	var at uint32
	for k, s := range segs {
		if s.start != at || s.end <= s.start {
			t.Fatalf("segment %d is [%d,%d), want it to start at %d and be non-empty", k, s.start, s.end, at)
		}
		at = s.end
		if k > 0 && !startsGoDecl(src[s.start:]) {
			t.Errorf("segment %d starts with %q", k, src[s.start:min(int(s.start)+10, len(src))])
		}
	}
	if int(at) != len(src) {
		t.Fatalf("segments end at %d of %d bytes", at, len(src))
	}
}

// TestGoSegmentsGoSources: the split holds its invariants on every file
// of a few standard library packages, and splits nearly all of them.
func TestGoSegmentsGoSources(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", "go", "*", "*.go"))
	if err != nil || len(files) < 50 {
		t.Fatalf("Go sources: %d files, %v", len(files), err)
	}
	split := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		segs := goSegments(src)
		checkSegments(t, src, segs)
		if segs != nil {
			split++
		}
	}
	if split < len(files)*9/10 {
		t.Errorf("only %d of %d files split", split, len(files))
	}
}

func FuzzGoSegments(f *testing.F) {
	f.Add([]byte("package p\n\nfunc a() {}\nvar x = `\nfunc`\nfunc b() { /* } */ }\n"))
	f.Add([]byte("package p\nvar s = \"{\\\"\"\r\nconst r = '\\''\nimport \"x\"\ntype T struct{}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkSegments(t, src, goSegments(src))
	})
}
