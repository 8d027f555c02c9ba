package structural

import (
	"context"
	"fmt"
	"sort"

	"github.com/codecortex/codecortex/internal/contain"
)

// CheckEdits parses every file the edits change, under the project root
// dir ("" for the working directory), as it is and as the edits leave it,
// and refuses edits that break its syntax: the error is a
// [*TemplateError] (problem [TemplateSyntax]) naming the file and the
// position of the first ERROR or MISSING node of the rewritten file that
// the file as it is did not have. Syntax errors the file already had are
// not the rewrite's doing and are let through. template is only quoted in
// the error.
//
// It needs the built-in engine's grammars: in a build without cgo, or for
// a file of a language it does not parse, the error wraps
// [ErrUnavailable], since the edits cannot be checked. An edit that no
// longer applies to its file is [ErrStaleEdit].
func CheckEdits(ctx context.Context, dir string, edits []Edit, template string) error {
	if len(edits) == 0 {
		return nil
	}
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	byFile := map[string][]Edit{}
	var paths []string
	for _, e := range edits {
		if _, ok := byFile[e.Path]; !ok {
			paths = append(paths, e.Path)
		}
		byFile[e.Path] = append(byFile[e.Path], e)
	}
	sort.Strings(paths)
	parsers := map[Language]*parser{}
	defer func() {
		for _, p := range parsers {
			p.Close()
		}
	}()
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		es := byFile[path]
		lang := es[0].Language
		if lang == "" {
			lang, _ = LanguageOf(path)
		}
		src, err := root.ReadFile(path)
		if err != nil {
			return err
		}
		if err := checkFile(parsers, lang, path, src, es, template); err != nil {
			return err
		}
	}
	return nil
}

// checkFile checks one file's edits; see CheckEdits.
func checkFile(parsers map[Language]*parser, lang Language, path string, src []byte, edits []Edit, template string) error {
	out, err := ApplyEdits(src, edits)
	if err != nil {
		return err
	}
	g, ok := grammarOf(lang)
	if !ok {
		return fmt.Errorf("%w: cannot check that the rewritten %s parses: this build has no grammar for %q", ErrUnavailable, printable(path), lang)
	}
	ps := parsers[lang]
	if ps == nil {
		if ps, err = newParser(g); err != nil {
			return fmt.Errorf("cannot check that the rewritten %s parses: %w", printable(path), err)
		}
		parsers[lang] = ps
	}
	afterTree, ok := ps.parse(out, nil, nil)
	if !ok {
		return fmt.Errorf("structural: the rewritten %s could not be parsed", printable(path))
	}
	if !afterTree.HasError() {
		return nil // nothing is broken, so nothing newly: the file as it was need not be parsed
	}
	beforeTree, ok := ps.parse(src, nil, nil)
	if !ok {
		return fmt.Errorf("structural: %s could not be parsed", printable(path))
	}
	worst, worstAt, found := narrowestNewBreak(beforeTree, afterTree, editSpans(edits))
	if !found {
		return nil
	}
	what := "an ERROR node"
	if afterTree.IsMissing(worst) {
		what = fmt.Sprintf("a MISSING %s", g.name(afterTree.KindID(worst)))
	}
	line, col := newLineIndex(out).pos(worstAt)
	return &TemplateError{Template: template, Problem: TemplateSyntax, Offset: -1, Path: path, Line: line, Column: col,
		Reason: fmt.Sprintf("the rewritten %s code does not parse: %s the file did not have", lang, what)}
}

// An editSpan is an edit's span in both versions of a file: old [os, oe)
// became new [ns, ne).
type editSpan struct{ os, oe, ns, ne int }

// editSpans returns the spans of the edits, in the order of their start.
func editSpans(edits []Edit) []editSpan {
	es := append([]Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].StartByte < es[j].StartByte })
	spans := make([]editSpan, len(es))
	delta := 0
	for i, e := range es {
		ns := e.StartByte + delta
		spans[i] = editSpan{e.StartByte, e.EndByte, ns, ns + len(e.New)}
		delta += len(e.New) - (e.EndByte - e.StartByte)
	}
	return spans
}

// A brokenKey is a broken node as the two versions of a file can share it.
type brokenKey struct {
	start, end       int
	isError, missing bool
	sym              uint16
}

// brokenKeyOf returns n's key, its offsets moved back by shift.
func brokenKeyOf(t *tree, n nodeID, shift int) brokenKey {
	return brokenKey{t.StartByte(n) - shift, t.EndByte(n) - shift, t.IsError(n), t.IsMissing(n), t.KindID(n)}
}

// touches reports whether [s, e] meets [a, b]: a zero-width MISSING node
// at an edit's edge belongs to the edit.
func touches(s, e, a, b int) bool { return s <= b && a <= e }

// narrowestNewBreak returns the narrowest broken node of after (the file
// rewritten by the edits at spans) that before did not have, and where to
// point at it: the node, or where the edit inside it wrote; found is
// false if the rewrite broke nothing. A broken node where the rewrite
// wrote is new unless the code it replaced was broken already; one
// elsewhere is new unless before had it at the same place, the edits
// before it undone.
func narrowestNewBreak(before, after *tree, spans []editSpan) (worst nodeID, worstAt int, found bool) {
	had := map[brokenKey]bool{}
	var broken []nodeID // of the file as it is
	for i := range before.Len() {
		if n := nodeID(i); before.broken(n) {
			had[brokenKeyOf(before, n, 0)] = true
			broken = append(broken, n)
		}
	}
	brokenIn := func(a, b int) bool {
		for _, n := range broken {
			if touches(before.StartByte(n), before.EndByte(n), a, b) {
				return true
			}
		}
		return false
	}
	for i := range after.Len() {
		n := nodeID(i)
		if !after.broken(n) {
			continue
		}
		start, end := after.StartByte(n), after.EndByte(n)
		introduced := true
		// shift is how far the edits before the node moved it.
		shift, inEdit, at := 0, false, start
		for _, sp := range spans {
			if touches(start, end, sp.ns, sp.ne) {
				inEdit = true
				introduced = !brokenIn(sp.os, sp.oe)
				at = max(start, sp.ns)
				break
			}
			if sp.ne <= start {
				shift += (sp.ne - sp.ns) - (sp.oe - sp.os)
			}
		}
		if !inEdit {
			introduced = !had[brokenKeyOf(after, n, shift)]
		}
		if !introduced {
			continue
		}
		// Of the broken nodes the rewrite introduced, the narrowest says
		// best where; one around an edit (an ERROR may wrap the whole
		// file) is pointed at where the edit wrote.
		if !found || end-start < after.EndByte(worst)-after.StartByte(worst) {
			worst, worstAt, found = n, at, true
		}
	}
	return worst, worstAt, found
}
