package rewrite

import (
	"fmt"
	"strings"

	"github.com/codecortex/codecortex/structural"
)

// diffContext is the lines of context around each change in a diff.
const diffContext = 3

// unifiedDiff returns the unified diff (a/ and b/ prefixes, three lines of
// context, "\ No newline at end of file" where a side ends without one)
// that turns old, the content of name, into old with edits applied. edits
// are sorted by offset and do not overlap. The hunks cover whole lines
// around each edit; they are what the edits change, not a minimal diff.
func unifiedDiff(name string, old []byte, edits []structural.Edit) (string, error) {
	f := newDiffFile(old)
	blocks, err := f.blocks(name, edits)
	if err != nil {
		return "", err
	}
	if blocks, err = f.fill(blocks); err != nil {
		return "", err
	}
	if len(blocks) == 0 {
		return "", nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", name, name)
	f.writeHunks(&sb, blocks)
	return sb.String(), nil
}

// A diffFile is the old content of a file cut into lines, with the byte
// offset each line starts at (and one past the last).
type diffFile struct {
	old    []byte
	lines  []string
	starts []int
}

func newDiffFile(old []byte) *diffFile {
	lines := splitLines(string(old))
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	return &diffFile{old: old, lines: lines, starts: starts}
}

// lineOf returns the line holding byte off; len(lines) for the end of a
// file that ends with a newline (or is empty).
func (f *diffFile) lineOf(off int) int {
	lo, hi := 0, len(f.lines)
	for lo < hi {
		m := (lo + hi) / 2
		if f.starts[m+1] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// A diffBlock replaces old lines [a, b) by new lines.
type diffBlock struct {
	a, b  int
	edits []structural.Edit
	new   []string
}

// blocks groups the edits into blocks of whole lines: edits on the same
// or adjacent lines share one.
func (f *diffFile) blocks(name string, edits []structural.Edit) ([]diffBlock, error) {
	var blocks []diffBlock
	for _, e := range edits {
		if e.StartByte < 0 || e.EndByte > len(f.old) || e.StartByte > e.EndByte {
			return nil, fmt.Errorf("%w: %s bytes %d-%d", structural.ErrStaleEdit, name, e.StartByte, e.EndByte)
		}
		a := f.lineOf(e.StartByte)
		b := a + 1
		if e.EndByte > e.StartByte {
			b = f.lineOf(e.EndByte-1) + 1
		}
		b = min(b, len(f.lines))
		if n := len(blocks); n > 0 && a <= blocks[n-1].b {
			blocks[n-1].b = max(blocks[n-1].b, b)
			blocks[n-1].edits = append(blocks[n-1].edits, e)
			continue
		}
		blocks = append(blocks, diffBlock{a: a, b: b, edits: []structural.Edit{e}})
	}
	return blocks, nil
}

// fill computes each block's new lines; a block whose new text does not
// end its last line takes in the next line, and meets the next block.
func (f *diffFile) fill(blocks []diffBlock) ([]diffBlock, error) {
	for i := 0; i < len(blocks); i++ {
		bl := &blocks[i]
		for {
			out, err := f.applyBlock(bl)
			if err != nil {
				return nil, err
			}
			if len(out) > 0 && out[len(out)-1] != '\n' && bl.b < len(f.lines) {
				bl.b++
				if i+1 < len(blocks) && blocks[i+1].a <= bl.b {
					bl.b = max(bl.b, blocks[i+1].b)
					bl.edits = append(bl.edits, blocks[i+1].edits...)
					blocks = append(blocks[:i+1], blocks[i+2:]...)
				}
				continue
			}
			bl.new = splitLines(string(out))
			break
		}
	}
	return blocks, nil
}

// applyBlock returns the block's old lines with its edits applied.
func (f *diffFile) applyBlock(bl *diffBlock) ([]byte, error) {
	base := f.starts[bl.a]
	text := f.old[base:f.starts[bl.b]]
	shifted := make([]structural.Edit, len(bl.edits))
	for j, e := range bl.edits {
		e.StartByte -= base
		e.EndByte -= base
		shifted[j] = e
	}
	return structural.ApplyEdits(text, shifted)
}

// writeHunks writes the hunks of the blocks: a hunk holds the blocks
// whose contexts meet.
func (f *diffFile) writeHunks(sb *strings.Builder, blocks []diffBlock) {
	writeLine := func(prefix byte, l string) {
		sb.WriteByte(prefix)
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
	delta := 0 // new lines minus old lines of the blocks before the hunk
	for i := 0; i < len(blocks); {
		j := i + 1
		for j < len(blocks) && blocks[j].a-blocks[j-1].b <= 2*diffContext {
			j++
		}
		hs := max(0, blocks[i].a-diffContext)
		he := min(len(f.lines), blocks[j-1].b+diffContext)
		oldN := he - hs
		newN := oldN
		for _, bl := range blocks[i:j] {
			newN += len(bl.new) - (bl.b - bl.a)
		}
		oldS, newS := hs+1, hs+delta+1
		if oldN == 0 {
			oldS--
		}
		if newN == 0 {
			newS--
		}
		fmt.Fprintf(sb, "@@ -%d,%d +%d,%d @@\n", oldS, oldN, newS, newN)
		at := hs
		for _, bl := range blocks[i:j] {
			for ; at < bl.a; at++ {
				writeLine(' ', f.lines[at])
			}
			for _, l := range f.lines[bl.a:bl.b] {
				writeLine('-', l)
			}
			for _, l := range bl.new {
				writeLine('+', l)
			}
			at = bl.b
			delta += len(bl.new) - (bl.b - bl.a)
		}
		for ; at < he; at++ {
			writeLine(' ', f.lines[at])
		}
		i = j
	}
}

// splitLines splits s into lines that keep their "\n"; the last has none
// when s does not end with one. An empty s has no lines.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
