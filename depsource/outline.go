package depsource

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/symbols"
)

// MaxOutline bounds the definitions one outline gives.
const MaxOutline = 20000

// OutlineOptions tunes [Provider.Outline]; the zero value gives a Go
// package's exported definitions and every other language's top-level
// ones.
type OutlineOptions struct {
	// All gives every definition the symbols extractor reads: a Go
	// package's unexported ones, and members in every language.
	All bool
}

// Outline lists the definitions of the dependency dep names, as code
// writes it ("pflag", "github.com/spf13/pflag", "uuid", "requests"), read
// from the copy the project uses once it is checked against the lockfile,
// file by file in path order and line order within a file. For Go only
// the package directory dep names is read, and by default only its API is
// given: exported definitions, members only of exported types; for the others every top-level
// definition of the package's source files. The bounds are [Find]'s, and
// at most [MaxOutline] definitions; Partial says which one cut the
// outline short. A copy that is missing or does not match is a problem,
// and nothing is read from it; a Python distribution that is not
// installed is one only when dep names it (not when it was only asked
// whether it provides module dep, as PyYAML provides yaml). A name that names no dependency gives an
// empty result; an error means the project's dependencies could not be
// read, or ctx ended.
func (p *Provider) Outline(ctx context.Context, dep string, opts OutlineOptions) (*Result, error) {
	dep = strings.TrimSpace(dep)
	res := &Result{Name: dep, Copies: []Copy{}, Definitions: []Definition{}}
	if dep == "" || len(dep) > 512 || strings.ContainsAny(dep, " \t\n\x00\\") {
		return res, nil
	}
	err := p.locate(ctx, dep, res, false, func(c Copy) {
		res.Copies = append(res.Copies, c)
		if err := p.outline(ctx, c, dep, opts, res); err != nil {
			res.Problems = append(res.Problems, Problem{Ecosystem: c.Ecosystem, Name: c.Name, Version: c.Version,
				Reason: "cannot read the copy: " + err.Error()})
		}
	})
	return res, err
}

// outline appends the definitions of copy c to res.
func (p *Provider) outline(ctx context.Context, c Copy, qual string, opts OutlineOptions, res *Result) error {
	root, err := contain.Open(c.abs)
	if err != nil {
		return err
	}
	defer root.Close()
	files, partial, err := p.sourceFiles(ctx, root, c)
	if err != nil {
		return err
	}
	if partial != "" && res.Partial == "" {
		res.Partial = partial
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		src, err := readBounded(root, f, p.opts.maxFileSize())
		if err != nil {
			continue
		}
		sf, err := symbols.Extract(f, src)
		if err != nil {
			continue
		}
		for _, s := range sf.Symbols {
			if !opts.All && (c.Ecosystem == depdocs.Go && !goExported(s) || c.Ecosystem != depdocs.Go && s.Container != "") {
				continue
			}
			if len(res.Definitions) == MaxOutline {
				res.Partial = fmt.Sprintf("%s: only the first %d definitions are given", c.Dir, MaxOutline)
				return nil
			}
			res.Definitions = append(res.Definitions, Definition{Copy: c, Path: c.Dir + "/" + f, Symbol: s,
				Line: trimLine(src, s.NameRange.StartLine), Qualifier: qual})
		}
	}
	return nil
}

// goExported reports whether a Go definition is part of its package's
// API: exported, and a member of an exported type when it is a member (a
// method of an unexported type is not).
func goExported(s symbols.Symbol) bool {
	if !s.Exported {
		return false
	}
	c := normContainer(s.Container)
	r, _ := utf8.DecodeRuneInString(c)
	return c == "" || unicode.IsUpper(r)
}
