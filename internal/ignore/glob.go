package ignore

// A glob runs a general rule's tokens over a path as a bit-parallel
// automaton (shift-and): its states (one before each token, and the
// accepting one after the last) are the bits of a few words, and each
// byte of the path moves all of them at once with a handful of word
// operations. Running it costs its words per byte of the path, whatever
// the tokens: no backtracking, no blow-up on a*a*a*…b.
type glob struct {
	n     int // the accepting state
	words int
	// col maps a byte to its column of adv: the states whose token
	// consumes the byte and moves on (a literal, ?, a class). Bytes that
	// no token tells apart share a column.
	col [256]uint8
	adv []uint64 // column c is adv[c*words : (c+1)*words]
	// star are the states of a *, which stay on any byte but /; deep
	// those of a **, which stay on any byte.
	star, deep []uint64
	// eps1 are the states with an empty move to the next state (*, **,
	// and **/'s skip); eps3 those with one three states on (the skip past
	// **/).
	eps1, eps3 []uint64
	// hops is the most empty moves in a row from any state: the passes a
	// closure takes.
	hops  int
	start []uint64 // the states before any byte
}

// wordsFor returns how many words a glob of n tokens takes.
func wordsFor(n int) int { return (n + 1 + 63) / 64 }

// newGlob compiles tokens.
func newGlob(toks []tok) *glob {
	n := len(toks)
	w := wordsFor(n)
	g := &glob{n: n, words: w}
	vec := func() []uint64 { return make([]uint64, w) }
	g.star, g.deep, g.eps1, g.eps3 = vec(), vec(), vec(), vec()
	set := func(v []uint64, i int) { v[i/64] |= 1 << (i % 64) }
	for i, t := range toks {
		switch t.kind {
		case tStar:
			set(g.star, i)
			set(g.eps1, i)
		case tStarStar:
			set(g.deep, i)
			set(g.eps1, i)
		case tSkip:
			set(g.eps1, i)
			if t.n != 2 {
				panic("ignore: a skip of other than two tokens")
			}
			set(g.eps3, i)
		}
	}
	// The columns: each byte's set of consuming states, shared with the
	// bytes before it that have the same.
	column := vec()
	for c := range 256 {
		clear(column)
		for i, t := range toks {
			b := byte(c)
			if t.kind == tLit && t.b == b || t.kind == tAny && b != '/' || t.kind == tClass && t.set[b] {
				set(column, i)
			}
		}
		k := 0
		for ; k*w < len(g.adv); k++ {
			if equalWords(g.adv[k*w:(k+1)*w], column) {
				break
			}
		}
		if k*w == len(g.adv) {
			g.adv = append(g.adv, column...)
		}
		g.col[c] = uint8(k)
	}
	// The longest chain of empty moves, from the last state back.
	chain := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		switch toks[i].kind {
		case tStar, tStarStar:
			chain[i] = 1 + chain[i+1]
		case tSkip:
			chain[i] = 1 + max(chain[i+1], chain[i+3])
		}
		g.hops = max(g.hops, chain[i])
	}
	g.start = vec()
	set(g.start, 0)
	g.closure(g.start)
	return g
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// closure adds to d the states its states reach by empty moves. Every
// empty move goes forward; a pass adds what one more move reaches.
func (g *glob) closure(d []uint64) {
	for range g.hops {
		var c1, c3 uint64 // the bits moved out of the word before
		for i := range d {
			x1, x3 := d[i]&g.eps1[i], d[i]&g.eps3[i]
			d[i] |= x1<<1 | c1 | x3<<3 | c3
			c1, c3 = x1>>63, x3>>61
		}
	}
}

// match reports whether the glob matches the whole of s.
func (g *glob) match(s string) bool {
	if g.words == 1 {
		return g.match1(s)
	}
	w := g.words
	var buf [8]uint64
	var cur, next []uint64
	if 2*w <= len(buf) {
		cur, next = buf[:w], buf[w:2*w]
	} else {
		cur, next = make([]uint64, w), make([]uint64, w)
	}
	copy(cur, g.start)
	for k := 0; k < len(s); k++ {
		c := s[k]
		a := g.adv[int(g.col[c])*w:]
		var carry uint64
		alive := uint64(0)
		for i := range w {
			x := cur[i] & a[i]
			stay := cur[i] & g.deep[i]
			if c != '/' {
				stay |= cur[i] & g.star[i]
			}
			next[i] = x<<1 | carry | stay
			carry = x >> 63
			alive |= next[i]
		}
		if alive == 0 {
			return false
		}
		g.closure(next)
		cur, next = next, cur
	}
	return cur[g.n/64]&(1<<(g.n%64)) != 0
}

// match1 is match for a glob of one word.
func (g *glob) match1(s string) bool {
	d := g.start[0]
	star, deep, eps1, eps3 := g.star[0], g.deep[0], g.eps1[0], g.eps3[0]
	for k := 0; k < len(s); k++ {
		c := s[k]
		stay := d & deep
		if c != '/' {
			stay |= d & star
		}
		d = (d&g.adv[g.col[c]])<<1 | stay
		if d == 0 {
			return false
		}
		for range g.hops {
			d |= (d&eps1)<<1 | (d&eps3)<<3
		}
	}
	return d&(1<<g.n) != 0
}
