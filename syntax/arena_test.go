//go:build cgo

package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestArenaParsesSame: a parser whose arena holds every allocation, one
// whose arena fills part way through a parse (the rest comes from libc
// and the tree is deleted the ordinary way) and one without an arena give
// the same flat trees, parse after parse of the same parser, for whole
// sources, spans and sources with syntax errors, in every language; and a
// source whose parse fills the arena does not spoil the next parse.
func TestArenaParsesSame(t *testing.T) {
	goFiles, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", "go", "token", "*.go"))
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
	// Each line's long comment is one node: the source passes
	// arenaMaxSource with a fifth of the nodes (and of the parsing) that
	// code alone would take.
	line := samples[Go] + "func G() { x := []int{1, 2}; _ = x } // " + strings.Repeat("padding ", 32) + "\n"
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

// arenaLines is Go the arena tests repeat to make a source of the size
// they need.
var arenaLines = samples[Go] + "func G() { x := []int{1, 2}; _ = x }\n"

// TestArenaKeepsPages: after a parse that used more than an idle parser
// keeps, the arena holds on to what the parse used, up to arenaKeep, for
// the next parses; an idle parser gives all but arenaIdle back; and a
// parse that needs more than arenaKeep leaves arenaKeep.
func TestArenaKeepsPages(t *testing.T) {
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
		src := bytes.Repeat([]byte(arenaLines), tc.kb<<10/len(arenaLines)+1)
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

// TestArenaHugePages: an arena starts on a huge page boundary and asks
// for transparent huge pages, and where the kernel hands them out (Linux
// with them enabled "always" or "madvise") a parse's arena is mapped in
// them: one page fault for two megabytes rather than 512.
func TestArenaHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skip("no transparent huge pages here:", err)
	}
	p, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	base := p.arenaBase()
	if base == 0 {
		t.Skip("no address space for an arena")
	}
	if base%(2<<20) != 0 {
		t.Fatalf("the arena begins at %#x, not on a two-megabyte boundary", base)
	}
	fallbacks := vmstat(t, "thp_fault_fallback")
	src := bytes.Repeat([]byte(arenaLines), 4000)
	if _, err := p.Parse(src); err != nil {
		t.Fatal(err)
	}
	flags, huge := arenaMapping(t, base)
	if !bytes.Contains(flags, []byte(" hg")) {
		t.Errorf("the arena's mapping is not marked for huge pages (VmFlags:%s)", flags)
	}
	if !bytes.Contains(mode, []byte("[always]")) && !bytes.Contains(mode, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are %s", bytes.TrimSpace(mode))
	}
	if huge == 0 {
		if vmstat(t, "thp_fault_fallback") > fallbacks {
			t.Skip("the kernel had no huge page to give (thp_fault_fallback rose)")
		}
		t.Errorf("after a %d KiB parse the arena holds no huge page", len(src)>>10)
	}
}

// arenaMapping reads /proc/self/smaps for the mapping holding addr: its
// VmFlags and its AnonHugePages in kB.
func arenaMapping(t *testing.T, addr uintptr) (flags []byte, hugeKB int) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for line := range bytes.Lines(smaps) {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(string(line), "%x-%x ", &lo, &hi); n == 2 {
			if in {
				break
			}
			in = lo <= addr && addr < hi
			continue
		}
		if !in {
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("VmFlags:")); ok {
			flags = bytes.TrimRight(v, "\n")
		}
		fmt.Sscanf(string(line), "AnonHugePages: %d kB", &hugeKB)
	}
	if flags == nil {
		t.Fatalf("no mapping in /proc/self/smaps holds %#x", addr)
	}
	return flags, hugeKB
}

// vmstat is the counter name in /proc/vmstat, 0 when it is not there.
func vmstat(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		var n int
		if k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte(" ")); ok && string(k) == name {
			fmt.Sscanf(string(v), "%d", &n)
			return n
		}
	}
	return 0
}
