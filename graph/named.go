package graph

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
)

// A question for the direct uses of one name is answered from a graph of
// the files that concern the name, not the whole project's: the index
// gives every file's node and the facts of the files that define, use
// or import the name (index.FactsNamed); the graph asks, round by round,
// for what resolving those uses looks at besides (the types a use is
// selected from and their bases, the names an import renames, a module
// written as a qualifier, the modules a base is re-exported through),
// and resolves only the files that use the name. Every lookup of a use
// of N reads the definitions called N, all of which are there, or those
// of another name asked for; so the uses of N resolve as in the whole
// graph, in the same order. A Go interface is implemented by method sets
// the whole graph must match: its questions take the whole graph, and so
// do those of a name some Go interface declares a method of (a method's
// uses and those of the interface methods it implements are one set, see
// shared.go), or an interface of the standard library does (see
// addKnownUses).

// symbolName returns the name a symbol query names (the last element of
// "path#Q.N", "Q.N", "pkg.N", "Q::N", "N()"), as Graph.lookup reads it.
func symbolName(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), "()")
	s = strings.NewReplacer("::", ".", "->", ".", "#", ".").Replace(s)
	return s[strings.LastIndexByte(s, '.')+1:]
}

// namedImpact answers q, a walk of depth 1 from one symbol, from the
// graph of the files that concern its name; ok is false when it cannot
// answer as the whole graph would (a Go interface, exact edges to fuse)
// or a whole graph is held already.
func (p *Provider) namedImpact(ctx context.Context, q Query) (im *Impact, ok bool, err error) {
	if len(q.Targets) != 1 || q.Targets[0].Symbol == "" || q.Depth != 1 {
		return nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.graph != nil {
		return nil, false, nil
	}
	if p.opts.Exact != nil && p.exactOptions(ctx).Exact != nil {
		return nil, false, nil // exact edges to fuse: the whole graph places them
	}
	ix, err := p.index()
	if err != nil {
		return nil, false, err
	}
	name := symbolName(q.Targets[0].Symbol)
	if name == "" {
		return nil, false, nil
	}
	var lay layout
	first, iface := true, false
	facts, err := ix.FactsNamed(ctx, name, func(files []index.FileFacts, loaded []bool) index.NamedMore {
		if first { // the files that define name
			first = false
			lay = p.layout(ix, files)
			iface = goInterface(files, loaded, name) || goInterfaceMethod(files, loaded, name) || goKnownMethod(files, loaded, name)
			return index.NamedMore{Stop: iface}
		}
		return namedNeeds(files, loaded, lay, name)
	})
	if err != nil || iface {
		return nil, false, err
	}
	b := newBuilder(facts, lay)
	b.readBases()
	names := boundNames(facts.Files, name)
	for fi := range facts.Files {
		if f := &facts.Files[fi]; usesName(f, names) {
			// Only a use of name, or of another name for it, may resolve
			// to a definition called name.
			b.resolveUses(fi, localNames(f, names))
		}
	}
	b.testNaming()
	b.finish(BuildOptions{})
	if q.MaxNodes == 0 {
		q.MaxNodes = p.opts.MaxNodes
	}
	im = b.g.Impact(q)
	p.fresh = facts.Freshness
	partialNote(im, facts.Freshness)
	return im, true, nil
}

// goInterface reports whether one of the files read defines a Go
// interface called name.
func goInterface(files []index.FileFacts, loaded []bool, name string) bool {
	return goDeclares(files, loaded, func(_ []symbols.Symbol, s *symbols.Symbol) bool {
		return s.Name == name && s.Kind == symbols.Interface
	})
}

// goInterfaceMethod reports whether one of the files read declares a Go
// interface with a method called name.
func goInterfaceMethod(files []index.FileFacts, loaded []bool, name string) bool {
	return goDeclares(files, loaded, func(syms []symbols.Symbol, s *symbols.Symbol) bool {
		return s.Name == name && s.Container != "" && slices.ContainsFunc(syms, func(t symbols.Symbol) bool {
			return t.Name == s.Container && t.Kind == symbols.Interface && t.Container == ""
		})
	})
}

// goKnownMethod reports whether one of the files read declares a Go
// method called name that an interface of the standard library asks for:
// the calls through that interface reach it by the method sets of the
// whole graph (see addKnownUses).
func goKnownMethod(files []index.FileFacts, loaded []bool, name string) bool {
	return knownMethodNames()[name] && goDeclares(files, loaded, func(_ []symbols.Symbol, s *symbols.Symbol) bool {
		return s.Name == name && s.Kind == symbols.Method
	})
}

// goDeclares reports whether a symbol of a Go file read passes keep,
// which sees the file's symbols too.
func goDeclares(files []index.FileFacts, loaded []bool, keep func(syms []symbols.Symbol, s *symbols.Symbol) bool) bool {
	for fi := range files {
		if !loaded[fi] || !strings.HasSuffix(files[fi].Path, ".go") {
			continue
		}
		syms := files[fi].Symbols
		for k := range syms {
			if keep(syms, &syms[k]) {
				return true
			}
		}
	}
	return false
}

// knownMethodNames are the methods the interfaces of goKnownInterfaces ask for.
var knownMethodNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, methods := range goKnownInterfaces {
		for m := range methods {
			out[m] = true
		}
	}
	return out
})

// localNames returns the names under which file f may use one of names:
// those, and the local names its imports bind them to.
func localNames(f *index.FileFacts, names []string) []string {
	out := slices.Clone(names)
	for _, im := range f.Imports {
		if im.Alias != "" && slices.Contains(names, im.Name) && !slices.Contains(out, im.Alias) {
			out = append(out, im.Alias)
		}
	}
	return out
}

// usesName reports whether the file may hold an edge into a definition
// called one of names: a use of it (or of a local name for it), an
// inheritance declared for it, an import of it.
func usesName(f *index.FileFacts, names []string) bool {
	for _, im := range f.Imports {
		if slices.Contains(names, im.Name) || slices.Contains(names, im.Alias) {
			return true
		}
	}
	local := localNames(f, names)
	for i := range f.Refs {
		if slices.Contains(local, f.Refs[i].Name) || slices.Contains(names, f.Refs[i].Of) {
			return true
		}
	}
	return false
}

// maxBoundNames bounds the names boundNames returns.
const maxBoundNames = 16

// boundNames returns name and the names the imports of files bind it to
// (import { name as alias }, export { name as alias } from …), and theirs
// in turn: a use of one may be a use of name through a module that
// exports it under that name.
func boundNames(files []index.FileFacts, name string) []string {
	out := []string{name}
	for i := 0; i < len(out); i++ {
		for fi := range files {
			for _, im := range files[fi].Imports {
				if im.Name == out[i] && im.Alias != "" && !slices.Contains(out, im.Alias) && len(out) < maxBoundNames {
					out = append(out, im.Alias)
				}
			}
		}
	}
	return out
}

// namedNeeds returns what resolving the uses of name in the files read
// so far looks at and is not read yet (see the comment at the top).
func namedNeeds(files []index.FileFacts, loaded []bool, lay layout, name string) index.NamedMore {
	// The receivers and bases are those of the files read; the files of
	// the project are needed only to follow a base's imports.
	var read []index.FileFacts
	var at []int // the index in files of each file read
	for fi := range files {
		if loaded[fi] {
			read = append(read, files[fi])
			at = append(at, fi)
		}
	}
	b := newBuilder(index.Facts{Files: read}, lay)
	b.readBases()
	var whole *builder
	var more index.NamedMore
	names := map[string]bool{}
	ask := func(n string) {
		if n != "" && !names[n] {
			names[n] = true
			more.Names = append(more.Names, n)
		}
	}
	paths := map[string]bool{}
	fields := map[int]map[string]binding{}
	bound := boundNames(read, name)
	more.Aliases = bound[1:] // the uses of each, read as those of name are
	for fi := range read {
		f := &read[fi]
		for _, im := range f.Imports {
			switch {
			case im.Alias != "" && slices.Contains(bound, im.Name):
				ask(im.Alias) // a use of the alias looked up as a member first
			case im.Alias == name && im.Name != "*":
				ask(im.Name) // the definition an import renames
			}
		}
		local := localNames(f, bound)
		for ri, r := range f.Refs {
			if !slices.Contains(local, r.Name) && !slices.Contains(bound, r.Of) {
				continue
			}
			ask(r.Of)
			if f.Language == "go" {
				for _, n := range b.goTypeNeeds(fi, ri, fields) {
					ask(n)
				}
			}
			if r.Qualifier != "" && modulePaths[f.Language] {
				ask(r.Qualifier)
			}
			if field := selfField(f, ri); field != "" {
				ask(field) // this.f.m: the field's declaration says its type
			}
			if f.Language != "go" {
				b.receiverNeeds(fi, ri, ask)
			}
			if _, recv := b.caller(fi, ri); recv != "" {
				for _, r := range strings.Split(recv, "|") {
					for _, t := range b.baseChain(r) {
						ask(t)
					}
				}
			}
			if r.Kind == symbols.Inherit && f.Language != "go" {
				if whole == nil {
					whole = newBuilder(index.Facts{Files: files}, lay)
				}
				for _, p := range whole.reexportFiles(at[fi], r, loaded) {
					if !paths[p] {
						paths[p] = true
						more.Paths = append(more.Paths, p)
					}
				}
			}
		}
	}
	return more
}

// receiverNeeds asks, for ref ri of file fi (not Go), the names of what
// its receiver's Type reads: for x = f() and self.f = T(), whether f is a
// class or what it returns; for x in self.f, how f is declared; for a
// variable of the module, or one an import binds, its declaration; for a
// parameter its context types ("arg m i"), the declarations of m.
func (b *builder) receiverNeeds(fi, ri int, ask func(string)) {
	f := &b.facts[fi]
	ask(b.constructed(fi, ri))
	if m, _, ok := argForm(f.Refs[ri].Type); ok {
		ask(m) // the members whose declarations type the parameter
	}
	if v, ok := strings.CutPrefix(f.Refs[ri].Type, "var "); ok {
		ask(v)
		for _, im := range f.Imports {
			if im.Alias == v && im.Name != "" && im.Name != "*" {
				ask(im.Name)
			}
		}
	}
}

// constructed returns, for ref ri of file fi (not Go), the name f of
// the call f() its receiver's type is written as (a local's, or in
// Python its class's field's for self.f.m and x = self.f): the class f,
// or the result the function f declares (see localType); for a loop's
// variable over the object's field f (see elemType), f; "" otherwise.
func (b *builder) constructed(fi, ri int) string {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	typ := r.Type
	if v, ok := strings.CutPrefix(typ, "var "); ok {
		typ = b.moduleVarDecl(fi, v) // a variable of the module: its declaration, read once loaded
	}
	if of, ok := strings.CutPrefix(typ, "elem "); ok {
		if _, field, ok := strings.Cut(of, "."); ok && (strings.HasPrefix(of, "self.") || strings.HasPrefix(of, "this.")) {
			return field
		}
		typ = of
	}
	field := selfField(f, ri)
	if field == "" {
		field, _ = strings.CutPrefix(typ, "self.")
	}
	if field != "" {
		if j := b.enclosingSym(fi, r.Byte); j >= 0 {
			typ = b.selfAssigned(fi)[classField{enclosingClass(f, j, r.Byte), field}]
		}
	}
	called, _ := strings.CutSuffix(typ, "()")
	if called == typ {
		return ""
	}
	return called
}

// baseChain returns t and the bases ofType may look through from it.
func (b *builder) baseChain(t string) []string {
	out := []string{t}
	seen := map[string]bool{t: true}
	types := []string{t}
	for depth := 0; depth < maxBaseDepth && len(types) > 0; depth++ {
		var next []string
		for _, t := range types {
			for _, base := range b.bases[t] {
				if !seen[base] && len(seen) < maxBaseTypes {
					seen[base] = true
					next = append(next, base)
					out = append(out, base)
				}
			}
		}
		types = next
	}
	return out
}

// reexportFiles returns the paths of the files a base r of file fi may
// be re-exported through (see reexported) whose facts are not read yet.
func (b *builder) reexportFiles(fi int, r symbols.Ref, loaded []bool) []string {
	f := &b.facts[fi]
	var start []int32
	for _, im := range f.Imports {
		local, bd := b.resolveImport(f, im)
		if local != "" && (local == r.Qualifier || local == r.Name) {
			start = append(start, bd.files...)
		}
	}
	var out []string
	seen := map[int32]bool{}
	frontier := start
	for hop := 0; hop <= maxReexportDepth && len(frontier) > 0; hop++ {
		var next []int32
		for _, fn := range frontier {
			if seen[fn] || len(seen) > maxReexportFiles {
				continue
			}
			seen[fn] = true
			i := b.nodeFile[fn]
			if !loaded[i] {
				out = append(out, b.facts[i].Path)
				continue
			}
			for _, im := range b.facts[i].Imports {
				_, bd := b.resolveImport(&b.facts[i], im)
				next = append(next, bd.files...)
			}
		}
		frontier = next
	}
	return out
}
