package precision

import (
	"strings"
	"unicode/utf8"

	"github.com/scip-code/scip/bindings/go/scip"
)

// An Encoding is the code unit an index counts columns in.
type Encoding uint8

// The encodings. CodePoints is what CodeCortex reports.
const (
	UTF8       Encoding = iota + 1 // bytes
	UTF16                          // UTF-16 code units
	CodePoints                     // Unicode code points (UTF-32 code units)
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF16:
		return "utf-16"
	case CodePoints:
		return "code-points"
	}
	return "unknown"
}

// EncodingSource says how an index's encoding was determined.
type EncodingSource string

// The encoding sources. Only declared and measured encodings give exact
// positions; an assumed one may be wrong, so its records are not exact.
const (
	// Declared: the document's position_encoding field says so.
	Declared EncodingSource = "declared"
	// Measured: the field is unset and the tool that wrote the index is in
	// the table of measured tool behaviour.
	Measured EncodingSource = "measured"
	// Assumed: the field is unset and the tool is unknown; code points are
	// assumed.
	Assumed EncodingSource = "assumed"
)

// measuredEncodings is the encoding each indexer writes while leaving
// Document.position_encoding unset, keyed by Metadata.tool_info.name. Each
// entry was measured by indexing a line with "😀" before an identifier and
// is checked by TestRealIndexers (testdata/enc):
//
//   - scip-go v0.1.26 reports the identifier after "😀" at byte offsets
//     (column 14 where code points give 11): UTF-8.
//   - scip-typescript 0.4.0 and scip-python 0.6.6 count UTF-16 code units,
//     as the TypeScript compiler and Pyright do internally.
var measuredEncodings = map[string]Encoding{
	"scip-go":         UTF8,
	"scip-typescript": UTF16,
	"scip-python":     UTF16,
}

// ResolveEncoding returns the encoding of a document: the declared field when
// set, else the measured behaviour of the tool that wrote it, else code
// points, assumed.
func ResolveEncoding(declared scip.PositionEncoding, tool string) (Encoding, EncodingSource) {
	switch declared {
	case scip.PositionEncoding_UTF8CodeUnitOffsetFromLineStart:
		return UTF8, Declared
	case scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart:
		return UTF16, Declared
	case scip.PositionEncoding_UTF32CodeUnitOffsetFromLineStart:
		return CodePoints, Declared
	}
	if e, ok := measuredEncodings[strings.TrimSpace(tool)]; ok {
		return e, Measured
	}
	return CodePoints, Assumed
}

// next decodes the character at line[i:] and returns its size in bytes and
// in code units of e. An invalid byte counts as one byte and one unit.
func next(line string, i int, e Encoding) (size, units int) {
	r, size := utf8.DecodeRuneInString(line[i:])
	switch e {
	case UTF8:
		return size, size
	case UTF16:
		if r >= 0x10000 {
			return size, 2
		}
	}
	return size, 1
}

// ToCodePoints converts a zero-based column in code units of e on line to a
// zero-based column in code points. A column inside a character (the second
// half of a surrogate pair, a continuation byte) maps to the character's own
// column; a column past the end of the line keeps its distance past the end.
func ToCodePoints(line string, col int, e Encoding) int {
	if col <= 0 || e == CodePoints {
		return max(col, 0)
	}
	units, cps := 0, 0
	for i := 0; i < len(line); {
		size, n := next(line, i, e)
		if units+n > col {
			return cps
		}
		units += n
		cps++
		i += size
		if units == col {
			return cps
		}
	}
	return cps + (col - units)
}

// FromCodePoints converts a zero-based column in code points on line to code
// units of e. A column past the end of the line keeps its distance past the
// end.
func FromCodePoints(line string, col int, e Encoding) int {
	if col <= 0 || e == CodePoints {
		return max(col, 0)
	}
	units, cps := 0, 0
	for i := 0; i < len(line) && cps < col; {
		size, n := next(line, i, e)
		units += n
		cps++
		i += size
	}
	return units + (col - cps)
}
