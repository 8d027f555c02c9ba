package structural

import (
	"strings"
	"sync"
	"unsafe"
)

// flatNode is one visible syntax node, laid out as the C flattener writes
// it (cc_node in parse_cgo.go). Nodes are stored in pre-order: a node's
// first child, if it has any, is the next node; its other children follow
// through next.
type flatNode struct {
	start, end uint32 // byte offsets, half-open
	next       uint32 // index of the next sibling; 0 when there is none
	nkids      uint32 // visible children
	sym        uint16 // node kind id (alias-resolved symbol)
	flags      uint8
	_          uint8
}

const (
	flagNamed   = 1
	flagMissing = 2
	flagError   = 8
)

// A grammar is a language's symbol table.
type grammar struct {
	lang    Language
	ptr     unsafe.Pointer // const TSLanguage*
	names   []string       // kind name by symbol id
	comment []bool         // the kind is a comment
	named   []uint8        // 1 when the kind is named
	// keywords are the names of the visible unnamed kinds that are words
	// (if, return, func...), possibly repeated.
	keywords []string

	gapOnce sync.Once
	gap     string // see gapExpr
}

func containsComment(kind string) bool { return strings.Contains(kind, "comment") }

func (g *grammar) name(sym uint16) string {
	if int(sym) < len(g.names) {
		return g.names[sym]
	}
	if sym == 0xFFFF {
		return "ERROR"
	}
	return ""
}

func (g *grammar) isComment(sym uint16) bool {
	return int(sym) < len(g.comment) && g.comment[sym]
}

// A tree is a parsed file: its source and its flattened nodes.
type tree struct {
	g     *grammar
	src   []byte
	nodes []flatNode
}

func (t *tree) text(i uint32) string {
	n := &t.nodes[i]
	return string(t.src[n.start:n.end])
}

func (t *tree) textBytes(i uint32) []byte {
	n := &t.nodes[i]
	return t.src[n.start:n.end]
}

func (t *tree) named(i uint32) bool { return t.nodes[i].flags&flagNamed != 0 }

// appendKids appends the indexes of i's children to dst.
func (t *tree) appendKids(dst []uint32, i uint32) []uint32 {
	n := t.nodes[i].nkids
	if n == 0 {
		return dst
	}
	c := i + 1
	for k := uint32(0); k < n; k++ {
		dst = append(dst, c)
		c = t.nodes[c].next
	}
	return dst
}

// namedLeaf reports whether i has no named children.
func (t *tree) namedLeaf(i uint32) bool {
	c := i + 1
	for k := uint32(0); k < t.nodes[i].nkids; k++ {
		if t.nodes[c].flags&flagNamed != 0 {
			return false
		}
		c = t.nodes[c].next
	}
	return true
}

// child returns i's k-th child.
func (t *tree) child(i uint32, k uint32) uint32 {
	c := i + 1
	for ; k > 0; k-- {
		c = t.nodes[c].next
	}
	return c
}
