package index

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/symbols"
)

func TestChunkFile(t *testing.T) {
	long := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "\tx%d := %d\n", i, i)
		}
		return b.String()
	}
	tests := []struct {
		name string
		src  string
		want []span // Sym: the index of the symbol in fakeExtract's order
	}{
		{
			name: "no symbols: line windows that overlap",
			src:  strings.Repeat("text\n", 90),
			want: []span{{1, 40, -1}, {36, 75, -1}, {71, 90, -1}},
		},
		{
			name: "functions with comments attached, the gaps between them on their own",
			src: "package p\n" + // 1
				"\n" + // 2
				"import \"fmt\"\n" + // 3
				"\n" + // 4
				"// Hello says hello.\n" + // 5
				"// It is polite.\n" + // 6
				"func Hello() {\n" + // 7
				"\tfmt.Println(\"hello\")\n" + // 8
				"}\n" + // 9
				"\n" + // 10
				"var x = 1\n" + // 11
				"\n" + // 12
				"type T struct {\n" + // 13
				"\ta int\n" + // 14
				"}\n", // 15
			want: []span{{1, 4, -1}, {5, 10, 0}, {11, 12, -1}, {13, 15, 2}},
		},
		{
			name: "an oversized class is cut at its methods; its head is a chunk of its own",
			src: "class Big {\n" + // 1
				"\t// one\n" + // 2
				"\tfunc one() {\n" + // 3
				long(80) + // 4-83
				"\t}\n" + // 84
				"\tfunc two() {\n" + // 85
				long(80) + // 86-165
				"\t}\n" + // 166
				"}\n", // 167
			want: []span{{1, 1, 0}, {2, 84, 1}, {85, 166, 2}, {167, 167, 0}},
		},
		{
			name: "an oversized function without inner definitions is cut in windows",
			src:  "func Huge() {\n" + long(200) + "}\n",
			want: []span{{1, 40, 0}, {36, 75, 0}, {71, 110, 0}, {106, 145, 0}, {141, 180, 0}, {176, 202, 0}},
		},
		{
			name: "leading blank lines join the first chunk",
			src:  "\n\n\nfunc F() {\n}\n",
			want: []span{{1, 5, 0}},
		},
		{
			name: "a blank file is one chunk",
			src:  "\n\n  \n",
			want: []span{{1, 3, -1}},
		},
		{
			name: "an empty file has no chunks",
			src:  "",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := fakeExtract("x.fake", []byte(tt.src))
			got := chunkFile([]byte(tt.src), f.Symbols)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(span{})); diff != "" {
				t.Errorf("chunks (-want +got):\n%s\nsymbols: %+v", diff, f.Symbols)
			}
		})
	}
}

// genFile draws a file and properly nested symbols in it, each with its
// name on or after its first line and before anything nested in it (as
// every language writes a definition's name), and its comments after the
// symbol before it.
func genFile(t *rapid.T) ([]byte, []symbols.Symbol) {
	n := rapid.IntRange(0, 400).Draw(t, "lines")
	var b strings.Builder
	for i := range n {
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("blank%d", i)) == 0 {
			b.WriteString("\n")
		} else {
			fmt.Fprintf(&b, "line %d\n", i+1)
		}
	}
	if n > 0 && rapid.Bool().Draw(t, "no final newline") {
		s := b.String()
		b.Reset()
		b.WriteString(strings.TrimSuffix(s, "\n"))
	}
	n = newLineIndex([]byte(b.String())).n()
	kinds := []symbols.Kind{symbols.Function, symbols.Method, symbols.Class, symbols.Type, symbols.Struct,
		symbols.Interface, symbols.Constant, symbols.Variable, symbols.Field, symbols.Module, symbols.Enum}
	var syms []symbols.Symbol
	var gen func(lo, hi, depth int)
	gen = func(lo, hi, depth int) {
		first := lo // comments stay after the symbol before
		for lo <= hi && depth < 4 {
			if rapid.IntRange(0, 3).Draw(t, "skip") == 0 {
				lo += rapid.IntRange(1, 30).Draw(t, "gap")
				continue
			}
			start := lo
			end := min(hi, start+rapid.IntRange(0, 250).Draw(t, "length"))
			name := min(end, start+rapid.IntRange(0, 2).Draw(t, "name offset"))
			doc := max(first, start-rapid.IntRange(0, 3).Draw(t, "doc"))
			i := len(syms)
			syms = append(syms, symbols.Symbol{
				Name: fmt.Sprintf("s%d", i), Kind: rapid.SampledFrom(kinds).Draw(t, "kind"),
				NameRange: symbols.Range{StartLine: name, StartColumn: 1, EndLine: name, EndColumn: 2},
				Range:     symbols.Range{StartLine: start, StartColumn: 1, EndLine: end, EndColumn: 1},
				DocLine:   doc,
			})
			if name+1 <= end-1 {
				gen(name+1, end-1, depth+1)
			}
			lo = end + 1
			first = lo
		}
	}
	gen(1, n, 0)
	if rapid.Bool().Draw(t, "shuffle") { // extractors need not sort their symbols
		for i := len(syms) - 1; i > 0; i-- {
			j := rapid.IntRange(0, i).Draw(t, "swap")
			syms[i], syms[j] = syms[j], syms[i]
		}
	}
	return []byte(b.String()), syms
}

func TestChunkProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src, syms := genFile(t)
		li := newLineIndex(src)
		chunks := chunkFile(src, syms)
		covered := make([]bool, li.n()+1)
		for _, c := range chunks {
			if c.Start < 1 || c.End > li.n() || c.Start > c.End {
				t.Fatalf("chunk %+v outside lines 1-%d", c, li.n())
			}
			if c.Sym >= len(syms) {
				t.Fatalf("chunk %+v aligned to a symbol that does not exist", c)
			}
			for l := c.Start; l <= c.End; l++ {
				covered[l] = true
			}
		}
		// Every line is in at least one chunk.
		for l := 1; l <= li.n(); l++ {
			if !covered[l] {
				t.Fatalf("line %d is in no chunk: %+v", l, chunks)
			}
		}
		// No chunk separates a symbol's first line from its name line,
		// unless the symbol is oversized (this chunker keeps them together
		// even then).
		for _, s := range syms {
			first, name := s.Range.StartLine, s.NameRange.StartLine
			together := false
			for _, c := range chunks {
				if c.Start <= first && name <= c.End {
					together = true
					break
				}
			}
			if !together {
				t.Fatalf("symbol %s (lines %d-%d, name on %d) is split from its name: %+v", s.Name, first, s.Range.EndLine, name, chunks)
			}
		}
		// A chunk is bounded, unless it was stretched to keep a name with
		// its symbol or took in blank lines.
		for _, c := range chunks {
			if c.End-c.Start+1 > maxChunkLines+maxChunkLines && !li.blank(c.Start+maxChunkLines, c.End) {
				t.Fatalf("chunk %+v is oversized", c)
			}
		}
	})
}

func FuzzChunkFile(f *testing.F) {
	f.Add([]byte("package p\n\nfunc A() {\n}\n\n// doc\nfunc (r *T) B() {\n\tx\n}\n"), uint8(0))
	f.Add([]byte("class C {\n\tfunc m() {\n\t}\n}\n"), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, _ uint8) {
		sf, _ := fakeExtract("f.fake", src)
		li := newLineIndex(src)
		covered := make([]bool, li.n()+1)
		for _, c := range chunkFile(src, sf.Symbols) {
			for l := c.Start; l <= c.End && l <= li.n(); l++ {
				covered[l] = true
			}
		}
		for l := 1; l <= li.n(); l++ {
			if !covered[l] {
				t.Fatalf("line %d is in no chunk", l)
			}
		}
	})
}

func TestIsBinary(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  []byte
		want bool
	}{
		{"text", []byte("package main\n\nfunc main() {}\n"), false},
		{"utf-8 text", []byte("// é日本😀\nvar x = 1\n"), false},
		{"a NUL", []byte("abc\x00def"), true},
		{"protobuf without NULs", []byte("\n\x8a\x01\x12\x06scip-go\x1a\x070.1.26\x82\xff\xfe\x90\x91\x92\x93"), true},
		{"one stray byte in text", append([]byte(strings.Repeat("text line\n", 50)), 0xff, '\n'), false},
		{"a rune cut at the probe's end", append([]byte(strings.Repeat("a", binaryProbe-1)), "é"...), false},
	} {
		if got := isBinary(tt.src); got != tt.want {
			t.Errorf("%s: isBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
