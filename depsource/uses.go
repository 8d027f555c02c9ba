package depsource

import (
	"context"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// A FileUses is what [Options].Uses gives of one project file: its
// imports and its uses of the name asked about, as the syntax shows them
// (the local index's facts).
type FileUses struct {
	// Path is the file, relative to the project root.
	Path     string
	Language string
	// Package is the file's package, module or namespace, if it has one.
	Package string
	// Symbols are its definitions, outer before inner: a use is said to
	// be in the innermost one that holds it.
	Symbols []symbols.Symbol
	Imports []symbols.Import
	// Refs are the file's uses of the name, under any local name an
	// import binds it to.
	Refs []symbols.Ref
}

// uses returns the project's uses of the definitions in res: a use whose
// qualifier is the file's import of the copy that defines the name
// (flag.FlagSet where the file imports github.com/spf13/pflag as flag; v4
// where it imports { v4 } from "uuid"; uuid.v4 where it imports it as a
// namespace), as records at inferred_high: the import binds the name, but
// no compiler resolved it. Only a dependency's top-level names are
// followed; a member's uses need the receiver's type.
func (p *Provider) uses(ctx context.Context, t target, res *Result) ([]evidence.Record, error) {
	if p.opts.Uses == nil || t.container != "" || len(res.Definitions) == 0 {
		return nil, nil
	}
	// The copies that define the name, with the symbol each calls it.
	type def struct {
		c      Copy
		symbol string
		pkg    string // the package name a Go file declares
	}
	var defs []def
	seen := map[string]bool{}
	for i := range res.Definitions {
		d := &res.Definitions[i]
		if d.Symbol.Container != "" || seen[d.Copy.Dir] {
			continue
		}
		seen[d.Copy.Dir] = true
		defs = append(defs, def{c: d.Copy, symbol: d.Record().Symbol, pkg: d.Symbol.Package})
	}
	if len(defs) == 0 {
		return nil, nil
	}
	files, err := p.opts.Uses(ctx, t.name)
	if err != nil {
		return nil, err
	}
	var out []evidence.Record
	for _, f := range files {
		for _, d := range defs {
			locals, plain := bindings(f.Imports, d.c, t, d.pkg)
			if len(locals) == 0 && len(plain) == 0 {
				continue
			}
			for _, r := range f.Refs {
				var how string
				switch {
				case r.Qualifier != "" && !r.Selected && r.Name == t.name && locals[r.Qualifier] != "":
					how = locals[r.Qualifier]
				case r.Qualifier == "" && !r.Selected && plain[r.Name] != "":
					how = plain[r.Name]
				default:
					continue
				}
				out = append(out, useRecord(&f, r, d.c, d.symbol, how))
			}
		}
	}
	return out, nil
}

// bindings returns how a file's imports bind copy c's name t: locals are
// the local names that qualify it (a Go package's name or alias, a
// namespace import, a Python module), plain the names that are it
// unqualified (a named import, a Go dot import), each with the import
// path that binds it.
func bindings(imports []symbols.Import, c Copy, t target, goPkg string) (locals, plain map[string]string) {
	locals, plain = map[string]string{}, map[string]string{}
	for _, im := range imports {
		if !importsCopy(im.Path, c, t) {
			continue
		}
		switch {
		case im.Name == "" && c.Ecosystem == depdocs.Go:
			switch im.Alias {
			case "_":
			case ".":
				plain[t.name] = im.Path
			case "":
				name := goPkg
				if name == "" {
					name = goPackageName(im.Path)
				}
				locals[name] = im.Path
			default:
				locals[im.Alias] = im.Path
			}
		case im.Name == "":
			// import requests; import * as uuid from "uuid" written as a
			// whole-module import with an alias.
			local := im.Alias
			if local == "" {
				local = im.Path
				if c.Ecosystem == depdocs.PyPI {
					local, _, _ = strings.Cut(im.Path, ".")
				}
			}
			if isIdentifier(local) {
				locals[local] = im.Path
			}
		case im.Name == "*":
			if im.Alias != "" {
				locals[im.Alias] = im.Path
			}
		case im.Name == t.name:
			local := im.Alias
			if local == "" {
				local = im.Name
			}
			plain[local] = im.Path
		}
	}
	return locals, plain
}

// importsCopy reports whether an import path names copy c's package: for
// Go the package directory the question picked, for npm the package or a
// file of it, for Python the module asked about or one inside it, for
// Rust the crate.
func importsCopy(p string, c Copy, t target) bool {
	switch c.Ecosystem {
	case depdocs.Go:
		return p == path.Join(c.Name, c.Package)
	case depdocs.NPM:
		return p == c.Name || strings.HasPrefix(p, c.Name+"/")
	case depdocs.PyPI:
		return p == t.qual || strings.HasPrefix(p, t.qual+".")
	case depdocs.Cargo:
		return p == t.qual || strings.HasPrefix(p, t.qual+"::")
	}
	return false
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// useRecord is the record of a project file's use of a dependency's
// symbol: in the project (no outside_project mark), at the use.
func useRecord(f *FileUses, r symbols.Ref, c Copy, target, importPath string) evidence.Record {
	kind := evidence.Reference
	if r.Kind == symbols.Call {
		kind = evidence.Call
	}
	attrs := map[string]string{
		"ecosystem":   string(c.Ecosystem),
		"dependency":  c.Name,
		"version":     c.Version,
		"resolved_by": "import",
		"import":      importPath,
	}
	return evidence.Record{
		Kind: kind, Provider: ProviderName, Provenance: trust.GraphRelation, Trust: trust.InferredHigh,
		Path: f.Path, StartLine: r.Line, StartColumn: r.Column, EndLine: r.Line,
		EndColumn: r.Column + utf8.RuneCountInString(r.Name),
		Symbol:    enclosing(f, r.Byte), TargetSymbol: target, Confidence: 0.8,
		Metadata: evidence.Metadata{Attributes: attrs},
	}
}

// enclosing names the innermost definition of f that holds byte off, as
// package.Container.Name; "" at a file's top level.
func enclosing(f *FileUses, off int) string {
	var in *symbols.Symbol
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Range.StartByte <= off && off < s.Range.EndByte {
			in = s
		}
	}
	if in == nil {
		return ""
	}
	var parts []string
	if f.Package != "" {
		parts = append(parts, f.Package)
	}
	if c := normContainer(in.Container); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(append(parts, in.Name), ".")
}
