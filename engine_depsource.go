package codecortex

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// The dependency-source layer: definitions of a dependency's symbols read
// from the copy the project uses (see package depsource). It answers a
// qualified name whose qualifier names a dependency ("pflag.FlagSet"),
// beside the project's own layers; its records are outside the project and
// are checked against the dependency's directory instead of the root.

// newDepSource makes the engine's dependency-source provider: the project's
// dependencies as the engine scanned them last, files bounded as the
// project walk bounds them.
func (e *Engine) newDepSource(maxFile int64) *depsource.Provider {
	return depsource.New(depsource.Options{Dir: e.project.Root, MaxFileSize: maxFile, Seal: e.indexOpts.Seal,
		Deps: func() ([]depdocs.Dependency, error) { return e.dependencyList(), nil },
		Uses: e.namedUses})
}

// namedUses gives the dependency-source layer the project files that use
// name or import it, from the local index: each one's imports and its
// uses of name.
func (e *Engine) namedUses(ctx context.Context, name string) ([]depsource.FileUses, error) {
	ix, err := e.Index()
	if err != nil {
		return nil, err
	}
	facts, err := ix.FactsNamed(ctx, name, nil)
	if err != nil {
		return nil, err
	}
	var out []depsource.FileUses
	for _, f := range facts.Files {
		if len(f.Refs) > 0 {
			out = append(out, depsource.FileUses{Path: f.Path, Language: f.Language, Package: f.Package,
				Symbols: f.Symbols, Imports: f.Imports, Refs: f.Refs})
		}
	}
	return out, nil
}

// IndexDependency runs the SCIP indexer of the dependency dep names
// ("pflag", "github.com/spf13/pflag", "uuid") over the copy the project
// uses, once it is checked against the lockfile, and keeps the index,
// sealed, under .codecortex/deps: from then on the dependency's
// definitions that index confirms are exact. It runs a program (scip-go,
// scip-typescript, scip-python), so a host calls it only when its user
// asks.
func (e *Engine) IndexDependency(ctx context.Context, dep string) (*depsource.IndexResult, error) {
	return e.deps.Index(ctx, dep)
}

// DependencySource finds name ("pflag.FlagSet", "uuid.v4") in the copy of
// the dependency its qualifier names, at the version the project's
// lockfile resolves: the definitions, the copies read and the copies that
// could not be served (missing, replaced, or not the locked version).
func (e *Engine) DependencySource(ctx context.Context, name string) (*depsource.Result, error) {
	return e.deps.Find(ctx, name)
}

// recordCheck is the location check of every record the engine collects:
// a dependency's record must lie in that dependency's directory, any other
// inside the project root.
func (e *Engine) recordCheck(r *evidence.Record) error {
	if depsource.Outside(r) {
		return e.deps.CheckRecord(r)
	}
	return evidence.LocationCheck(e.root.Check)(r)
}

// asksDependency reports whether name is qualified, as a dependency's
// symbol is written in code: the dependency layer is asked only then.
func asksDependency(name string) bool {
	name = strings.ReplaceAll(strings.TrimSpace(name), "::", ".")
	i := strings.LastIndexByte(name, '/')
	return name != "" && strings.Contains(name[i+1:], ".")
}

// definesExactly reports whether recs hold a definition from the project
// whose name and qualifiers match the name asked as written (the local
// index's "exact" match) or that a precision index resolved.
func definesExactly(recs []evidence.Record) bool {
	for i := range recs {
		r := &recs[i]
		if r.Kind == evidence.Definition && !depsource.Outside(r) &&
			(r.Metadata.Attributes["match"] == "exact" || r.Trust == trust.Exact) {
			return true
		}
	}
	return false
}

// dependencyList returns the project's dependencies, scanned again when a
// manifest or lockfile it read has changed.
func (e *Engine) dependencyList() []depdocs.Dependency {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.scanDeps().deps
}

// scanDeps returns the scan of the project's manifests, kept while none of
// them changed; the caller holds e.mu.
func (e *Engine) scanDeps() *declaredDeps {
	if d := e.declared; d != nil && !d.changed(e.project.Root) {
		return d
	}
	d := &declaredDeps{files: map[string]time.Time{}}
	pr, err := depdocs.Scan(e.project.Root, depdocs.ScanOptions{})
	if err == nil {
		d.deps = pr.Deps
		seen := map[string]bool{}
		for _, dep := range pr.Deps {
			if dep.Relation != depdocs.Direct || dep.Source.Local() {
				continue
			}
			n := string(dep.Ecosystem) + ":" + dep.Name
			if !seen[n] {
				seen[n] = true
				d.names = append(d.names, n)
			}
		}
		for _, f := range pr.Files {
			if fi, err := os.Stat(filepath.Join(e.project.Root, filepath.FromSlash(f.Path))); err == nil {
				d.files[f.Path] = fi.ModTime()
			}
		}
		slices.Sort(d.names)
	}
	e.declared = d
	return d
}

// A DependencyOutlineQuery is what [Engine.DependencyOutline] is asked.
type DependencyOutlineQuery struct {
	// Dependency is named as the project's code names it: "pflag",
	// "github.com/spf13/pflag", "uuid", "requests".
	Dependency string `json:"dependency"`
	// All asks for every definition: a Go package's unexported ones, and
	// members in every language.
	All bool `json:"all,omitempty"`
}

// A DependencyOutline is [Engine.DependencyOutline]'s answer.
type DependencyOutline struct {
	Dependency string `json:"dependency"`
	// Copies are the copies read, each checked against the lockfile.
	Copies []depsource.Copy `json:"copies"`
	// Records are the definitions, file by file in path order, each a
	// structural record outside the project (see package depsource).
	Records []evidence.Record `json:"records"`
	// Problems are the copies that could not be served, and why.
	Problems []depsource.Problem `json:"problems,omitempty"`
	// Partial says which bound cut the outline short, when one did.
	Partial string `json:"partial,omitempty"`
}

// Names reports whether the query named a dependency of the project: a
// copy was read or could not be served.
func (o *DependencyOutline) Names() bool { return len(o.Copies)+len(o.Problems) > 0 }

// DependencyOutline lists the definitions of the dependency q names, read
// from the copy the project uses at the version its lockfile resolves: a
// Go package's exported definitions, every other language's top-level
// ones (every definition with All). A copy that is missing or does not
// match is a problem and is not read; a name that names no dependency
// gives an answer without copies or problems.
func (e *Engine) DependencyOutline(ctx context.Context, q DependencyOutlineQuery) (*DependencyOutline, error) {
	res, err := e.deps.Outline(ctx, q.Dependency, depsource.OutlineOptions{All: q.All})
	if err != nil {
		return nil, err
	}
	out := &DependencyOutline{Dependency: res.Name, Copies: res.Copies, Records: make([]evidence.Record, 0, len(res.Definitions)),
		Problems: res.Problems, Partial: res.Partial}
	// The check is of the path: once per file.
	checked := map[string]error{}
	for i := range res.Definitions {
		r := res.Definitions[i].Record()
		err, ok := checked[r.Path]
		if !ok {
			err = e.recordCheck(&r)
			checked[r.Path] = err
		}
		if err != nil {
			continue // a record outside its dependency's directory
		}
		out.Records = append(out.Records, r)
	}
	return out, nil
}
