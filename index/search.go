package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// SearchOptions tunes [Index.Search]. The zero value is ready to use.
type SearchOptions struct {
	// Limit is the most hits returned; zero means 20.
	Limit int
	// Content keeps only "code" or only "prose" chunks; empty keeps both.
	Content string
	// Deadline, when set, ends the refresh before the search then rather
	// than after the index's budget: a caller that refreshed moments ago
	// (a lookup before the search) keeps one budget for both.
	Deadline time.Time

	// files, when set, holds the files read for one question (by the
	// provider's gatherer), so that each is read from disk once.
	files fileReads
}

// How a hit matched, strongest first.
const (
	// MatchDefinition: the chunk defines a symbol named by the query.
	MatchDefinition = "definition"
	// MatchSymbol: the chunk belongs to a symbol whose name contains a
	// word of the query.
	MatchSymbol = "symbol"
	// MatchText: the query's words are in the chunk's text.
	MatchText = "text"
)

// A Hit is one chunk that matched a search.
type Hit struct {
	// Path is the file, relative to the project root, slash-separated;
	// StartLine and EndLine the chunk's lines, one-based, inclusive.
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	// Content is "code" or "prose".
	Content string `json:"content"`
	// Symbol names the symbol the chunk is aligned to, as
	// "pkg.Type.Name", and SymbolKind its kind; empty for a chunk of lines
	// outside any symbol.
	Symbol     string `json:"symbol,omitempty"`
	SymbolKind string `json:"symbol_kind,omitempty"`
	// Match is MatchDefinition, MatchSymbol or MatchText; hits are ordered
	// by it first, then by Score.
	Match string `json:"match"`
	// Score orders hits within a match class: BM25 relative to the best
	// hit, with small boosts for code and for a query word in the path. It
	// is in (0, 1] and is not a probability.
	Score float64 `json:"score"`
	// Excerpt is the chunk's text as it is on disk now (at most
	// maxExcerptLines lines).
	Excerpt string `json:"excerpt"`
	// Stale reports that the file changed on disk since it was indexed and
	// the refresh has not reached it yet: the lines may have moved.
	Stale bool `json:"stale,omitempty"`
}

// A SearchResult is the answer to [Index.Search].
type SearchResult struct {
	Query string `json:"query"`
	// Terms are the words and phrases searched for, after stopwords and
	// repeats were dropped.
	Terms     []string  `json:"terms"`
	Hits      []Hit     `json:"hits"`
	Freshness Freshness `json:"freshness"`
}

// Bounds on a search.
const (
	defaultLimit    = 20
	maxLimit        = 500
	minCandidates   = 100
	maxExcerptLines = 40
	maxExcerptBytes = 4096
	maxNameHits     = 200
)

// Search finds the chunks that match text, best first: chunks defining a
// symbol the query names, then chunks of a symbol whose name contains a
// query word, then the rest, each class by BM25 with small boosts for code
// and for a query word in the path. A chunk that holds every term ranks
// above one that holds only some. Query words are expanded with the same
// sub-token splitter the index uses ("validateSession" also matches
// "validate session"). Excerpts are read from disk. The index is refreshed
// first.
func (ix *Index) Search(ctx context.Context, text string, opts SearchOptions) (SearchResult, error) {
	res := SearchResult{Query: text, Hits: []Hit{}, Terms: []string{}}
	terms := parseQuery(text)
	if len(terms) == 0 {
		return res, ErrEmptyQuery
	}
	for _, t := range terms {
		res.Terms = append(res.Terms, strings.Join(t.words, " "))
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	budget := ix.opts.budget()
	if !opts.Deadline.IsZero() {
		budget = max(0, time.Until(opts.Deadline))
	}
	fr, err := ix.read(ctx, budget, termWords(terms), true, func(s snapshot) error {
		hits, err := ix.search(ctx, s, terms, limit, opts.Content, opts.files)
		res.Hits = hits
		return err
	})
	res.Freshness = fr
	return res, err
}

// A candidate is a chunk being ranked.
type candidate struct {
	id         int64
	rank       float64 // bm25: lower is better
	all        bool    // matched every term
	path       string
	start, end int
	content    string
	symName    string // the aligned symbol's name
	symQual    string
	symKind    string
	fileID     int64
	class      int // 2 definition, 1 symbol, 0 text
	score      float64
}

// search returns the snapshot's best hits for the terms: it gathers the
// candidate chunks (BM25's best, and the chunks that define a queried
// name), loads them, ranks them and reads their excerpts from disk.
func (ix *Index) search(ctx context.Context, s snapshot, terms []queryTerm, limit int, content string, files fileReads) ([]Hit, error) {
	defLines, defChunks, err := queriedDefinitions(ctx, s, queryNames(terms))
	if err != nil {
		return nil, err
	}
	cands := candidates{}
	want := max(limit*5, minCandidates)
	if len(terms) == 1 && len(defChunks) > 0 {
		err = cands.addOneTerm(ctx, s, ftsExpr(terms, "AND"), want, defChunks)
	} else {
		err = cands.addTerms(ctx, s, terms, want, limit, defChunks)
	}
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return []Hit{}, nil
	}
	kept, err := cands.load(ctx, s, content)
	if err != nil {
		return nil, err
	}
	rankCandidates(kept, terms, defLines)
	if files == nil {
		files = fileReads{}
	}
	return ix.hits(dropOverlaps(kept), limit, s.pending, files), nil
}

// queriedDefinitions returns where the definitions of the names are,
// wherever BM25 puts them: their name lines by file id, and the chunks
// that hold them.
func queriedDefinitions(ctx context.Context, s snapshot, names []string) (defLines map[int64][]int, defChunks []int64, err error) {
	defLines = map[int64][]int{}
	if len(names) == 0 {
		return defLines, nil, nil
	}
	rs, err := s.query(ctx, `SELECT s.file_id, s.name_line, c.id FROM symbols s
			LEFT JOIN chunks c ON c.symbol_id = s.id AND c.start_line <= s.name_line AND c.end_line >= s.name_line
			WHERE s.lname IN (SELECT value FROM json_each(?)) LIMIT `+fmt.Sprint(maxNameHits), jsonList(names))
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var fileID int64
		var line int
		var chunkID sql.NullInt64
		if err := rs.Scan(&fileID, &line, &chunkID); err != nil {
			return nil, nil, err
		}
		defLines[fileID] = append(defLines[fileID], line)
		if chunkID.Valid {
			defChunks = append(defChunks, chunkID.Int64)
		}
	}
	if err := rs.Err(); err != nil {
		return nil, nil, err
	}
	return defLines, defChunks, nil
}

// candidates are the chunks being ranked, by id.
type candidates map[int64]*candidate

// add takes the chunk in unless it is in already.
func (cs candidates) add(id int64, rank float64, all bool) {
	if _, ok := cs[id]; !ok {
		cs[id] = &candidate{id: id, rank: rank, all: all}
	}
}

// addRows takes in the chunks of rows of (id, rank), and closes them.
func (cs candidates) addRows(rs *sql.Rows, all bool) error {
	defer rs.Close()
	for rs.Next() {
		var id int64
		var rank float64
		if err := rs.Scan(&id, &rank); err != nil {
			return err
		}
		cs.add(id, rank, all)
	}
	return rs.Err()
}

// addOneTerm takes in the candidates of a one-term query whose term names
// a definition. With one term, the chunks that hold every term and those
// that hold some are the same, and one BM25 pass over them gives both the
// best chunks and the ranks of the definitions' chunks: the best overall
// come in first, as many as could be among the best, then the
// definitions' chunks that are not among them.
func (cs candidates) addOneTerm(ctx context.Context, s snapshot, expr string, want int, defChunks []int64) error {
	rs, err := s.query(ctx, `SELECT rowid, bm25(chunks_fts) AS r, rowid IN (SELECT value FROM json_each(?3)) AS def
			FROM chunks_fts WHERE chunks_fts MATCH ?1 ORDER BY def DESC, r, rowid LIMIT ?2`,
		expr, want+len(defChunks), jsonList(defChunks))
	if err != nil {
		return err
	}
	defer rs.Close()
	var defs, all []candidate
	for rs.Next() {
		var c candidate
		var def bool
		if err := rs.Scan(&c.id, &c.rank, &def); err != nil {
			return err
		}
		if def {
			defs = append(defs, c)
		}
		all = append(all, c)
	}
	if err := rs.Err(); err != nil {
		return err
	}
	// The best overall, as ORDER BY rank, rowid LIMIT want would give them.
	sort.Slice(all, func(i, j int) bool {
		if all[i].rank != all[j].rank {
			return all[i].rank < all[j].rank
		}
		return all[i].id < all[j].id
	})
	for _, c := range all[:min(want, len(all))] {
		cs.add(c.id, c.rank, true)
	}
	for _, c := range defs {
		cs.add(c.id, c.rank, false)
	}
	return nil
}

// addTerms takes in BM25's best chunks that hold every term; those that
// hold only some when the first are fewer than limit; and every chunk
// that defines a queried name, whatever it holds.
func (cs candidates) addTerms(ctx context.Context, s snapshot, terms []queryTerm, want, limit int, defChunks []int64) error {
	andExpr, orExpr := ftsExpr(terms, "AND"), ftsExpr(terms, "OR")
	ftsTop := func(expr string, all bool) error {
		rs, err := s.query(ctx, `SELECT rowid, bm25(chunks_fts) AS r FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY r, rowid LIMIT ?`, expr, want)
		if err != nil {
			return err
		}
		return cs.addRows(rs, all)
	}
	if err := ftsTop(andExpr, true); err != nil {
		return err
	}
	// Chunks that hold only some of the terms rank below those that
	// hold them all; they are needed only when those are too few.
	if len(terms) > 1 && len(cs) < limit {
		if err := ftsTop(orExpr, false); err != nil {
			return err
		}
	}
	var extra []int64
	for _, id := range defChunks {
		if _, ok := cs[id]; !ok {
			extra = append(extra, id)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	rs, err := s.query(ctx, `SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
		orExpr, jsonList(extra))
	if err != nil {
		return err
	}
	return cs.addRows(rs, false)
}

// load returns the candidates whose files are verified, with their
// chunks' place, content and aligned symbol; with content set, only the
// chunks whose content it is.
func (cs candidates) load(ctx context.Context, s snapshot, content string) ([]*candidate, error) {
	ids := make([]int64, 0, len(cs))
	for id := range cs {
		ids = append(ids, id)
	}
	rs, err := s.query(ctx, `SELECT c.id, c.file_id, c.start_line, c.end_line, c.content, f.path,
			coalesce(sy.name, ''), coalesce(sy.kind, ''), coalesce(sy.container, ''), coalesce(sy.package, '')
		FROM chunks c JOIN files f ON f.id = c.file_id LEFT JOIN symbols sy ON sy.id = c.symbol_id
		WHERE f.verified = 1 AND c.id IN (SELECT value FROM json_each(?))`, jsonList(ids))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var kept []*candidate
	for rs.Next() {
		var id int64
		var c candidate
		var container, pkg string
		if err := rs.Scan(&id, &c.fileID, &c.start, &c.end, &c.content, &c.path, &c.symName, &c.symKind, &container, &pkg); err != nil {
			return nil, err
		}
		cand := cs[id]
		c.id, c.rank, c.all = id, cand.rank, cand.all
		if c.symName != "" {
			d := Definition{}
			d.Name, d.Container, d.Package = c.symName, container, pkg
			c.symQual = d.QualifiedName()
		}
		if content == "" || content == c.content {
			kept = append(kept, &c)
		}
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	return kept, nil
}

// hits returns up to limit hits for the ranked candidates, each with its
// excerpt read from disk; a candidate whose lines are gone from disk is
// skipped, and one whose path is pending is marked stale. It is never nil.
func (ix *Index) hits(kept []*candidate, limit int, pending map[string]bool, files fileReads) []Hit {
	hits := []Hit{}
	for _, c := range kept {
		if len(hits) == limit {
			break
		}
		src, _ := files.read(ix, c.path)
		text, end, ok := lineSpan(src, c.start, c.end)
		if !ok {
			continue // gone from disk since it was indexed
		}
		h := Hit{Path: c.path, StartLine: c.start, EndLine: end, Content: c.content,
			Symbol: c.symQual, SymbolKind: c.symKind, Score: c.score, Stale: pending[c.path]}
		h.Match = [...]string{MatchText, MatchSymbol, MatchDefinition}[c.class]
		h.Excerpt = excerpt(text)
		hits = append(hits, h)
	}
	return hits
}

// rankCandidates scores and orders candidates: by class (definition of a
// queried name, symbol whose name holds a query word, text), then by
// score, then by path and line.
func rankCandidates(cs []*candidate, terms []queryTerm, defLines map[int64][]int) {
	var bestAll, bestAny float64
	for _, c := range cs {
		if c.all && c.rank < bestAll {
			bestAll = c.rank
		}
		if !c.all && c.rank < bestAny {
			bestAny = c.rank
		}
	}
	words := map[string]bool{}
	for _, t := range terms {
		for _, w := range t.words {
			words[w] = true
		}
		for _, w := range t.split {
			words[w] = true
		}
	}
	for _, c := range cs {
		// BM25 relative to the best of its kind: every-term hits in
		// (0.5, 1], some-term hits in (0, 0.5].
		rel := 1.0
		best := bestAny
		if c.all {
			best = bestAll
		}
		if best < 0 {
			rel = c.rank / best
		}
		text := 0.5 * rel
		if c.all {
			text = 0.5 + 0.5*rel
		}
		text *= 0.9
		if c.content == "code" {
			text += 0.05
		}
		lp := strings.ToLower(c.path)
		for w := range words {
			if len(w) > 2 && strings.Contains(lp, w) {
				text += 0.05
				break
			}
		}
		c.score = min(max(text, 0.001), 1)
		for _, l := range defLines[c.fileID] {
			if l >= c.start && l <= c.end {
				c.class = 2
				break
			}
		}
		if c.class == 0 && c.symName != "" && symbolHasWord(c.symName, words) {
			c.class = 1
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.class != b.class {
			return a.class > b.class
		}
		if a.score != b.score {
			return a.score > b.score
		}
		if a.path != b.path {
			return a.path < b.path
		}
		return a.start < b.start
	})
}

// symbolHasWord reports whether a symbol's name, or one of its sub-tokens,
// is one of the query's words.
func symbolHasWord(name string, words map[string]bool) bool {
	if words[strings.ToLower(name)] {
		return true
	}
	for _, w := range SubTokens(name) {
		if words[w] {
			return true
		}
	}
	return false
}

// dropOverlaps removes a hit whose lines overlap a better hit in the same
// file (line-based chunks share a few lines). cs is in rank order.
func dropOverlaps(cs []*candidate) []*candidate {
	taken := map[string][][2]int{}
	var out []*candidate
	for _, c := range cs {
		overlaps := false
		for _, r := range taken[c.path] {
			if c.start <= r[1] && r[0] <= c.end {
				overlaps = true
				break
			}
		}
		if overlaps {
			continue
		}
		taken[c.path] = append(taken[c.path], [2]int{c.start, c.end})
		out = append(out, c)
	}
	return out
}

// lineSpan returns lines a to b of src (one-based, inclusive, without the
// final newline) and the last line it could give: b, or the file's last
// line when the file is shorter. ok is false when line a is past the end.
// It reads src only as far as line b.
func lineSpan(src []byte, a, b int) (text []byte, end int, ok bool) {
	if a < 1 || len(src) == 0 {
		return nil, 0, false
	}
	line, start := 1, 0
	for line < a {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 || start+i+1 == len(src) {
			return nil, 0, false
		}
		start += i + 1
		line++
	}
	stop := start
	for {
		i := bytes.IndexByte(src[stop:], '\n')
		if i < 0 {
			return src[start:], line, true
		}
		if line == b || stop+i+1 == len(src) {
			return src[start : stop+i], line, true
		}
		stop += i + 1
		line++
	}
}

// excerpt returns text cut to maxExcerptLines lines and maxExcerptBytes
// bytes, on a character boundary, as valid UTF-8.
func excerpt(text []byte) string {
	n := 0
	for i, c := range text {
		if c == '\n' {
			if n++; n == maxExcerptLines {
				text = text[:i]
				break
			}
		}
	}
	if len(text) > maxExcerptBytes {
		n := maxExcerptBytes
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text = text[:n]
	}
	return strings.ToValidUTF8(string(text), "\uFFFD")
}

// jsonList encodes values as a JSON array, for json_each.
func jsonList[T any](xs []T) string {
	b, err := json.Marshal(xs)
	if err != nil {
		return "[]"
	}
	return string(b)
}

// termWords are the words of a query's terms, for a budgeted refresh to
// index the files that hold them first.
func termWords(terms []queryTerm) []string {
	var out []string
	for _, t := range terms {
		out = append(out, t.words...)
	}
	return out
}
