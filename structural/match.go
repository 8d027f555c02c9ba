package structural

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// A Range locates code in a file: one-based lines and columns counted in
// Unicode code points, half-open (the end is just past the last
// character), plus the zero-based byte offsets of the same span.
//
// Invariants, checked by [Range.Validate]: lines and columns are at least
// 1, the end is not before the start, and 0 <= StartByte <= EndByte.
type Range struct {
	StartLine   int `json:"start_line"`
	StartColumn int `json:"start_column"`
	EndLine     int `json:"end_line"`
	EndColumn   int `json:"end_column"`
	StartByte   int `json:"start_byte"`
	EndByte     int `json:"end_byte"`
}

// Validate checks the range's invariants.
func (r Range) Validate() error {
	switch {
	case r.StartLine < 1 || r.StartColumn < 1 || r.EndLine < 1 || r.EndColumn < 1:
		return errors.New("structural: range positions are one-based")
	case r.EndLine < r.StartLine || r.EndLine == r.StartLine && r.EndColumn < r.StartColumn:
		return errors.New("structural: range ends before it starts")
	case r.StartByte < 0 || r.EndByte < r.StartByte:
		return errors.New("structural: byte range is inverted or negative")
	}
	return nil
}

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
	attrs := map[string]string{
		"engine":     engine,
		"language":   string(m.Language),
		"pattern":    excerpt(pattern, excerptBytes),
		"start_byte": strconv.Itoa(m.Range.StartByte),
		"end_byte":   strconv.Itoa(m.Range.EndByte),
	}
	for _, c := range m.Captures {
		if c.Multi {
			items := []string{}
			for _, n := range c.Items() {
				items = append(items, n.Text)
			}
			b, _ := json.Marshal(items)
			attrs["capture."+c.Name] = excerpt(string(b), excerptBytes)
			continue
		}
		attrs["capture."+c.Name] = excerpt(c.Text, excerptBytes)
	}
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
		Metadata:    evidence.Metadata{Excerpt: excerpt(m.Text, excerptBytes), Attributes: attrs},
	}
}

// lineIndex converts byte offsets of one file to one-based line and
// code-point column positions, and cuts display windows out of its lines.
// Every call costs time independent of the line's length (but for the
// bounded windows it copies), so a file of one long line with many
// matches costs time and memory linear in the file and the matches.
type lineIndex struct {
	src    []byte
	starts []int // byte offset of each line's start
	// marks are code-point checkpoints, built on the first column asked
	// for far into a long line: marks[k] is the first rune boundary at or
	// after k*markStride, and runes[k] the code points before it.
	marks, runes []int
	// indentLine and indent remember the last line whose indentation was
	// asked for, so that matches on one line share one string.
	indentLine int
	indent     string
}

// markStride is the distance between code-point checkpoints, and so the
// most bytes one column costs to count.
const markStride = 256

func newLineIndex(src []byte) *lineIndex {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{src: src, starts: starts, indentLine: -1}
}

// line returns the zero-based line of byte offset off.
func (li *lineIndex) line(off int) int {
	return sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
}

// lineEnd returns the byte offset of the end of zero-based line l,
// without its newline.
func (li *lineIndex) lineEnd(l int) int {
	if l+1 < len(li.starts) {
		return li.starts[l+1] - 1
	}
	return len(li.src)
}

// pos returns the one-based line and code-point column of byte offset off.
func (li *lineIndex) pos(off int) (line, col int) {
	l := li.line(off)
	ls := li.starts[l]
	if off-ls <= 2*markStride {
		return l + 1, utf8.RuneCount(li.src[ls:off]) + 1
	}
	// A line start is a rune boundary of a decoding from the file's start
	// (the newline before it is one byte and ends any sequence), so the
	// difference of two counts from the start is the count between them,
	// as utf8.RuneCount makes it, invalid bytes included.
	return l + 1, li.runesBefore(off) - li.runesBefore(ls) + 1
}

// runesBefore returns utf8.RuneCount(src[:off]) in bounded time.
func (li *lineIndex) runesBefore(off int) int {
	if li.marks == nil {
		n := len(li.src)/markStride + 1
		li.marks, li.runes = make([]int, 0, n), make([]int, 0, n)
		count := 0
		for i := 0; ; {
			for len(li.marks)*markStride <= i && len(li.marks) < n {
				li.marks = append(li.marks, i)
				li.runes = append(li.runes, count)
			}
			if i >= len(li.src) {
				break
			}
			_, w := utf8.DecodeRune(li.src[i:])
			i += w
			count++
		}
	}
	k := off / markStride
	if k >= len(li.marks) || li.marks[k] > off {
		k--
	}
	return li.runes[k] + utf8.RuneCount(li.src[li.marks[k]:off])
}

func (li *lineIndex) rng(start, end int) Range {
	sl, sc := li.pos(start)
	el, ec := li.pos(end)
	return Range{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, StartByte: start, EndByte: end}
}

// lineIndent returns the spaces and tabs that start the line holding
// byte offset off.
func (li *lineIndex) lineIndent(off int) string {
	l := li.line(off)
	if l != li.indentLine {
		ls, e := li.starts[l], li.starts[l]
		for e < len(li.src) && (li.src[e] == ' ' || li.src[e] == '\t') {
			e++
		}
		li.indentLine, li.indent = l, string(li.src[ls:e])
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
	first, last := li.line(start), li.line(end)
	var b strings.Builder
	for l := first; l <= last; l++ {
		if l > first {
			b.WriteByte('\n')
		}
		ls, le := li.starts[l], li.lineEnd(l)
		from, to := ls, le
		if l == first {
			from = max(ls, start-windowContext)
		}
		if l == last {
			to = min(le, max(end, from)+windowContext)
		}
		to = min(to, from+windowLine)
		writeWindow(&b, li.src, ls, le, from, to)
	}
	return b.String()
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
