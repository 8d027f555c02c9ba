//go:build cgo

package structural

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestMatchInvariants checks, for patterns and fixtures drawn at random
// from the oracle suite, what every search must guarantee: valid matches
// whose text is the source at their byte range, one-based code-point
// positions that agree with those bytes, the deterministic order, and
// rewrites of the outermost matches that never overlap.
func TestMatchInvariants(t *testing.T) {
	srcs := map[Language][]string{}
	ents, err := os.ReadDir("testdata/oracle")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if l, ok := LanguageOf(e.Name()); ok {
			srcs[l] = append(srcs[l], filepath.Join("testdata/oracle", e.Name()))
		}
	}
	var cases []oracleCase
	for _, c := range oracleCases {
		if len(srcs[c.lang]) > 0 && !c.broken {
			cases = append(cases, c)
		}
	}
	e := NewBuiltin(BuiltinOptions{})
	rapid.Check(t, func(rt *rapid.T) {
		c := rapid.SampledFrom(cases).Draw(rt, "case")
		file := rapid.SampledFrom(srcs[c.lang]).Draw(rt, "file")
		src, err := os.ReadFile(file)
		if err != nil {
			rt.Fatal(err)
		}
		dir, err := filepath.Abs("testdata/oracle")
		if err != nil {
			rt.Fatal(err)
		}
		res, err := e.Search(context.Background(), Request{Root: dir, Pattern: c.pattern, Language: c.lang, Paths: []string{filepath.Base(file)}})
		if err != nil {
			rt.Fatalf("%s %q: %v", c.lang, c.pattern, err)
		}
		for i, m := range res.Matches {
			if err := m.Validate(); err != nil {
				rt.Fatalf("invalid match: %v", err)
			}
			if got := string(src[m.Range.StartByte:m.Range.EndByte]); got != m.Text {
				rt.Fatalf("text %q is not the source %q at its bytes", m.Text, got)
			}
			if l, col := position(src, m.Range.StartByte); l != m.Range.StartLine || col != m.Range.StartColumn {
				rt.Fatalf("start %d:%d, bytes say %d:%d", m.Range.StartLine, m.Range.StartColumn, l, col)
			}
			if l, col := position(src, m.Range.EndByte); l != m.Range.EndLine || col != m.Range.EndColumn {
				rt.Fatalf("end %d:%d, bytes say %d:%d", m.Range.EndLine, m.Range.EndColumn, l, col)
			}
			for _, cp := range m.Captures {
				for _, n := range cp.Nodes {
					if n.Range.StartByte < m.Range.StartByte || n.Range.EndByte > m.Range.EndByte {
						rt.Fatalf("capture %s lies outside its match", cp.Name)
					}
				}
			}
			if i > 0 {
				p := res.Matches[i-1]
				if p.Range.StartByte > m.Range.StartByte || p.Range.StartByte == m.Range.StartByte && p.Range.EndByte < m.Range.EndByte {
					rt.Fatalf("matches out of order at %d", i)
				}
			}
		}
		edits, err := Rewrite(res.Matches, "R")
		if err != nil {
			rt.Fatal(err)
		}
		out, err := ApplyEdits(src, edits)
		if err != nil {
			rt.Fatalf("outermost edits overlap: %v", err)
		}
		if len(edits) > 0 && strings.Count(string(out), "R") < len(edits) {
			rt.Fatalf("an edit was lost")
		}
	})
}

// position computes the one-based line and code-point column of off
// directly from the bytes.
func position(src []byte, off int) (line, col int) {
	before := src[:off]
	line = 1 + strings.Count(string(before), "\n")
	last := strings.LastIndexByte(string(before), '\n')
	return line, 1 + utf8.RuneCount(before[last+1:])
}
