package codecortex

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
)

// The engine's typed methods: what the front ends ask beside a question
// in words, each answered the same way whichever front end asks.

// Impact is what changing the targets of q affects (callers, tests, risk
// and the exact/inferred mix of the edges behind them), from the engine's
// project graph. since, when set, adds what changed since that revision
// (work tree and untracked files included) as targets, read from the git
// history; the notes say how.
func (e *Engine) Impact(ctx context.Context, q graph.Query, since string) (*graph.Impact, error) {
	var notes []string
	if since != "" {
		repo, err := e.History(ctx, 0)
		if err != nil {
			return nil, err
		}
		targets, more, err := ChangeTargets(ctx, repo, since)
		if err != nil {
			return nil, err
		}
		q.Targets = append(q.Targets, targets...)
		notes = more
	}
	g, err := e.Graph()
	if err != nil {
		return nil, err
	}
	im, err := g.Impact(ctx, q)
	if err != nil {
		return nil, err
	}
	im.Notes = append(notes, im.Notes...)
	return im, nil
}

// A Relation is what [Engine.Locate] finds of a symbol.
type Relation string

// The relations.
const (
	// Definitions: where the symbol is defined.
	Definitions Relation = "definition"
	// References: where it is used, its declaration first (marked) unless
	// left out.
	References Relation = "references"
	// Implementations: both ways, as gopls answers: what implements an
	// interface, and what a concrete type implements.
	Implementations Relation = "implementations"
	// Callers: what uses it, without its declaration (see [Engine.Callers]).
	Callers Relation = "callers"
)

// kinds returns the record kinds a relation asks for.
func (r Relation) kinds() ([]evidence.Kind, error) {
	switch r {
	case Definitions:
		return []evidence.Kind{evidence.Definition}, nil
	case References:
		return []evidence.Kind{evidence.Reference, evidence.Call}, nil
	case Implementations:
		return []evidence.Kind{evidence.Implementation}, nil
	case Callers:
		return []evidence.Kind{evidence.Reference, evidence.Call}, nil
	}
	return nil, fmt.Errorf("codecortex: unknown relation %q (want definition, references, implementations or callers)", string(r))
}

// A Target names a symbol: by a position — Path relative to the project
// root, one-based Line and Column in code points — or by Symbol, a name
// (Name, Type.Method, pkg.Name), not both.
type Target struct {
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Symbol string `json:"symbol,omitempty"`
}

// ErrBadTarget is matched by every [TargetError].
var ErrBadTarget = errors.New("codecortex: bad target")

// A TargetError reports a target that names nothing the project has: no
// such file, a line or column past its end, or neither (or both) a
// position and a name. It is the asker's mistake, never "no results".
type TargetError struct {
	Target Target
	Reason string
}

func (e *TargetError) Error() string {
	switch {
	case e.Target.Path != "" && e.Target.Line == 0:
		return fmt.Sprintf("%s: %s", e.Target.Path, e.Reason)
	case e.Target.Path != "":
		return fmt.Sprintf("%s:%d:%d: %s", e.Target.Path, e.Target.Line, e.Target.Column, e.Reason)
	}
	return e.Reason
}

func (e *TargetError) Unwrap() error { return ErrBadTarget }

// A LocateQuery is what [Engine.Locate] is asked.
type LocateQuery struct {
	Relation Relation `json:"relation"`
	Target
	// NoDeclaration leaves the declaration out of references.
	NoDeclaration bool `json:"no_declaration,omitempty"`
}

// A Located is [Engine.Locate]'s answer.
type Located struct {
	// Query is what the layers were asked.
	Query evidence.Query `json:"query"`
	// Records are the answers, strongest first.
	Records []evidence.Record `json:"records"`
	// Reports are each asked layer's state.
	Reports []evidence.Report `json:"reports"`
	// ByName is set when no index resolved the position and the records
	// are the candidates of the name written there, looked up by name:
	// they are not a resolution of that occurrence.
	ByName string `json:"by_name,omitempty"`
	// Alias is set when the name looked up by name is defined nowhere in
	// the project but bound to another name's definition there (export {
	// isFSA as isFluxStandardAction } from …): the records are about the
	// name it binds (Alias.Name), whose uses through the alias are its
	// uses.
	Alias *index.Alias `json:"alias,omitempty"`
}

// Locate finds the definitions, references, implementations or callers of
// a symbol named by position or by name. The precision index answers first
// (exact; near_exact from the language server when the engine has one and
// the index has no fresh answer); when it has no fresh answer, the local
// index (the project graph, for callers and implementations) answers by
// name — the target's name, or the one written at the position — at the
// tier its syntax allows. A target that names nothing is a [TargetError].
func (e *Engine) Locate(ctx context.Context, q LocateQuery) (*Located, error) {
	kinds, err := q.Relation.kinds()
	if err != nil {
		return nil, err
	}
	if q.Relation == Callers || q.Relation == Implementations {
		return e.locate(ctx, q.Target, kinds, route.Graph, q.Relation == Callers)
	}
	return e.locate(ctx, q.Target, kinds, route.LocalIndex, q.NoDeclaration)
}

// locate asks the precision layer about t for records of kinds, and when
// it has no fresh answer, the fallback layer by name: t's name, or the one
// written at t's position.
func (e *Engine) locate(ctx context.Context, t Target, kinds []evidence.Kind, fallback route.Layer, noDecl bool) (*Located, error) {
	if err := e.checkTarget(t); err != nil {
		return nil, err
	}
	query := evidence.Query{Kinds: kinds, Path: t.Path, Line: t.Line, Column: t.Column, Symbol: t.Symbol}
	check := evidence.CollectOptions{Check: e.recordCheck}
	var recs []evidence.Record
	var reps []evidence.Report
	if p, ok := e.providers[route.Precision]; ok {
		recs, reps = evidence.Collect(ctx, query, []evidence.Provider{p}, check)
	}
	out := &Located{Query: query}
	if !freshAnswer(recs, reps) {
		byName := query
		if t.Symbol == "" {
			byName.Path, byName.Line, byName.Column = "", 0, 0
			byName.Symbol = e.identifierAt(t.Path, t.Line, t.Column)
		}
		written := byName.Symbol
		if written != "" {
			if a, ok := e.aliasOf(ctx, written); ok {
				out.Alias, byName.Symbol = &a, a.Name
			}
		}
		if byName.Symbol != "" {
			if p, ok := e.providers[fallback]; ok {
				lrecs, lreps := evidence.Collect(ctx, byName, []evidence.Provider{p}, check)
				if t.Symbol == "" && len(lrecs) > 0 && len(recs) == 0 {
					out.ByName = written
				}
				recs, reps = append(recs, lrecs...), append(reps, lreps...)
			}
		}
		defs := slices.Equal(kinds, []evidence.Kind{evidence.Definition})
		if defs || fallback == route.LocalIndex {
			// A dependency's symbol, named as the code writes it
			// (pflag.FlagSet), is read from the dependency's copy: its
			// definition, or the declaration among its references, with
			// the project's uses its imports bind to it.
			dep := byName
			if t.Symbol == "" {
				dep.Symbol = e.qualifiedAt(t.Path, t.Line, t.Column)
			}
			// A name the project defines as written (evidence.Fuse) is its
			// own: no dependency is read for it.
			own := dep.Symbol == byName.Symbol && definesExactly(recs)
			if asksDependency(dep.Symbol) && !own {
				switch {
				case defs:
					dep.Kinds = []evidence.Kind{evidence.Definition}
				case noDecl:
					dep.Kinds = []evidence.Kind{evidence.Reference}
				default:
					dep.Kinds = []evidence.Kind{evidence.Definition, evidence.Reference}
				}
				drecs, dreps := evidence.Collect(ctx, dep, []evidence.Provider{e.deps}, check)
				if t.Symbol == "" && len(drecs) > 0 && len(recs) == 0 {
					out.ByName = dep.Symbol
				}
				if !defs {
					drecs = asDeclarations(drecs)
				}
				recs, reps = append(recs, drecs...), append(reps, dreps...)
			}
		}
	}
	if noDecl {
		recs = precision.WithoutDeclarations(recs)
	}
	out.Records, out.Reports = evidence.Rank(evidence.Fuse(recs)), reps
	if out.Records == nil {
		out.Records = []evidence.Record{}
	}
	return out, nil
}

// asDeclarations turns a dependency's definition records into the
// declarations a reference answer holds (precision.IsDeclaration); the
// project's uses stay as they are.
func asDeclarations(recs []evidence.Record) []evidence.Record {
	for i := range recs {
		if recs[i].Kind != evidence.Definition {
			continue // a use, not the declaration
		}
		attrs := maps.Clone(recs[i].Metadata.Attributes)
		if attrs == nil {
			attrs = map[string]string{}
		}
		attrs[precision.DeclarationAttribute] = "true"
		recs[i].Kind, recs[i].Metadata.Attributes = evidence.Reference, attrs
	}
	return recs
}

// freshAnswer reports whether the records answer and none came from a
// stale source.
func freshAnswer(recs []evidence.Record, reps []evidence.Report) bool {
	for _, r := range reps {
		if r.State == evidence.StaleState {
			return false
		}
	}
	return len(recs) > 0
}

// checkTarget refuses a target that names nothing in the project.
func (e *Engine) checkTarget(t Target) error {
	hasPos := t.Path != "" || t.Line != 0 || t.Column != 0
	switch {
	case hasPos && t.Symbol != "":
		return &TargetError{Target: t, Reason: "both a position and a symbol name were given; give one"}
	case t.Symbol != "":
		if strings.TrimSpace(t.Symbol) == "" || strings.ContainsAny(t.Symbol, " \t\n") {
			return &TargetError{Target: t, Reason: fmt.Sprintf("%q is not a symbol name", t.Symbol)}
		}
		return nil
	case t.Path == "" || t.Line < 1 || t.Column < 1:
		return &TargetError{Target: t, Reason: "want a position (path, one-based line and column) or a symbol name"}
	}
	if err := e.root.Check(t.Path); err != nil {
		return &TargetError{Target: t, Reason: err.Error()}
	}
	fi, err := e.root.Stat(t.Path)
	if err != nil || !fi.Mode().IsRegular() {
		return &TargetError{Target: t, Reason: "no such file in the project"}
	}
	if fi.Size() > maxIdentifierFile {
		return nil // too large to check here; the layers say what they find
	}
	src, err := e.root.ReadFile(t.Path)
	if err != nil {
		return &TargetError{Target: t, Reason: "the file cannot be read: " + err.Error()}
	}
	lines := strings.Split(string(src), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the newline ending the last line
	}
	if t.Line > len(lines) {
		return &TargetError{Target: t, Reason: fmt.Sprintf("the file has %d lines", len(lines))}
	}
	if n := utf8.RuneCountInString(strings.TrimRight(lines[t.Line-1], "\r")); t.Column > n+1 {
		return &TargetError{Target: t, Reason: fmt.Sprintf("line %d has %d characters", t.Line, n)}
	}
	return nil
}

// Dependencies reads the project's manifests and lockfiles: every
// dependency with its declared constraint and resolved version, each at
// the line that records it.
func (e *Engine) Dependencies() (*depdocs.Project, error) {
	return depdocs.Scan(e.project.Root, depdocs.ScanOptions{})
}

// Docs asks the documentation layer for req: version-pinned documentation
// when it is enabled and trusted, otherwise a resolution that says why
// there is none. It never fabricates documentation.
func (e *Engine) Docs(ctx context.Context, req depdocs.DocsRequest) depdocs.Resolution {
	res, _ := e.docs.Docs(ctx, req)
	return res
}
