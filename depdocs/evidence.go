package depdocs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/trust"
)

// Provider names, as reports show them.
const (
	ManifestProviderName = "dependency-manifests"
	DocsProviderName     = "dependency-docs"
)

// ManifestRecord turns a dependency into an evidence record: provenance
// manifest, tier structural (a parsed file, not a resolved symbol). A
// dependency with a Line is located at that line of its File, the columns
// spanning line, the text of that line (without its line break; its
// leading and trailing blanks are left out); one without a Line has no
// location. The facts, file included, are in the attributes. A resolved
// version is stated with more confidence than a bare constraint.
func ManifestRecord(d Dependency, line string) evidence.Record {
	conf := 0.7
	if d.Resolved != "" {
		conf = 0.95
	}
	attrs := map[string]string{
		"ecosystem": string(d.Ecosystem), "name": d.Name, "source": string(d.Source),
		"relation": string(d.Relation), "file": d.File,
	}
	for k, v := range map[string]string{"declared": d.Declared, "resolved": d.Resolved, "scope": string(d.Scope),
		"importer": d.Importer, "markers": d.Markers, "source_detail": d.SourceDetail, "alias": d.Alias,
		"groups": strings.Join(d.Groups, ","), "via": strings.Join(d.Via, ",")} {
		if v != "" {
			attrs[k] = v
		}
	}
	name := d.Name
	if d.Alias != "" {
		name = d.Alias + " (" + d.Name + ")"
	}
	ex := fmt.Sprintf("%s %s", name, firstNonEmpty(d.Resolved, d.Declared, "(unversioned)"))
	if d.Declared != "" && d.Resolved != "" {
		ex = fmt.Sprintf("%s %s (declared %s)", name, d.Resolved, d.Declared)
	}
	where := d.File
	if d.Line > 0 {
		where += ":" + strconv.Itoa(d.Line)
	}
	rec := evidence.Record{
		Kind: evidence.Import, Provider: ManifestProviderName, Provenance: trust.Manifest, Trust: trust.Structural,
		Symbol: string(d.Ecosystem) + ":" + d.Name, Confidence: conf,
		Metadata: evidence.Metadata{Excerpt: ex + " in " + where, Attributes: attrs},
	}
	if d.Line > 0 && d.File != "" {
		rec.Path, rec.StartLine, rec.EndLine = d.File, d.Line, d.Line
		rec.StartColumn, rec.EndColumn = lineSpan(line)
	}
	return rec
}

// lineSpan returns the one-based, half-open code point columns of a line's
// text without its leading and trailing blanks.
func lineSpan(line string) (start, end int) {
	body := strings.TrimRightFunc(line, unicode.IsSpace)
	trimmed := strings.TrimLeftFunc(body, unicode.IsSpace)
	if trimmed == "" {
		return 1, 1
	}
	start = 1 + utf8.RuneCountInString(body) - utf8.RuneCountInString(trimmed)
	return start, 1 + utf8.RuneCountInString(body)
}

// fileLines reads the lines of the files records point into, once each.
type fileLines struct {
	root  *contain.Root
	files map[string][]string
}

// line returns the text of d's line, "" when it cannot be read.
func (f *fileLines) line(d Dependency) string {
	if d.Line <= 0 {
		return ""
	}
	lines, ok := f.files[d.File]
	if !ok {
		if fi, err := f.root.Stat(d.File); err == nil && fi.Mode().IsRegular() && fi.Size() <= DefaultMaxFileSize {
			if data, err := f.root.ReadFile(d.File); err == nil {
				lines = strings.Split(string(data), "\n")
			}
		}
		f.files[d.File] = lines
	}
	if d.Line > len(lines) {
		return ""
	}
	return lines[d.Line-1]
}

// DocsRecord turns documentation into an evidence record: version-exact
// documentation is structural at most (it is evidence about a dependency's
// API, not a resolution of a repository symbol); a fallback is
// fallback-docs, which ranks lower; a stale cached answer is marked stale.
// ok is false for a resolution without documentation.
func DocsRecord(eco Ecosystem, r Resolution) (evidence.Record, bool) {
	if r.State != DocsExact && r.State != DocsFallback || r.Content == "" {
		return evidence.Record{}, false
	}
	rec := evidence.Record{
		Kind: evidence.Documentation, Provider: DocsProviderName, Symbol: string(eco) + ":" + r.Library,
		Provenance: trust.VersionedDocs, Trust: trust.Structural, Confidence: 0.8,
		Metadata: evidence.Metadata{Excerpt: r.Content, Attributes: map[string]string{
			"library": r.Library, "version": r.Version, "state": string(r.State), "library_id": r.LibraryID,
			"version_exact": fmt.Sprint(r.Exact), "fetched_at": r.FetchedAt.Format("2006-01-02T15:04:05Z07:00"),
		}},
	}
	if r.Label != "" {
		rec.Metadata.Attributes["label"] = r.Label
	}
	if !r.Exact {
		rec.Provenance, rec.Trust, rec.Confidence = trust.FallbackDocs, trust.Inferred, 0.5
		rec.Metadata.Attributes["reason"] = r.Reason
	}
	if r.Stale {
		rec = evidence.MarkStale(rec)
	}
	return rec, true
}

// ManifestProvider is an [evidence.Provider] of the project's dependency
// facts, each located at the manifest or lockfile line that declares or
// resolves it (see [ManifestRecord]). A query's Symbol names a dependency
// ("next", or "npm:next", or an alias); without one, every dependency whose
// name appears as a word of the question is returned. The zero value reads
// the working directory.
type ManifestProvider struct {
	// Dir is the project root; "" means the working directory.
	Dir  string
	Scan ScanOptions
}

// Name implements [evidence.Provider].
func (p *ManifestProvider) Name() string { return ManifestProviderName }

// Gather implements [evidence.Provider].
func (p *ManifestProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if !q.Wants(evidence.Import) {
		return evidence.Response{}, nil
	}
	root, err := openDir(p.Dir)
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "cannot open the project directory", Err: err}
	}
	defer root.Close()
	pr, err := scan(root, p.Scan)
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "cannot scan manifests", Err: err}
	}
	var resp evidence.Response
	lines := &fileLines{root: root, files: map[string][]string{}}
	for _, d := range Select(pr.Deps, q) {
		resp.Records = append(resp.Records, ManifestRecord(d, lines.line(d)))
	}
	var reasons []string
	if len(pr.Errors) > 0 {
		reasons = append(reasons, fmt.Sprintf("%d manifest or lockfile(s) unreadable, first: %s: %s", len(pr.Errors), pr.Errors[0].Path, pr.Errors[0].Err))
	}
	resp.Report.Reason = strings.Join(append(reasons, pr.Notes...), "; ")
	return resp, nil
}

// Select returns the dependencies a query is about: by Symbol ("name" or
// "ecosystem:name"), or else those named as a word of the query text.
func Select(deps []Dependency, q evidence.Query) []Dependency {
	want := strings.TrimSpace(q.Symbol)
	var eco string
	if e, n, ok := strings.Cut(want, ":"); ok && Ecosystem(e).Valid() {
		eco, want = e, n
	}
	words := map[string]bool{}
	if want == "" {
		for _, w := range strings.FieldsFunc(q.Text, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune(`,;()?!"'`+"`", r)
		}) {
			words[strings.ToLower(strings.TrimRight(w, "."))] = true
		}
	}
	var out []Dependency
	for _, d := range deps {
		if eco != "" && string(d.Ecosystem) != eco {
			continue
		}
		if want != "" && (normName(d.Ecosystem, d.Name) == normName(d.Ecosystem, want) ||
			d.Alias != "" && normName(d.Ecosystem, d.Alias) == normName(d.Ecosystem, want)) ||
			want == "" && (words[strings.ToLower(d.Name)] || d.Alias != "" && words[strings.ToLower(d.Alias)]) {
			out = append(out, d)
		}
	}
	return out
}

// DocsEvidence is an [evidence.Provider] of dependency documentation: it
// resolves the installed version of the dependency a query names first,
// then asks the documentation provider for that version. When documentation
// is unavailable the report says why; nothing is fabricated. The zero value
// reads the working directory and answers disabled.
type DocsEvidence struct {
	// Dir is the project root; "" means the working directory.
	Dir string
	// Docs answers the requests; nil answers disabled. See [NewDocs].
	Docs DocsProvider
	Scan ScanOptions
}

// Name implements [evidence.Provider].
func (p *DocsEvidence) Name() string { return DocsProviderName }

// Gather implements [evidence.Provider].
func (p *DocsEvidence) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if !q.Wants(evidence.Documentation) {
		return evidence.Response{}, nil
	}
	pr, err := Scan(p.Dir, p.Scan)
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "cannot scan manifests", Err: err}
	}
	deps := Select(pr.Deps, q)
	if len(deps) == 0 {
		return evidence.Response{Report: evidence.Report{State: evidence.Unavailable,
			Reason: "the query names no dependency of this project"}}, nil
	}
	req := RequestFor(deps, q.Text)
	docs := p.Docs
	if docs == nil {
		docs = Disabled{Reason: "no documentation provider configured"}
	}
	r, _ := docs.Docs(ctx, req)
	var resp evidence.Response
	if rec, ok := DocsRecord(req.Ecosystem, r); ok {
		resp.Records = append(resp.Records, rec)
		if r.Stale {
			reason := "cached documentation past its time to live, served because the provider could not be reached"
			if r.Reason != "" {
				reason += ": " + r.Reason
			}
			resp.Report = evidence.Report{State: evidence.StaleState, Reason: reason,
				Guidance: "run the query again when the documentation provider is reachable to refresh the cache"}
		} else if !r.Exact {
			resp.Report.Reason = r.Reason
		}
		return resp, nil
	}
	switch r.State {
	case DocsDisabled:
		resp.Report = evidence.Report{State: evidence.Disabled, Reason: r.Reason}
	default:
		resp.Report = evidence.Report{State: evidence.Unavailable, Reason: string(r.State) + ": " + r.Reason}
	}
	return resp, nil
}

// RequestFor builds the documentation request for the dependency a
// question is about: the installed (resolved) version, preferring a
// direct dependency's, and the dependency's source so local code is never
// sent.
func RequestFor(deps []Dependency, question string) DocsRequest {
	best := deps[0]
	for _, d := range deps[1:] {
		if best.Resolved == "" && d.Resolved != "" || d.Relation == Direct && best.Relation != Direct && d.Resolved != "" {
			best = d
		}
	}
	return DocsRequest{Ecosystem: best.Ecosystem, Name: best.Name, Version: best.Resolved, Question: question, Source: best.Source}
}
