package graph

import (
	"path"
	"unicode/utf8"

	"github.com/codecortex/codecortex/symbols"
)

// typeKinds are the definitions a base may name and a subtype may be:
// types, and Ruby's modules (which include mixes in).
var typeKinds = map[string]bool{
	string(symbols.Class): true, string(symbols.Interface): true, string(symbols.Struct): true,
	string(symbols.Enum): true, string(symbols.Type): true, string(symbols.Module): true,
}

// isType reports whether n defines a type (or a Ruby module).
func isType(n *Node) bool { return typeKinds[n.Kind] }

// baseDef reports whether n may be what a base in a file of lang names: a
// type, or in JavaScript and Python (where a class is a value) a
// top-level variable or function too.
func baseDef(lang string) defFilter {
	if lang == "javascript" || lang == "typescript" || lang == "tsx" || lang == "python" {
		return func(n *Node) bool {
			return isType(n) || n.Container == "" && (n.Kind == string(symbols.Variable) || n.Kind == string(symbols.Constant) ||
				n.Kind == string(symbols.Function))
		}
	}
	return isType
}

// addBase adds the edge of an Inherit ref of file fi (whose node is from):
// from the type declaring it to the base it names, Implements when that
// is an interface (or a trait), Inherits otherwise.
func (b *builder) addBase(fi int, r symbols.Ref, binds map[string]binding, from int, test bool) {
	f := &b.facts[fi]
	cands, method := b.resolveBase(fi, r, binds, test)
	cands = b.sameFamily(cands, f.Language)
	if len(cands) == 0 {
		b.g.stats.Unresolved++
		if f.Language == "go" {
			b.noteExternalEmbed(fi, b.enclosingType(fi, r.Byte), r)
		} else {
			b.noteExternalBase(fi, r, test)
		}
		return
	}
	src, srcMethod := b.subtypeAt(fi, r, test)
	if srcMethod.Tier() < method.Tier() {
		method = srcMethod
	}
	for _, to := range cands {
		if int(to) == src {
			continue
		}
		kind := Inherits
		if b.g.Nodes[to].Kind == string(symbols.Interface) {
			kind = Implements
		}
		e := Edge{From: src, To: int(to), Kind: kind, Method: method, Path: f.Path, Line: r.Line, Column: r.Column,
			Span: utf8.RuneCountInString(r.Name), Of: r.Of, Stale: f.Stale}
		b.addEdge(e)
		if test && !b.g.Nodes[to].Test {
			e.From, e.Kind, e.Of = from, Tests, ""
			b.addEdge(e)
		}
	}
}

// subtypeAt returns the node of the type that declares the base r: the
// type r.Of names (its definition in the file, else the only one of the
// project, else the file), or the innermost type holding r.
func (b *builder) subtypeAt(fi int, r symbols.Ref, test bool) (int, Method) {
	f := &b.facts[fi]
	from := int(b.g.fileNode[f.Path])
	if r.Of == "" {
		return b.enclosingType(fi, r.Byte), ScopeResolved
	}
	if c := b.named(r.Of, []int32{int32(from)}, isType); len(c) > 0 {
		return int(c[0]), ScopeResolved
	}
	if c := b.named(r.Of, b.g.dirFiles[path.Dir(f.Path)], isType); len(c) == 1 {
		return int(c[0]), ScopeResolved
	}
	var only []int32
	for _, s := range b.g.byName[r.Of] {
		if n := &b.g.Nodes[s]; isType(n) && (!n.Test || test) {
			only = append(only, s)
		}
	}
	if len(only) == 1 {
		return int(only[0]), UniqueName
	}
	return from, ScopeResolved // a type of no project definition (u8), or one of many
}

// enclosingType returns the innermost type of file fi holding byte off
// (the struct of a Go embedded field, not the field), or the file's node.
func (b *builder) enclosingType(fi int, off int) int {
	f := &b.facts[fi]
	syms := b.g.fileSyms[f.Path]
	for j := len(f.Symbols) - 1; j >= 0; j-- {
		r := f.Symbols[j].Range
		if r.StartByte <= off && off < r.EndByte && isType(&b.g.Nodes[syms[j]]) {
			return int(syms[j])
		}
	}
	return int(b.g.fileNode[f.Path])
}

// resolveBase returns the definitions a base may name, and how they were
// found: through an import, in the file, in the scope its language shares
// across a directory or package, then by name across the project (a
// qualified name preferring a type of that container or package).
func (b *builder) resolveBase(fi int, r symbols.Ref, binds map[string]binding, test bool) ([]int32, Method) {
	f := &b.facts[fi]
	keep := baseDef(f.Language)
	from := b.g.fileNode[f.Path]
	if r.Qualifier != "" {
		if bd, ok := binds[r.Qualifier]; ok && len(bd.files) > 0 {
			if c := b.named(r.Name, bd.files, keep); len(c) > 0 {
				return c, ImportResolved
			}
			return nil, ""
		}
		if f.Language == "go" {
			return nil, "" // a package of another module
		}
		return byName(b.typesNamed(r.Name, r.Qualifier, keep, test))
	}
	if bd, ok := binds[r.Name]; ok {
		name := r.Name
		if bd.member != "" && bd.member != "default" && bd.member != "*" {
			name = bd.member
		}
		if c := b.named(name, bd.files, keep); len(c) > 0 {
			return c, ImportResolved
		}
		if len(bd.files) > 0 {
			// A module that re-exports the name (an index file, a package's
			// __init__.py): through what it imports, else by name.
			if c := b.reexported(name, bd.files, keep); len(c) > 0 {
				return c, ImportResolved
			}
			return byName(b.typesNamed(name, "", keep, test))
		}
		return nil, "" // imported from another library (React's Component)
	}
	if c := b.named(r.Name, []int32{from}, keep); len(c) > 0 {
		return c, ScopeResolved
	}
	scope := b.g.dirFiles[path.Dir(f.Path)]
	if f.Language == "go" {
		scope = b.samePackage(fi)
	}
	if f.Language != "python" && f.Language != "javascript" && f.Language != "typescript" && f.Language != "tsx" {
		if c := b.named(r.Name, scope, keep); len(c) > 0 {
			return c, ScopeResolved
		}
	}
	if f.Language == "go" {
		return nil, "" // a Go base of another package is qualified
	}
	return byName(b.typesNamed(r.Name, "", keep, test))
}

// reexported returns the definitions called name that keep passes among
// those the modules files re-export (see reexports).
func (b *builder) reexported(name string, files []int32, keep defFilter) []int32 {
	var out []int32
	for _, n := range b.reexports(files, name) {
		if keep(&b.g.Nodes[n]) {
			out = append(out, n)
		}
	}
	return out
}

// typesNamed returns the definitions called name that keep passes, with a
// qualifier only those it qualifies (see qualifies); definitions in
// test files only for a use from one. More than maxAmbiguous are cut to
// maxAmbiguous+1, which byName leaves unresolved.
func (b *builder) typesNamed(name, qual string, keep defFilter, test bool) []int32 {
	var all, of []int32
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if !keep(n) || n.Test && !test {
			continue
		}
		all = append(all, s)
		if qual != "" && qualifies(n, qual) {
			of = append(of, s)
		}
	}
	if qual != "" {
		// A qualifier that names no container of the name: another
		// library's type of the same name (DidYouMean::SpellChecker).
		all = of
	}
	if len(all) > maxAmbiguous {
		return all[:maxAmbiguous+1]
	}
	return all
}

// qualifies reports whether qual, written before a base's name, may name
// where n is: its container (the last segment), its package, its
// directory or its file (a Rust module).
func qualifies(n *Node, qual string) bool {
	stem := path.Base(n.Path)
	stem = stem[:len(stem)-len(path.Ext(stem))]
	return lastSegment(n.Container) == qual || n.Package == qual || path.Base(path.Dir(n.Path)) == qual || stem == qual
}

// lastSegment returns the last dot-separated segment of a container.
func lastSegment(c string) string {
	c = normContainer(c)
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] == '.' {
			return c[i+1:]
		}
	}
	return c
}

// noteExternalBase keeps, in g.known under the base's name as written
// (Exception, models.Model, React.Component), the type that declares an
// Inherit ref r of file fi whose base the project does not define, so
// that "what subclasses Exception?" is answered though the graph has no
// node for Exception.
func (b *builder) noteExternalBase(fi int, r symbols.Ref, test bool) {
	src, _ := b.subtypeAt(fi, r, test)
	if src < 0 || !isType(&b.g.Nodes[src]) {
		return
	}
	key := r.Name
	if r.Qualifier != "" {
		key = r.Qualifier + "." + r.Name
	}
	if b.g.known == nil {
		b.g.known = map[string][]int32{}
	}
	if ids := b.g.known[key]; len(ids) == 0 || ids[len(ids)-1] != int32(src) {
		b.g.known[key] = append(ids, int32(src))
	}
}
