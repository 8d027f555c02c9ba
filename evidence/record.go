package evidence

import (
	"strconv"

	"github.com/codecortex/codecortex/trust"
)

// Kind is what a record says about the code.
type Kind string

// The kinds of evidence.
const (
	Definition      Kind = "definition"
	Reference       Kind = "reference"
	Implementation  Kind = "implementation"
	Call            Kind = "call"
	Import          Kind = "import"
	TypeRelation    Kind = "type_relation"
	Documentation   Kind = "documentation"
	StructuralMatch Kind = "structural_match"
	GitHistory      Kind = "git_history"
	Memory          Kind = "memory"
	Validation      Kind = "validation"
)

// Kinds returns every kind in a fixed order.
func Kinds() []Kind {
	return []Kind{
		Definition, Reference, Implementation, Call, Import, TypeRelation,
		Documentation, StructuralMatch, GitHistory, Memory, Validation,
	}
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool {
	switch k {
	case Definition, Reference, Implementation, Call, Import, TypeRelation,
		Documentation, StructuralMatch, GitHistory, Memory, Validation:
		return true
	}
	return false
}

// A Record is one piece of evidence, as every layer emits it.
//
// Invariants, checked by [Record.Validate]:
//   - Kind is a known kind, Provider is not empty, Provenance is a known
//     method and Trust a known tier no higher than Provenance's ceiling.
//   - Path is empty (the record is about no location, such as documentation
//     of a dependency) or a slash-separated path relative to the project root
//     that does not escape it. With a path, every position is at least 1 and
//     the end is not before the start; without one, every position is 0.
//   - Positions are one-based Unicode code points; the range is half-open, so
//     a caret at EndColumn belongs to the next token.
//   - Confidence is in [0, 1].
//   - Exact is set exactly when Trust is exact; Exact and Stale are never both
//     set, so a stale record cannot claim the exact tier.
type Record struct {
	Kind         Kind         `json:"kind"`
	Provider     string       `json:"provider"`
	Provenance   trust.Method `json:"provenance"`
	Trust        trust.Tier   `json:"trust"`
	Path         string       `json:"path,omitempty"`
	StartLine    int          `json:"start_line,omitempty"`
	StartColumn  int          `json:"start_column,omitempty"`
	EndLine      int          `json:"end_line,omitempty"`
	EndColumn    int          `json:"end_column,omitempty"`
	Symbol       string       `json:"symbol,omitempty"`
	TargetSymbol string       `json:"target_symbol,omitempty"`
	Confidence   float64      `json:"confidence"`
	Exact        bool         `json:"exact"`
	Stale        bool         `json:"stale"`
	Metadata     Metadata     `json:"metadata,omitzero"`
}

// Metadata is what a record carries beyond its identity and location.
type Metadata struct {
	// Excerpt is the source text at the location, or a short summary for
	// records without one (documentation, history, validation).
	Excerpt string `json:"excerpt,omitempty"`
	// StaleFrom is the tier the record had while it was fresh; it is set by
	// [MarkStale] and orders stale records among themselves.
	StaleFrom trust.Tier `json:"stale_from,omitzero"`
	// Superseded holds, whole, the weaker records that [Fuse] folded into
	// this one because they pointed at the same location.
	Superseded []Record `json:"superseded,omitempty"`
	// Attributes holds layer-specific facts as strings, such as a
	// dependency's resolved version or the position encoding an indexer used.
	Attributes map[string]string `json:"attributes,omitempty"`
}

// HasLocation reports whether the record points at a place in the source.
func (r *Record) HasLocation() bool { return r.Path != "" }

// Score is the record's ranking score (see [trust.Score]). A stale record is
// scaled from the tier it had while fresh, so stale exact evidence still
// outranks a stale guess.
func (r *Record) Score() float64 {
	t := r.Trust
	if r.Stale && r.Metadata.StaleFrom.Valid() {
		t = r.Metadata.StaleFrom
	}
	return trust.Score(t, r.Confidence, r.Stale)
}

// MarkStale returns r as evidence from an index that no longer matches the
// source: Stale set, Exact cleared, and the tier lowered to what stale
// evidence of that tier reads as (exact becomes inferred_high). The fresh
// tier is kept in Metadata.StaleFrom.
func MarkStale(r Record) Record {
	if r.Stale {
		return r
	}
	r.Metadata.StaleFrom = r.Trust
	r.Trust = trust.Effective(r.Trust, true)
	r.Exact = false
	r.Stale = true
	return r
}

// ID returns a stable identifier for the record: the same kind, method,
// location and symbols give the same id in every run and release (a 48-bit
// FNV-1a hash, written "e" and 12 hex digits). Providers and confidence are
// not part of it, so fused records keep the id of the location they
// describe.
func (r *Record) ID() string {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	str := func(s string) {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * prime64
		}
		h *= prime64 // a zero byte separates fields
	}
	num := func(n int) {
		var buf [20]byte
		for _, c := range strconv.AppendInt(buf[:0], int64(n), 10) {
			h = (h ^ uint64(c)) * prime64
		}
		h *= prime64
	}
	str(string(r.Kind))
	str(string(r.Provenance))
	str(r.Path)
	num(r.StartLine)
	num(r.StartColumn)
	num(r.EndLine)
	num(r.EndColumn)
	str(r.Symbol)
	str(r.TargetSymbol)
	const digits = "0123456789abcdef"
	var id [13]byte
	id[0] = 'e'
	for i := 12; i >= 1; i-- {
		id[i] = digits[h&0xf]
		h >>= 4
	}
	return string(id[:])
}

// Location formats the record's location as path:line:col-line:col, or ""
// for a record without one.
func (r *Record) Location() string {
	if !r.HasLocation() {
		return ""
	}
	b := make([]byte, 0, len(r.Path)+24)
	return string(r.appendRange(append(b, r.Path...)))
}

// appendRange appends ":line:col-line:col".
func (r *Record) appendRange(b []byte) []byte {
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(r.StartLine), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(r.StartColumn), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(r.EndLine), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(r.EndColumn), 10)
}
