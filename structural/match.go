package structural

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/jsonstr"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// A Range locates code in a file: one-based lines and columns counted in
// Unicode code points, half-open (the end is just past the last
// character), plus the zero-based byte offsets of the same span. It is the
// syntax floor's; [syntax.Range.Validate] checks its invariants.
type Range = syntax.Range

// A Node is one captured piece of code.
type Node struct {
	Text  string `json:"text"`
	Range Range  `json:"range"`
	// Named is false for an unnamed token, such as the comma between
	// arguments that a multi capture keeps.
	Named bool `json:"named"`
}

// A Capture is the value of one metavariable in a match.
type Capture struct {
	Name string `json:"name"`
	// Multi is set for a $$$NAME capture, whose Nodes may be empty and
	// include the separator tokens between the items.
	Multi bool `json:"multi"`
	// Text is the captured source: a single node's text, or for a multi
	// capture everything from its first node to its last, separators and
	// whitespace as written.
	Text  string `json:"text"`
	Nodes []Node `json:"nodes"`
}

// Items returns the capture's named nodes: for a multi capture, the items
// without the separators between them.
func (c Capture) Items() []Node {
	var out []Node
	for _, n := range c.Nodes {
		if n.Named {
			out = append(out, n)
		}
	}
	return out
}

// A Match is one place where a pattern matched.
//
// Invariants, checked by [Match.Validate]: Path is a clean root-relative
// slash path, Range is valid, Text is the source in Range, and Captures are
// sorted by name without duplicates.
type Match struct {
	Path     string    `json:"path"`
	Language Language  `json:"language"`
	Range    Range     `json:"range"`
	Text     string    `json:"text"`
	Captures []Capture `json:"captures,omitempty"`
	// Lines is the text of the lines the match spans, for display. A long
	// line is cut to a window around the match (a few dozen bytes of
	// context on each side, a few hundred bytes of any one line), with
	// [Cut] where text was left out, so a match in a minified file does
	// not carry the file along.
	Lines string `json:"lines,omitempty"`
	// Indent is the spaces and tabs that start the line the match begins
	// on; [Expand] indents a multi-line replacement by it.
	Indent string `json:"indent,omitempty"`
}

// Clone returns a copy of m that shares no memory with it: what a host
// keeps of a match [Request.Each] is given, whose captures and nodes the
// engine builds later matches in (and, with [Request.Recycle], whose
// strings it reads later files into).
func (m *Match) Clone() Match {
	c := *m
	c.Path, c.Text, c.Lines, c.Indent = strings.Clone(m.Path), strings.Clone(m.Text), strings.Clone(m.Lines), strings.Clone(m.Indent)
	if m.Captures != nil {
		c.Captures = slices.Clone(m.Captures)
		for i := range c.Captures {
			cp := &c.Captures[i]
			cp.Name, cp.Text = strings.Clone(cp.Name), strings.Clone(cp.Text)
			if cp.Nodes != nil {
				cp.Nodes = slices.Clone(cp.Nodes)
				for k := range cp.Nodes {
					cp.Nodes[k].Text = strings.Clone(cp.Nodes[k].Text)
				}
			}
		}
	}
	return c
}

// AppendJSON appends m encoded as JSON: the bytes json.Marshal gives for
// it, written without reflection, for a host that prints many matches.
// dst grows at most once for a match whose text escapes to no more than
// a quarter over its length, however large the match.
func (m *Match) AppendJSON(dst []byte) []byte {
	if n := m.jsonSize(); cap(dst)-len(dst) < n {
		dst = append(make([]byte, 0, len(dst)+n), dst...)
	}
	dst = append(dst, `{"path":`...)
	dst = jsonstr.Append(dst, m.Path)
	dst = append(dst, `,"language":`...)
	dst = jsonstr.Append(dst, string(m.Language))
	dst = append(dst, `,"range":`...)
	dst = appendRangeJSON(dst, &m.Range)
	dst = append(dst, `,"text":`...)
	dst = jsonstr.Append(dst, m.Text)
	if len(m.Captures) > 0 {
		dst = append(dst, `,"captures":[`...)
		for i := range m.Captures {
			c := &m.Captures[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = jsonstr.Append(dst, c.Name)
			dst = append(dst, `,"multi":`...)
			dst = strconv.AppendBool(dst, c.Multi)
			dst = append(dst, `,"text":`...)
			dst = jsonstr.Append(dst, c.Text)
			dst = append(dst, `,"nodes":`...)
			if c.Nodes == nil {
				dst = append(dst, "null"...)
			} else {
				dst = append(dst, '[')
				for k := range c.Nodes {
					n := &c.Nodes[k]
					if k > 0 {
						dst = append(dst, ',')
					}
					dst = append(dst, `{"text":`...)
					dst = jsonstr.Append(dst, n.Text)
					dst = append(dst, `,"range":`...)
					dst = appendRangeJSON(dst, &n.Range)
					dst = append(dst, `,"named":`...)
					dst = strconv.AppendBool(dst, n.Named)
					dst = append(dst, '}')
				}
				dst = append(dst, ']')
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if m.Lines != "" {
		dst = append(dst, `,"lines":`...)
		dst = jsonstr.Append(dst, m.Lines)
	}
	if m.Indent != "" {
		dst = append(dst, `,"indent":`...)
		dst = jsonstr.Append(dst, m.Indent)
	}
	return append(dst, '}')
}

// jsonSize is about how many bytes AppendJSON writes for m: its strings'
// lengths with a quarter more for escapes, and at most what is written
// around them (a range's six numbers of up to 20 digits each and its
// keys, 203 bytes; the rest of a match 81, of a capture 49, of a node 35).
// Growing dst to it first saves append copying a large match into ever
// larger arrays, each a quarter larger than the last.
func (m *Match) jsonSize() int {
	n := len(m.Path) + len(m.Language) + len(m.Text) + len(m.Lines) + len(m.Indent)
	fixed := 288
	for i := range m.Captures {
		c := &m.Captures[i]
		n += len(c.Name) + len(c.Text)
		fixed += 64
		for k := range c.Nodes {
			n += len(c.Nodes[k].Text)
			fixed += 256
		}
	}
	return n + n/4 + fixed
}

// appendRangeJSON appends r as json.Marshal encodes it.
func appendRangeJSON(dst []byte, r *Range) []byte {
	dst = append(dst, `{"start_line":`...)
	dst = strconv.AppendInt(dst, int64(r.StartLine), 10)
	dst = append(dst, `,"start_column":`...)
	dst = strconv.AppendInt(dst, int64(r.StartColumn), 10)
	dst = append(dst, `,"end_line":`...)
	dst = strconv.AppendInt(dst, int64(r.EndLine), 10)
	dst = append(dst, `,"end_column":`...)
	dst = strconv.AppendInt(dst, int64(r.EndColumn), 10)
	dst = append(dst, `,"start_byte":`...)
	dst = strconv.AppendInt(dst, int64(r.StartByte), 10)
	dst = append(dst, `,"end_byte":`...)
	dst = strconv.AppendInt(dst, int64(r.EndByte), 10)
	return append(dst, '}')
}

// Validate checks the match's invariants.
func (m *Match) Validate() error {
	if err := evidence.CheckPath(m.Path); err != nil || m.Path == "" {
		return fmt.Errorf("structural: match path %q: %v", m.Path, err)
	}
	return m.validateShape()
}

// validateShape checks every invariant but the path's.
func (m *Match) validateShape() error {
	if err := m.Range.Validate(); err != nil {
		return err
	}
	if len(m.Text) != m.Range.EndByte-m.Range.StartByte {
		return errors.New("structural: match text does not fill its byte range")
	}
	for i := 1; i < len(m.Captures); i++ {
		if m.Captures[i-1].Name >= m.Captures[i].Name {
			return errors.New("structural: captures are not sorted by unique name")
		}
	}
	return nil
}

// Capture returns the capture named name.
func (m *Match) Capture(name string) (Capture, bool) {
	i := sort.Search(len(m.Captures), func(i int) bool { return m.Captures[i].Name >= name })
	if i < len(m.Captures) && m.Captures[i].Name == name {
		return m.Captures[i], true
	}
	return Capture{}, false
}

// ProviderName is the evidence provider name structural records carry.
const ProviderName = "structural"

// excerptBytes bounds a record's excerpt and each capture attribute.
const excerptBytes = 1024

// Record returns the match as evidence: kind structural match, provenance
// structural-match, tier structural (an AST match is structural however
// sure the engine is). The excerpt is the matched code, and the captures
// and byte range go into attributes; excerpt and captures longer than a
// kilobyte are cut, with [Cut] at the end.
func (m *Match) Record(engine, pattern string) evidence.Record {
	r, attrs := m.RecordParts(engine, pattern, nil)
	r.Metadata.Attributes = make(map[string]string, len(attrs))
	for _, kv := range attrs {
		r.Metadata.Attributes[kv[0]] = kv[1]
	}
	return r
}

// RecordParts returns Record's record without its attributes, and
// appends the attributes to attrs as key-value pairs sorted by key, none
// repeated: an encoder printing tens of thousands of matches then builds
// and sorts no map for each.
func (m *Match) RecordParts(engine, pattern string, attrs [][2]string) (evidence.Record, [][2]string) {
	at := len(attrs)
	for _, c := range m.Captures {
		v := c.Text
		if c.Multi {
			v = multiString(c.Nodes, excerptBytes)
		}
		attrs = append(attrs, [2]string{captureKey(attrs, c.Name), excerpt(v, excerptBytes)})
	}
	if caps := attrs[at:]; !strictlySorted(caps) {
		// Not a match the engines make (see check), but its record is
		// still what a map keyed by capture names would hold: the last
		// capture of a name.
		slices.SortStableFunc(caps, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
		keep := at
		for i := at; i < len(attrs); i++ {
			if i+1 < len(attrs) && attrs[i+1][0] == attrs[i][0] {
				continue
			}
			attrs[keep] = attrs[i]
			keep++
		}
		attrs = attrs[:keep]
	}
	// Both offsets in one allocation rather than one each.
	nums := strconv.AppendInt(make([]byte, 0, 40), int64(m.Range.EndByte), 10)
	mid := len(nums)
	nums = strconv.AppendInt(nums, int64(m.Range.StartByte), 10)
	offsets := unsafe.String(unsafe.SliceData(nums), len(nums))
	// Every key below sorts after "capture.".
	attrs = append(attrs,
		[2]string{"end_byte", offsets[:mid]},
		[2]string{"engine", engine},
		[2]string{"language", string(m.Language)},
		[2]string{"pattern", excerpt(pattern, excerptBytes)},
		[2]string{"start_byte", offsets[mid:]})
	return evidence.Record{
		Kind:        evidence.StructuralMatch,
		Provider:    ProviderName,
		Provenance:  trust.StructuralMatch,
		Trust:       trust.Structural,
		Path:        m.Path,
		StartLine:   m.Range.StartLine,
		StartColumn: m.Range.StartColumn,
		EndLine:     m.Range.EndLine,
		EndColumn:   m.Range.EndColumn,
		Confidence:  1,
		Metadata:    evidence.Metadata{Excerpt: excerpt(m.Text, excerptBytes)},
	}, attrs
}

// captureKey returns "capture." + name, the key in attrs' first spare
// slot when it is that: an encoder that hands RecordParts the same slice
// for every match finds there the key the match before had in the same
// place, and a search's matches have the same captures.
func captureKey(attrs [][2]string, name string) string {
	if len(attrs) < cap(attrs) {
		k := attrs[:len(attrs)+1][len(attrs)][0]
		if len(k) == len(capturePrefix)+len(name) && strings.HasPrefix(k, capturePrefix) && strings.HasSuffix(k, name) {
			return k
		}
	}
	return capturePrefix + name
}

const capturePrefix = "capture."

// multiString returns multiJSON's array of nodes as a string: one
// allocation, sized for the texts as they are (escapes may outgrow it),
// and no copy to convert it.
func multiString(nodes []Node, n int) string {
	size := 2 // the brackets
	for _, nd := range nodes {
		if size > n {
			break
		}
		if nd.Named {
			size += len(nd.Text) + 3 // quotes and comma
		}
	}
	b := multiJSON(make([]byte, 0, min(size, n+8)), nodes, n)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// strictlySorted reports whether kvs' keys increase.
func strictlySorted(kvs [][2]string) bool {
	for i := 1; i < len(kvs); i++ {
		if kvs[i-1][0] >= kvs[i][0] {
			return false
		}
	}
	return true
}

// lineIndex converts byte offsets of one file to one-based line and
// code-point column positions (through the syntax floor's line index), and
// cuts display windows out of its lines. Every call costs time independent
// of the line's length (but for the bounded windows it copies), so a file
// of one long line with many matches costs time and memory linear in the
// file and the matches.
type lineIndex struct {
	*syntax.Lines
	src []byte
	// text is src as a string when the caller made one, which the
	// display windows then slice rather than copy.
	text string
	// indentLine and indent remember the last line whose indentation was
	// asked for, so that matches on one line share one string.
	indentLine int
	indent     string
}

func newLineIndex(src []byte) *lineIndex {
	return &lineIndex{Lines: syntax.NewLines(src), src: src}
}

// pos returns the one-based line and code-point column of byte offset off.
func (li *lineIndex) pos(off int) (line, col int) { return li.Position(off) }

func (li *lineIndex) rng(start, end int) Range { return Range(li.Range(start, end)) }

// lineIndent returns the spaces and tabs that start the line holding
// byte offset off.
func (li *lineIndex) lineIndent(off int) string {
	l := li.Line(off)
	if l != li.indentLine {
		ls, e := li.LineStart(l), li.LineStart(l)
		for e < len(li.src) && (li.src[e] == ' ' || li.src[e] == '\t') {
			e++
		}
		if li.text != "" {
			li.indentLine, li.indent = l, li.text[ls:e]
		} else {
			li.indentLine, li.indent = l, string(li.src[ls:e])
		}
	}
	return li.indent
}

// Cut marks where a display window left text out.
const Cut = "…"

// The display window of a line (see [Match.Lines]): at most
// windowContext bytes before the match on its first line and after it on
// its last, and at most windowLine bytes of any one line.
const (
	windowContext = 80
	windowLine    = 320
)

// lines returns the lines that [start, end) touches, without the final
// newline, each cut to its display window.
func (li *lineIndex) lines(start, end int) string {
	first, last := li.Line(start), li.Line(end)
	if li.text != "" && li.whole(start, end, first, last) {
		return li.text[li.LineStart(first):li.LineEnd(last)]
	}
	var b strings.Builder
	for l := first; l <= last; l++ {
		if l > first {
			b.WriteByte('\n')
		}
		ls, le, from, to := li.window(l, first, last, start, end)
		writeWindow(&b, li.src, ls, le, from, to)
	}
	return b.String()
}

// window returns line l's bounds and the part of it lines shows for a
// match from start to end over lines first to last, before writeWindow
// moves it to rune boundaries.
func (li *lineIndex) window(l, first, last, start, end int) (ls, le, from, to int) {
	ls, le = li.LineStart(l), li.LineEnd(l)
	from, to = ls, le
	if l == first {
		from = max(ls, start-windowContext)
	}
	if l == last {
		to = min(le, max(end, from)+windowContext)
	}
	return ls, le, from, min(to, from+windowLine)
}

// whole reports whether the display window of every line from first to
// last, as lines makes it, is the whole line: then the windows joined by
// newlines are the source from the first line's start to the last's end.
func (li *lineIndex) whole(start, end, first, last int) bool {
	for l := first; l <= last; l++ {
		if ls, le, from, to := li.window(l, first, last, start, end); from != ls || to != le {
			return false
		}
	}
	return true
}

// writeWindow writes src[from:to] of the line src[ls:le], moved inward to
// rune boundaries, with Cut on each side where the line goes on.
func writeWindow(b *strings.Builder, src []byte, ls, le, from, to int) {
	for from < to && from > ls && !utf8.RuneStart(src[from]) {
		from++
	}
	for to > from && to < le && !utf8.RuneStart(src[to]) {
		to--
	}
	if from > ls {
		b.WriteString(Cut)
	}
	b.Write(src[from:to])
	if to < le {
		b.WriteString(Cut)
	}
}

// multiJSON appends to b the named nodes' texts as a JSON array
// (json.Marshal's bytes), or only as much of it as excerpt(array, n)
// reads: a prefix longer than n bytes. A match of {$$$A} in JSON holds
// every object nested in it, so writing the whole array for each would
// make a file's records cost the square of its nesting. Escaping maps
// each rune on its own to at least as many bytes, so a text cut before a
// rune start escapes to a prefix of its whole escape.
func multiJSON(b []byte, nodes []Node, n int) []byte {
	b = append(b, '[')
	first := true
	for _, nd := range nodes {
		if !nd.Named {
			continue
		}
		if len(b) > n {
			return b
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonstr.Append(b, cutAtRune(nd.Text, n+1-len(b)))
	}
	return append(b, ']')
}

// cutAtRune returns s up to the first rune start at or after byte k, or
// s whole when it is shorter: a prefix whose runes decode as they do in s.
func cutAtRune(s string, k int) string {
	k = max(k, 0)
	for k < len(s) && !utf8.RuneStart(s[k]) {
		k++
	}
	return s[:min(k, len(s))]
}

// excerpt returns s when it is at most n bytes, and otherwise its first
// n bytes or fewer (cut at a rune boundary) followed by [Cut].
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Cut
}
