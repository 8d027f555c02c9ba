//go:build cgo

package syntax

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestWalkMatchesCursor: the walk that reads the runtime's subtrees gives
// the nodes the runtime's tree cursor gives — kinds after aliases, byte
// ranges, flags, fields, child counts and sibling links — for real code
// in every language, for that code cut short or with stray brackets put
// in (error recovery: ERROR and MISSING nodes, extras), parsed whole or
// in spans, and for soups of each language's own tokens.
func TestWalkMatchesCursor(t *testing.T) {
	parsers := map[Language][2]*Parser{}
	defer func() {
		for _, ps := range parsers {
			ps[0].Close()
			ps[1].Close()
		}
	}()
	same := func(t interface {
		Helper()
		Fatalf(string, ...any)
	}, l Language, src []byte, spans []Span) {
		t.Helper()
		ps, ok := parsers[l]
		if !ok {
			for k := range ps {
				p, err := NewParser(l)
				if err != nil {
					t.Fatalf("%s: %v", l, err)
				}
				ps[k] = p
			}
			ps[1].byCursor = true
			parsers[l] = ps
		}
		got, err := ps[0].ParseSpans(src, spans)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		want, err := ps[1].ParseSpans(src, spans)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if len(got.nodes) != len(want.nodes) {
			t.Fatalf("%s, %d bytes %q, spans %v: %d nodes, the cursor walks %d", l, len(src), clip(src), spans, len(got.nodes), len(want.nodes))
		}
		for i := range got.nodes {
			if got.nodes[i] != want.nodes[i] {
				t.Fatalf("%s, %d bytes %q, spans %v: node %d is %+v, the cursor's %+v", l, len(src), clip(src), spans, i, got.nodes[i], want.nodes[i])
			}
		}
	}
	var inputs []struct {
		l   Language
		src []byte
	}
	add := func(l Language, src []byte) {
		third := len(src) / 3
		garbled := append(append(append([]byte{}, src[:third]...), "\n} ) ]( { #if x\n"...), src[third:]...)
		for _, s := range [][]byte{src, src[:len(src)/2], garbled} {
			inputs = append(inputs, struct {
				l   Language
				src []byte
			}{l, s})
		}
	}
	for l := range languages {
		add(l, []byte(samples[l]))
	}
	fixtures, err := filepath.Glob(filepath.Join("..", "structural", "testdata", "oracle", "*"))
	if err != nil || len(fixtures) < len(languages)-2 {
		t.Fatalf("oracle fixtures: %v, %v", fixtures, err)
	}
	for _, f := range fixtures {
		l, ok := LanguageOf(f)
		if !ok {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(l, src)
	}
	for _, glob := range []struct {
		l        Language
		dir, pat string
	}{{Go, "go/token", "*.go"}, {C, "runtime/cgo", "*.[ch]"}} {
		files, _ := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", glob.dir, glob.pat))
		if len(files) == 0 {
			t.Fatalf("no sources in %s", glob.dir)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			add(glob.l, src)
		}
	}
	for _, in := range inputs {
		same(t, in.l, in.src, nil)
		// The middle half alone, and the source less its middle third.
		n := len(in.src)
		same(t, in.l, in.src, []Span{{n / 4, 3 * n / 4}})
		same(t, in.l, in.src, []Span{{0, n / 3}, {2 * n / 3, n}})
	}

	// Token soups: each language's sample cut into words and punctuation,
	// drawn in any order.
	tokens := map[Language][]string{}
	word := regexp.MustCompile(`\w+|\s+|[^\w\s]`)
	langs := make([]Language, 0, len(languages))
	for l := range languages {
		tokens[l] = append(word.FindAllString(samples[l], -1), "\n", "(", ")", "{", "}", "[", "]", ";", ",", `"`, "'", "/*", "*/", "#")
		langs = append(langs, l)
	}
	rapid.Check(t, func(t *rapid.T) {
		l := rapid.SampledFrom(langs).Draw(t, "language")
		parts := rapid.SliceOfN(rapid.SampledFrom(tokens[l]), 0, 60).Draw(t, "tokens")
		var src []byte
		for _, p := range parts {
			src = append(src, p...)
		}
		same(t, l, src, nil)
	})
}

// clip is the start of src, for a failure's message.
func clip(src []byte) []byte { return src[:min(len(src), 80)] }
