// Package mermaid writes the parts of a mermaid flowchart that carry
// outside text (labels) so that no text can end a label, start a
// statement, or become markup, and reads such flowcharts back for tests.
package mermaid

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Label returns s for a quoted label (["…"] or |"…"|): letters, digits,
// spaces and a few punctuation marks as they are, every other character
// as a mermaid entity code (#35; for #). Nothing in it can close the
// quotes, break the line, or read as HTML or markdown; mermaid shows the
// characters of s.
func Label(s string) string {
	var b strings.Builder
	for _, r := range s {
		if safe(r) {
			b.WriteRune(r)
			continue
		}
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) {
			b.WriteByte('?') // invalid UTF-8 or a control character
			continue
		}
		b.WriteByte('#')
		b.WriteString(strconv.Itoa(int(r)))
		b.WriteByte(';')
	}
	return b.String()
}

// safe reports whether r stands for itself in a label.
func safe(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case strings.ContainsRune(" _./:,+-*=@!?'", r):
		return true
	case r > 127 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return true
	}
	return false
}

// Break is the line break a label may hold between escaped parts.
const Break = "<br/>"

// A Chart is a flowchart as this package writes them: its nodes' labels
// and classes by id, and its edges, in order.
type Chart struct {
	Direction string
	Nodes     map[string]Node
	Order     []string
	Edges     []Edge
}

// A Node is a box of a chart; Label is its text, entities decoded and
// breaks as newlines.
type Node struct {
	Label, Class string
}

// An Edge joins two nodes; Dotted for -.->.
type Edge struct {
	From, To, Label string
	Dotted          bool
}

var (
	idRE    = `[A-Za-z][A-Za-z0-9_]*`
	labelRE = `"((?:[^"#<>\[\]{}()|;` + "`" + `\n\r]|#[0-9]+;|<br/>)*)"`
	nodeRE  = regexp.MustCompile(`^  (` + idRE + `)\[` + labelRE + `\](?::::(` + idRE + `))?$`)
	edgeRE  = regexp.MustCompile(`^  (` + idRE + `) (-->|-\.->)(?:\|` + labelRE + `\|)? (` + idRE + `)$`)
	classRE = regexp.MustCompile(`^  classDef ` + idRE + ` [a-z0-9:#,\- ]+$`)
	entRE   = regexp.MustCompile(`#([0-9]+);`)
)

// Parse reads a flowchart written with Label: a "flowchart DIR" line,
// then class definitions, nodes, edges between declared nodes and %%
// comments, each on a line of its own. Any other line is an error: what
// a label let escape would show as one.
func Parse(src string) (*Chart, error) {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	c := &Chart{Nodes: map[string]Node{}}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "flowchart ") {
		return nil, errors.New("mermaid: no flowchart line")
	}
	c.Direction = strings.TrimPrefix(lines[0], "flowchart ")
	for i, ln := range lines[1:] {
		switch {
		case strings.HasPrefix(ln, "  %%") && !strings.ContainsAny(ln, "\r"):
		case classRE.MatchString(ln):
		case nodeRE.MatchString(ln):
			m := nodeRE.FindStringSubmatch(ln)
			if _, dup := c.Nodes[m[1]]; dup {
				return nil, fmt.Errorf("mermaid: line %d: node %s again", i+2, m[1])
			}
			c.Nodes[m[1]] = Node{Label: decode(m[2]), Class: m[3]}
			c.Order = append(c.Order, m[1])
		case edgeRE.MatchString(ln):
			m := edgeRE.FindStringSubmatch(ln)
			for _, id := range []string{m[1], m[4]} {
				if _, ok := c.Nodes[id]; !ok {
					return nil, fmt.Errorf("mermaid: line %d: edge to undeclared node %s", i+2, id)
				}
			}
			c.Edges = append(c.Edges, Edge{From: m[1], To: m[4], Label: decode(m[3]), Dotted: m[2] == "-.->"})
		default:
			return nil, fmt.Errorf("mermaid: line %d: not a statement: %q", i+2, ln)
		}
	}
	return c, nil
}

// decode undoes Label and Break.
func decode(s string) string {
	s = strings.ReplaceAll(s, Break, "\n")
	return entRE.ReplaceAllStringFunc(s, func(e string) string {
		n, err := strconv.Atoi(e[1 : len(e)-1])
		if err != nil || n > unicode.MaxRune {
			return e
		}
		return string(rune(n))
	})
}
