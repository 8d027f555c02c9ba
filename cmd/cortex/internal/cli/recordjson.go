package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/jsonstr"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/trust"
)

// A recordEncoder writes evidence records as JSON without reflection, for
// the tens of thousands a structural search can print: exactly the bytes
// of the general way (see general), which TestRecordEncoderMatchesMarshal
// and TestMatchEncoderMatchesRecord check. A line of a stream carries the
// record with the text from the source redacted (redactSource); a
// document, every string redacted.
type recordEncoder struct {
	// doc selects the form of a --json document: every string redacted
	// with red (after a JSON round trip, which replaces invalid UTF-8),
	// indented, with prefix starting each line after the first. Otherwise
	// the record is compact and its strings as they are.
	doc    bool
	red    func(string) string
	prefix string
	attrs  [][2]string // the attributes being written, sorted by key
	keys   uint8       // 0 until plainKeys decides, then 1 (plain) or 2
	// memo keeps what red made of the short strings seen so far, up to
	// memoSize of them: every record repeats its keys, kind, provider,
	// engine and pattern, and a redaction depends on the text alone.
	// Longer text (an excerpt, a capture) seldom repeats, and hashing it
	// for the lookup would cost as much as a redaction's scan. It keeps
	// copies: a match's strings may be memory the search reads the next
	// file into (structural.Request.Recycle).
	memo map[string]memoEntry
	// recent holds strings the memo answered, by their length and first
	// and last bytes: the keys, kind, provider, engine and pattern that
	// every record repeats are found here with a comparison rather than
	// by hashing them for the map.
	recent [recentSize]memoEntry
	// head and trio are members every record of a search writes alike,
	// kept as written: the record's kind, provider, provenance and trust,
	// and its engine, language and pattern attributes.
	head memberRun[headKey]
	trio memberRun[[3]string]
}

// A memoEntry is a string the memo keeps (its own copy) and its redaction.
type memoEntry struct{ in, out string }

// A headKey is what a record's first members are written from.
type headKey struct {
	kind, provider, provenance string
	tier                       trust.Tier
}

// A memberRun is the bytes a run of members was written as, for the key
// (the values, and whether the run opened its object) it was written for.
type memberRun[K comparable] struct {
	key   K
	first bool // the run was its object's first members
	ok    bool
	bytes []byte
}

// write appends the run for key: the bytes kept for it when they are for
// the same key and position, else what fill writes, which it keeps.
func (r *memberRun[K]) write(o *objectWriter, key K, fill func()) {
	if r.ok && r.key == key && r.first == o.first {
		o.dst = append(o.dst, r.bytes...)
		o.first = false
		return
	}
	mark, first := len(o.dst), o.first
	fill()
	*r = memberRun[K]{key: key, first: first, ok: true, bytes: append(r.bytes[:0], o.dst[mark:]...)}
}

const recentSize = 64 // a power of two

const (
	memoSize   = 1024
	memoMaxLen = 256
)

// appendRecord appends r to dst. It returns false, and dst unchanged, for
// a record it does not encode itself (superseded records, a stale-from
// tier, no attributes, a confidence that is not a plain decimal): the
// caller encodes those the general way.
func (e *recordEncoder) appendRecord(dst []byte, r *evidence.Record) ([]byte, bool) {
	e.attrs = e.attrs[:0]
	for k, v := range r.Metadata.Attributes {
		e.attrs = append(e.attrs, [2]string{k, v})
	}
	slices.SortFunc(e.attrs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return e.appendParts(dst, r, e.attrs)
}

// appendAny appends r as appendRecord does or, for a record it does not
// encode itself, the general way; in a stream, after redacting the text
// r carries from the source (redactSource).
func (e *recordEncoder) appendAny(dst []byte, r evidence.Record) ([]byte, error) {
	if !e.doc {
		r = e.redactSource(r)
	}
	if out, ok := e.appendRecord(dst, &r); ok {
		return out, nil
	}
	b, err := e.general(r)
	return append(dst, b...), err
}

// redactSource redacts the text a record carries from the source: its
// excerpt and its attributes' values.
func (e *recordEncoder) redactSource(r evidence.Record) evidence.Record {
	r.Metadata.Excerpt = e.redacted(r.Metadata.Excerpt)
	attrs := make(map[string]string, len(r.Metadata.Attributes))
	for k, v := range r.Metadata.Attributes {
		attrs[k] = e.redacted(v)
	}
	r.Metadata.Attributes = attrs
	return r
}

// appendMatch appends what appendAny appends for m.Record(engine,
// pattern), without building the record's map of attributes.
func (e *recordEncoder) appendMatch(dst []byte, m *structural.Match, engine, pattern string) ([]byte, error) {
	r, attrs := m.RecordParts(engine, pattern, e.attrs[:0])
	e.attrs = attrs
	if !e.doc {
		r.Metadata.Excerpt = e.redacted(r.Metadata.Excerpt)
		for i := range attrs {
			attrs[i][1] = e.redacted(attrs[i][1])
		}
	}
	if out, ok := e.appendParts(dst, &r, attrs); ok {
		return out, nil
	}
	r.Metadata.Attributes = make(map[string]string, len(attrs))
	for _, kv := range attrs {
		r.Metadata.Attributes[kv[0]] = kv[1]
	}
	b, err := e.general(r)
	return append(dst, b...), err
}

// appendParts is appendRecord for a record whose attributes are attrs,
// sorted by key with none repeated, rather than its map (which it does
// not read): a structural match's, from structural's Match.RecordParts.
func (e *recordEncoder) appendParts(dst []byte, r *evidence.Record, attrs [][2]string) ([]byte, bool) {
	md := &r.Metadata
	if len(md.Superseded) > 0 || md.StaleFrom != 0 || len(attrs) == 0 {
		return dst, false
	}
	if c := math.Abs(r.Confidence); c != 0 && (c < 1e-6 || c >= 1e21) || math.IsNaN(r.Confidence) {
		return dst, false
	}
	if !r.Trust.Valid() { // MarshalText's error
		return dst, false
	}
	// The record's own member names are constants here, plain ASCII, so
	// they are written as they are (rawKey, field) unless the redactor
	// would change one; attribute names are data and go through str like
	// every value.
	o := objectWriter{e: e, dst: dst}
	o.open()
	e.head.write(&o, headKey{string(r.Kind), r.Provider, string(r.Provenance), r.Trust}, func() {
		o.field("kind", string(r.Kind))
		o.field("provider", r.Provider)
		o.field("provenance", string(r.Provenance))
		o.field("trust", r.Trust.String())
	})
	if r.Path != "" {
		o.field("path", r.Path)
	}
	for _, f := range []struct {
		k string
		v int
	}{{"start_line", r.StartLine}, {"start_column", r.StartColumn}, {"end_line", r.EndLine}, {"end_column", r.EndColumn}} {
		if f.v != 0 {
			o.rawKey(f.k)
			o.dst = strconv.AppendInt(o.dst, int64(f.v), 10)
		}
	}
	if r.Symbol != "" {
		o.field("symbol", r.Symbol)
	}
	if r.TargetSymbol != "" {
		o.field("target_symbol", r.TargetSymbol)
	}
	o.rawKey("confidence")
	o.dst = strconv.AppendFloat(o.dst, r.Confidence, 'f', -1, 64)
	o.rawKey("exact")
	o.dst = strconv.AppendBool(o.dst, r.Exact)
	o.rawKey("stale")
	o.dst = strconv.AppendBool(o.dst, r.Stale)
	o.rawKey("metadata")
	o.open()
	if md.Excerpt != "" {
		o.field("excerpt", md.Excerpt)
	}
	o.rawKey("attributes")
	o.open()
	for i := 0; i < len(attrs); i++ {
		if i+2 < len(attrs) && attrs[i][0] == "engine" && attrs[i+1][0] == "language" && attrs[i+2][0] == "pattern" {
			run := attrs[i : i+3]
			e.trio.write(&o, [3]string{run[0][1], run[1][1], run[2][1]}, func() {
				for _, kv := range run {
					o.str(kv[0], kv[1])
				}
			})
			i += 2
			continue
		}
		o.str(attrs[i][0], attrs[i][1])
	}
	o.close()
	o.close()
	o.close()
	return o.dst, true
}

// appendDocument appends the --json document of a search whose records
// are printed apart: structuralJSON with no records, as renderJSON prints
// it (TestDocumentMatchesRender), without reflection, so a search that
// prints few records does not pay for encoding/json's first use. The
// encoder is a document's, with no prefix.
func (e *recordEncoder) appendDocument(dst []byte, pattern string, lang structural.Language, rep *evidence.Report) []byte {
	o := objectWriter{e: e, dst: dst}
	o.open()
	o.field("pattern", pattern)
	if lang != "" {
		o.field("language", string(lang))
	}
	o.rawKey("records")
	o.dst = append(o.dst, "[]"...)
	o.rawKey("report")
	o.open()
	o.field("provider", rep.Provider)
	o.field("state", string(rep.State))
	if rep.Reason != "" {
		o.field("reason", rep.Reason)
	}
	if rep.Guidance != "" {
		o.field("guidance", rep.Guidance)
	}
	o.rawKey("records")
	o.dst = strconv.AppendInt(o.dst, int64(rep.Records), 10)
	for _, l := range []struct {
		k  string
		vs []string
	}{{"lowered", rep.Lowered}, {"dropped", rep.Dropped}} {
		if len(l.vs) == 0 {
			continue
		}
		o.rawKey(l.k)
		o.dst = append(o.dst, '[')
		for i, v := range l.vs {
			if i > 0 {
				o.dst = append(o.dst, ',')
			}
			o.newline(o.depth + 1)
			o.dst = jsonstr.Append(o.dst, e.text(v))
		}
		o.newline(o.depth)
		o.dst = append(o.dst, ']')
	}
	o.close()
	o.close()
	return append(o.dst, '\n')
}

// recordKeys are the member names appendRecord and appendDocument write
// with rawKey.
var recordKeys = []string{"kind", "provider", "provenance", "trust", "path", "start_line", "start_column",
	"end_line", "end_column", "symbol", "target_symbol", "confidence", "exact", "stale", "metadata",
	"excerpt", "attributes", "pattern", "language", "records", "report", "state", "reason", "guidance",
	"lowered", "dropped"}

// plainKeys reports whether redaction leaves every one of recordKeys as
// it is, which it decides once.
func (e *recordEncoder) plainKeys() bool {
	if e.keys == 0 {
		e.keys = 1
		for _, k := range recordKeys {
			if e.doc && e.red(k) != k {
				e.keys = 2
			}
		}
	}
	return e.keys == 1
}

// general encodes r the general way: json.Marshal, then for a document
// redactJSON and json.Indent.
func (e *recordEncoder) general(r evidence.Record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil || !e.doc {
		return b, err
	}
	if b, err = redactJSON(b, e.red); err != nil {
		return nil, err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, b, e.prefix, "  "); err != nil {
		return nil, err
	}
	return ind.Bytes(), nil
}

// objectWriter writes nested JSON objects, compact or indented.
type objectWriter struct {
	e     *recordEncoder
	dst   []byte
	depth int  // objects open
	first bool // no member written yet in the innermost object
}

func (o *objectWriter) newline(depth int) {
	o.dst = append(o.dst, '\n')
	o.dst = append(o.dst, o.e.prefix...)
	for range depth {
		o.dst = append(o.dst, "  "...)
	}
}

func (o *objectWriter) open() {
	o.depth++
	o.dst = append(o.dst, '{')
	o.first = true
}

func (o *objectWriter) close() {
	o.depth--
	if o.e.doc {
		o.newline(o.depth)
	}
	o.dst = append(o.dst, '}')
	o.first = false
}

// key writes member name k, which is data: redacted in a document.
func (o *objectWriter) key(k string) { o.member(o.e.text(k), false) }

// rawKey writes member name k, a constant of this file: ASCII letters and
// underscores, which escaping never changes and redaction does not either
// unless a configured secret is one of them (then it goes the data way).
func (o *objectWriter) rawKey(k string) {
	if o.e.plainKeys() {
		o.member(k, true)
	} else {
		o.key(k)
	}
}

func (o *objectWriter) member(k string, raw bool) {
	if !o.first {
		o.dst = append(o.dst, ',')
	}
	o.first = false
	if o.e.doc {
		o.newline(o.depth)
	}
	if raw {
		o.dst = append(o.dst, '"')
		o.dst = append(o.dst, k...)
		o.dst = append(o.dst, '"')
	} else {
		o.dst = jsonstr.Append(o.dst, k)
	}
	o.dst = append(o.dst, ':')
	if o.e.doc {
		o.dst = append(o.dst, ' ')
	}
}

// str writes member k, a data key, with value v.
func (o *objectWriter) str(k, v string) {
	o.key(k)
	o.dst = jsonstr.Append(o.dst, o.e.text(v))
}

// field writes member k, a constant key (see rawKey), with value v.
func (o *objectWriter) field(k, v string) {
	o.rawKey(k)
	o.dst = jsonstr.Append(o.dst, o.e.text(v))
}

// text returns s as the record's JSON carries it: in a document, with
// each byte that is not UTF-8 replaced by U+FFFD (as encoding and
// decoding it does), then redacted.
func (e *recordEncoder) text(s string) string {
	if !e.doc {
		return s
	}
	if !utf8.ValidString(s) {
		b := make([]byte, 0, len(s)+8)
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
		}
		s = string(b)
	}
	return e.redacted(s)
}

// redacted returns red(s), from the memo when s is short.
func (e *recordEncoder) redacted(s string) string {
	if len(s) > memoMaxLen || s == "" {
		return e.red(s)
	}
	slot := &e.recent[(len(s)*31+int(s[0])*7+int(s[len(s)-1]))&(recentSize-1)]
	if slot.in == s {
		return slot.out
	}
	if m, ok := e.memo[s]; ok {
		*slot = m // seen twice: likely again
		return m.out
	}
	if len(e.memo) >= memoSize {
		return e.red(s)
	}
	if e.memo == nil {
		e.memo = map[string]memoEntry{}
	}
	in := strings.Clone(s)
	m := memoEntry{in, e.red(in)}
	e.memo[in] = m
	return m.out
}
