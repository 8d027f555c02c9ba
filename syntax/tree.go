package syntax

import (
	"strings"
	"sync"
	"unsafe"
)

// A NodeID names one node of a [Tree]. Nodes are numbered in pre-order
// from 0, the root: a node's descendants follow it, before its next
// sibling, so ranging over 0 to [Tree.Len] visits the whole tree in
// document order, outer nodes before the nodes inside them.
type NodeID uint32

// node is one visible syntax node, laid out as the C flattener writes it
// (ts_flat_node in parse_cgo.go).
type node struct {
	start, end uint32 // byte offsets, half-open
	next       uint32 // the next sibling; 0 when there is none
	kids       uint32 // visible children
	kind       uint16 // kind id (alias-resolved symbol)
	flags      uint8
	field      uint8 // field id in the parent; 0 when none
}

const (
	flagNamed   = 1
	flagMissing = 2
	flagError   = 8
)

// A Tree is a parsed source: its visible nodes (named rules and anonymous
// tokens, comments included), flattened. It shares the source it was
// parsed from, which must not change while the tree is used. A Tree is
// immutable and safe for concurrent use, unless its owner hands it to
// [Parser.ParseSpansInto] to be filled again; methods given a NodeID that
// is not below [Tree.Len] panic.
type Tree struct {
	g      *Grammar
	src    []byte
	nodes  []node
	broken bool

	linesOnce sync.Once
	lines     *Lines
}

// Grammar returns the grammar the tree was parsed with.
func (t *Tree) Grammar() *Grammar { return t.g }

// Language returns the tree's language.
func (t *Tree) Language() Language { return t.g.lang }

// Source returns the source the tree was parsed from (not a copy).
func (t *Tree) Source() []byte { return t.src }

// Len returns the number of nodes; the root is 0 and every id is below
// Len.
func (t *Tree) Len() int { return len(t.nodes) }

// Root returns the root node, 0.
func (t *Tree) Root() NodeID { return 0 }

// HasError reports whether the tree has an ERROR or a MISSING node: the
// source is not valid in the grammar, and tree-sitter recovered around
// the problem.
func (t *Tree) HasError() bool { return t.broken }

// MemoryBytes returns about how many bytes the tree's nodes occupy, the
// source not counted.
func (t *Tree) MemoryBytes() int64 {
	return int64(len(t.nodes)) * int64(unsafe.Sizeof(node{}))
}

// KindID returns n's kind id ([ErrorKind] for an ERROR node).
func (t *Tree) KindID(n NodeID) uint16 { return t.nodes[n].kind }

// Kind returns the name of n's kind: "function_declaration", "identifier",
// "(", "ERROR".
func (t *Tree) Kind(n NodeID) string { return t.g.KindName(t.nodes[n].kind) }

// Named reports whether n is a named node (a grammar rule, not an
// anonymous token). ERROR nodes are named.
func (t *Tree) Named(n NodeID) bool { return t.nodes[n].flags&flagNamed != 0 }

// IsError reports whether n is an ERROR node.
func (t *Tree) IsError(n NodeID) bool { return t.nodes[n].flags&flagError != 0 }

// IsMissing reports whether n is a MISSING node: a zero-width token the
// parser inserted to recover from an error.
func (t *Tree) IsMissing(n NodeID) bool { return t.nodes[n].flags&flagMissing != 0 }

// StartByte returns the byte offset where n starts.
func (t *Tree) StartByte(n NodeID) int { return int(t.nodes[n].start) }

// EndByte returns the byte offset just past n's end.
func (t *Tree) EndByte(n NodeID) int { return int(t.nodes[n].end) }

// Text returns n's source text.
func (t *Tree) Text(n NodeID) string {
	d := &t.nodes[n]
	return string(t.src[d.start:d.end])
}

// Bytes returns n's source text, not a copy.
func (t *Tree) Bytes(n NodeID) []byte {
	d := &t.nodes[n]
	return t.src[d.start:d.end:d.end]
}

// FieldID returns the id of the field n fills in its parent (see
// [Grammar.FieldName]), or 0 when none.
func (t *Tree) FieldID(n NodeID) uint16 { return uint16(t.nodes[n].field) }

// Field returns the name of the field n fills in its parent ("name",
// "body", "receiver"), or "" when none.
func (t *Tree) Field(n NodeID) string { return t.g.FieldName(uint16(t.nodes[n].field)) }

// ChildCount returns the number of n's children.
func (t *Tree) ChildCount(n NodeID) int { return int(t.nodes[n].kids) }

// FirstChild returns n's first child, and false when it has none.
func (t *Tree) FirstChild(n NodeID) (NodeID, bool) {
	if t.nodes[n].kids == 0 {
		return 0, false
	}
	return n + 1, true
}

// NextSibling returns the child of n's parent after n, and false when n
// is the last one (or the root).
func (t *Tree) NextSibling(n NodeID) (NodeID, bool) {
	nx := t.nodes[n].next
	return NodeID(nx), nx != 0
}

// Child returns n's k-th child (from 0); it panics when k is not below
// [Tree.ChildCount].
func (t *Tree) Child(n NodeID, k int) NodeID {
	if k < 0 || k >= int(t.nodes[n].kids) {
		panic("syntax: child index out of range")
	}
	c := n + 1
	for ; k > 0; k-- {
		c = NodeID(t.nodes[c].next)
	}
	return c
}

// AppendChildren appends n's children, in order, to dst and returns it.
func (t *Tree) AppendChildren(dst []NodeID, n NodeID) []NodeID {
	k := t.nodes[n].kids
	if k == 0 {
		return dst
	}
	c := n + 1
	for ; k > 0; k-- {
		dst = append(dst, c)
		c = NodeID(t.nodes[c].next)
	}
	return dst
}

// ChildByField returns n's first child filling the field named field,
// and false when there is none.
func (t *Tree) ChildByField(n NodeID, field string) (NodeID, bool) {
	id, ok := t.g.FieldID(field)
	if !ok || t.nodes[n].kids == 0 {
		return 0, false
	}
	for c, k := n+1, t.nodes[n].kids; k > 0; k-- {
		if uint16(t.nodes[c].field) == id {
			return c, true
		}
		c = NodeID(t.nodes[c].next)
	}
	return 0, false
}

// End returns the id just past n's subtree: n's descendants are the ids
// from n+1 up to, not including, End(n).
func (t *Tree) End(n NodeID) NodeID {
	// The subtree ends where its last node's following id begins: walk
	// down the last children, then one past.
	for t.nodes[n].kids > 0 {
		c := n + 1
		for k := t.nodes[n].kids; k > 1; k-- {
			c = NodeID(t.nodes[c].next)
		}
		n = c
	}
	return n + 1
}

// Walk calls visit for n and its descendants in pre-order, with their
// depth below n (n's is 0). When visit returns false the node's children
// are skipped.
func (t *Tree) Walk(n NodeID, visit func(id NodeID, depth int) bool) {
	type frame struct {
		id    NodeID
		depth int
	}
	stack := []frame{{n, 0}}
	var kids []NodeID
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(f.id, f.depth) {
			continue
		}
		kids = t.AppendChildren(kids[:0], f.id)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{kids[i], f.depth + 1})
		}
	}
}

// Lines returns the line index of the tree's source, built once.
func (t *Tree) Lines() *Lines {
	t.linesOnce.Do(func() { t.lines = NewLines(t.src) })
	return t.lines
}

// Range returns n's span: one-based lines, code-point columns and bytes.
func (t *Tree) Range(n NodeID) Range {
	d := &t.nodes[n]
	return t.Lines().Range(int(d.start), int(d.end))
}

// String returns the tree as an S-expression of its named nodes, with
// field names, as tree-sitter prints one.
func (t *Tree) String() string { return t.Sexp(0) }

// Sexp returns n's subtree as an S-expression of its named nodes, each
// preceded by its field name when it has one:
// (function_declaration name: (identifier) parameters: (parameter_list)).
// MISSING nodes read (MISSING kind).
func (t *Tree) Sexp(n NodeID) string {
	var b strings.Builder
	t.sexp(&b, n, true)
	return b.String()
}

func (t *Tree) sexp(b *strings.Builder, n NodeID, top bool) {
	if !top {
		if f := t.Field(n); f != "" {
			b.WriteString(f)
			b.WriteString(": ")
		}
	}
	b.WriteByte('(')
	if t.IsMissing(n) {
		b.WriteString("MISSING ")
	}
	b.WriteString(t.Kind(n))
	for c, ok := t.FirstChild(n); ok; c, ok = t.NextSibling(c) {
		if !t.Named(c) && !t.IsMissing(c) {
			continue
		}
		b.WriteByte(' ')
		t.sexp(b, c, false)
	}
	b.WriteByte(')')
}
