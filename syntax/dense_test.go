//go:build cgo

package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestDenseTables: every grammar's parse table can be made dense, and in
// every state, for every symbol, the runtime's next state is the one the
// grammar's own table gives.
func TestDenseTables(t *testing.T) {
	for l := range languages {
		g, err := GrammarOf(l)
		if err != nil {
			t.Fatal(err)
		}
		if g.dense.bytes == 0 {
			t.Errorf("%s: the parse table cannot be made dense", l)
			continue
		}
		if state, sym, ok := denseDiffers(g); !ok {
			t.Errorf("%s: state %d, symbol %d (%s) leads elsewhere in the dense table", l, state, sym, g.KindName(uint16(sym)))
		}
	}
}

// TestDenseParsesSame: a parser with the dense table and one with the
// grammar's own (without an arena, so a kept parser) give the same trees, for valid code and for code that
// keeps error recovery busy (truncated files, stray brackets, C with
// macros tree-sitter cannot expand), in every language.
func TestDenseParsesSame(t *testing.T) {
	type input struct {
		lang Language
		src  []byte
	}
	var inputs []input
	garble := func(l Language, src []byte) {
		inputs = append(inputs, input{l, src}, input{l, src[:len(src)/2]},
			input{l, append(append(append([]byte{}, src[:len(src)/3]...), "\n} ) ]( { #if x\n"...), src[len(src)/3:]...)})
	}
	for l := range languages {
		garble(l, []byte(samples[l]))
	}
	for _, glob := range []struct {
		lang Language
		dir  string
		pat  string
	}{{Go, "go/token", "*.go"}, {C, "runtime/cgo", "*.c"}, {C, "runtime/cgo", "*.h"}} {
		files, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", glob.dir, glob.pat))
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s sources in %s: %v", glob.lang, glob.dir, err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			garble(glob.lang, src)
		}
	}
	dense, plain := map[Language]*Parser{}, map[Language]*Parser{}
	defer func() {
		for _, ps := range []map[Language]*Parser{dense, plain} {
			for _, p := range ps {
				p.Close()
			}
		}
	}()
	for _, in := range inputs {
		if dense[in.lang] == nil {
			g, err := GrammarOf(in.lang)
			if err != nil {
				t.Fatal(err)
			}
			if g.makeDense() == nil {
				t.Fatalf("%s: no dense table", in.lang)
			}
			own, err := loadGrammar(in.lang)
			if err != nil {
				t.Fatal(err)
			}
			own.dense.bytes = 0 // never dense
			if dense[in.lang], err = grammarParser(g, arenaBytes); err != nil {
				t.Fatal(err)
			}
			if plain[in.lang], err = grammarParser(own, 0); err != nil {
				t.Fatal(err)
			}
		}
		want, err := plain[in.lang].Parse(in.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dense[in.lang].Parse(in.src)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.nodes) != len(want.nodes) || got.broken != want.broken {
			t.Fatalf("%s, %d bytes: %d nodes (broken %v), with the grammar's own table %d (broken %v)",
				in.lang, len(in.src), len(got.nodes), got.broken, len(want.nodes), want.broken)
		}
		for i := range got.nodes {
			if got.nodes[i] != want.nodes[i] {
				t.Fatalf("%s, %d bytes: node %d is %+v, with the grammar's own table %+v", in.lang, len(in.src), i, got.nodes[i], want.nodes[i])
			}
		}
	}
}

// TestDenseAfterReading: a grammar's parses read its own table until they
// have read a denseAfter-th of the dense one's size in source, the dense
// one after, and a kept parser moves to it with the same trees.
func TestDenseAfterReading(t *testing.T) {
	g, err := loadGrammar(Go)
	if err != nil {
		t.Fatal(err)
	}
	p, err := grammarParser(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	src := []byte(samples[Go])
	want, err := p.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	for read := int64(len(src)); denseAfter*read < g.dense.bytes; read += int64(len(src)) {
		if g.dense.load() != nil {
			t.Fatalf("dense after %d of %d bytes", read, g.dense.bytes)
		}
		if _, err := p.Parse(src); err != nil {
			t.Fatal(err)
		}
	}
	got, err := p.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if g.dense.load() == nil {
		t.Fatalf("not dense after %d bytes", g.dense.read.Load())
	}
	if diff := cmp.Diff(shapeIn(want, nil), shapeIn(got, nil)); diff != "" {
		t.Errorf("(-own table +dense):\n%s", diff)
	}
}
