package precision

import (
	"bytes"
	"context"
	"io"
	"testing"
	"unicode/utf8"

	"github.com/scip-code/scip/bindings/go/scip"
	"pgregory.net/rapid"
)

func TestResolveEncoding(t *testing.T) {
	tests := []struct {
		declared scip.PositionEncoding
		tool     string
		want     Encoding
		source   EncodingSource
	}{
		{0, "scip-go", UTF8, Measured},
		{0, "scip-typescript", UTF16, Measured},
		{0, "scip-python", UTF16, Measured},
		{0, "rust-analyzer", CodePoints, Assumed},
		{0, "", CodePoints, Assumed},
		{scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart, "scip-go", UTF16, Declared},
		{scip.PositionEncoding_UTF8CodeUnitOffsetFromLineStart, "scip-python", UTF8, Declared},
		{scip.PositionEncoding_UTF32CodeUnitOffsetFromLineStart, "unknown", CodePoints, Declared},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.declared.String(), func(t *testing.T) {
			e, s := ResolveEncoding(tt.declared, tt.tool)
			if e != tt.want || s != tt.source {
				t.Errorf("ResolveEncoding = %s (%s), want %s (%s)", e, s, tt.want, tt.source)
			}
		})
	}
}

func TestColumnConversion(t *testing.T) {
	// The measured fact: after "😀" scip-go reports byte column 14 where
	// code points give 11.
	const line = `	x := "😀"; return x`
	tests := []struct {
		name      string
		line      string
		unit      int
		enc       Encoding
		wantPoint int
	}{
		{"utf-8 after emoji", `/* 😀 */ func Total`, 14, UTF8, 11},
		{"utf-16 after emoji", `/* 😀 */ func Total`, 12, UTF16, 11},
		{"code points unchanged", `/* 😀 */ func Total`, 11, CodePoints, 11},
		{"utf-8 after é", "/* é */ func", 9, UTF8, 8},
		{"utf-16 after é", "/* é */ func", 8, UTF16, 8},
		{"utf-8 after 日本", "/* 日本 */ var", 13, UTF8, 9},
		{"utf-16 after 日本", "/* 日本 */ var", 9, UTF16, 9},
		{"utf-8 inside a character maps to it", "é", 1, UTF8, 0},
		{"utf-16 inside a surrogate pair maps to it", "😀x", 1, UTF16, 0},
		{"past the end keeps its distance", "ab", 5, UTF8, 5},
		{"past the end of non-ASCII", "é", 4, UTF8, 3},
		{"zero", line, 0, UTF16, 0},
		{"invalid byte counts as one", "\xffx", 1, UTF8, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ToCodePoints(tt.line, tt.unit, tt.enc); got != tt.wantPoint {
				t.Errorf("ToCodePoints(%q, %d, %s) = %d, want %d", tt.line, tt.unit, tt.enc, got, tt.wantPoint)
			}
		})
	}
}

// On every character boundary, converting to code units and back is the
// identity, and code-unit columns never decrease.
func TestConversionRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := rapid.StringOf(rapid.SampledFrom([]rune{'a', ' ', 'é', '日', '本', '😀', '\t'})).Draw(t, "line")
		enc := rapid.SampledFrom([]Encoding{UTF8, UTF16, CodePoints}).Draw(t, "enc")
		n := utf8.RuneCountInString(line)
		prev := -1
		for cp := 0; cp <= n+2; cp++ {
			u := FromCodePoints(line, cp, enc)
			if u < prev {
				t.Fatalf("units decrease at code point %d: %d after %d", cp, u, prev)
			}
			prev = u
			if back := ToCodePoints(line, u, enc); back != cp {
				t.Fatalf("%q %s: code point %d → unit %d → %d", line, enc, cp, u, back)
			}
		}
		if enc == UTF8 && FromCodePoints(line, n, enc) != len(line) {
			t.Fatalf("end of line is not at byte %d", len(line))
		}
	})
}

// FuzzLoad feeds the loader arbitrary bytes, seeded with a real index and
// its corruptions: it must return an index or an error, never panic, and a
// loaded index must answer queries without panicking.
func FuzzLoad(f *testing.F) {
	good := marshal(f, fixtureIndex())
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{0x12, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{0x0a, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		// A reader of unknown size (as a pipe is) and one of known size.
		for _, r := range []io.Reader{struct{ io.Reader }{bytes.NewReader(data)}, bytes.NewReader(data)} {
			ix, err := Load(context.Background(), r, LoadOptions{Source: fixtureSources})
			if err != nil {
				continue
			}
			for _, p := range ix.Paths() {
				for line := 1; line < 5; line++ {
					s, _, err := ix.SymbolAt(p, line, 3)
					if err == nil {
						ix.Definitions(s)
						ix.References(s)
						ix.Implementations(s)
					}
				}
			}
			ix.LookupName("Shape")
		}
	})
}
