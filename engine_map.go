package codecortex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/internal/mermaid"
	sym "github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// A MapRequest asks for a repository map: the project's definitions that
// matter most, ranked by how much the rest of the code uses them.
type MapRequest struct {
	// Path leans the map toward a file or directory (root-relative): its
	// definitions, and what they use, rank higher. Empty: the whole
	// project alike.
	Path string
	// Focus are more files or directories to lean toward, as Path (the
	// files an agent is working on).
	Focus []string
	// Budget bounds the whole printed map, in tokens (estimated as
	// evidence.EstimateTokens); 0 means DefaultMapBudget.
	Budget int
	// Format is the form the budget is held in: MapText (the default),
	// MapJSON or MapMermaid. RepoMap.Render prints it.
	Format string
}

// The forms a map is printed in.
const (
	MapText    = "text"
	MapJSON    = "json"
	MapMermaid = "mermaid"
)

// DefaultMapBudget is a map's token budget when the request gives none.
const DefaultMapBudget = 1000

// A RepoMap is a ranked outline of a project: the files holding its most
// used definitions, each file's in line order, with the signature of each.
type RepoMap struct {
	// Files are in rank order: the file of the highest ranked definition
	// first.
	Files []MapFile `json:"files"`
	// Ranked counts the definitions ranked; Omitted those the budget left
	// out.
	Ranked  int `json:"ranked"`
	Omitted int `json:"omitted"`
	// Budget and Used are the budget and the printed map's estimate, in
	// tokens, in Format.
	Budget int    `json:"budget"`
	Used   int    `json:"used"`
	Format string `json:"format"`
	// Basis says what the rank was computed from: the graph's uses and
	// their tiers.
	Basis string `json:"basis"`
	// Focus lists the paths the rank leaned toward.
	Focus []string `json:"focus,omitempty"`
	// Links are the uses between the map's files, the most first: what
	// the mermaid form draws.
	Links   []MapLink     `json:"-"`
	Elapsed time.Duration `json:"-"`
}

// A MapFile is one file of a map.
type MapFile struct {
	Path    string     `json:"path"`
	Entries []MapEntry `json:"entries"`
}

// A MapEntry is one definition of a map. Its record is the evidence: a
// definition whose tier is that of the uses that rank it (a map made
// from a precision index's edges is exact; one from names, inferred), or
// structural for a definition nothing uses.
type MapEntry struct {
	Name      string     `json:"name"`
	Kind      string     `json:"kind"`
	Line      int        `json:"line"`
	Signature string     `json:"signature,omitempty"`
	Trust     trust.Tier `json:"trust"`
	// UsedBy counts its uses, Files the other files they are in.
	UsedBy int `json:"used_by"`
	Files  int `json:"files"`
	// MostUsed marks the definitions the most files use.
	MostUsed bool `json:"most_used,omitempty"`
	// Record is the entry as an evidence record (provider graph, its
	// rank, uses and signature as attributes and excerpt).
	Record evidence.Record `json:"-"`
}

// A MapLink counts the uses from one file of a map to another.
type MapLink struct {
	From, To string
	Uses     int
}

// Bounds on a map: the definitions considered for it, the signature it
// quotes, and the links the mermaid form draws.
const (
	maxMapCandidates = 2000
	maxSignature     = 160
	maxMapLinks      = 40
)

// Errors of a map request, matched with errors.Is.
var (
	// ErrMapFormat: a format a map has no printer for.
	ErrMapFormat = errors.New("codecortex: unknown map format")
	// ErrMapBudget: a budget too small for even a map of nothing.
	ErrMapBudget = errors.New("codecortex: map budget too small")
)

// Map returns the project's repository map: its definitions ranked by
// centrality over the project graph (graph.Graph.Rank, leaning toward
// req.Path and req.Focus), as many as fit req.Budget when printed in
// req.Format, grouped by file.
func (e *Engine) Map(ctx context.Context, req MapRequest) (*RepoMap, error) {
	start := time.Now()
	format := req.Format
	if format == "" {
		format = MapText
	}
	if format != MapText && format != MapJSON && format != MapMermaid {
		return nil, fmt.Errorf("%w %q: want %s, %s or %s", ErrMapFormat, req.Format, MapText, MapJSON, MapMermaid)
	}
	budget := req.Budget
	if budget <= 0 {
		budget = DefaultMapBudget
	}
	focus := slices.Clone(req.Focus)
	if req.Path != "" {
		focus = append([]string{req.Path}, focus...)
	}
	for i, f := range focus {
		rel, err := e.root.Rel(f)
		if err != nil {
			return nil, fmt.Errorf("codecortex: map focus %q: %w", f, err)
		}
		focus[i] = rel
	}
	gp, err := e.Graph()
	if err != nil {
		return nil, err
	}
	g, err := gp.Graph(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	ranked := slices.DeleteFunc(g.Rank(graph.RankOptions{Focus: focus}), func(r graph.Ranked) bool {
		// A type's fields are in its signature's body; a package clause
		// is its files'.
		n := &g.Nodes[r.Node]
		if n.Kind == string(sym.Field) || n.Kind == string(sym.Module) {
			return true
		}
		// A definition of a Go package another file of it defines too
		// (each for its build constraints) is shown once, at its best.
		if !strings.HasSuffix(n.Path, ".go") {
			return false
		}
		k := path.Dir(n.Path) + "\x00" + n.Qualified()
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
	entries := mapEntries(g, ranked[:min(len(ranked), maxMapCandidates)])
	// While fitting, the counts printed are at their widest.
	m := &RepoMap{Ranked: len(ranked), Omitted: len(ranked), Used: budget, Budget: budget, Format: format,
		Basis: mapBasis(g), Focus: focus}
	lo := m.fit(g, entries, e.sourceLines())
	m.Omitted = len(ranked) - lo
	for range 3 { // the count of tokens used is printed too
		m.Used = evidence.EstimateTokens(len(m.Render()))
	}
	if m.Used > budget {
		return nil, fmt.Errorf("%w: %d tokens hold no %s map (the least is %d)", ErrMapBudget, budget, format, m.Used)
	}
	m.Elapsed = time.Since(start)
	return m, nil
}

// fit fills m with the most entries whose printed map fits its budget,
// and returns how many: the size grows with them. The bound doubles from
// one entry before it halves, so only the signatures of about twice the
// entries that fit are read (from lines).
func (m *RepoMap) fit(g *graph.Graph, entries []rankedEntry, lines func(string) []string) int {
	var pairs []MapLink
	if m.Format == MapMermaid {
		pairs = filePairs(g, entries)
	}
	signed := 0
	fits := func(k int) bool {
		for ; signed < k; signed++ {
			entries[signed].entry.sign(&g.Nodes[entries[signed].node], lines)
		}
		m.fill(g, entries[:k], pairs)
		return evidence.EstimateTokens(len(m.Render())) <= m.Budget
	}
	lo, hi := 0, len(entries)
	for k := 1; k < hi; k *= 2 {
		if !fits(k) {
			hi = k - 1
			break
		}
		lo = k
	}
	for lo < hi {
		if k := (lo + hi + 1) / 2; fits(k) {
			lo = k
		} else {
			hi = k - 1
		}
	}
	fits(lo)
	return lo
}

// A rankedEntry is a map entry with its node, in rank order.
type rankedEntry struct {
	node  int
	entry MapEntry
}

// mapEntries makes the entries of the ranked definitions, without their
// signatures (see MapEntry.sign), and marks the most used: those used
// from the most files, a tenth of them (files used from one other file
// aside).
func mapEntries(g *graph.Graph, ranked []graph.Ranked) []rankedEntry {
	out := make([]rankedEntry, 0, len(ranked))
	for _, r := range ranked {
		out = append(out, rankedEntry{node: r.Node, entry: mapEntry(&g.Nodes[r.Node], r)})
	}
	byFiles := make([]int, 0, len(out))
	for i := range out {
		byFiles = append(byFiles, i)
	}
	slices.SortStableFunc(byFiles, func(a, b int) int { return out[b].entry.Files - out[a].entry.Files })
	for _, i := range byFiles[:min(max(len(byFiles)/10, 1), len(byFiles))] {
		if out[i].entry.Files >= 2 {
			out[i].entry.MostUsed = true
			out[i].entry.Record.Metadata.Attributes["most_used"] = "true"
		}
	}
	return out
}

// mapEntry makes node n's entry and record.
func mapEntry(n *graph.Node, r graph.Ranked) MapEntry {
	rec := evidence.Record{Kind: evidence.Definition, Provider: graph.ProviderName,
		Provenance: trust.SymbolIndex, Trust: trust.Structural, Path: n.Path,
		StartLine: max(n.NameLine, n.Line, 1), StartColumn: max(n.NameColumn, 1),
		EndLine: max(n.NameLine, n.Line, 1), EndColumn: max(n.NameColumn, 1) + utf8.RuneCountInString(n.Name),
		Symbol: n.Qualified(), Confidence: 1,
		Metadata: evidence.Metadata{Attributes: map[string]string{
			"rank": strconv.FormatFloat(r.Score, 'g', 4, 64), "used_by": strconv.Itoa(r.UsedBy),
			"files_using": strconv.Itoa(r.Files), "symbol_kind": n.Kind}}}
	if r.UsedBy > 0 {
		// Ranked by its uses: as strong as the edges carrying most of them.
		rec.Provenance, rec.Trust = r.Method.Provenance(), min(r.Tier, r.Method.Tier())
		rec.Exact = rec.Trust == trust.Exact
	}
	if n.Stale {
		rec = evidence.MarkStale(rec)
	}
	return MapEntry{Name: n.Qualified(), Kind: n.Kind, Line: rec.StartLine, Trust: rec.Trust,
		UsedBy: r.UsedBy, Files: r.Files, Record: rec}
}

// sign sets the entry's signature, and its record's excerpt, to the line
// naming node n, from lines (a file's lines by path).
func (en *MapEntry) sign(n *graph.Node, lines func(string) []string) {
	sig := ""
	if ls := lines(n.Path); n.NameLine >= 1 && n.NameLine <= len(ls) {
		sig = strings.TrimSpace(strings.TrimRight(ls[n.NameLine-1], "\r"))
		if len(sig) > maxSignature {
			cut := maxSignature
			for cut > 0 && !utf8.RuneStart(sig[cut]) {
				cut--
			}
			sig = sig[:cut] + "…"
		}
		if !utf8.ValidString(sig) {
			sig = ""
		}
	}
	en.Signature, en.Record.Metadata.Excerpt = sig, sig
}

// fill sets m's files and links to those of entries (in rank order).
func (m *RepoMap) fill(g *graph.Graph, entries []rankedEntry, pairs []MapLink) {
	m.Files, m.Links = m.Files[:0], nil
	at := map[string]int{}
	nodeFile := map[int]string{}
	for _, re := range entries {
		p := g.Nodes[re.node].Path
		i, ok := at[p]
		if !ok {
			i = len(m.Files)
			at[p] = i
			m.Files = append(m.Files, MapFile{Path: p})
		}
		m.Files[i].Entries = append(m.Files[i].Entries, re.entry)
		nodeFile[re.node] = p
	}
	for i := range m.Files {
		slices.SortFunc(m.Files[i].Entries, func(a, b MapEntry) int { return a.Line - b.Line })
	}
	if m.Format == MapMermaid {
		m.Links = mapLinks(pairs, at)
	}
}

// filePairs counts the uses between the files of entries, the most
// first: the links of any map made of some of them.
func filePairs(g *graph.Graph, entries []rankedEntry) []MapLink {
	files := map[string]bool{}
	for _, re := range entries {
		files[g.Nodes[re.node].Path] = true
	}
	count := map[[2]string]int{}
	for i := range g.Edges {
		ed := &g.Edges[i]
		if ed.Kind == graph.Imports || ed.Kind == graph.Tests {
			continue
		}
		from, to := g.Nodes[ed.From].Path, g.Nodes[ed.To].Path
		if from != to && files[from] && files[to] {
			count[[2]string{from, to}]++
		}
	}
	links := make([]MapLink, 0, len(count))
	for k, n := range count {
		links = append(links, MapLink{From: k[0], To: k[1], Uses: n})
	}
	slices.SortFunc(links, func(a, b MapLink) int {
		if a.Uses != b.Uses {
			return b.Uses - a.Uses
		}
		return strings.Compare(a.From+"\x00"+a.To, b.From+"\x00"+b.To)
	})
	return links
}

// mapLinks returns the first of pairs between the files of a map.
func mapLinks(pairs []MapLink, files map[string]int) []MapLink {
	var links []MapLink
	for _, l := range pairs {
		if len(links) == maxMapLinks {
			break
		}
		_, from := files[l.From]
		_, to := files[l.To]
		if from && to {
			links = append(links, l)
		}
	}
	return links
}

// mapBasis says what a rank over g was computed from.
func mapBasis(g *graph.Graph) string {
	st := g.Stats()
	uses := st.ByKind[graph.Calls] + st.ByKind[graph.References] + st.ByKind[graph.Inherits] + st.ByKind[graph.Implements]
	return fmt.Sprintf("PageRank over %d uses among %d definitions in %d files; uses %d exact, %d inferred_high, %d inferred",
		uses, st.Symbols, st.Files, st.Exact, st.InferredHigh, st.Inferred)
}

// Render prints the map in its format: the text form for people, one
// JSON document, or a mermaid flowchart of its files and the uses between
// them.
func (m *RepoMap) Render() []byte {
	switch m.Format {
	case MapJSON:
		b, _ := json.Marshal(m)
		return append(b, '\n')
	case MapMermaid:
		return m.mermaid()
	}
	return m.text()
}

// text is the map for people: each file, then its definitions' signatures
// in line order, the most used starred with the files that use them.
func (m *RepoMap) text() []byte {
	var b strings.Builder
	shown := 0
	count := map[trust.Tier]int{}
	for _, f := range m.Files {
		shown += len(f.Entries)
		for _, en := range f.Entries {
			if en.Files > 0 {
				count[en.Trust]++
			}
		}
	}
	common := trust.Tier(0)
	for t, n := range count {
		if common == 0 || n > count[common] || n == count[common] && t > common {
			common = t
		}
	}
	fmt.Fprintf(&b, "%d of %d definitions in %d files, ranked by use (%s)", shown, m.Ranked, len(m.Files), m.Basis)
	if common != 0 {
		fmt.Fprintf(&b, "; [N files] counts the other files using it, %s unless marked", common)
	}
	b.WriteByte('\n')
	for _, f := range m.Files {
		b.WriteString(f.Path)
		b.WriteByte('\n')
		for _, en := range f.Entries {
			mark := " "
			if en.MostUsed {
				mark = "★"
			}
			sig := en.Signature
			if sig == "" {
				sig = en.Kind + " " + en.Name
			}
			fmt.Fprintf(&b, "%s%5d %s", mark, en.Line, sig)
			if en.Files > 0 {
				fmt.Fprintf(&b, "  [%d file", en.Files)
				if en.Files > 1 {
					b.WriteByte('s')
				}
				if en.Trust != common {
					fmt.Fprintf(&b, ", %s", en.Trust)
				}
				b.WriteByte(']')
			}
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// mermaid draws the map's files as a flowchart, each labelled with its
// most used definitions, and the uses between them.
func (m *RepoMap) mermaid() []byte {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	id := map[string]string{}
	for i, f := range m.Files {
		id[f.Path] = "f" + strconv.Itoa(i)
		top := slices.Clone(f.Entries)
		slices.SortStableFunc(top, func(a, b MapEntry) int { return b.Files - a.Files })
		var names []string
		for _, en := range top[:min(len(top), 3)] {
			names = append(names, en.Name)
		}
		fmt.Fprintf(&b, "  %s[\"%s%s%s\"]\n", id[f.Path], mermaid.Label(f.Path), mermaid.Break, mermaid.Label(strings.Join(names, ", ")))
	}
	for _, l := range m.Links {
		fmt.Fprintf(&b, "  %s -->|\"%d\"| %s\n", id[l.From], l.Uses, id[l.To])
	}
	return []byte(b.String())
}
