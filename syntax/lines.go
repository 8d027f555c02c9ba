package syntax

import (
	"bytes"
	"errors"
	"sync"
	"unicode/utf8"
)

// A Range is a span of a source: one-based lines and code-point columns,
// half-open (EndColumn is the column just past the end), with the byte
// offsets of the same span. Invalid UTF-8 counts one column per byte, as
// utf8.RuneCount counts it.
type Range struct {
	StartLine   int `json:"start_line"`
	StartColumn int `json:"start_column"`
	EndLine     int `json:"end_line"`
	EndColumn   int `json:"end_column"`
	StartByte   int `json:"start_byte"`
	EndByte     int `json:"end_byte"`
}

// Validate checks the range's invariants: positions are one-based, the
// end is not before the start, and the bytes are neither negative nor
// inverted.
func (r Range) Validate() error {
	switch {
	case r.StartLine < 1 || r.StartColumn < 1 || r.EndLine < 1 || r.EndColumn < 1:
		return errors.New("syntax: range positions are one-based")
	case r.EndLine < r.StartLine || r.EndLine == r.StartLine && r.EndColumn < r.StartColumn:
		return errors.New("syntax: range ends before it starts")
	case r.StartByte < 0 || r.EndByte < r.StartByte:
		return errors.New("syntax: byte range is inverted or negative")
	}
	return nil
}

// Lines converts byte offsets of one source to one-based line and
// code-point column positions. Every conversion costs time independent of
// the line's length, so a source of one long line is no slower per
// position than many short ones. It is safe for concurrent use.
type Lines struct {
	src    []byte
	starts []int // byte offset of each line's start

	// marks are code-point checkpoints, built on the first column asked
	// for far into a long line: marks[k] is the first rune boundary at or
	// after k*markStride, and runes[k] the code points before it.
	marksOnce    sync.Once
	marks, runes []int
}

// markStride is the distance between code-point checkpoints, and so the
// most bytes one column costs to count.
const markStride = 256

// NewLines indexes the lines of src, which it keeps (not a copy).
func NewLines(src []byte) *Lines {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for at := 0; ; {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			break
		}
		at += i + 1
		starts = append(starts, at)
	}
	return &Lines{src: src, starts: starts}
}

// Count returns the number of lines: one more than the newlines.
func (li *Lines) Count() int { return len(li.starts) }

// Line returns the one-based line holding byte offset off (an offset past
// the end is on the last line).
func (li *Lines) Line(off int) int {
	// The first line starting after off, by binary search (sort.Search
	// without its closure call per step: a search prints many positions).
	lo, hi := 0, len(li.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if li.starts[m] > off {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// LineStart returns the byte offset where one-based line l starts.
func (li *Lines) LineStart(l int) int { return li.starts[l-1] }

// LineEnd returns the byte offset where one-based line l ends, before its
// newline.
func (li *Lines) LineEnd(l int) int {
	if l < len(li.starts) {
		return li.starts[l] - 1
	}
	return len(li.src)
}

// Position returns the one-based line and code-point column of byte
// offset off, which must lie within the source (its length included).
func (li *Lines) Position(off int) (line, col int) {
	l := li.Line(off)
	ls := li.starts[l-1]
	if off-ls <= 2*markStride {
		return l, utf8.RuneCount(li.src[ls:off]) + 1
	}
	// A line start is a rune boundary of a decoding from the source's
	// start (the newline before it is one byte and ends any sequence),
	// so the difference of two counts from the start is the count
	// between them, as utf8.RuneCount makes it, invalid bytes included.
	return l, li.runesBefore(off) - li.runesBefore(ls) + 1
}

// runesBefore returns utf8.RuneCount(src[:off]) in bounded time.
func (li *Lines) runesBefore(off int) int {
	li.marksOnce.Do(li.buildMarks)
	k := off / markStride
	if k >= len(li.marks) || li.marks[k] > off {
		k--
	}
	return li.runes[k] + utf8.RuneCount(li.src[li.marks[k]:off])
}

func (li *Lines) buildMarks() {
	n := len(li.src)/markStride + 1
	li.marks, li.runes = make([]int, 0, n), make([]int, 0, n)
	count := 0
	for i := 0; ; {
		for len(li.marks)*markStride <= i && len(li.marks) < n {
			li.marks = append(li.marks, i)
			li.runes = append(li.runes, count)
		}
		if i >= len(li.src) {
			break
		}
		_, w := utf8.DecodeRune(li.src[i:])
		i += w
		count++
	}
}

// Range returns the span of bytes [start, end).
func (li *Lines) Range(start, end int) Range {
	sl, sc := li.Position(start)
	el, ec := li.Position(end)
	return Range{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, StartByte: start, EndByte: end}
}
