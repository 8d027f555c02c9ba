//go:build cgo

package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestArenaParsesSame: a parser whose arena holds every allocation, one
// whose arena fills part way through a parse (the rest comes from libc
// and the tree is deleted the ordinary way) and one without an arena give
// the same flat trees, parse after parse of the same parser, for whole
// sources, spans and sources with syntax errors, in every language; and a
// source whose parse fills the arena does not spoil the next parse.
func TestArenaParsesSame(t *testing.T) {
	goFiles, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "go", "token", "*.go"))
	if err != nil || len(goFiles) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	type input struct {
		lang  Language
		src   []byte
		spans []Span
	}
	var inputs []input
	for _, f := range goFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{lang: Go, src: src})
		inputs = append(inputs, input{lang: Go, src: src, spans: []Span{{0, len(src) / 3}, {len(src) / 2, len(src)}}})
		broken := append(append([]byte{}, src[:len(src)/2]...), []byte("func ( {{ = := ;")...)
		inputs = append(inputs, input{lang: Go, src: append(broken, src[len(src)/2:]...)})
	}
	for l := range languages {
		inputs = append(inputs, input{lang: l, src: []byte(samples[l])}, input{lang: l, src: []byte(samples[l] + "\n} ) ]( {")})
	}
	for _, arena := range []int{0, 4 << 10, 64 << 10, 512 << 10, 64 << 20} {
		parsers := map[Language]*Parser{}
		for _, in := range inputs {
			p := parsers[in.lang]
			if p == nil {
				if p, err = newParser(in.lang, arena); err != nil {
					t.Fatal(err)
				}
				if arena > 0 && p.arena == nil {
					t.Skip("no address space for an arena")
				}
				parsers[in.lang] = p
			}
			ref, err := newParser(in.lang, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.ParseSpans(in.src, in.spans)
			ref.Close()
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				got, err := p.ParseSpans(in.src, in.spans)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.nodes) != len(want.nodes) || got.broken != want.broken {
					t.Fatalf("arena %d, %s: %d nodes (broken %v), without an arena %d (broken %v)",
						arena, in.lang, len(got.nodes), got.broken, len(want.nodes), want.broken)
				}
				for i := range got.nodes {
					if got.nodes[i] != want.nodes[i] {
						t.Fatalf("arena %d, %s: node %d is %+v, without an arena %+v", arena, in.lang, i, got.nodes[i], want.nodes[i])
					}
				}
			}
		}
		for _, p := range parsers {
			p.Close()
		}
	}
}

// TestArenaLargeSource: past arenaMaxSource a parser with an arena
// parses in libc memory, to the same tree, and its arena serves the next
// parse as before.
func TestArenaLargeSource(t *testing.T) {
	line := samples[Go] + "func G() { x := []int{1, 2}; _ = x }\n"
	big := bytes.Repeat([]byte(line), arenaMaxSource/len(line)+1)
	small := []byte(samples[Go])
	p, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ref, err := newParser(Go, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, src := range [][]byte{small, big, small} {
		got, err := p.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.nodes) != len(want.nodes) {
			t.Fatalf("%d bytes: %d nodes, without an arena %d", len(src), len(got.nodes), len(want.nodes))
		}
		for i := range got.nodes {
			if got.nodes[i] != want.nodes[i] {
				t.Fatalf("%d bytes: node %d is %+v, without an arena %+v", len(src), i, got.nodes[i], want.nodes[i])
			}
		}
	}
}

// TestArenaKeepsPages: after a parse that used more than an idle parser
// keeps, the arena holds on to what the parse used, up to arenaKeep, for
// the next parses; an idle parser gives all but arenaIdle back; and a
// parse that needs more than arenaKeep leaves arenaKeep.
func TestArenaKeepsPages(t *testing.T) {
	line := samples[Go] + "func G() { x := []int{1, 2}; _ = x }\n"
	p, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.arena == nil {
		t.Skip("no address space for an arena")
	}
	for _, tc := range []struct {
		kb       int // source size
		min, max int // what the arena holds after the parse
	}{
		{kb: 1, min: 0, max: arenaIdle},
		{kb: 256, min: arenaIdle + 1, max: arenaKeep},
		{kb: 3 << 10, min: arenaKeep, max: arenaKeep},
	} {
		src := bytes.Repeat([]byte(line), tc.kb<<10/len(line)+1)
		if _, err := p.Parse(src); err != nil {
			t.Fatal(err)
		}
		if got := p.arenaHeld(); got < tc.min || got > tc.max {
			t.Errorf("after a %d KiB source the arena holds %d bytes, want %d to %d", tc.kb, got, tc.min, tc.max)
		}
		p.idle()
		if got := p.arenaHeld(); got > arenaIdle {
			t.Errorf("idle after a %d KiB source, the arena holds %d bytes, want at most %d", tc.kb, got, arenaIdle)
		}
	}
}

// samples are a few lines of each language, external scanners included
// (Python's indentation, Ruby's heredocs, Bash's words).
var samples = map[Language]string{
	Go:         "package a\nfunc F(x int) int { return x * 2 }\n",
	Python:     "def f(x):\n    if x:\n        return [y for y in x]\n    return None\n",
	JavaScript: "export function f(a) { return `t ${a}` + /re/g.source; }\n",
	TypeScript: "interface I { a: number }\nconst f = <T,>(x: T): T => x;\n",
	TSX:        "const a = <b c={1}>text</b>;\n",
	Rust:       "pub fn f(x: &str) -> String { format!(\"{}\", x) }\n",
	Java:       "class A { int m(int x) { return x + 1; } }\n",
	C:          "int f(int x) { return x << 1; }\n",
	Cpp:        "namespace n { template <class T> T f(T x) { return x; } }\n",
	CSharp:     "class C { int F(int x) => x switch { 1 => 2, _ => 0 }; }\n",
	Ruby:       "def m(x)\n  <<~EOS\n    #{x}\n  EOS\nend\n",
	PHP:        "function f($x) { return \"a{$x}b\"; }\n",
	Bash:       "f() { echo \"$1\" | grep -c x; }\ncat <<EOF\nhi\nEOF\n",
	Kotlin:     "fun f(x: Int) = listOf(x).map { it * 2 }\n",
	JSON:       `{"a": [1, 2.5, "s", null]}`,
}
