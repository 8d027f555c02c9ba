package cli

import (
	"context"

	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/codecortex/codecortex/depdocs"
)

// takeFlag removes the boolean flag --name (or -name) from anywhere in
// args, so it may follow positional arguments.
func takeFlag(args []string, name string) ([]string, bool) {
	var rest []string
	set := false
	for _, a := range args {
		if a == "--"+name || a == "-"+name {
			set = true
			continue
		}
		rest = append(rest, a)
	}
	return rest, set
}

// parseArgs parses a command's flags, --json allowed anywhere, and
// checks the positional arguments with valid; ok is false with the exit
// code to return.
func parseArgs(e *Env, name, usage string, args []string, valid func([]string) bool) (rest []string, asJSON bool, code int, ok bool) {
	args, jsonAnywhere := takeFlag(args, "json")
	fs, jsonFlag := flags(e, name, usage)
	if code, ok := parse(fs, args); !ok {
		return nil, false, code, false
	}
	if !valid(fs.Args()) {
		fs.Usage()
		return nil, false, ExitUsage, false
	}
	return fs.Args(), *jsonFlag || jsonAnywhere, 0, true
}

// scanProject opens the project and reads its manifests and lockfiles;
// ok is false with the exit code to return (the project is then closed).
func scanProject(e *Env) (*project, *depdocs.Project, int, bool) {
	p, err := openProject(e)
	if err != nil {
		return nil, nil, fail(e, nil, err), false
	}
	pr, err := depdocs.Scan(p.root, depdocs.ScanOptions{})
	if err != nil {
		p.Close()
		return nil, nil, fail(e, p.red, err), false
	}
	return p, pr, 0, true
}

func runDeps(ctx context.Context, e *Env, args []string) int {
	// --build-list asks the go command (offline, from the module cache) for
	// Go's selected build list instead of go.mod's requirements.
	args, buildList := takeFlag(args, "build-list")
	rest, asJSON, code, ok := parseArgs(e, "deps", "[--build-list] [why NAME]", args, func(r []string) bool {
		return len(r) == 0 || r[0] == "why" && len(r) == 2
	})
	if !ok {
		return code
	}
	p, pr, code, ok := scanProject(e)
	if !ok {
		return code
	}
	defer p.Close()
	if buildList {
		pr.AddGoBuildList(ctx, p.root, depdocs.GoBuildOptions{})
	}
	if len(rest) == 2 {
		return depsWhy(e, p, pr, rest[1], asJSON)
	}
	if asJSON {
		if err := writeJSON(e.Stdout, p.red, depsView(pr)); err != nil {
			return fail(e, p.red, err)
		}
		return ExitOK
	}
	w := tabwriter.NewWriter(e.Stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "ECOSYSTEM\tNAME\tDECLARED\tRESOLVED\tSOURCE\tRELATION\tSCOPE\tFILE")
	for _, d := range pr.Deps {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Ecosystem, d.Name, dash(d.Declared), dash(d.Resolved),
			d.Source, d.Relation, dash(string(d.Scope)), d.File)
	}
	w.Flush()
	summary(e.Stdout, pr)
	return ExitOK
}

// depsJSON is cortex deps --json: the joined dependencies, and each file
// read without repeating its rows.
type depsJSON struct {
	Files         []fileView             `json:"files"`
	Dependencies  []depdocs.Dependency   `json:"dependencies"`
	MultiVersions []depdocs.MultiVersion `json:"multi_versions"`
	GoMode        depdocs.Mode           `json:"go_mode,omitempty"`
	Errors        []depdocs.FileError    `json:"errors"`
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
	v := depsJSON{Files: []fileView{}, Dependencies: pr.Deps, MultiVersions: pr.MultiVersions, GoMode: pr.GoMode, Errors: pr.Errors}
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

func summary(w io.Writer, pr *depdocs.Project) {
	fmt.Fprintf(w, "\n%d dependencies from %d files", len(pr.Deps), len(pr.Files))
	if pr.GoMode != "" {
		fmt.Fprintf(w, "; Go %s mode", pr.GoMode)
	}
	fmt.Fprintln(w)
	for _, m := range pr.MultiVersions {
		line := fmt.Sprintf("%s %s resolves to %d versions: %s", m.Ecosystem, m.Name, len(m.Versions), strings.Join(m.Versions, ", "))
		if len(m.Direct) > 0 {
			line += " (direct: " + strings.Join(m.Direct, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
	for _, fe := range pr.Errors {
		fmt.Fprintf(w, "unreadable: %s: %s\n", fe.Path, fe.Err)
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

func depsWhy(e *Env, p *project, pr *depdocs.Project, name string, asJSON bool) int {
	ans := whyAnswer{Name: name, Declared: []depdocs.Dependency{}, Resolved: []depdocs.Dependency{}}
	for _, f := range pr.Files {
		for _, d := range f.Deps {
			if strings.EqualFold(d.Name, name) && d.Relation == depdocs.Direct && d.Resolved == "" {
				ans.Declared = append(ans.Declared, d)
			}
		}
	}
	for _, d := range pr.Deps {
		if !strings.EqualFold(d.Name, name) {
			continue
		}
		if d.Relation == depdocs.Direct {
			ans.Declared = append(ans.Declared, d)
		}
		ans.Resolved = append(ans.Resolved, d)
	}
	if asJSON {
		if err := writeJSON(e.Stdout, p.red, ans); err != nil {
			return fail(e, p.red, err)
		}
	} else {
		printWhy(e.Stdout, ans)
	}
	if len(ans.Resolved) == 0 && len(ans.Declared) == 0 {
		fmt.Fprintf(e.Stderr, "cortex: %s is not a dependency of this project\n", name)
		return ExitFail
	}
	return ExitOK
}

func printWhy(w io.Writer, ans whyAnswer) {
	seen := map[string]bool{}
	for _, d := range ans.Declared {
		line := fmt.Sprintf("declared in %s", d.File)
		if d.Importer != "" && d.Importer != "." {
			line += " (member " + d.Importer + ")"
		}
		line += fmt.Sprintf(": %s %s", d.Name, dash(d.Declared))
		if d.Scope != "" {
			line += " [" + string(d.Scope) + "]"
		}
		if !seen[line] {
			seen[line] = true
			fmt.Fprintln(w, line)
		}
	}
	for _, d := range ans.Resolved {
		line := fmt.Sprintf("resolved %s %s in %s (%s, %s)", d.Name, dash(d.Resolved), d.File, d.Relation, d.Source)
		if d.Importer != "" && d.Importer != "." {
			line += " for member " + d.Importer
		}
		if seen[line] {
			continue
		}
		seen[line] = true
		fmt.Fprintln(w, line)
		via := append([]string(nil), d.Via...)
		sort.Strings(via)
		if len(via) > 0 {
			fmt.Fprintln(w, "  pulled in by "+strings.Join(via, ", "))
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

func runDocs(ctx context.Context, e *Env, args []string) int {
	rest, asJSON, code, ok := parseArgs(e, "docs", "LIBRARY [QUESTION]", args, func(r []string) bool { return len(r) >= 1 })
	if !ok {
		return code
	}
	lib, question := rest[0], strings.Join(rest[1:], " ")
	p, pr, code, ok := scanProject(e)
	if !ok {
		return code
	}
	defer p.Close()
	var req depdocs.DocsRequest
	view := docsRequestView{Library: lib, Question: question}
	var matched []depdocs.Dependency
	for _, d := range pr.Deps {
		if strings.EqualFold(d.Name, lib) {
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
	provider := depdocs.NewProvider(p.root, p.cfg.DependencyDocs, e.Getenv)
	res, _ := provider.Docs(ctx, req)
	ans := docsAnswer{Request: view, Resolution: res}
	code = ExitOK
	if res.State != depdocs.DocsExact && res.State != depdocs.DocsFallback {
		code = ExitFail
	}
	if asJSON {
		if err := writeJSON(e.Stdout, p.red, ans); err != nil {
			return fail(e, p.red, err)
		}
		return code
	}
	w := e.Stdout
	installed := "not a dependency of this project"
	if view.Installed != "" {
		installed = view.Installed
		if view.Declared != "" {
			installed += " (declared " + view.Declared + ")"
		}
	}
	fmt.Fprintln(w, p.red.String(fmt.Sprintf("library    %s", lib)))
	fmt.Fprintln(w, p.red.String(fmt.Sprintf("installed  %s", installed)))
	state := string(res.State)
	if res.Stale {
		state += " (stale cache)"
	} else if res.Cached {
		state += " (cached)"
	}
	fmt.Fprintln(w, "docs       "+state)
	if res.Label != "" {
		fmt.Fprintln(w, p.red.String("pinned     "+res.LibraryID))
	}
	if res.Reason != "" {
		fmt.Fprintln(w, p.red.String("why        "+res.Reason))
	}
	if res.Content != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, p.red.String(res.Content))
	}
	return code
}
