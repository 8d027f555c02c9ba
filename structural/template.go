package structural

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrTemplate is matched by every [*TemplateError].
var ErrTemplate = errors.New("invalid replacement template")

// A TemplateProblem says what is wrong with a replacement template.
type TemplateProblem string

// The template problems.
const (
	// TemplateUnbound: the template names a metavariable that the pattern
	// does not bind (or that a match has no capture for), such as $Y in
	// new_api($Y) for the pattern old_api($X), or an anonymous one ($_X),
	// which captures nothing.
	TemplateUnbound TemplateProblem = "unbound-metavariable"
	// TemplateSyntax: the code the template produces does not parse in the
	// file's language: the rewritten file has an ERROR or MISSING node
	// that the file as it is did not have.
	TemplateSyntax TemplateProblem = "syntax-error"
)

// A TemplateError reports a replacement template that cannot be used, and
// where: the reference's byte offset in the template for an unbound
// metavariable, the file and position of the first broken node for
// rewritten code that does not parse. Its message quotes at most the
// template's first 80 bytes.
type TemplateError struct {
	Template string
	Problem  TemplateProblem
	// Var is the metavariable, for TemplateUnbound.
	Var string
	// Offset is the byte offset in Template of the offending reference, or
	// -1 when the problem has no one place in the template.
	Offset int
	// Path, Line and Column locate the first syntax error the rewrite
	// introduces (one-based, code points, in the rewritten file), for
	// TemplateSyntax.
	Path         string
	Line, Column int
	// Reason says what is wrong, in a sentence.
	Reason string
}

func (e *TemplateError) Error() string {
	msg := "structural: replacement template " + quote(e.Template) + ": "
	switch {
	case e.Var != "" && e.Offset >= 0:
		msg += fmt.Sprintf("$%s at byte %d: ", e.Var, e.Offset)
	case e.Var != "":
		msg += "$" + e.Var + ": "
	}
	if e.Path != "" {
		msg += fmt.Sprintf("%s:%d:%d: ", printable(e.Path), e.Line, e.Column)
	}
	return msg + e.Reason
}

// Unwrap makes errors.Is(err, ErrTemplate) hold.
func (e *TemplateError) Unwrap() error { return ErrTemplate }

// An Edit replaces Old, at bytes [StartByte, EndByte) of Path, by New.
//
// Invariants: StartByte <= EndByte, and Old is what the file held there
// when the edit was computed.
type Edit struct {
	Path string `json:"path"`
	// Language is the language of the file, which [CheckEdits] parses it
	// in; empty means the one its extension names.
	Language  Language `json:"language,omitempty"`
	Range     Range    `json:"range"`
	StartByte int      `json:"start_byte"`
	EndByte   int      `json:"end_byte"`
	Old       string   `json:"old"`
	New       string   `json:"new"`
}

// tplPart is a literal or a metavariable reference of a template.
type tplPart struct {
	lit  string
	name string // set for a reference
	// indent is the whitespace that starts the template line the
	// reference is on, up to the reference.
	indent string
	// off is the reference's byte offset in the template.
	off int
}

// parseTemplate splits a template into literals and references: $NAME,
// $$NAME and $$$NAME all insert the capture NAME; a $ that no name follows
// is literal text.
func parseTemplate(tpl string) []tplPart {
	var parts []tplPart
	lit := strings.Builder{}
	lineStart := 0
	for i := 0; i < len(tpl); {
		c := tpl[i]
		if c == '\n' {
			lit.WriteByte(c)
			i++
			lineStart = i
			continue
		}
		if c != '$' {
			lit.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(tpl) && j-i < 3 && tpl[j] == '$' {
			j++
		}
		k := j
		if k < len(tpl) && isMetaFirst(rune(tpl[k])) {
			for k < len(tpl) && isMetaChar(rune(tpl[k])) {
				k++
			}
			if lit.Len() > 0 {
				parts = append(parts, tplPart{lit: lit.String()})
				lit.Reset()
			}
			parts = append(parts, tplPart{name: tpl[j:k], indent: leadingSpace(tpl[lineStart:i]), off: i})
			i = k
			continue
		}
		lit.WriteString(tpl[i:j])
		i = j
	}
	if lit.Len() > 0 {
		parts = append(parts, tplPart{lit: lit.String()})
	}
	return parts
}

// leadingSpace returns the spaces and tabs that start s.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// Expand returns the replacement for one match: template with every
// metavariable reference replaced by its capture (a multi capture with its
// original separators). A multi-line capture keeps its shape: its lines
// are re-indented from the indentation they had in the file to the
// indentation of the template line that references it. Every template line
// after the first is then indented like the line the match starts on, so
// the replacement sits where the match was, with tabs or spaces as the
// file has them.
func Expand(template string, m *Match) (string, error) {
	var b strings.Builder
	for _, p := range parseTemplate(template) {
		if p.name == "" {
			b.WriteString(p.lit)
			continue
		}
		c, ok := m.Capture(p.name)
		if !ok {
			return "", unbound(template, p, "the match has no such capture")
		}
		b.WriteString(reindent(c.Text, m.captureIndent(c), p.indent))
	}
	return reindent(b.String(), "", m.indent()), nil
}

func unbound(template string, p tplPart, reason string) *TemplateError {
	if strings.HasPrefix(p.name, "_") {
		reason = "an anonymous metavariable captures nothing"
	}
	return &TemplateError{Template: template, Problem: TemplateUnbound, Var: p.name, Offset: p.off, Reason: reason}
}

// CheckTemplate reports whether every metavariable that template
// references ($NAME, $$NAME or $$$NAME) is one that pattern binds: a
// capturing metavariable the pattern spells, single or multi. The error
// is a [*TemplateError] naming the first that is not, with its offset in
// the template. It reads the pattern as text, so a name the pattern
// spells only inside a string literal counts as bound here; [Rewrite]
// still refuses it for a match that has no such capture.
func CheckTemplate(pattern, template string) error {
	bound := map[string]bool{}
	for _, p := range parseTemplate(pattern) {
		if p.name != "" && !strings.HasPrefix(p.name, "_") {
			bound[p.name] = true
		}
	}
	for _, p := range parseTemplate(template) {
		if p.name != "" && !bound[p.name] {
			return unbound(template, p, "the pattern binds no metavariable of that name")
		}
	}
	return nil
}

// indent returns the whitespace that starts the match's first line:
// Indent, or for a match made without it, what starts Lines.
func (m *Match) indent() string {
	if m.Indent != "" {
		return m.Indent
	}
	first, _, _ := strings.Cut(m.Lines, "\n")
	return leadingSpace(first)
}

// captureIndent returns the whitespace that starts the line a capture
// begins on: the match's own for its first line, and for a later line
// what starts that line in the match's text, which holds it whole.
func (m *Match) captureIndent(c Capture) string {
	if len(c.Nodes) == 0 {
		return ""
	}
	k := c.Nodes[0].Range.StartLine - m.Range.StartLine
	if k <= 0 {
		if k < 0 {
			return ""
		}
		return m.indent()
	}
	text := m.Text
	for ; k > 0; k-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return ""
		}
		text = text[i+1:]
	}
	return leadingSpace(text)
}

// reindent replaces the prefix from on every line of s but the first by
// to. A line that does not start with from keeps what it has beyond its
// own leading whitespace common with from; blank lines stay blank.
func reindent(s, from, to string) string {
	if !strings.Contains(s, "\n") || from == to {
		return s
	}
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		if rest, ok := strings.CutPrefix(l, from); ok {
			l = rest
		} else {
			l = strings.TrimLeft(l, " \t")
		}
		lines[i] = to + l
	}
	return strings.Join(lines, "\n")
}

// Rewrite returns the edits that replace every match by its expansion of
// template. Where matches nest, only the outermost is rewritten; the
// edits are ordered by path and offset and never overlap. A template
// referencing a metavariable a match has no capture for is a
// [*TemplateError]; [CheckTemplate] finds such a reference without
// matches, and [CheckEdits] whether the rewritten code parses.
func Rewrite(matches []Match, template string) ([]Edit, error) {
	ms := append([]Match(nil), matches...)
	sortMatches(ms)
	var edits []Edit
	for i := range ms {
		m := &ms[i]
		if n := len(edits); n > 0 && edits[n-1].Path == m.Path && m.Range.StartByte < edits[n-1].EndByte {
			continue // inside (or overlapping) the previous, outer match
		}
		repl, err := Expand(template, m)
		if err != nil {
			return nil, err
		}
		edits = append(edits, Edit{Path: m.Path, Language: m.Language, Range: m.Range,
			StartByte: m.Range.StartByte, EndByte: m.Range.EndByte, Old: m.Text, New: repl})
	}
	return edits, nil
}

// ErrStaleEdit is returned by [ApplyEdits] when the source no longer holds
// an edit's old text, or edits overlap.
var ErrStaleEdit = errors.New("structural: edit does not apply to this source")

// ApplyEdits returns src with the edits (all for one file) applied. It
// changes nothing and returns ErrStaleEdit if any edit's old text is not
// where it should be or two edits overlap.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].StartByte < es[j].StartByte })
	var out []byte
	at := 0
	for _, e := range es {
		if e.StartByte < at || e.EndByte > len(src) || e.StartByte > e.EndByte || string(src[e.StartByte:e.EndByte]) != e.Old {
			return nil, fmt.Errorf("%w: %s bytes %d-%d", ErrStaleEdit, printable(e.Path), e.StartByte, e.EndByte)
		}
		out = append(out, src[at:e.StartByte]...)
		out = append(out, e.New...)
		at = e.EndByte
	}
	return append(out, src[at:]...), nil
}
