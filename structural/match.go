package structural

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
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
	// Lines is the full text of the lines the match spans, for display.
	Lines string `json:"lines,omitempty"`
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

// Record returns the match as evidence: kind structural match, provenance
// structural-match, tier structural (an AST match is structural however
// sure the engine is). The captures and byte range go into attributes.
func (m *Match) Record(engine, pattern string) evidence.Record {
	attrs := map[string]string{
		"engine":     engine,
		"language":   string(m.Language),
		"pattern":    pattern,
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
			attrs["capture."+c.Name] = string(b)
			continue
		}
		attrs["capture."+c.Name] = c.Text
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
		Metadata:    evidence.Metadata{Excerpt: m.Text, Attributes: attrs},
	}
}

// lineIndex converts byte offsets of one file to one-based line and
// code-point column positions.
type lineIndex struct {
	src    []byte
	starts []int // byte offset of each line's start
}

func newLineIndex(src []byte) *lineIndex {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{src: src, starts: starts}
}

// pos returns the one-based line and code-point column of byte offset off.
func (li *lineIndex) pos(off int) (line, col int) {
	l := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	return l + 1, utf8.RuneCount(li.src[li.starts[l]:off]) + 1
}

func (li *lineIndex) rng(start, end int) Range {
	sl, sc := li.pos(start)
	el, ec := li.pos(end)
	return Range{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, StartByte: start, EndByte: end}
}

// lines returns the full lines that [start, end) touches, without the
// final newline.
func (li *lineIndex) lines(start, end int) string {
	s := start
	for s > 0 && li.src[s-1] != '\n' {
		s--
	}
	e := end
	for e < len(li.src) && li.src[e] != '\n' {
		e++
	}
	return string(li.src[s:e])
}
