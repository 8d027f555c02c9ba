package index

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/mod/modfile"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName is the provider name the local index's records carry.
const ProviderName = "local-index"

// Confidences of definition records, by how the name matched.
const (
	confExact = 0.9
	confFold  = 0.6
	confName  = 0.5
)

// A Provider answers from the local index as an [evidence.Provider]:
//
//   - a query with a Symbol gets the definitions of that name
//     ([Index.Lookup]) as definition records, provenance symbol-index, tier
//     structural, each with its package (and, for Go, its module and
//     import path) in the metadata. When no definition matches, it gets
//     the text search for the name instead, as below, and the report says
//     so.
//   - a query with only Text gets ranked chunks ([Index.Search]) as weak
//     lexical evidence: definition records for chunks that define a name
//     the query spells, reference records for the rest, with confidences
//     that keep symbol-name hits above mere text.
//
// The report says the index's freshness: available when fresh; stale when
// partial, with the pending count and the first pending files, whose
// records are marked stale. It is safe for concurrent use.
type Provider struct {
	opts Options

	mu     sync.Mutex
	ix     *Index
	own    bool // the provider opened ix and closes it
	closed bool
}

// NewProvider returns a provider over the index opts describes, opened on
// first use.
func NewProvider(opts Options) *Provider { return &Provider{opts: opts, own: true} }

// Provider returns a provider over ix; closing it leaves ix open.
func (ix *Index) Provider() *Provider { return &Provider{opts: ix.opts, ix: ix} }

// Name returns "local-index".
func (p *Provider) Name() string { return ProviderName }

// Close closes the index if the provider opened it; Gather then fails
// with ErrClosed.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.own && p.ix != nil {
		err := p.ix.Close()
		p.ix = nil
		return err
	}
	return nil
}

func (p *Provider) index() (*Index, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed && p.own {
		return nil, ErrClosed
	}
	if p.ix == nil {
		ix, err := Open(p.opts)
		if err != nil {
			return nil, err
		}
		p.ix = ix
	}
	return p.ix, nil
}

// Gather answers q; see [Provider].
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if q.Outgoing {
		return evidence.NotOutgoing(ProviderName), nil
	}
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	ix, err := p.index()
	if err != nil {
		return evidence.Response{}, unavailable(err)
	}
	var deadline time.Time // one refresh budget for the whole question
	if b := ix.opts.budget(); b >= 0 {
		deadline = time.Now().Add(b)
	}
	g := gatherer{ix: ix, modules: map[string]string{}, files: fileReads{}}
	var resp evidence.Response
	var notes []string
	var fr Freshness
	switch {
	case q.Symbol != "":
		var res LookupResult
		if _, ok := parseName(q.Symbol); ok {
			res, err = ix.Lookup(ctx, q.Symbol)
			if err != nil {
				return evidence.Response{}, unavailable(err)
			}
			fr = res.Freshness
			if q.Wants(evidence.Definition) {
				for i := range res.Definitions {
					if rec, ok := g.definition(&res.Definitions[i]); ok {
						resp.Records = append(resp.Records, rec)
					}
				}
			}
		}
		if len(resp.Records) > 0 {
			break
		}
		switch {
		case !q.Wants(evidence.Reference):
			// Asked for definitions alone: the text's lines are uses.
			notes = append(notes, fmt.Sprintf("no definition of %q in the symbol index", q.Symbol))
		case len(res.Definitions) > 0:
			// Asked for other kinds than definitions (references): the
			// index knows names, not uses, so its answer is text.
			notes = append(notes, fmt.Sprintf("the symbol index holds definitions only; uses of %q are text matches", q.Symbol))
		default:
			notes = append(notes, fmt.Sprintf("no definition of %q in the symbol index; text matches instead", q.Symbol))
		}
		if !q.Wants(evidence.Reference) {
			break
		}
		sres, err := ix.Search(ctx, q.Symbol, SearchOptions{Deadline: deadline, Limit: maxNameChunks, files: g.files})
		if err != nil {
			if errors.Is(err, ErrEmptyQuery) {
				break
			}
			return evidence.Response{}, unavailable(err)
		}
		fr = sres.Freshness
		resp.Records = append(resp.Records, g.mentions(sres.Hits, q, definedLines(ctx, ix, q.Symbol, res.Definitions))...)
	case strings.TrimSpace(q.Text) != "":
		sres, err := ix.Search(ctx, q.Text, SearchOptions{files: g.files})
		if errors.Is(err, ErrEmptyQuery) {
			return evidence.Response{Report: evidence.Report{Reason: "the question spells no word to search for"}}, nil
		}
		if err != nil {
			return evidence.Response{}, unavailable(err)
		}
		fr = sres.Freshness
		resp.Records = g.hits(sres.Hits, q)
	default:
		return evidence.Response{Report: evidence.Report{Reason: "nothing to look up: the query has no symbol and no text"}}, nil
	}
	resp.Report = freshnessReport(fr, notes)
	return resp, nil
}

// definedLines returns the lines ("path:line") that define the name sym
// spells, in any container: they are not uses of it. defs are the
// definitions sym itself names.
func definedLines(ctx context.Context, ix *Index, sym string, defs []Definition) map[string]bool {
	if nq, ok := parseName(sym); ok && len(nq.quals) > 0 {
		if all, err := ix.Lookup(ctx, nq.name); err == nil {
			defs = all.Definitions
		}
	}
	defined := map[string]bool{}
	for _, d := range defs {
		defined[d.Path+":"+strconv.Itoa(d.NameRange.StartLine)] = true
	}
	return defined
}

func unavailable(err error) error {
	return &evidence.UnavailableError{Reason: "local index unavailable",
		Guidance: "run `cortex index` to see the index's state", Err: err}
}

// freshnessReport turns a freshness into a provider report.
func freshnessReport(fr Freshness, notes []string) evidence.Report {
	rep := evidence.Report{State: evidence.Available}
	var b strings.Builder
	if fr.State == Partial {
		rep.State = evidence.StaleState
		fmt.Fprintf(&b, "freshness: partial: %d changed files are not indexed yet", fr.PendingCount)
		if len(fr.Pending) > 0 {
			shown := fr.Pending[:min(len(fr.Pending), 5)]
			fmt.Fprintf(&b, " (%s", strings.Join(shown, ", "))
			if fr.PendingCount > len(shown) {
				b.WriteString(", ...")
			}
			b.WriteString(")")
		}
		b.WriteString("; records from them are marked stale")
		if fr.Focus != nil {
			b.WriteString("; " + fr.Focus.describe(fr.PendingCount))
		}
		rep.Guidance = "run `cortex index` to index every changed file"
	} else {
		fmt.Fprintf(&b, "freshness: fresh (%s)", fr.Identity)
	}
	for _, s := range append(append([]string(nil), fr.Diagnostics...), notes...) {
		b.WriteString("; ")
		b.WriteString(s)
	}
	rep.Reason = b.String()
	return rep
}

// A gatherer turns one query's results into records.
type gatherer struct {
	ix      *Index
	modules map[string]string // directory → module path of the go.mod governing it ("" for none)
	lines   map[string][]string
	files   fileReads // the files read for this question, shared with its search
}

// fileLines returns the lines of a file as it is on disk now, or nil.
func (g *gatherer) fileLines(p string) []string {
	if g.lines == nil {
		g.lines = map[string][]string{}
	}
	if ls, ok := g.lines[p]; ok {
		return ls
	}
	var ls []string
	if src, ok := g.files.read(g.ix, p); ok {
		ls = strings.Split(string(src), "\n")
	}
	g.lines[p] = ls
	return ls
}

// definition turns a definition into a record; ok is false when its
// location no longer fits the file on disk.
func (g *gatherer) definition(d *Definition) (evidence.Record, bool) {
	n := d.NameRange
	ls := g.fileLines(d.Path)
	if !fits(ls, n.StartLine, n.StartColumn) || !fits(ls, n.EndLine, n.EndColumn) {
		return evidence.Record{}, false
	}
	conf := confExact
	switch d.Match {
	case "case-insensitive":
		conf = confFold
	case "name":
		conf = confName
	}
	if d.Kind == symbols.Field {
		// A name asked about is more often a function or a type than a
		// field that shares it.
		conf -= 0.1
	}
	attrs := map[string]string{"kind": string(d.Kind), "language": d.Language, "match": d.Match}
	for k, v := range map[string]string{"package": d.Package, "container": d.Container, "signature": d.Signature} {
		if v != "" {
			attrs[k] = v
		}
	}
	if d.Exported {
		attrs["exported"] = "true"
	}
	if d.Language == "go" {
		if mod, imp := g.goImportPath(path.Dir(d.Path)); mod != "" {
			attrs["module"], attrs["import_path"] = mod, imp
		}
	}
	rec := evidence.Record{
		Kind: evidence.Definition, Provider: ProviderName, Provenance: trust.SymbolIndex, Trust: trust.Structural,
		Path: d.Path, StartLine: n.StartLine, StartColumn: n.StartColumn, EndLine: n.EndLine, EndColumn: n.EndColumn,
		Symbol: d.QualifiedName(), Confidence: conf,
		Metadata: evidence.Metadata{Excerpt: strings.TrimSpace(strings.TrimSuffix(ls[n.StartLine-1], "\r")), Attributes: attrs},
	}
	if d.Stale {
		rec = evidence.MarkStale(rec)
	}
	return rec, true
}

// fits reports whether a one-based line and code-point column (a half-open
// end may be one past the line's last character) lie in the file.
func fits(ls []string, line, col int) bool {
	if line < 1 || line > len(ls) || col < 1 {
		return false
	}
	return col <= utf8.RuneCountInString(ls[line-1])+1
}

// hits turns search hits into weak lexical records.
func (g *gatherer) hits(hits []Hit, q evidence.Query) []evidence.Record {
	var out []evidence.Record
	for _, h := range hits {
		kind := evidence.Reference
		class := 0.0
		switch h.Match {
		case MatchDefinition:
			kind, class = evidence.Definition, 2
		case MatchSymbol:
			class = 1
		}
		if !q.Wants(kind) {
			continue
		}
		ls := g.fileLines(h.Path)
		if h.EndLine > len(ls) || h.StartLine < 1 {
			continue
		}
		attrs := map[string]string{"match": h.Match, "content": h.Content, "lines": fmt.Sprintf("%d-%d", h.StartLine, h.EndLine)}
		if h.SymbolKind != "" {
			attrs["symbol_kind"] = h.SymbolKind
		}
		rec := evidence.Record{
			Kind: kind, Provider: ProviderName, Provenance: trust.Lexical, Trust: trust.Weak,
			Path: h.Path, StartLine: h.StartLine, StartColumn: 1,
			EndLine: h.EndLine, EndColumn: utf8.RuneCountInString(ls[h.EndLine-1]) + 1,
			Symbol: h.Symbol, Confidence: (class + h.Score) / 3,
			Metadata: evidence.Metadata{Excerpt: h.Excerpt, Attributes: attrs},
		}
		if h.Stale {
			rec = evidence.MarkStale(rec)
		}
		out = append(out, rec)
	}
	return out
}

// maxNameChunks bounds the chunks a name's text search reads, and
// maxMentions the records made of the lines in them that write the name.
const (
	maxNameChunks = 100
	maxMentions   = 200
)

// mentions turns the chunks a name's text search found into one record for
// every line in them that writes the name as a whole word, at that line:
// a chunk that matched only parts of it (the words of a camelCase name)
// writes no use of it and gives none. Lines in skip ("path:line") are left
// out.
func (g *gatherer) mentions(hits []Hit, q evidence.Query, skip map[string]bool) []evidence.Record {
	name := q.Symbol
	if nq, ok := parseName(name); ok {
		name = nq.name
	}
	var out []evidence.Record
	seen := maps.Clone(skip)
	if seen == nil {
		seen = map[string]bool{}
	}
	// A line that writes the name, other than the one defining it (in
	// skip), uses it, even inside the chunk of its own definition.
	kind := evidence.Reference
	if !q.Wants(kind) {
		return nil
	}
	for _, h := range hits {
		ls := g.fileLines(h.Path)
		for n := max(h.StartLine, 1); n <= min(h.EndLine, len(ls)) && len(out) < maxMentions; n++ {
			col := usedAt(ls[n-1], name)
			if col < 0 || seen[h.Path+":"+strconv.Itoa(n)] || commentLine(ls[n-1]) {
				continue
			}
			seen[h.Path+":"+strconv.Itoa(n)] = true
			start := utf8.RuneCountInString(ls[n-1][:col]) + 1
			rec := evidence.Record{
				Kind: kind, Provider: ProviderName, Provenance: trust.Lexical, Trust: trust.Weak,
				Path: h.Path, StartLine: n, StartColumn: start, EndLine: n, EndColumn: start + utf8.RuneCountInString(name),
				Symbol: h.Symbol, Confidence: 0.3,
				Metadata: evidence.Metadata{Excerpt: strings.TrimSpace(strings.TrimSuffix(ls[n-1], "\r")),
					Attributes: map[string]string{"match": "word", "content": h.Content}},
			}
			if h.Stale {
				rec = evidence.MarkStale(rec)
			}
			out = append(out, rec)
		}
	}
	return out
}

// commentLine reports whether a line is a comment, in the syntaxes most
// languages share (//, /*, * inside a block, #, --, a Python docstring's
// quotes): a name written there is mentioned, not used.
func commentLine(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"//", "/*", "* ", "--", `"""`, "'''"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == "*" || strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#!") &&
		!strings.HasPrefix(t, "#define") && !strings.HasPrefix(t, "#if")
}

// usedAt returns the byte offset of the first whole-word occurrence of
// name in line that is not inside a comment following code (// or /* or a
// # after a space, outside quotes): a name written there is mentioned, not
// used. A name inside quotes counts. A quote the line does not close (a
// Rust lifetime) does not open a string. One pass over the line.
func usedAt(line, name string) int {
	if name == "" {
		return -1
	}
	closes := [3]int{strings.LastIndexByte(line, '"'), strings.LastIndexByte(line, '\''), strings.LastIndexByte(line, '`')}
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == name[0] && wordIs(line, name, i) {
			return i
		}
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			if closes[strings.IndexByte("\"'`", c)] > i {
				quote = c
			}
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return -1
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			end := strings.Index(line[i+2:], "*/")
			if end < 0 {
				return -1
			}
			i += 2 + end + 1
		case c == '#' && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t'):
			return -1
		}
	}
	return -1
}

// wordIs reports whether name is written at byte offset k of line as a
// whole word.
func wordIs(line, name string, k int) bool {
	if !strings.HasPrefix(line[k:], name) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(line[:k])
	after, _ := utf8.DecodeRuneInString(line[k+len(name):])
	return !isWordRune(before) && !isWordRune(after)
}

// maxGoMod bounds how much of a go.mod is read.
const maxGoMod = 1 << 20

// goImportPath returns the module governing dir (the nearest go.mod at or
// above it inside the root) and dir's import path in it.
func (g *gatherer) goImportPath(dir string) (module, importPath string) {
	var below []string
	for d := dir; ; d = path.Dir(d) {
		mod, ok := g.modules[d]
		if !ok {
			mod = ""
			p := path.Join(d, "go.mod")
			if fi, err := g.ix.root.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxGoMod {
				if data, err := g.ix.root.ReadFile(p); err == nil {
					mod = modfile.ModulePath(data)
					if mod == "" {
						mod = "-" // a go.mod without a module line still governs
					}
				}
			}
			g.modules[d] = mod
		}
		if mod != "" {
			if mod == "-" {
				return "", ""
			}
			imp := mod
			for i := len(below) - 1; i >= 0; i-- {
				imp += "/" + below[i]
			}
			return mod, imp
		}
		if d == "." || d == "/" || d == "" {
			return "", ""
		}
		below = append(below, path.Base(d))
	}
}
