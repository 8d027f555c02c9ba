package cli

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/depdocs"
)

// scanProject opens the project and reads its manifests and lockfiles;
// ok is false with the exit code to return (the project is then closed).
func scanProject(c *cmd) (*project, *depdocs.Project, int, bool) {
	p, err := c.openProject(false)
	if err != nil {
		return nil, nil, c.finish(err), false
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		p.Close()
		return nil, nil, c.fail(err), false
	}
	pr, err := eng.Dependencies()
	if err != nil {
		p.Close()
		return nil, nil, c.fail(err), false
	}
	return p, pr, 0, true
}

// ecosystems are the values --ecosystem takes.
var ecosystems = []depdocs.Ecosystem{depdocs.NPM, depdocs.PyPI, depdocs.Cargo, depdocs.Go, depdocs.Maven, depdocs.NuGet}

// runDeps is cortex deps [NAME...] [--ecosystem E] [--direct] | why NAME:
// the dependencies, only those named (by package name or the alias the
// code imports) and of the ecosystem when given, as the MCP tool
// cortex_deps filters them. A NAME that matches no dependency is reported
// and the exit code is 1.
func runDeps(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[NAME...] [--ecosystem E] [--direct] [--build-list] | why NAME"
	// --build-list asks the go command (offline, from the module cache) for
	// Go's selected build list instead of go.mod's requirements.
	buildList := c.fs.Bool("build-list", false, "for Go, the build list the go command selects (offline, from the module cache; the module is not modified)")
	eco := c.fs.String("ecosystem", "", "only dependencies of this `ecosystem`: "+ecosystemList())
	direct := c.fs.Bool("direct", false, "only the dependencies the project declares itself")
	rest, code, ok := c.parse(args, 0, -1)
	if !ok {
		return code
	}
	why := len(rest) > 0 && rest[0] == "why"
	if why && len(rest) != 2 {
		return c.usageError(fmt.Errorf("unexpected arguments %q: want [NAME...], or why NAME", rest))
	}
	if *eco != "" && !slices.Contains(ecosystems, depdocs.Ecosystem(*eco)) {
		return c.usageError(fmt.Errorf("--ecosystem %q: want one of %s", *eco, ecosystemList()))
	}
	p, pr, code, ok := scanProject(c)
	if !ok {
		return code
	}
	defer p.Close()
	if *buildList {
		pr.AddGoBuildList(ctx, p.Root, depdocs.GoBuildOptions{})
	}
	if why {
		return depsWhy(c, pr, rest[1])
	}
	filter := depsFilter{names: rest, ecosystem: depdocs.Ecosystem(*eco), direct: *direct}
	view, unmatched := filter.apply(pr)
	if len(rest) > 0 && len(view.Dependencies) == 0 {
		return c.fail(fmt.Errorf("%s: not a dependency of this project%s", strings.Join(rest, ", "), filter.qualifier()))
	}
	code = ExitOK
	if len(unmatched) > 0 {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(view); err != nil {
			return c.fail(err)
		}
		return code
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "ECOSYSTEM\tNAME\tDECLARED\tRESOLVED\tSOURCE\tRELATION\tSCOPE\tFILE")
	for _, d := range view.Dependencies {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Ecosystem, safe(depName(d)), safe(dash(d.Declared)), safe(dash(d.Resolved)),
			d.Source, d.Relation, dash(string(d.Scope)), safe(fileLine(d)))
	}
	w.Flush()
	c.printf("%s", b.String())
	summary(c, pr, view)
	for _, n := range unmatched {
		c.note("cortex: %s is not a dependency of this project%s", safe(n), filter.qualifier())
	}
	return code
}

// A depsFilter is what cortex deps keeps: the dependencies named (any,
// when names is empty), of the ecosystem (any, when empty), declared by
// the project itself when direct is set.
type depsFilter struct {
	names     []string
	ecosystem depdocs.Ecosystem
	direct    bool
}

// keeps reports whether the filter keeps d, and which name it matched.
func (f depsFilter) keeps(d depdocs.Dependency) (bool, string) {
	if f.ecosystem != "" && d.Ecosystem != f.ecosystem || f.direct && d.Relation != depdocs.Direct {
		return false, ""
	}
	if len(f.names) == 0 {
		return true, ""
	}
	for _, n := range f.names {
		if matchesName(d, n) {
			return true, n
		}
	}
	return false, ""
}

// qualifier says what besides the names narrowed the search.
func (f depsFilter) qualifier() string {
	switch {
	case f.ecosystem != "" && f.direct:
		return " among the " + string(f.ecosystem) + " dependencies it declares itself"
	case f.ecosystem != "":
		return " among its " + string(f.ecosystem) + " dependencies"
	case f.direct:
		return " among the dependencies it declares itself"
	}
	return " (no manifest or lockfile names it)"
}

// apply returns the view of pr the filter keeps, and the names that
// matched no dependency. Files read and unreadable files are kept whole:
// they say what the answer was drawn from.
func (f depsFilter) apply(pr *depdocs.Project) (depsJSON, []string) {
	v := depsView(pr)
	if len(f.names) == 0 && f.ecosystem == "" && !f.direct {
		return v, nil
	}
	matched := map[string]bool{}
	v.Dependencies = []depdocs.Dependency{}
	for _, d := range pr.Deps {
		if ok, n := f.keeps(d); ok {
			v.Dependencies = append(v.Dependencies, d)
			matched[n] = true
		}
	}
	v.MultiVersions = []depdocs.MultiVersion{}
	for _, m := range pr.MultiVersions {
		rel := depdocs.Direct
		if len(m.Direct) == 0 {
			rel = depdocs.Transitive
		}
		if ok, _ := f.keeps(depdocs.Dependency{Ecosystem: m.Ecosystem, Name: m.Name, Relation: rel}); ok {
			v.MultiVersions = append(v.MultiVersions, m)
		}
	}
	var unmatched []string
	for _, n := range f.names {
		if !matched[n] {
			unmatched = append(unmatched, n)
		}
	}
	v.Unmatched = unmatched
	return v, unmatched
}

func ecosystemList() string {
	var s []string
	for _, e := range ecosystems {
		s = append(s, string(e))
	}
	return strings.Join(s, ", ")
}

// depName is a dependency's name as the code imports it, with the package
// it resolves to when that is another (an npm alias, a Cargo rename).
func depName(d depdocs.Dependency) string {
	if d.Alias != "" && d.Alias != d.Name {
		return d.Alias + " (" + d.Name + ")"
	}
	return d.Name
}

// fileLine is FILE:LINE, or FILE when the line is not known.
func fileLine(d depdocs.Dependency) string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	return d.File
}

// depsJSON is cortex deps --json: the joined dependencies, and each file
// read without repeating its rows.
type depsJSON struct {
	Files         []fileView             `json:"files"`
	Dependencies  []depdocs.Dependency   `json:"dependencies"`
	MultiVersions []depdocs.MultiVersion `json:"multi_versions"`
	GoMode        depdocs.Mode           `json:"go_mode,omitempty"`
	Errors        []depdocs.FileError    `json:"errors"`
	Notes         []string               `json:"notes,omitempty"`
	// Unmatched are the names asked for that no dependency has.
	Unmatched []string `json:"unmatched,omitempty"`
}

type fileView struct {
	Path          string            `json:"path"`
	Format        depdocs.Format    `json:"format"`
	Ecosystem     depdocs.Ecosystem `json:"ecosystem"`
	FormatVersion string            `json:"format_version,omitempty"`
	Mode          depdocs.Mode      `json:"mode,omitempty"`
	Dependencies  int               `json:"dependencies"`
	Notes         []string          `json:"notes,omitempty"`
}

func depsView(pr *depdocs.Project) depsJSON {
	v := depsJSON{Files: []fileView{}, Dependencies: pr.Deps, MultiVersions: pr.MultiVersions, GoMode: pr.GoMode, Errors: pr.Errors, Notes: pr.Notes}
	for _, f := range pr.Files {
		v.Files = append(v.Files, fileView{f.Path, f.Format, f.Ecosystem, f.FormatVersion, f.Mode, len(f.Deps), f.Notes})
	}
	if v.Dependencies == nil {
		v.Dependencies = []depdocs.Dependency{}
	}
	if v.MultiVersions == nil {
		v.MultiVersions = []depdocs.MultiVersion{}
	}
	if v.Errors == nil {
		v.Errors = []depdocs.FileError{}
	}
	return v
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func summary(c *cmd, pr *depdocs.Project, v depsJSON) {
	if len(v.Dependencies) == len(pr.Deps) {
		c.printf("\n%d dependencies from %d files", len(pr.Deps), len(pr.Files))
	} else {
		c.printf("\n%d of %d dependencies from %d files", len(v.Dependencies), len(pr.Deps), len(pr.Files))
	}
	if pr.GoMode != "" {
		c.printf("; Go %s mode", pr.GoMode)
	}
	c.printf("\n")
	for _, m := range v.MultiVersions {
		line := fmt.Sprintf("%s %s resolves to %d versions: %s", m.Ecosystem, m.Name, len(m.Versions), strings.Join(m.Versions, ", "))
		if len(m.Direct) > 0 {
			line += " (direct: " + strings.Join(m.Direct, ", ") + ")"
		}
		c.printf("%s\n", safe(line))
	}
	for _, fe := range pr.Errors {
		c.printf("unreadable: %s: %s\n", safe(fe.Path), safe(fe.Err))
	}
	for _, n := range pr.Notes {
		c.printf("note: %s\n", safe(n))
	}
}

// whyAnswer is what cortex deps why prints.
type whyAnswer struct {
	Name string `json:"name"`
	// Declared lists where the name is declared directly.
	Declared []depdocs.Dependency `json:"declared"`
	// Resolved lists every resolution, with what pulls each in.
	Resolved []depdocs.Dependency `json:"resolved"`
}

func depsWhy(c *cmd, pr *depdocs.Project, name string) int {
	ans := whyAnswer{Name: name, Declared: []depdocs.Dependency{}, Resolved: []depdocs.Dependency{}}
	for _, f := range pr.Files {
		for _, d := range f.Deps {
			if matchesName(d, name) && d.Relation == depdocs.Direct && d.Resolved == "" {
				ans.Declared = append(ans.Declared, d)
			}
		}
	}
	for _, d := range pr.Deps {
		if !matchesName(d, name) {
			continue
		}
		if d.Relation == depdocs.Direct {
			ans.Declared = append(ans.Declared, d)
		}
		ans.Resolved = append(ans.Resolved, d)
	}
	if len(ans.Resolved) == 0 && len(ans.Declared) == 0 {
		return c.fail(fmt.Errorf("%s is not a dependency of this project", name))
	}
	if c.json != jsonOff {
		if err := c.writeJSON(ans); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printWhy(c, ans)
	return ExitOK
}

// matchesName reports whether d is the dependency called name: its
// package name or the alias the code imports it by.
func matchesName(d depdocs.Dependency, name string) bool {
	return strings.EqualFold(d.Name, name) || d.Alias != "" && strings.EqualFold(d.Alias, name)
}

func printWhy(c *cmd, ans whyAnswer) {
	seen := map[string]bool{}
	for _, d := range ans.Declared {
		line := fmt.Sprintf("declared in %s", fileLine(d))
		if d.Importer != "" && d.Importer != "." {
			line += " (member " + d.Importer + ")"
		}
		line += fmt.Sprintf(": %s %s", depName(d), dash(d.Declared))
		if d.Scope != "" {
			line += " [" + string(d.Scope) + "]"
		}
		if !seen[line] {
			seen[line] = true
			c.printf("%s\n", safe(line))
		}
	}
	for _, d := range ans.Resolved {
		line := fmt.Sprintf("resolved %s %s in %s (%s, %s)", depName(d), dash(d.Resolved), fileLine(d), d.Relation, d.Source)
		if d.Importer != "" && d.Importer != "." {
			line += " for member " + d.Importer
		}
		if seen[line] {
			continue
		}
		seen[line] = true
		c.printf("%s\n", safe(line))
		via := append([]string(nil), d.Via...)
		sort.Strings(via)
		if len(via) > 0 {
			c.printf("  pulled in by %s\n", safe(strings.Join(via, ", ")))
		}
	}
}

// docsAnswer is what cortex docs prints.
type docsAnswer struct {
	Request    docsRequestView    `json:"request"`
	Resolution depdocs.Resolution `json:"resolution"`
}

type docsRequestView struct {
	Ecosystem depdocs.Ecosystem `json:"ecosystem,omitempty"`
	Library   string            `json:"library"`
	Installed string            `json:"installed_version,omitempty"`
	Declared  string            `json:"declared,omitempty"`
	Source    depdocs.Source    `json:"source,omitempty"`
	Question  string            `json:"question,omitempty"`
}

func runDocs(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "LIBRARY [QUESTION...]"
	rest, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	lib, question := rest[0], strings.Join(rest[1:], " ")
	p, pr, code, ok := scanProject(c)
	if !ok {
		return code
	}
	defer p.Close()
	var req depdocs.DocsRequest
	view := docsRequestView{Library: lib, Question: question}
	var matched []depdocs.Dependency
	for _, d := range pr.Deps {
		if matchesName(d, lib) {
			matched = append(matched, d)
		}
	}
	if len(matched) > 0 {
		req = depdocs.RequestFor(matched, question)
		view.Ecosystem, view.Installed, view.Source = req.Ecosystem, req.Version, req.Source
		for _, d := range matched {
			if d.Resolved == req.Version && d.Declared != "" {
				view.Declared = d.Declared
				break
			}
		}
	} else {
		// Not a dependency here: ask without a version; the answer can
		// only be a fallback.
		req = depdocs.DocsRequest{Name: lib, Question: question, Source: depdocs.Registry}
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	res := eng.Docs(ctx, req)
	ans := docsAnswer{Request: view, Resolution: res}
	code = ExitOK
	if res.State != depdocs.DocsExact && res.State != depdocs.DocsFallback {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(ans); err != nil {
			return c.fail(err)
		}
		return code
	}
	installed := "not a dependency of this project"
	if view.Installed != "" {
		installed = view.Installed
		if view.Declared != "" {
			installed += " (declared " + view.Declared + ")"
		}
	}
	c.printf("library    %s\n", safe(lib))
	c.printf("installed  %s\n", safe(installed))
	state := string(res.State)
	if res.Stale {
		state += " (stale cache)"
	} else if res.Cached {
		state += " (cached)"
	}
	c.printf("docs       %s\n", state)
	if res.Label != "" {
		c.printf("pinned     %s\n", safe(res.LibraryID))
	}
	if res.Reason != "" {
		c.printf("why        %s\n", safe(res.Reason))
	}
	if res.Content != "" {
		c.printf("\n%s\n", safeLines(res.Content))
	}
	return code
}
