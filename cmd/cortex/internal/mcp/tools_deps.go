package mcp

import (
	"context"
	"strings"

	"github.com/codecortex/codecortex/depdocs"
)

// depsParams are cortex_deps's arguments.
type depsParams struct {
	Name      string `json:"name,omitempty" maxLength:"400" jsonschema:"only this dependency (registry name or import alias): where declared, what pulls it in"`
	Ecosystem string `json:"ecosystem,omitempty" enum:"npm|pypi|cargo|go|maven|nuget" jsonschema:"only this ecosystem"`
	Direct    bool   `json:"direct_only,omitempty" default:"false" jsonschema:"only those the project declares itself"`
	Budget    int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// depsResult is cortex_deps's result.
type depsResult struct {
	Dependencies  []dependency   `json:"dependencies" jsonschema:"each dependency with its declared constraint and resolved version kept apart, located at the manifest or lockfile line that records it"`
	Files         []manifest     `json:"files" jsonschema:"the manifests and lockfiles read"`
	MultiVersions []multiVersion `json:"multi_versions" jsonschema:"packages resolved to more than one version"`
	Errors        []string       `json:"errors" jsonschema:"files that could not be read, with why"`
	Omitted       omission       `json:"omitted" jsonschema:"what the budget left out"`
}

// A dependency is one declared or resolved dependency.
type dependency struct {
	Ecosystem string   `json:"ecosystem" jsonschema:"npm, pypi, cargo, go, maven or nuget"`
	Name      string   `json:"name" jsonschema:"the package as its registry knows it"`
	Alias     string   `json:"alias,omitempty" jsonschema:"the name the code imports when it differs (an npm alias, a Cargo rename)"`
	Declared  string   `json:"declared,omitempty" jsonschema:"the constraint a manifest declares, such as ^15.0.0"`
	Resolved  string   `json:"resolved,omitempty" jsonschema:"the version a lockfile or the build list resolves, such as 15.4.3: the version the code runs"`
	Source    string   `json:"source" jsonschema:"registry, git, path, replaced, workspace or url"`
	Relation  string   `json:"relation" jsonschema:"direct, indirect, transitive, root or unknown"`
	Scope     string   `json:"scope,omitempty" jsonschema:"dev, optional, peer, test or build; absent for a normal dependency"`
	File      string   `json:"file" jsonschema:"the file that records it, relative to the project root"`
	Line      int      `json:"line,omitempty" jsonschema:"the line of that file, one-based"`
	Via       []string `json:"via,omitempty" jsonschema:"packages that depend on it, as name@version (the first few)"`
}

type manifest struct {
	Path         string `json:"path" jsonschema:"the file, relative to the project root"`
	Ecosystem    string `json:"ecosystem" jsonschema:"its ecosystem"`
	Format       string `json:"format" jsonschema:"its format"`
	Dependencies int    `json:"dependencies" jsonschema:"how many dependencies it records"`
}

type multiVersion struct {
	Ecosystem string   `json:"ecosystem" jsonschema:"the ecosystem"`
	Name      string   `json:"name" jsonschema:"the package"`
	Versions  []string `json:"versions" jsonschema:"the versions it resolves to"`
}

func answerDeps(ctx context.Context, s *Server, in depsParams) (depsResult, error) {
	pr, err := s.engine.Dependencies()
	if err != nil {
		return depsResult{}, err
	}
	want := func(d depdocs.Dependency) bool {
		if in.Name != "" && !strings.EqualFold(d.Name, in.Name) && !(d.Alias != "" && strings.EqualFold(d.Alias, in.Name)) {
			return false
		}
		if in.Ecosystem != "" && string(d.Ecosystem) != in.Ecosystem {
			return false
		}
		return !in.Direct || d.Relation == depdocs.Direct
	}
	var deps []dependency
	for _, d := range pr.Deps {
		if want(d) {
			deps = append(deps, dependencyView(d))
		}
	}
	if in.Name != "" {
		// Where the name is declared without a resolution (a manifest next
		// to its lockfile) is part of why it is there.
		for _, f := range pr.Files {
			for _, d := range f.Deps {
				if want(d) && d.Relation == depdocs.Direct && d.Resolved == "" {
					deps = append(deps, dependencyView(d))
				}
			}
		}
		if len(deps) == 0 {
			return depsResult{}, &toolError{Reason: in.Name + " is not a dependency of this project (no manifest or lockfile names it)",
				Guidance: "call cortex_deps without name to list the dependencies the manifests declare"}
		}
	}
	out := depsResult{Dependencies: []dependency{}, Files: []manifest{}, MultiVersions: []multiVersion{}, Errors: []string{}}
	var files []manifest
	for _, f := range pr.Files {
		files = append(files, manifest{Path: f.Path, Ecosystem: string(f.Ecosystem), Format: string(f.Format), Dependencies: len(f.Deps)})
	}
	var multi []multiVersion
	for _, m := range pr.MultiVersions {
		if in.Name == "" || strings.EqualFold(m.Name, in.Name) {
			multi = append(multi, multiVersion{Ecosystem: string(m.Ecosystem), Name: m.Name, Versions: clipList(m.Versions, maxListed)})
		}
	}
	var errs []string
	for _, e := range pr.Errors {
		errs = append(errs, clip(e.Path+": "+e.Err, 300))
	}
	f := newFitter(in.Budget, out)
	out.Errors = take(f, errs)
	out.Dependencies = take(f, deps)
	out.MultiVersions = take(f, multi)
	out.Files = take(f, files)
	out.Omitted = f.done("the dependencies (then the multi-version packages and the files read) after the last one shown were left out; filter by name, ecosystem or direct_only, or raise budget")
	return out, nil
}

func dependencyView(d depdocs.Dependency) dependency {
	v := dependency{Ecosystem: string(d.Ecosystem), Name: clip(d.Name, 300), Alias: clip(d.Alias, 300),
		Declared: clip(d.Declared, 200), Resolved: clip(d.Resolved, 200), Source: string(d.Source),
		Relation: string(d.Relation), Scope: string(d.Scope), File: d.File, Line: d.Line}
	if len(d.Via) > 0 {
		v.Via = clipList(d.Via, maxListed)
	}
	return v
}

// docsParams are cortex_docs's arguments.
type docsParams struct {
	Library  string `json:"library" minLength:"1" maxLength:"300" jsonschema:"the dependency as the manifests name it, such as react"`
	Question string `json:"question,omitempty" maxLength:"1000" jsonschema:"what to look up, such as 'useEffect cleanup'"`
	Budget   int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// docsResult is cortex_docs's result.
type docsResult struct {
	Library   string   `json:"library" jsonschema:"the library asked about"`
	Ecosystem string   `json:"ecosystem,omitempty" jsonschema:"its ecosystem, when it is a dependency here"`
	Installed string   `json:"installed_version,omitempty" jsonschema:"the version the project resolves; absent when it is not a dependency"`
	State     string   `json:"state" jsonschema:"exact (documentation of the installed version), fallback (of another version), pending, unavailable, disabled, or credentials missing"`
	Exact     bool     `json:"exact" jsonschema:"the documentation is pinned to the installed version"`
	Version   string   `json:"version,omitempty" jsonschema:"the version the documentation is for"`
	LibraryID string   `json:"library_id,omitempty" jsonschema:"the provider's id for the library, as requested"`
	Reason    string   `json:"reason,omitempty" jsonschema:"why the answer is not exact documentation"`
	Guidance  string   `json:"guidance,omitempty" jsonschema:"what to do to get documentation"`
	Cached    bool     `json:"cached" jsonschema:"served from the local cache"`
	Stale     bool     `json:"stale" jsonschema:"a cache entry past its time to live, served because the provider could not be reached"`
	Content   string   `json:"content" jsonschema:"the documentation text; empty when there is none"`
	Omitted   omission `json:"omitted" jsonschema:"how much of the documentation the budget cut"`
}

func answerDocs(ctx context.Context, s *Server, in docsParams) (docsResult, error) {
	pr, err := s.engine.Dependencies()
	if err != nil {
		return docsResult{}, err
	}
	var matched []depdocs.Dependency
	for _, d := range pr.Deps {
		if strings.EqualFold(d.Name, in.Library) || d.Alias != "" && strings.EqualFold(d.Alias, in.Library) {
			matched = append(matched, d)
		}
	}
	req := depdocs.DocsRequest{Name: in.Library, Question: in.Question, Source: depdocs.Registry}
	out := docsResult{Library: in.Library}
	if len(matched) > 0 {
		req = depdocs.RequestFor(matched, in.Question)
		out.Ecosystem, out.Installed = string(req.Ecosystem), req.Version
	}
	opts := s.project.DocsOptions()
	res := s.engine.Docs(ctx, req)
	out.State, out.Exact, out.Version, out.LibraryID = string(res.State), res.Exact, res.Version, res.LibraryID
	out.Reason, out.Cached, out.Stale = clip(res.Reason, 600), res.Cached, res.Stale
	switch res.State {
	case depdocs.DocsDisabled:
		out.Guidance = "documentation is off by default (it is the only network access): set dependency_docs.enabled in .codecortex/config.json, trust it with `cortex trust`, and export " + keyEnv(opts) + "; cortex_deps gives the installed version meanwhile"
	case depdocs.DocsNoCredentials:
		out.Guidance = "export " + keyEnv(opts) + " with your documentation provider's key where cortex mcp runs"
	case depdocs.DocsPending:
		out.Guidance = "the provider is preparing this library; ask again later"
	}
	f := newFitter(in.Budget, out)
	content, cut := f.text(res.Content)
	out.Content = content
	out.Omitted = f.done("")
	if cut {
		out.Omitted.Omitted = 1
		out.Omitted.Note = "the documentation was cut at the budget; raise budget, or ask a narrower question"
	}
	return out, nil
}

func keyEnv(opts depdocs.DocsOptions) string {
	if opts.KeyEnv != "" {
		return opts.KeyEnv
	}
	return "CODECORTEX_DEPENDENCY_DOCS_API_KEY"
}
