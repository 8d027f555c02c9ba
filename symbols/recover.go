package symbols

import (
	"bytes"
	"slices"

	"github.com/codecortex/codecortex/syntax"
)

// recoverBroken adds to f what the parts of a file broken by a syntax
// error still define. A parser that cannot read one construct (a generic
// call signature in a TypeScript interface, read as type arguments of the
// line above) may swallow every declaration after it into error nodes. The
// file is cut into top-level segments, each starting at a line that opens
// a declaration at column 0 (with the comments and attributes just above
// it); each segment from the first error on is parsed alone, and the
// definitions, imports and uses read from it that f lacks are added, at
// their places in the whole file. A segment that parses alone without an
// error gives its uses instead of the whole file's there: what the broken
// tree took for a call (a C function's head after a macro it could not
// read) is a definition's name. Each byte is parsed at most twice.
func recoverBroken(f *File, t *syntax.Tree) {
	if !t.HasError() {
		return
	}
	src := t.Source()
	// An error may take the declarations after it into nodes that are no
	// errors themselves (a type annotation running on), so every segment
	// from the first error on is read again.
	first := len(src)
	for i := range t.Len() {
		if n := syntax.NodeID(i); t.IsError(n) {
			first = min(first, t.StartByte(n))
		}
	}
	have := map[[2]int]bool{}
	for _, s := range f.Symbols {
		have[[2]int{s.NameRange.StartByte, len(s.Name)}] = true
	}
	refs := map[int]bool{}
	for _, r := range f.Refs {
		refs[r.Byte] = true
	}
	var clean []syntax.Span // the segments whose own parse has no error
	var cleanRefs []Ref
	imports := map[int]bool{}
	for _, im := range f.Imports {
		imports[im.Range.StartByte] = true
	}
	for _, seg := range segments(src, headsSplit[t.Language()]) {
		if seg.End <= first {
			continue
		}
		st, err := syntax.Parse(t.Language(), src[seg.Start:seg.End])
		if err != nil {
			return
		}
		part := extractTree(f.Path, st)
		line := bytes.Count(src[:seg.Start], []byte{'\n'})
		if !st.HasError() {
			clean = append(clean, seg)
		}
		for _, s := range part.Symbols {
			shift(&s.NameRange, line, seg.Start)
			shift(&s.Range, line, seg.Start)
			s.DocLine += line
			if key := [2]int{s.NameRange.StartByte, len(s.Name)}; !have[key] {
				have[key] = true
				f.Symbols = append(f.Symbols, s)
			}
		}
		for _, im := range part.Imports {
			shift(&im.Range, line, seg.Start)
			if !imports[im.Range.StartByte] {
				imports[im.Range.StartByte] = true
				f.Imports = append(f.Imports, im)
			}
		}
		for _, r := range part.Refs {
			r.Line += line
			r.Byte += seg.Start
			switch {
			case !st.HasError():
				cleanRefs = append(cleanRefs, r)
			case !refs[r.Byte] && len(f.Refs) < MaxRefs:
				refs[r.Byte] = true
				f.Refs = append(f.Refs, r)
			}
		}
	}
	if len(clean) > 0 {
		f.Refs = replaceRefs(f.Refs, clean, cleanRefs)
	}
}

// replaceRefs returns refs without those in the spans, with add (the
// uses read in those spans) instead, in source order, at most MaxRefs.
func replaceRefs(refs []Ref, spans []syntax.Span, add []Ref) []Ref {
	out := refs[:0]
	for _, r := range refs {
		in := false
		for _, sp := range spans {
			if sp.Start <= r.Byte && r.Byte < sp.End {
				in = true
				break
			}
		}
		if !in {
			out = append(out, r)
		}
	}
	out = append(out, add...)
	slices.SortStableFunc(out, func(a, b Ref) int { return a.Byte - b.Byte })
	if len(out) > MaxRefs {
		out = out[:MaxRefs]
	}
	return out
}

// shift moves a range read from a segment to its place in the file: the
// segment starts at a line's start, so columns are unchanged.
func shift(r *Range, lines, bytes int) {
	r.StartLine += lines
	r.EndLine += lines
	r.StartByte += bytes
	r.EndByte += bytes
}

// segments cuts src at the lines that may open a top-level declaration: a
// line starting at column 0 with a letter, _, $ or @, moved up over the
// comment and attribute lines directly above it. With split (C, C++), such
// a line continues the head of the line above unless that one ends a
// declaration (static int, then the function's name on its own line).
func segments(src []byte, split bool) []syntax.Span {
	var starts []int
	var lead = -1       // start of the comment lines run just above, or -1
	var last byte = ';' // the last byte of the last line of code above
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			next = off + end + 1
		}
		line := src[off:next]
		continues := split && last != ';' && last != '}' && last != '{'
		if code := bytes.TrimRight(line, " \t\r\n"); len(code) > 0 && !commentLine(line) {
			last = code[len(code)-1]
			if code[0] == '#' {
				last = ';' // a preprocessor line ends where it ends
			}
		}
		switch {
		case opensDeclaration(line) && !continues:
			start := off
			if lead >= 0 {
				start = lead
			}
			if start > 0 {
				starts = append(starts, start)
			}
			lead = -1
		case commentLine(line):
			if lead < 0 {
				lead = off
			}
		default:
			lead = -1
		}
		off = next
	}
	var out []syntax.Span
	prev := 0
	for _, s := range starts {
		if s > prev {
			out = append(out, syntax.Span{Start: prev, End: s})
			prev = s
		}
	}
	return append(out, syntax.Span{Start: prev, End: len(src)})
}

// headsSplit are the languages whose declarations may write their head
// over several lines at column 0 (a C function's return type, then its
// name).
var headsSplit = map[syntax.Language]bool{syntax.C: true, syntax.Cpp: true}

func opensDeclaration(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	c := line[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '@'
}

func commentLine(line []byte) bool {
	t := bytes.TrimSpace(line)
	for _, p := range []string{"//", "/*", "*", "#[", "#!["} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}
