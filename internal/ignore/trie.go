package ignore

import (
	"slices"
	"strings"
)

// A trie finds the keys that start a string (or, built from reversed
// keys, that end it), in a time that grows with the string's length, not
// with the number of keys. It is a radix tree: an edge holds the bytes
// that no two keys below it tell apart, so it has at most two nodes a
// key. It is built once from all its keys and never changed.
type trie struct {
	nodes []trieNode
	// A node's children are kids[first : first+count], in the order of
	// their labels' first bytes, which firsts holds in the same places.
	kids   []int32
	firsts []byte
}

type trieNode struct {
	label        string // the bytes from the parent to this node
	hit          hit    // the rules whose key ends here; noHit when none
	first, count int32
}

// newTrie builds the trie of the keys of ks, reversed when reversed.
func newTrie(ks []keyed, reversed bool) trie {
	var t trie
	if len(ks) == 0 {
		return t
	}
	if reversed {
		ks = slices.Clone(ks)
		for i := range ks {
			ks[i].key = reverse(ks[i].key)
		}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	// The keys, once each, and their hits.
	keys := make([]string, 0, len(ks))
	hits := make([]hit, 0, len(ks))
	for _, k := range ks {
		if len(keys) == 0 || keys[len(keys)-1] != k.key {
			keys = append(keys, k.key)
			hits = append(hits, noHit)
		}
		hits[len(hits)-1].add(k)
	}
	t.nodes = make([]trieNode, 1, 2*len(keys))
	t.nodes[0].hit = noHit
	t.kids = make([]int32, 0, 2*len(keys))
	t.firsts = make([]byte, 0, 2*len(keys))
	// A group is the keys of one child: keys[lo:hi], which share their
	// first end bytes.
	type group struct {
		node        int32
		lo, hi, end int
	}
	var stack []group
	// build fills in node, whose keys are keys[lo:hi], all of them sharing
	// their first depth bytes.
	var build func(node int32, lo, hi, depth int)
	build = func(node int32, lo, hi, depth int) {
		if lo < hi && len(keys[lo]) == depth { // the keys are unique and sorted
			t.nodes[node].hit = hits[lo]
			lo++
		}
		first, base := int32(len(t.kids)), len(stack)
		for i := lo; i < hi; {
			b := keys[i][depth]
			j := i + 1
			for j < hi && keys[j][depth] == b {
				j++
			}
			// The group's keys share what the first and the last share.
			end := depth + commonPrefix(keys[i][depth:], keys[j-1][depth:])
			child := int32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{label: keys[i][depth:end], hit: noHit})
			t.kids = append(t.kids, child)
			t.firsts = append(t.firsts, b)
			stack = append(stack, group{child, i, j, end})
			i = j
		}
		t.nodes[node].first, t.nodes[node].count = first, int32(len(stack)-base)
		for k := base; k < len(stack); k++ {
			g := stack[k]
			build(g.node, g.lo, g.hi, g.end)
		}
		stack = stack[:base]
	}
	build(0, 0, len(keys), 0)
	return t
}

func reverse(s string) string {
	b := make([]byte, len(s))
	for i := range len(s) {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// child returns the child of node whose label starts with b, or -1.
func (t *trie) child(node int32, b byte) int32 {
	n := &t.nodes[node]
	firsts := t.firsts[n.first : n.first+n.count]
	i, ok := slices.BinarySearch(firsts, b)
	if !ok {
		return -1
	}
	return t.kids[int(n.first)+i]
}

// prefixes calls fn with the length and the hit of every key that starts
// s, shortest first.
func (t *trie) prefixes(s string, fn func(n int, h hit)) {
	if t.nodes == nil {
		return
	}
	node, pos := int32(0), 0
	for {
		if h := t.nodes[node].hit; h.dir >= 0 {
			fn(pos, h)
		}
		if pos == len(s) {
			return
		}
		if node = t.child(node, s[pos]); node < 0 {
			return
		}
		label := t.nodes[node].label
		if !strings.HasPrefix(s[pos:], label) {
			return
		}
		pos += len(label)
	}
}

// suffixes calls fn with the length and the hit of every key that ends
// s, shortest first; the trie is built from reversed keys.
func (t *trie) suffixes(s string, fn func(n int, h hit)) {
	if t.nodes == nil {
		return
	}
	node, pos := int32(0), 0
	for {
		if h := t.nodes[node].hit; h.dir >= 0 {
			fn(pos, h)
		}
		if pos == len(s) {
			return
		}
		if node = t.child(node, s[len(s)-1-pos]); node < 0 {
			return
		}
		label := t.nodes[node].label
		if len(label) > len(s)-pos {
			return
		}
		for k := range len(label) {
			if label[k] != s[len(s)-1-pos-k] {
				return
			}
		}
		pos += len(label)
	}
}
