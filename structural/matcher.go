package structural

// The matcher follows ast-grep 0.51.1's "smart" strictness
// (crates/core/src/match_tree): every node of the pattern must match, the
// file's unnamed tokens may be skipped, and so may its comments where the
// pattern expects a leaf or a metavariable (where it expects a larger
// node, ast-grep 0.51.1 does not skip a comment, and neither does this; a
// multi metavariable keeps the comments it spans), a multi metavariable
// takes candidates lazily until the next pattern node matches, and a
// repeated single metavariable must bind identical code.

type outcome uint8

const (
	noMatch outcome = iota
	matchedBoth
	skipCandidate
)

type flow uint8

const (
	flowFail flow = iota
	flowReturn
	flowContinue
	flowFallthrough
)

// binding is one metavariable's value.
type binding struct {
	name  string
	multi bool
	node  nodeID   // single
	nodes []nodeID // multi, in order, separators included
}

// matcher matches one pattern against one tree; it is not safe for
// concurrent use.
type matcher struct {
	p     *Pattern
	t     *tree
	env   []binding
	arena []nodeID // scratch for children lists
	depth int      // 0 while matching the pattern's root
}

// find returns every node the pattern matches, in pre-order (so by start
// offset, outer before inner), with the bindings of each.
func (m *matcher) find(emit func(node nodeID, env []binding) bool) {
	if len(m.p.alts) == 0 {
		root := &m.p.root
		anyKind := root.kind == pMeta
		for i := range m.t.Len() {
			if !anyKind && m.t.KindID(nodeID(i)) != root.sym {
				continue
			}
			if m.matchRoot(root, nodeID(i)) && !emit(nodeID(i), m.env) {
				return
			}
		}
		return
	}
	roots := m.p.roots()
	for i := range m.t.Len() {
		sym := m.t.KindID(nodeID(i))
		for _, root := range roots {
			if root.kind != pMeta && sym != root.sym {
				continue
			}
			if m.matchRoot(root, nodeID(i)) {
				if !emit(nodeID(i), m.env) {
					return
				}
				break // a node is one match however many readings match it
			}
		}
	}
}

func (m *matcher) matchRoot(root *pnode, i nodeID) bool {
	m.env = m.env[:0]
	m.arena = m.arena[:0]
	return m.matchNode(root, i) == matchedBoth
}

func (m *matcher) matchNode(g *pnode, c nodeID) outcome {
	sym := m.t.KindID(c)
	switch g.kind {
	case pTerminal:
		if g.sym == sym && (!g.named || g.text == string(m.t.Bytes(c))) {
			return matchedBoth
		}
		if !m.t.Named(c) || m.t.g.isComment(sym) {
			return skipCandidate
		}
		return noMatch
	case pMeta:
		if m.t.g.isComment(sym) && m.depth > 0 {
			return skipCandidate
		}
		if m.matchMeta(&g.mv, c) {
			return matchedBoth
		}
		return noMatch
	default:
		if g.sym != sym {
			return noMatch // even a comment: ast-grep 0.51.1 skips none here
		}
		start := len(m.arena)
		m.arena = m.t.appendKids(m.arena, c)
		m.depth++
		kids := m.arena[start:len(m.arena):len(m.arena)]
		ok := m.matchChildren(g.kids, kids)
		m.depth--
		m.arena = m.arena[:start]
		if ok {
			return matchedBoth
		}
		return noMatch
	}
}

func (m *matcher) matchMeta(mv *metaVar, c nodeID) bool {
	switch mv.kind {
	case mvCapture:
		if mv.named && !m.t.named(c) {
			return false
		}
		return m.bindSingle(mv.name, c)
	case mvDropped:
		return !mv.named || m.t.named(c)
	case mvMulti:
		return true
	case mvMultiCap:
		m.bindMulti(mv.name, []nodeID{c}, 0)
		return true
	}
	return false
}

func (m *matcher) bindSingle(name string, c nodeID) bool {
	for i := range m.env {
		if b := &m.env[i]; !b.multi && b.name == name {
			if !m.same(b.node, c) {
				return false
			}
			b.node = c // ast-grep keeps the latest occurrence
			return true
		}
	}
	m.env = append(m.env, binding{name: name, node: c})
	return true
}

// bindMulti binds name to nodes less the last skipped ones (separator
// tokens the pattern itself spells after the metavariable).
func (m *matcher) bindMulti(name string, nodes []nodeID, skipped int) {
	if name == "" {
		return
	}
	keep := len(nodes) - skipped
	if keep < 0 {
		keep = 0
	}
	val := append([]nodeID(nil), nodes[:keep]...)
	for i := range m.env {
		if b := &m.env[i]; b.multi && b.name == name {
			b.nodes = val
			return
		}
	}
	m.env = append(m.env, binding{name: name, multi: true, nodes: val})
}

// same reports whether two nodes are the same code, as ast-grep's
// does_node_match_exactly decides it: leaves compare by text, other
// nodes by kind and child by child.
func (m *matcher) same(a, b nodeID) bool {
	if a == b {
		return true
	}
	if m.t.namedLeaf(a) || m.t.namedLeaf(b) {
		return string(m.t.textBytes(a)) == string(m.t.textBytes(b))
	}
	if m.t.KindID(a) != m.t.KindID(b) || m.t.ChildCount(a) != m.t.ChildCount(b) {
		return false
	}
	ca, oka := m.t.FirstChild(a)
	cb, _ := m.t.FirstChild(b)
	for oka {
		if !m.same(ca, cb) {
			return false
		}
		ca, oka = m.t.NextSibling(ca)
		cb, _ = m.t.NextSibling(cb)
	}
	return true
}

func (m *matcher) matchChildren(goals []pnode, cands []nodeID) bool {
	if len(cands) == 0 {
		return false
	}
	gi, ci := 0, 0
	for {
		f := m.ellipsis(goals, &gi, cands, &ci)
		if f == flowFallthrough {
			f = m.single(goals, &gi, cands, &ci)
		}
		switch f {
		case flowFail:
			return false
		case flowReturn:
			return true
		case flowContinue:
			continue
		}
		if gi < len(goals) {
			gi++
			ci++
		}
		if gi >= len(goals) {
			return true // trailing candidates are trivia in smart mode
		}
		if ci >= len(cands) {
			return false
		}
	}
}

func (m *matcher) ellipsis(goals []pnode, gi *int, cands []nodeID, ci *int) flow {
	if *gi >= len(goals) {
		return flowReturn
	}
	name, ok := goals[*gi].ellipsis()
	if !ok {
		return flowFallthrough
	}
	var taken []nodeID
	*gi++
	if *gi >= len(goals) {
		m.bindMulti(name, cands[*ci:], 0)
		*ci = len(cands)
		return flowReturn
	}
	skipped := 0
	for goals[*gi].trivial() {
		*gi++
		skipped++
		if *gi >= len(goals) {
			m.bindMulti(name, cands[*ci:], skipped)
			*ci = len(cands)
			return flowReturn
		}
	}
	if _, ok := goals[*gi].ellipsis(); ok {
		if *ci >= len(cands) {
			return flowFail
		}
		taken = cands[*ci : *ci+1]
		*ci++
		if *ci >= len(cands) {
			return flowFail
		}
		m.bindMulti(name, taken, skipped)
		return flowContinue
	}
	from := *ci
	for {
		if *ci >= len(cands) {
			return flowFail
		}
		// Probe the next pattern node; a failed probe leaves no binding.
		mark := len(m.env)
		saved := m.snapshotMulti()
		r := m.matchNode(&goals[*gi], cands[*ci])
		m.env = m.env[:mark]
		m.restoreMulti(saved)
		if r == matchedBoth {
			m.bindMulti(name, cands[from:*ci], skipped)
			return flowFallthrough
		}
		*ci++
	}
}

// snapshotMulti and restoreMulti keep the multi bindings that existed
// before a probe, which the probe may have overwritten in place.
func (m *matcher) snapshotMulti() [][]nodeID {
	var s [][]nodeID
	for i := range m.env {
		if m.env[i].multi {
			s = append(s, m.env[i].nodes)
		}
	}
	return s
}

func (m *matcher) restoreMulti(s [][]nodeID) {
	k := 0
	for i := range m.env {
		if m.env[i].multi {
			m.env[i].nodes = s[k]
			k++
		}
	}
}

func (m *matcher) single(goals []pnode, gi *int, cands []nodeID, ci *int) flow {
	for {
		if *ci >= len(cands) {
			for ; *gi < len(goals); *gi++ {
				if _, ok := goals[*gi].ellipsis(); !ok {
					return flowFail
				}
			}
			return flowFallthrough
		}
		switch m.matchNode(&goals[*gi], cands[*ci]) {
		case matchedBoth:
			return flowFallthrough
		case skipCandidate:
			*ci++
		default:
			return flowFail
		}
	}
}
