package symbols

import (
	"sync"

	"github.com/codecortex/codecortex/syntax"
)

// A kindSet is a set of node kinds, given by a test of a language and a
// kind's name. The loops that visit every node of a file ask it by kind id,
// through the table of the file's grammar, which is made once: a map by
// name there costs a string hash for every node.
type kindSet struct {
	has    func(l syntax.Language, kind string) bool
	tables sync.Map // *syntax.Grammar → kindTable
}

// A kindTable holds, by kind id, whether a grammar's kind is in a set.
type kindTable []bool

// has reports whether kind id is in the set; the error kind never is.
func (t kindTable) has(id uint16) bool { return int(id) < len(t) && t[id] }

// of returns the set's table for grammar g.
func (s *kindSet) of(g *syntax.Grammar) kindTable {
	if t, ok := s.tables.Load(g); ok {
		return t.(kindTable)
	}
	t := make(kindTable, g.KindCount())
	for id := range t {
		t[id] = s.has(g.Language(), g.KindName(uint16(id)))
	}
	s.tables.Store(g, t)
	return t
}

// kindsIn returns the kindSet of the names in set, in every language.
func kindsIn(set map[string]bool) *kindSet {
	return &kindSet{has: func(_ syntax.Language, kind string) bool { return set[kind] }}
}
