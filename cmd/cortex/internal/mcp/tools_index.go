package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/index"
)

// searchParams are cortex_search's arguments.
type searchParams struct {
	Query   string `json:"query" minLength:"1" maxLength:"1000" jsonschema:"words or identifiers, such as 'validate session token'"`
	Content string `json:"content,omitempty" enum:"code|prose" jsonschema:"only code, or only prose; absent: both"`
	Limit   int    `json:"limit,omitempty" minimum:"1" maximum:"200" default:"20" jsonschema:"most hits to return"`
	Budget  int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// searchResult is cortex_search's result.
type searchResult struct {
	Query     string         `json:"query" jsonschema:"the query as given"`
	Terms     []string       `json:"terms" jsonschema:"the words and phrases searched for, after stopwords were dropped"`
	Hits      []hit          `json:"hits" jsonschema:"the matching chunks, best first: chunks defining a queried name, then chunks of a symbol whose name holds a query word, then text"`
	Freshness indexFreshness `json:"freshness" jsonschema:"whether the answer reflects every file on disk"`
	Omitted   omission       `json:"omitted" jsonschema:"what the limit and the budget left out"`
}

// A hit is one chunk of a file that matched.
type hit struct {
	Path       string  `json:"path" jsonschema:"the file, relative to the project root"`
	StartLine  int     `json:"start_line" jsonschema:"the chunk's first line, one-based"`
	EndLine    int     `json:"end_line" jsonschema:"the chunk's last line, inclusive"`
	Content    string  `json:"content" jsonschema:"code or prose"`
	Symbol     string  `json:"symbol,omitempty" jsonschema:"the symbol the chunk belongs to, as pkg.Type.Name"`
	SymbolKind string  `json:"symbol_kind,omitempty" jsonschema:"the symbol's kind"`
	Match      string  `json:"match" jsonschema:"definition, symbol or text: how it matched, strongest first"`
	Score      float64 `json:"score" jsonschema:"orders hits within a match class, in (0, 1]; not a probability"`
	Stale      bool    `json:"stale" jsonschema:"the file changed since it was indexed: lines may have moved"`
	Excerpt    string  `json:"excerpt" jsonschema:"the chunk's text as it is on disk now, bounded"`
}

// indexFreshness says how up to date a local index answer is.
type indexFreshness struct {
	State        string   `json:"state" jsonschema:"fresh: every file on disk is indexed as it is; partial: some changed files are not indexed yet"`
	Files        int      `json:"files" jsonschema:"files the index holds"`
	PendingCount int      `json:"pending_count" jsonschema:"changed files not indexed yet"`
	Pending      []string `json:"pending" jsonschema:"the first of them"`
	Guidance     string   `json:"guidance,omitempty" jsonschema:"what to do when the answer is partial"`
}

func freshnessView(fr index.Freshness) indexFreshness {
	v := indexFreshness{State: string(fr.State), Files: fr.Files, PendingCount: fr.PendingCount, Pending: clipList(fr.Pending, maxListed)}
	if v.State == "" {
		v.State = string(index.Fresh)
	}
	if fr.PendingCount > 0 {
		v.Guidance = "run `cortex index` in the project to index every changed file now; each query also indexes some within its time budget"
		if fr.Files == 0 {
			v.Guidance = "the local index is still being built; run `cortex index` in the project to build it in full"
		}
	}
	return v
}

// maxHitLines bounds a hit's excerpt.
const maxHitLines = 12

func answerSearch(ctx context.Context, s *Server, in searchParams) (searchResult, error) {
	res, err := s.engine.Search(ctx, codecortex.SearchQuery{Text: in.Query, Limit: in.Limit, Content: in.Content})
	if errors.Is(err, index.ErrEmptyQuery) {
		return searchResult{}, &toolError{Reason: fmt.Sprintf("%q has no word to search for (stopwords are dropped)", clip(in.Query, 80)),
			Guidance: "give at least one meaningful word or identifier", Err: err}
	}
	if err != nil {
		return searchResult{}, indexError(err)
	}
	out := searchResult{Query: in.Query, Terms: append([]string{}, res.Terms...), Hits: []hit{}, Freshness: freshnessView(res.Freshness)}
	hits := make([]hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, hit{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine, Content: h.Content,
			Symbol: clip(h.Symbol, 400), SymbolKind: h.SymbolKind, Match: h.Match, Score: h.Score, Stale: h.Stale,
			Excerpt: clip(firstLines(h.Excerpt, maxHitLines), 2000)})
	}
	f := newFitter(in.Budget, out)
	out.Hits = take(f, hits)
	out.Omitted = f.done("the weakest hits were left out; raise budget, or search with more specific words")
	return out, nil
}

// firstLines keeps the first n lines of s, marking a cut.
func firstLines(s string, n int) string {
	lines := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			lines++
			if lines == n && i+1 < len(s) {
				return s[:i+1] + "…"
			}
		}
	}
	return s
}

// indexError explains a failure of the local index.
func indexError(err error) error {
	return &toolError{Reason: "the local index could not answer: " + err.Error(),
		Guidance: "run `cortex index` in the project to (re)build it; if it keeps failing, delete .codecortex/index and run it again", Err: err}
}

// symbolsParams are cortex_symbols's arguments.
type symbolsParams struct {
	Path   string `json:"path,omitempty" maxLength:"1024" jsonschema:"file, dir or dependency; absent: whole project"`
	Limit  int    `json:"limit,omitempty" minimum:"1" maximum:"5000" default:"500" jsonschema:"most definitions to return"`
	Budget int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// symbolsResult is cortex_symbols's result.
type symbolsResult struct {
	Path        string         `json:"path" jsonschema:"the file or directory outlined"`
	Definitions []definition   `json:"definitions" jsonschema:"its definitions by file and line"`
	Freshness   indexFreshness `json:"freshness" jsonschema:"whether the outline reflects every file on disk"`
	Omitted     omission       `json:"omitted" jsonschema:"what the limit and the budget left out"`
}

// A definition is one definition of the outline.
type definition struct {
	Path      string `json:"path" jsonschema:"the file"`
	Line      int    `json:"line" jsonschema:"the name's line, one-based"`
	Column    int    `json:"column" jsonschema:"the name's column, one-based code points"`
	EndLine   int    `json:"end_line" jsonschema:"the definition's last line"`
	Name      string `json:"name" jsonschema:"the name"`
	Kind      string `json:"kind" jsonschema:"function, method, type, struct, class, interface, enum, constant, variable, field, module or macro"`
	Container string `json:"container,omitempty" jsonschema:"the type or definition it belongs to"`
	Package   string `json:"package,omitempty" jsonschema:"the package, module or namespace"`
	Signature string `json:"signature,omitempty" jsonschema:"the definition's head, on one line"`
	Exported  bool   `json:"exported" jsonschema:"visible outside its file or package"`
	Stale     bool   `json:"stale" jsonschema:"the file changed since it was indexed"`
}

func answerSymbols(ctx context.Context, s *Server, in symbolsParams) (symbolsResult, error) {
	target := ""
	if in.Path != "" {
		rel, err := s.rel(in.Path)
		if err != nil || !s.has(rel) {
			if out, ok, err := dependencySymbols(ctx, s, in); ok {
				return out, err
			}
		}
		if err != nil {
			return symbolsResult{}, err
		}
		target = rel
	}
	res, err := s.engine.Symbols(ctx, codecortex.SymbolsQuery{Path: target})
	var te *codecortex.TargetError
	if errors.As(err, &te) {
		return symbolsResult{}, &toolError{Reason: fmt.Sprintf("%s: %s", te.Target.Path, te.Reason),
			Guidance: "give a path relative to the project root; cortex_search finds files by their words", Err: err}
	}
	if err != nil {
		return symbolsResult{}, indexError(err)
	}
	out := symbolsResult{Path: res.Path, Definitions: []definition{}, Freshness: freshnessView(res.Freshness)}
	defs := make([]definition, 0, min(len(res.Definitions), in.Limit))
	over := 0
	for i, d := range res.Definitions {
		if i == in.Limit {
			over = len(res.Definitions) - i
			break
		}
		defs = append(defs, definition{Path: d.Path, Line: d.NameRange.StartLine, Column: d.NameRange.StartColumn,
			EndLine: d.Range.EndLine, Name: clip(d.Name, 200), Kind: string(d.Kind), Container: clip(d.Container, 200),
			Package: clip(d.Package, 200), Signature: clip(d.Signature, 300), Exported: d.Exported, Stale: d.Stale})
	}
	f := newFitter(in.Budget, out)
	out.Definitions = take(f, defs)
	f.omitted += over
	out.Omitted = f.done("the definitions after the last one shown were left out; outline a narrower path, or raise limit and budget")
	return out, nil
}

// mapParams are cortex_map's arguments.
type mapParams struct {
	Path   string   `json:"path,omitempty" maxLength:"1024" jsonschema:"a file or directory to rank toward"`
	Focus  []string `json:"focus,omitempty" maxItems:"20" maxLength:"1024" jsonschema:"more paths to rank toward"`
	Budget int      `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"1000" jsonschema:"token budget"`
}

// mapResult is cortex_map's result: the engine's repository map.
type mapResult struct {
	Files   []mapFile `json:"files" jsonschema:"files, the most central first"`
	Ranked  int       `json:"ranked" jsonschema:"definitions ranked"`
	Basis   string    `json:"basis" jsonschema:"what the rank was computed from"`
	Omitted omission  `json:"omitted" jsonschema:"what the budget left out"`
}

// A mapFile is one file of the map.
type mapFile struct {
	Path    string     `json:"path" jsonschema:"the file"`
	Entries []mapEntry `json:"entries" jsonschema:"its definitions by line"`
}

// A mapEntry is one definition of the map.
type mapEntry struct {
	Name      string `json:"name" jsonschema:"with its container"`
	Kind      string `json:"kind" jsonschema:"the definition's kind"`
	Line      int    `json:"line" jsonschema:"one-based"`
	Signature string `json:"signature,omitempty" jsonschema:"its line of code"`
	Trust     string `json:"trust" jsonschema:"the tier of the uses ranking it"`
	UsedBy    int    `json:"used_by" jsonschema:"its uses"`
	Files     int    `json:"files" jsonschema:"other files using it"`
	MostUsed  bool   `json:"most_used,omitempty" jsonschema:"among the most used"`
}

// mapSlack is room kept for what cortex_map's result holds beside the
// engine's map: its omission's counts and note.
const mapSlack = 80

func answerMap(ctx context.Context, s *Server, in mapParams) (mapResult, error) {
	req := codecortex.MapRequest{Format: codecortex.MapJSON, Budget: in.Budget - mapSlack}
	for i, p := range append([]string{in.Path}, in.Focus...) {
		if p == "" {
			continue
		}
		rel, err := s.rel(p)
		if err != nil {
			return mapResult{}, err
		}
		if i == 0 {
			req.Path = rel
		} else {
			req.Focus = append(req.Focus, rel)
		}
	}
	m, err := s.engine.Map(ctx, req)
	if err != nil {
		return mapResult{}, &toolError{Reason: "the repository map could not be made: " + err.Error(),
			Guidance: "run `cortex index` in the project to build the index and graph it is ranked from", Err: err}
	}
	out := mapResult{Files: []mapFile{}, Ranked: m.Ranked, Basis: m.Basis,
		Omitted: omission{BudgetTokens: in.Budget, Omitted: m.Omitted}}
	for _, f := range m.Files {
		mf := mapFile{Path: f.Path, Entries: []mapEntry{}}
		for _, en := range f.Entries {
			mf.Entries = append(mf.Entries, mapEntry{Name: clip(en.Name, 200), Kind: en.Kind, Line: en.Line,
				Signature: clip(en.Signature, 300), Trust: en.Trust.String(), UsedBy: en.UsedBy, Files: en.Files, MostUsed: en.MostUsed})
		}
		out.Files = append(out.Files, mf)
	}
	if m.Omitted > 0 {
		out.Omitted.Note = "the less central definitions were left out; raise budget, or lean toward a path"
	}
	return out, nil
}

// dependencySymbols outlines the dependency in.Path names, as the code
// imports it, from its copy at the locked version; ok is false when it
// names none. The result's path says which copy, and that it is outside
// the project; a copy that cannot be served is an error with the reason.
func dependencySymbols(ctx context.Context, s *Server, in symbolsParams) (symbolsResult, bool, error) {
	out, err := s.engine.DependencyOutline(ctx, codecortex.DependencyOutlineQuery{Dependency: in.Path})
	if err != nil {
		return symbolsResult{}, true, &toolError{Reason: "the project's dependencies could not be read: " + err.Error(), Err: err}
	}
	if !out.Names() {
		return symbolsResult{}, false, nil
	}
	var notes []string
	for _, c := range out.Copies {
		where := "in " + c.Root
		if c.Root == depsource.RootProject {
			where = "installed in the project"
		}
		note := fmt.Sprintf("%s: dependency %s %s (%s", c.Dir, c.Name, c.Version, where)
		if c.Checked != "" {
			note += ", checked against " + c.Checked
		}
		notes = append(notes, note+"; outside the project)")
	}
	var guidance []string
	for _, p := range out.Problems {
		notes = append(notes, "cannot read "+p.String())
		if p.Guidance != "" {
			guidance = append(guidance, p.Guidance)
		}
	}
	if len(out.Records) == 0 && len(out.Problems) > 0 {
		return symbolsResult{}, true, &toolError{Reason: clip(strings.Join(notes, "; "), 1000), Guidance: strings.Join(guidance, "; ")}
	}
	res := symbolsResult{Path: clip(strings.Join(notes, "; "), 1000), Freshness: freshnessView(index.Freshness{})}
	defs := make([]definition, 0, min(len(out.Records), in.Limit))
	over := 0
	for i := range out.Records {
		if i == in.Limit {
			over = len(out.Records) - i
			break
		}
		r := &out.Records[i]
		a := r.Metadata.Attributes
		name := r.Symbol[strings.LastIndexByte(r.Symbol, '.')+1:]
		end, _ := strconv.Atoi(a["end_line"])
		defs = append(defs, definition{Path: r.Path, Line: r.StartLine, Column: r.StartColumn, EndLine: max(end, r.EndLine),
			Name: clip(name, 200), Kind: a["kind"], Container: clip(a["container"], 200), Package: clip(a["package"], 200),
			Signature: clip(a["signature"], 300), Exported: a["exported"] == "true"})
	}
	f := newFitter(in.Budget, res)
	res.Definitions = take(f, defs)
	f.omitted += over
	res.Omitted = f.done("the definitions after the last one shown were left out; raise limit and budget")
	if out.Partial != "" {
		res.Omitted.Note = strings.TrimPrefix(res.Omitted.Note+"; "+clip(out.Partial, 300), "; ")
	}
	return res, true, nil
}
