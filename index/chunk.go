package index

import (
	"bytes"
	"sort"

	"github.com/codecortex/codecortex/symbols"
)

// ChunkerVersion identifies the chunking rules. A file whose chunks were
// cut by another version is reindexed on the next refresh, so a change to
// the rules rolls forward without a rebuild.
const ChunkerVersion = 1

// Chunking bounds.
const (
	windowLines   = 40       // lines in a line-based chunk
	overlapLines  = 5        // lines two consecutive line-based chunks share
	maxChunkLines = 150      // a symbol longer than this is split
	maxChunkBytes = 32 << 10 // a chunk longer than this is split (minified code)
)

// A span is one chunk of a file: lines Start to End, inclusive, one-based.
// Sym is the index of the symbol it is aligned to (its own chunk, a piece
// of it, or a gap inside it), or -1.
type span struct {
	Start, End int
	Sym        int
}

// lineIndex gives the byte offset where each line of a file starts.
type lineIndex struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
}

func newLineIndex(src []byte) lineIndex {
	li := lineIndex{src: src}
	if len(src) == 0 {
		return li
	}
	li.starts = append(li.starts, 0)
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// n returns the number of lines; a final newline ends the last line rather
// than starting an empty one.
func (li lineIndex) n() int { return len(li.starts) }

// text returns lines a to b inclusive, without the final newline.
func (li lineIndex) text(a, b int) []byte {
	if a < 1 {
		a = 1
	}
	if b > li.n() {
		b = li.n()
	}
	if a > b {
		return nil
	}
	end := len(li.src)
	if b < li.n() {
		end = li.starts[b]
	}
	return bytes.TrimSuffix(li.src[li.starts[a-1]:end], []byte("\n"))
}

// bytesOf returns the length of lines a to b.
func (li lineIndex) bytesOf(a, b int) int {
	end := len(li.src)
	if b < li.n() {
		end = li.starts[b]
	}
	return end - li.starts[a-1]
}

// blank reports whether lines a to b hold only white space.
func (li lineIndex) blank(a, b int) bool {
	return len(bytes.TrimSpace(li.text(a, b))) == 0
}

// anchorKind reports whether a definition of kind k gets a chunk of its
// own; the others (constants, variables, fields) are chunked with the
// lines around them.
func anchorKind(k symbols.Kind) bool {
	switch k {
	case symbols.Constant, symbols.Variable, symbols.Field:
		return false
	}
	return true
}

// chunker cuts one file.
type chunker struct {
	li   lineIndex
	syms []symbols.Symbol
	out  []span
	// blankFrom, when not 0, is the first of blank lines that no chunk
	// covers yet: the next chunk starts there.
	blankFrom int
}

// chunkFile cuts a file into chunks: one around each outermost function,
// class or type (with the comments above it), split further when it is
// oversized, and line-based chunks with a small overlap for the lines
// between them and for files without symbols. Every line is in at least one
// chunk, and a symbol's first line and name line share a chunk unless the
// symbol is oversized.
func chunkFile(src []byte, syms []symbols.Symbol) []span {
	return chunkLines(newLineIndex(src), syms)
}

// chunkLines is chunkFile over a file's line index.
func chunkLines(li lineIndex, syms []symbols.Symbol) []span {
	c := &chunker{li: li, syms: syms}
	n := c.li.n()
	if n == 0 {
		return nil
	}
	var all []int
	for i := range syms {
		if c.valid(i) {
			all = append(all, i)
		}
	}
	c.cover(1, n, all, -1)
	if c.blankFrom > 0 { // the file is blank
		c.emit(c.blankFrom, n, -1)
	}
	return c.out
}

// valid reports whether symbol i has a usable range in the file.
func (c *chunker) valid(i int) bool {
	r := c.syms[i].Range
	return r.StartLine >= 1 && r.EndLine >= r.StartLine && r.EndLine <= c.li.n()
}

// head returns the first line of symbol i's chunk: its leading comments'
// first line when the extractor gave one.
func (c *chunker) head(i int) int {
	s := &c.syms[i]
	if s.DocLine >= 1 && s.DocLine <= s.Range.StartLine {
		return s.DocLine
	}
	return s.Range.StartLine
}

// nameLine returns the line of symbol i's name, or its first line when the
// name lies outside the symbol.
func (c *chunker) nameLine(i int) int {
	s := &c.syms[i]
	if l := s.NameRange.StartLine; l >= s.Range.StartLine && l <= s.Range.EndLine {
		return l
	}
	return s.Range.StartLine
}

// cover emits chunks covering lines lo to hi, around the outermost anchors
// among cands (symbols inside that range); parent is the symbol the range
// belongs to, or -1.
func (c *chunker) cover(lo, hi int, cands []int, parent int) {
	anchors := c.outermost(cands)
	// The lines between anchors may hold the start and name of the parent
	// (its head) and of the symbols that are not anchors.
	gapCands := cands
	if parent >= 0 {
		gapCands = append(cands[:len(cands):len(cands)], parent)
	}
	next := lo // the first line not yet covered
	for _, a := range anchors {
		s := &c.syms[a]
		start := max(c.head(a), lo)
		end := min(s.Range.EndLine, hi)
		if next < start {
			c.gap(next, start-1, gapCands, parent)
		}
		if end-start+1 <= maxChunkLines && c.li.bytesOf(start, end) <= maxChunkBytes {
			c.emit(start, end, a)
		} else {
			var inner []int
			for _, j := range cands {
				if j != a && c.inside(j, a) {
					inner = append(inner, j)
				}
			}
			if len(c.outermost(inner)) > 0 {
				c.cover(start, end, inner, a)
			} else {
				c.lines(start, end, append(inner, a), a)
			}
		}
		next = max(next, end+1)
	}
	if next <= hi {
		c.gap(next, hi, gapCands, parent)
	}
}

// inside reports whether symbol j lies within symbol a.
func (c *chunker) inside(j, a int) bool {
	rj, ra := c.syms[j].Range, c.syms[a].Range
	return rj.StartLine >= ra.StartLine && rj.EndLine <= ra.EndLine &&
		rj.StartByte >= ra.StartByte && rj.EndByte <= ra.EndByte
}

// outermost returns the anchors among cands that no other anchor among
// cands contains, ordered by first line.
func (c *chunker) outermost(cands []int) []int {
	var as []int
	for _, i := range cands {
		if anchorKind(c.syms[i].Kind) {
			as = append(as, i)
		}
	}
	sort.SliceStable(as, func(x, y int) bool {
		rx, ry := c.syms[as[x]].Range, c.syms[as[y]].Range
		if rx.StartLine != ry.StartLine {
			return rx.StartLine < ry.StartLine
		}
		if rx.EndLine != ry.EndLine {
			return rx.EndLine > ry.EndLine
		}
		return rx.EndByte-rx.StartByte > ry.EndByte-ry.StartByte
	})
	var out []int
	for _, i := range as {
		contained := false
		for _, o := range out {
			if c.inside(i, o) {
				contained = true
				break
			}
		}
		if !contained {
			out = append(out, i)
		}
	}
	return out
}

// gap covers lines a to b, which no anchor covers. Blank lines at its
// start join the chunk before them (or, at the start of the file, the
// next chunk).
func (c *chunker) gap(a, b int, cands []int, parent int) {
	lead := a
	for lead <= b && c.li.blank(lead, lead) && !c.startsAt(cands, lead) {
		lead++
	}
	if lead > a {
		switch {
		case len(c.out) > 0 && c.out[len(c.out)-1].End >= a-1:
			last := &c.out[len(c.out)-1]
			last.End = max(last.End, lead-1)
		case c.blankFrom == 0:
			c.blankFrom = a
		default:
			lead = a
		}
	}
	if lead <= b {
		c.lines(lead, b, cands, parent)
	}
}

// startsAt reports whether one of cands starts on line l.
func (c *chunker) startsAt(cands []int, l int) bool {
	for _, j := range cands {
		if c.syms[j].Range.StartLine == l {
			return true
		}
	}
	return false
}

// lines covers a to b with line-based chunks that overlap a little. A
// chunk is stretched so that it does not cut a symbol that starts in it
// from its name line.
func (c *chunker) lines(a, b int, cands []int, sym int) {
	for s := a; s <= b; {
		e := min(s+windowLines-1, b)
		for e > s && c.li.bytesOf(s, e) > maxChunkBytes {
			e = s + (e-s)/2
		}
		for _, j := range cands {
			st := c.syms[j].Range.StartLine
			if st >= s && st <= e && c.nameLine(j) > e {
				e = min(c.nameLine(j), b)
			}
		}
		c.emit(s, e, sym)
		if e >= b {
			break
		}
		next := e + 1 - overlapLines
		if next <= s || e-s+1 <= 2*overlapLines {
			next = e + 1
		}
		s = next
	}
}

func (c *chunker) emit(start, end, sym int) {
	if c.blankFrom > 0 {
		start = min(start, c.blankFrom)
		c.blankFrom = 0
	}
	c.out = append(c.out, span{Start: start, End: end, Sym: sym})
}
