package codecortex

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/trust"
)

// maxRenameFile bounds a file a rename reads or edits, in bytes.
const maxRenameFile = 8 << 20

// renameText is one file a rename reads: its bytes and where each line
// starts.
type renameText struct {
	src    []byte
	starts []int
}

// line returns line n (one-based) without its newline, "" past the end.
func (t *renameText) line(n int) string {
	if n < 1 || n > len(t.starts) {
		return ""
	}
	end := len(t.src)
	if n < len(t.starts) {
		end = t.starts[n] - 1
	}
	return strings.TrimSuffix(string(t.src[t.starts[n-1]:end]), "\r")
}

// offset converts a one-based line and code-point column to a byte
// offset; ok is false past the line's end.
func (t *renameText) offset(line, col int) (int, bool) {
	if line < 1 || line > len(t.starts) || col < 1 {
		return 0, false
	}
	s := t.line(line)
	i := 0
	for n := 1; n < col; n++ {
		if i >= len(s) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return t.starts[line-1] + i, true
}

// renameFile reads p for the set, once, bounded.
func (e *Engine) renameFile(files map[string]*renameText, p string) (*renameText, error) {
	if t, ok := files[p]; ok {
		return t, nil
	}
	fi, err := e.root.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxRenameFile {
		return nil, fmt.Errorf("%s has %d bytes; a rename reads files of at most %d", p, fi.Size(), maxRenameFile)
	}
	src, err := e.root.ReadFile(p)
	if err != nil {
		return nil, err
	}
	t := &renameText{src: src, starts: []int{0}}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			t.starts = append(t.starts, i+1)
		}
	}
	files[p] = t
	return t, nil
}

// newRenameSet checks the chosen symbol's occurrences and turns them into
// edits: the old name is the text at the declaration; each occurrence
// must hold exactly it. Conflicts go into the plan.
func (e *Engine) newRenameSet(plan *RenamePlan, recs []evidence.Record, allowInferred bool) (*renameSet, error) {
	rs := &renameSet{records: recs, files: map[string]*renameText{}}
	conflict := func(c RenameConflict) { plan.Conflicts = append(plan.Conflicts, c) }
	if len(recs) > maxRenameEdits {
		return nil, fmt.Errorf("codecortex: the symbol has %d occurrences; a rename replaces at most %d", len(recs), maxRenameEdits)
	}
	for i := range recs {
		if depsource.Outside(&recs[i]) {
			r, a := &recs[i], recs[i].Metadata.Attributes
			conflict(RenameConflict{Kind: ConflictExternal, Path: r.Path, Line: r.StartLine, Column: r.StartColumn,
				Reason: fmt.Sprintf("%s is defined in the dependency %s %s (%s, outside the project): only its own module can rename it", plan.Symbol, a["dependency"], a["version"], r.Path)})
			return rs, nil
		}
	}
	for i := range recs {
		if precision.IsDeclaration(&recs[i]) {
			rs.decls = append(rs.decls, recs[i])
		}
	}
	if len(rs.decls) == 0 {
		conflict(RenameConflict{Kind: ConflictExternal, Path: recs[0].Path, Line: recs[0].StartLine, Column: recs[0].StartColumn,
			Reason: fmt.Sprintf("%s is not declared in the project (a dependency's, the standard library's, or a builtin): only its own module can rename it", plan.Symbol)})
		return rs, nil
	}
	d := rs.decls[0]
	rs.lang = languageOf(d.Path)
	plan.Language = string(rs.lang)
	t, err := e.renameFile(rs.files, d.Path)
	if err != nil {
		return nil, err
	}
	rs.old = rangeText(t, &d)
	plan.OldName = rs.old
	if kind, why := checkNewName(rs.lang, plan.NewName); why != "" {
		conflict(RenameConflict{Kind: kind, Reason: why})
	}
	if plan.NewName == rs.old {
		conflict(RenameConflict{Kind: ConflictSame, Reason: fmt.Sprintf("%s is already named %s", plan.Symbol, rs.old)})
	}
	if strings.HasSuffix(plan.Symbol, "/") {
		conflict(RenameConflict{Kind: ConflictUnsupport, Path: d.Path, Line: d.StartLine, Column: d.StartColumn,
			Reason: fmt.Sprintf("%s is a package or namespace: renaming one moves files and import paths, which a rename does not do", plan.Symbol)})
	}
	plan.Tier = trust.Exact
	for _, r := range recs {
		plan.Tier = min(plan.Tier, r.Trust)
	}
	if !precise(&recs[0]) && !allowInferred {
		conflict(RenameConflict{Kind: ConflictImprecise, Path: d.Path, Line: d.StartLine, Column: d.StartColumn,
			Reason: fmt.Sprintf("only name matches (%s) know %s: they may miss or add occurrences", plan.Tier, plan.Symbol)})
		plan.Guidance = imprecision(e)
	}
	if len(plan.Conflicts) > 0 {
		return rs, nil
	}
	return rs, e.collectEdits(plan, rs)
}

// rangeText is the text at r's range in t, "" when it spans lines or
// leaves them.
func rangeText(t *renameText, r *evidence.Record) string {
	if r.StartLine != r.EndLine {
		return ""
	}
	a, ok1 := t.offset(r.StartLine, r.StartColumn)
	b, ok2 := t.offset(r.EndLine, r.EndColumn)
	if !ok1 || !ok2 || b < a {
		return ""
	}
	return string(t.src[a:b])
}

// collectEdits turns every occurrence into an edit of its file, refusing
// those whose text is not the old name, those tied to another symbol, and
// those in generated files.
func (e *Engine) collectEdits(plan *RenamePlan, rs *renameSet) error {
	byFile := map[string]*RenameFile{}
	generated := map[string]bool{}
	for i := range rs.records {
		r := &rs.records[i]
		t, err := e.renameFile(rs.files, r.Path)
		if err != nil {
			return err
		}
		at := RenameConflict{Path: r.Path, Line: r.StartLine, Column: r.StartColumn}
		if got := rangeText(t, r); got != rs.old {
			at.Kind, at.Reason = ConflictStale, fmt.Sprintf("the text at this occurrence is %q, not %q: the source's answer is older than the file, or the range covers more than the name", clipText(got), rs.old)
			plan.Conflicts = append(plan.Conflicts, at)
			continue
		}
		if r.TargetSymbol != "" && r.Provenance == trust.PrecisionIndex {
			at.Kind, at.Reason = ConflictRelated, fmt.Sprintf("this use reaches %s through %s, which the rename would leave with the old name: rename them together is not supported", rs.old, r.TargetSymbol)
			plan.Conflicts = append(plan.Conflicts, at)
			continue
		}
		if _, seen := generated[r.Path]; !seen {
			generated[r.Path] = isGenerated(t.src)
			if generated[r.Path] {
				at.Kind, at.Reason = ConflictGenerated, r.Path+" is generated code (its header says DO NOT EDIT): change its generator instead"
				plan.Conflicts = append(plan.Conflicts, at)
			}
		}
		a, _ := t.offset(r.StartLine, r.StartColumn)
		rs.edits = append(rs.edits, structural.Edit{Path: r.Path, StartByte: a, EndByte: a + len(rs.old), Old: rs.old, New: plan.NewName})
		f := byFile[r.Path]
		if f == nil {
			f = &RenameFile{Path: r.Path}
			byFile[r.Path] = f
		}
		f.Edits = append(f.Edits, RenameEdit{Line: r.StartLine, Column: r.StartColumn, EndColumn: r.EndColumn, Tier: r.Trust,
			Provenance: r.Provenance, Declaration: precision.IsDeclaration(r), Inferred: !precise(r)})
	}
	for _, f := range byFile {
		sort.Slice(f.Edits, func(i, j int) bool {
			a, b := f.Edits[i], f.Edits[j]
			return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
		})
		plan.Files = append(plan.Files, *f)
	}
	sort.Slice(plan.Files, func(i, j int) bool { return plan.Files[i].Path < plan.Files[j].Path })
	return nil
}

// clipText shortens s for a message.
func clipText(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// generatedHeader is the line that marks a generated file, by the Go
// convention (https://go.dev/s/generatedcode) that other generators
// follow, "@generated" by others.
var generatedHeader = regexp.MustCompile(`(?m)^(?://|#|/\*|\*|--)\s*(?:Code generated .* DO NOT EDIT\.|.*@generated\b)`)

// isGenerated reports whether src says, in its first 4 KiB, that it is
// generated.
func isGenerated(src []byte) bool {
	return generatedHeader.Match(src[:min(len(src), 4096)])
}
