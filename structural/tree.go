package structural

import (
	"fmt"
	"strings"
	"sync"

	"github.com/codecortex/codecortex/syntax"
)

// cgoEnabled reports whether this build has the built-in engine: without
// cgo the tree-sitter runtime cannot be linked, and syntax parses nothing.
const cgoEnabled = syntax.Available

// nodeID names a node of a parsed tree.
type nodeID = syntax.NodeID

// A grammar is a language's syntax table with what the matcher and the
// prefilters read from it.
type grammar struct {
	*syntax.Grammar
	lang    Language
	comment []bool // the kind is a comment

	gapOnce sync.Once
	gap     string // see gapExpr
}

var (
	grammarsMu sync.Mutex
	grammars   = map[Language]*grammar{}
)

// grammarOf returns the grammar of l, building it once; ok is false when
// this build has no grammar for l.
func grammarOf(l Language) (*grammar, bool) {
	grammarsMu.Lock()
	defer grammarsMu.Unlock()
	if g, ok := grammars[l]; ok {
		return g, true
	}
	sg, err := syntax.GrammarOf(l)
	if err != nil {
		return nil, false
	}
	g := &grammar{Grammar: sg, lang: l, comment: make([]bool, sg.KindCount())}
	for i := range g.comment {
		g.comment[i] = containsComment(sg.KindName(uint16(i)))
	}
	grammars[l] = g
	return g, true
}

func containsComment(kind string) bool { return strings.Contains(kind, "comment") }

func (g *grammar) name(sym uint16) string { return g.KindName(sym) }

func (g *grammar) isComment(sym uint16) bool {
	return int(sym) < len(g.comment) && g.comment[sym]
}

// A tree is a parsed file: its source and its nodes.
type tree struct {
	*syntax.Tree
	g   *grammar
	src []byte
}

func newTree(g *grammar, t *syntax.Tree) *tree { return &tree{Tree: t, g: g, src: t.Source()} }

func (t *tree) text(i nodeID) string { return t.Text(i) }

func (t *tree) textBytes(i nodeID) []byte { return t.Bytes(i) }

func (t *tree) named(i nodeID) bool { return t.Named(i) }

// appendKids appends the indexes of i's children to dst.
func (t *tree) appendKids(dst []nodeID, i nodeID) []nodeID { return t.AppendChildren(dst, i) }

// namedLeaf reports whether i has no named children.
func (t *tree) namedLeaf(i nodeID) bool {
	for c, ok := t.FirstChild(i); ok; c, ok = t.NextSibling(c) {
		if t.Named(c) {
			return false
		}
	}
	return true
}

// child returns i's k-th child.
func (t *tree) child(i nodeID, k int) nodeID { return t.Child(i, k) }

// broken reports whether i is an ERROR or a MISSING node.
func (t *tree) broken(i nodeID) bool { return t.IsError(i) || t.IsMissing(i) }

// A parser parses files of one language; it is not safe for concurrent use.
type parser struct {
	ps    *syntax.Parser
	g     *grammar
	spans []syntax.Span
	// reuse says that each tree is done with before the next parse, so
	// every parse fills the same one, scratch, and its node array is
	// allocated for the largest file rather than once per file.
	reuse   bool
	scratch syntax.Tree
}

func newParser(g *grammar) (*parser, error) {
	ps, err := syntax.NewParser(g.lang)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return &parser{ps: ps, g: g}, nil
}

// Close releases the C parser.
func (p *parser) Close() { p.ps.Close() }

// parse returns the syntax tree of src, or, when segs is not nil, of the
// segments marked in marks alone. The tree shares src; with reuse, it is
// good until the next parse.
func (p *parser) parse(src []byte, segs []segment, marks []bool) (*tree, bool) {
	p.spans = p.spans[:0]
	for k, s := range segs {
		if marks[k] {
			p.spans = append(p.spans, syntax.Span{Start: int(s.start), End: int(s.end)})
		}
	}
	if p.reuse {
		if err := p.ps.ParseSpansInto(&p.scratch, src, p.spans); err != nil {
			return nil, false
		}
		return newTree(p.g, &p.scratch), true
	}
	t, err := p.ps.ParseSpans(src, p.spans)
	if err != nil {
		return nil, false
	}
	return newTree(p.g, t), true
}
