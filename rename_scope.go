package codecortex

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	defs "github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

// The conflicts of a rename that read the code around its edits: the new
// name declared beside the symbol, visible at an edit site, or an exported
// Go name made unexported while another package uses it. They read the
// files' syntax (package symbols), never resolve a name: a conflict found
// this way may be one that a type checker would let pass, never the
// reverse for what they look at.

// maxRenameConflicts bounds the conflicts a plan lists.
const maxRenameConflicts = 100

// renameConflicts adds to the plan the conflicts of the set's edits.
func (e *Engine) renameConflicts(plan *RenamePlan, rs *renameSet) {
	add := func(c RenameConflict) {
		if len(plan.Conflicts) < maxRenameConflicts {
			plan.Conflicts = append(plan.Conflicts, c)
		}
	}
	d := rs.decls[0]
	rs.declared = declaredSymbol(e.extractSymbols(rs, d.Path), &d)
	e.unexportConflicts(plan, rs, add)
	e.embeddedConflicts(plan, rs, add)
	e.declaredConflicts(plan, rs, add)
	e.shadowConflicts(plan, rs, add)
}

// goPackageClause reads a Go file's package name.
var goPackageClause = regexp.MustCompile(`(?m)^package\s+([\p{L}_][\p{L}\p{N}_]*)`)

// goPackage is the package a Go file belongs to: its directory and its
// package clause (a _test package is another package in the same
// directory).
func goPackage(p string, src []byte) string {
	m := goPackageClause.FindSubmatch(src)
	if m == nil {
		return path.Dir(p)
	}
	return path.Dir(p) + " " + string(m[1])
}

// unexportConflicts refuses making an exported Go name unexported while
// another package uses it, at each such use.
func (e *Engine) unexportConflicts(plan *RenamePlan, rs *renameSet, add func(RenameConflict)) {
	if rs.lang != syntax.Go || !exportedGo(rs.old) || exportedGo(plan.NewName) {
		return
	}
	d := rs.decls[0]
	home := goPackage(d.Path, rs.files[d.Path].src)
	for _, f := range plan.Files {
		if goPackage(f.Path, rs.files[f.Path].src) == home {
			continue
		}
		for _, ed := range f.Edits {
			add(RenameConflict{Kind: ConflictUnexported, Path: f.Path, Line: ed.Line, Column: ed.Column,
				Reason: fmt.Sprintf("%s would be unexported, but this file is in another package and uses it", plan.NewName)})
		}
	}
}

// embeddedConflicts refuses renaming a Go type embedded in a struct: the
// embedding declares a field named after the type, and the uses of that
// field (x.Old) are the field's, not the type's, so they would keep the
// old name.
func (e *Engine) embeddedConflicts(plan *RenamePlan, rs *renameSet, add func(RenameConflict)) {
	if rs.lang != syntax.Go {
		return
	}
	for _, f := range plan.Files {
		var file *defs.File
		for _, ed := range f.Edits {
			if ed.Declaration || !embeddingLine(rs.files[f.Path].line(ed.Line), rs.old) {
				continue
			}
			if file == nil {
				if file = e.extractSymbols(rs, f.Path); file == nil {
					break
				}
			}
			if embeddedAt(file, ed.Line, ed.Column) {
				add(RenameConflict{Kind: ConflictRelated, Path: f.Path, Line: ed.Line, Column: ed.Column,
					Reason: fmt.Sprintf("%s is embedded in a struct here: the embedding is also a field named %s, whose uses keep the old name", rs.old, rs.old)})
			}
		}
	}
}

// embeddingLine reports whether a line may embed the type old in a
// struct: the line is old, *old, pkg.old or *pkg.old, with a tag or a
// comment after it.
func embeddingLine(line, old string) bool {
	l := strings.TrimSpace(line)
	if i := strings.IndexAny(l, "`\"/"); i >= 0 {
		l = strings.TrimSpace(l[:i])
	}
	l = strings.TrimPrefix(l, "*")
	return l == old || strings.HasSuffix(l, "."+old) && !strings.ContainsAny(l, " \t(")
}

// embeddedAt reports whether a Go file embeds a type in a struct at the
// position.
func embeddedAt(f *defs.File, line, col int) bool {
	for _, r := range f.Refs {
		if r.Kind != defs.Inherit || r.Line != line || r.Column != col {
			continue
		}
		for _, s := range f.Symbols {
			if s.Kind == defs.Struct && s.Range.StartByte <= r.Byte && r.Byte < s.Range.EndByte {
				return true
			}
		}
	}
	return false
}

// extractSymbols reads a file's definitions; nil when its language has no
// parser here.
func (e *Engine) extractSymbols(rs *renameSet, p string) *defs.File {
	if f, ok := rs.symbols[p]; ok {
		return f
	}
	t, err := e.renameFile(rs.files, p)
	if err != nil {
		return nil
	}
	f, err := defs.Extract(p, t.src)
	if err != nil {
		f = nil
	}
	if rs.symbols == nil {
		rs.symbols = map[string]*defs.File{}
	}
	rs.symbols[p] = f
	return f
}

// declaredSymbol is the definition the declaration d names, from its
// file's symbols; nil for a local, a parameter, or a file with no parser.
func declaredSymbol(f *defs.File, d *evidence.Record) *defs.Symbol {
	if f == nil {
		return nil
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.NameRange.StartLine == d.StartLine && s.NameRange.StartColumn == d.StartColumn {
			return s
		}
	}
	return nil
}

// scopeFiles are the files whose definitions share the declaration's
// scope: for Go, the files of its package (same directory and package
// clause); for other languages, the declaration's file.
func (e *Engine) scopeFiles(rs *renameSet, decl string) []string {
	if rs.lang != syntax.Go {
		return []string{decl}
	}
	home := goPackage(decl, rs.files[decl].src)
	dir := path.Dir(decl)
	ents, err := fs.ReadDir(e.root.FS(), dir)
	if err != nil {
		return []string{decl}
	}
	out := []string{decl}
	for _, ent := range ents {
		p := path.Join(dir, ent.Name())
		if p == decl || !ent.Type().IsRegular() || !strings.HasSuffix(p, ".go") {
			continue
		}
		t, err := e.renameFile(rs.files, p)
		if err == nil && goPackage(p, t.src) == home {
			out = append(out, p)
		}
	}
	return out
}

// declaredConflicts refuses a new name already defined in the symbol's
// scope: the same container (a type's methods and fields, a class's
// members) or, at the top level, the same package or module.
func (e *Engine) declaredConflicts(plan *RenamePlan, rs *renameSet, add func(RenameConflict)) {
	d := rs.decls[0]
	sym := rs.declared
	if sym == nil {
		return // a local: the shadow check reads its function
	}
	for _, p := range e.scopeFiles(rs, d.Path) {
		if !bytes.Contains(rs.files[p].src, []byte(plan.NewName)) {
			continue
		}
		f := e.extractSymbols(rs, p)
		if f == nil {
			continue
		}
		for _, s := range f.Symbols {
			if s.Name != plan.NewName || s.Container != sym.Container {
				continue
			}
			where := "in the same package"
			if s.Container != "" {
				where = "in " + s.Container
			}
			add(RenameConflict{Kind: ConflictDeclared, Path: p, Line: s.NameRange.StartLine, Column: s.NameRange.StartColumn,
				Reason: fmt.Sprintf("%s is already declared %s (%s %s)", plan.NewName, where, s.Kind, s.Name)})
		}
	}
}

// shadowConflicts refuses a new name visible at an edit site that is not
// a member access (nor a member's own declaration, which no enclosing
// scope sees): used in the same function (a local, a parameter, or
// an outer name the renamed one would hide), declared at the file's top
// level, or bound by one of its imports.
func (e *Engine) shadowConflicts(plan *RenamePlan, rs *renameSet, add func(RenameConflict)) {
	member := rs.declared != nil && rs.declared.Container != ""
	for _, f := range plan.Files {
		t := rs.files[f.Path]
		var sites []RenameEdit // the edits resolved in the enclosing scope
		for _, ed := range f.Edits {
			off, _ := t.offset(ed.Line, ed.Column)
			if !memberAccess(t.src, off) && !(member && ed.Declaration) {
				sites = append(sites, ed)
			}
		}
		if len(sites) == 0 || !bytes.Contains(t.src, []byte(plan.NewName)) {
			continue
		}
		lang := languageOf(f.Path)
		if lang == "" {
			continue
		}
		tree, err := syntax.Parse(lang, t.src)
		if err != nil {
			continue
		}
		syms := defs.ExtractTree(f.Path, tree)
		uses := identifiers(tree, plan.NewName)
		seen := map[int]bool{}
		for _, ed := range sites {
			off, _ := t.offset(ed.Line, ed.Column)
			for _, c := range visibleAt(syms, tree, uses, off, plan.NewName) {
				if !seen[c.StartByte] {
					seen[c.StartByte] = true
					add(RenameConflict{Kind: ConflictShadow, Path: f.Path, Line: c.StartLine, Column: c.StartColumn,
						Reason: fmt.Sprintf("%s is already visible here; renamed, the occurrence at %d:%d would shadow it or be shadowed by it", plan.NewName, ed.Line, ed.Column)})
				}
			}
		}
	}
}

// identifiers are the identifier nodes of tree whose text is name and
// which are not member accesses.
func identifiers(tree *syntax.Tree, name string) []syntax.Range {
	var out []syntax.Range
	src := tree.Source()
	tree.Walk(tree.Root(), func(n syntax.NodeID, _ int) bool {
		if tree.ChildCount(n) == 0 && strings.Contains(tree.Kind(n), "identifier") && tree.Text(n) == name &&
			!memberAccess(src, tree.StartByte(n)) {
			out = append(out, tree.Range(n))
		}
		return true
	})
	return out
}

// memberAccess reports whether the name at off follows a "." (or "->",
// "::"): a field, method or qualified access, resolved in its receiver's
// scope, not in the enclosing one.
func memberAccess(src []byte, off int) bool {
	i := off - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i--
	}
	if i < 0 {
		return false
	}
	return src[i] == '.' || (src[i] == '>' && i > 0 && src[i-1] == '-') || (src[i] == ':' && i > 0 && src[i-1] == ':')
}

// visibleAt returns the ranges where name is visible at the byte off:
// the uses of name inside the innermost function around off, the
// file's top-level definitions of name, and its imports binding name.
func visibleAt(f *defs.File, tree *syntax.Tree, uses []syntax.Range, off int, name string) []syntax.Range {
	var out []syntax.Range
	var fn *defs.Symbol
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if (s.Kind == defs.Function || s.Kind == defs.Method) && s.Range.StartByte <= off && off < s.Range.EndByte {
			if fn == nil || s.Range.StartByte >= fn.Range.StartByte {
				fn = s
			}
		}
	}
	if fn != nil {
		for _, u := range uses {
			if fn.Range.StartByte <= u.StartByte && u.EndByte <= fn.Range.EndByte {
				out = append(out, u)
			}
		}
	}
	for _, s := range f.Symbols {
		if s.Name == name && s.Container == "" {
			out = append(out, s.NameRange)
		}
	}
	for _, im := range f.Imports {
		if importBinds(tree.Language(), im) == name {
			out = append(out, im.Range)
		}
	}
	return out
}

// importBinds is the name an import binds in its file: its alias, else
// the member it names, else the last element of its path (a Go package's
// name is usually that), or the first (Python's import a.b binds a).
func importBinds(lang syntax.Language, im defs.Import) string {
	switch {
	case im.Alias != "":
		return im.Alias
	case im.Name != "" && im.Name != "*" && im.Name != "default":
		return im.Name
	case lang == syntax.Python:
		first, _, _ := strings.Cut(im.Path, ".")
		return first
	}
	return path.Base(im.Path)
}
