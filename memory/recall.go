package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

// A Query asks the memory for entries. Every criterion given may match (a
// path, a symbol, words); an entry that matches none is left out. A query
// without any criterion lists every entry of the given types.
type Query struct {
	// Text is words to look for in an entry's text, reason, type and
	// scope; small words ("the", "why", "did") are ignored.
	Text string
	// Path is a file or directory, relative to the project root, that an
	// entry's scope must cover (or, for a directory, lie in).
	Path string
	// Symbol is a name an entry's scope must cover (see [Scope]).
	Symbol string
	// Types restricts the entries to these types; empty means all.
	Types []Type
	// Limit bounds the answer; 0 means DefaultLimit, negative means no
	// bound.
	Limit int
}

// DefaultLimit is how many entries Recall returns when the query does not
// say.
const DefaultLimit = 20

// A Match is an entry a query found.
type Match struct {
	// Entry is the entry as its file holds it, its author and its date
	// as written.
	Entry Entry `json:"entry"`
	// Review says whether this user has reviewed the entry; an unreviewed
	// one was supplied with the repository, and its fields are its own
	// claims.
	Review Review `json:"review"`
	// Created is when the entry counts as created, for its decay and
	// its display: the entry's own time, or the time of the recall when
	// that is in the future (FutureDated then says so).
	Created     time.Time `json:"created"`
	FutureDated bool      `json:"future_dated,omitempty"`
	// Confidence is the entry's confidence at the time of the recall: its
	// decayed confidence, scaled by [UnreviewedFactor] when unreviewed
	// (see [Confidence]). Stale says that its decayed confidence is below
	// [StaleBelow]: it is old enough to be checked before it is relied on.
	Confidence float64 `json:"confidence"`
	Stale      bool    `json:"stale"`
	// Relevance says how well the entry matches, in (0, 1]: 1 for a scope
	// naming the path or symbol exactly, less for a directory, a pattern,
	// a partial name or some of the words.
	Relevance float64 `json:"relevance"`
	// Score is Relevance times Confidence: the ranking key.
	Score float64 `json:"score"`
	// Why lists what matched: "path", "symbol", "text", or "all" for a
	// query without criteria.
	Why []string `json:"why"`
}

// Recall returns the entries q finds, best first: by Score, then
// confidence, then newest, then id. Stale entries are included and
// flagged. Damaged entry files are skipped ([Store.Verify] reports them).
func (s *Store) Recall(q Query) ([]Match, error) {
	idx, err := s.load()
	if err != nil {
		return nil, err
	}
	now := s.now()
	qpath := ""
	if q.Path != "" {
		if rel, err := s.root.Rel(q.Path); err == nil && rel != "." {
			qpath = rel
		} else {
			return []Match{}, nil // a path outside the project: no entry covers it
		}
	}
	types := map[Type]bool{}
	for _, t := range q.Types {
		types[t] = true
	}
	terms := queryTerms(q.Text)
	all := qpath == "" && q.Symbol == "" && strings.TrimSpace(q.Text) == ""
	if !all && qpath == "" && q.Symbol == "" && len(terms) == 0 {
		return []Match{}, nil // only small words
	}
	var revs map[string]Review
	if len(idx.entries) > 0 {
		if revs, err = s.reviews(); err != nil {
			return nil, err
		}
	}
	textHits := idx.textHits(terms)
	// Only the entries a criterion can match are looked at.
	var cand []bool
	if !all {
		cand = make([]bool, len(idx.entries))
		if qpath != "" {
			idx.pathCandidates(qpath, func(i int32) { cand[i] = true })
		}
		if q.Symbol != "" {
			idx.symbolCandidates(q.Symbol, func(i int32) { cand[i] = true })
		}
	}
	var out []Match
	for i, le := range idx.entries {
		if !all && !cand[i] && (textHits == nil || textHits[i] == 0) {
			continue
		}
		if len(types) > 0 && !types[le.Type] {
			continue
		}
		hits := int16(0)
		if textHits != nil {
			hits = textHits[i]
		}
		rel, why := relevance(le, all, qpath, q.Symbol, len(terms), hits)
		if len(why) == 0 {
			continue
		}
		out = append(out, newMatch(le, now, revs[le.Digest], rel, why))
	}
	sortMatches(out)
	limit := q.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []Match{}
	}
	return out, nil
}

// relevance returns how relevant an entry is to a query, from 0 to 1,
// and what matched: all (a query without criteria), its path, its symbol,
// its text (hits of the nterms terms). Each criterion gives its own
// relevance; the entry takes the best, and a little more for each other
// that matched. Nothing matched is no reason.
func relevance(le *loadedEntry, all bool, qpath, symbol string, nterms int, hits int16) (float64, []string) {
	var why []string
	rel := 0.0
	add := func(name string, v float64) {
		if v <= 0 {
			return
		}
		why = append(why, name)
		rel = max(rel, v)
	}
	if all {
		add("all", 1)
	}
	if qpath != "" {
		add("path", le.coversPath(qpath))
	}
	if symbol != "" {
		add("symbol", le.coversSymbol(symbol))
	}
	if nterms > 0 && hits > 0 {
		add("text", 0.9*float64(hits)/float64(nterms))
	}
	if len(why) == 0 {
		return 0, nil
	}
	return min(1, rel+0.05*float64(len(why)-1)), why
}

func sortMatches(ms []Match) {
	sort.Slice(ms, func(i, j int) bool { return better(&ms[i], &ms[j]) })
}

// newMatch returns the match for le at now, reviewed as rev says, with
// relevance rel, found by why.
func newMatch(le *loadedEntry, now time.Time, rev Review, rel float64, why []string) Match {
	if !rev.Reviewed() {
		rev = Unreviewed
	}
	created, future := le.Created, false
	if created.After(now) {
		created, future = now, true
	}
	age := now.Sub(created)
	conf := Confidence(le.Type, age, rev)
	return Match{Entry: le.Entry, Review: rev, Created: created, FutureDated: future,
		Confidence: conf, Stale: Decay(le.Type, age) < StaleBelow, Relevance: rel, Score: rel * conf, Why: why}
}

// better reports whether a ranks before b: higher score, then reviewed
// before unreviewed, then higher confidence, then newer (by the clamped
// date), then the smaller id.
func better(a, b *Match) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if ar, br := a.Review.Reviewed(), b.Review.Reviewed(); ar != br {
		return ar
	}
	if a.Confidence != b.Confidence {
		return a.Confidence > b.Confidence
	}
	if !a.Created.Equal(b.Created) {
		return a.Created.After(b.Created)
	}
	return a.Entry.ID < b.Entry.ID
}

// A loadedEntry is an entry with what matching needs, computed once.
type loadedEntry struct {
	Entry
	symbolsLower []string
}

// coversPath returns how well the entry's scope covers p (a clean path
// relative to the project root): 1 for the path itself, 0.9 for a pattern
// matching it, 0.8 for a directory (or a pattern matching a directory)
// above it, 0.6 when p is a directory the scope lies in, 0 otherwise.
func (le *loadedEntry) coversPath(p string) float64 {
	best := 0.0
	for _, sp := range le.Scope.Paths {
		switch {
		case sp == p:
			return 1
		case strings.HasPrefix(p, sp+"/"):
			best = max(best, 0.8)
		case strings.HasPrefix(sp, p+"/"):
			best = max(best, 0.6)
		}
		if !strings.ContainsAny(sp, "*?[") {
			continue
		}
		if ok, _ := path.Match(sp, p); ok {
			best = max(best, 0.9)
			continue
		}
		if !strings.Contains(sp, "/") {
			if ok, _ := path.Match(sp, path.Base(p)); ok {
				best = max(best, 0.9)
				continue
			}
		}
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if ok, _ := path.Match(sp, d); ok {
				best = max(best, 0.8)
				break
			}
		}
	}
	return best
}

// coversSymbol returns how well the entry's scope covers the name s: 1 for
// the name itself, 0.8 when one ends the other at a ".", 0.7 for the name
// in another case, 0 otherwise.
func (le *loadedEntry) coversSymbol(s string) float64 {
	best := 0.0
	lower := strings.ToLower(s)
	for i, sym := range le.Scope.Symbols {
		switch {
		case sym == s:
			return 1
		case strings.HasSuffix(s, "."+sym) || strings.HasSuffix(sym, "."+s):
			best = max(best, 0.8)
		case le.symbolsLower[i] == lower:
			best = max(best, 0.7)
		}
	}
	return best
}

// An index is the loaded entries and a term index over their words.
type index struct {
	entries []*loadedEntry
	byName  map[string]*loadedEntry // file name → entry
	terms   map[string][]int32      // word → entries that hold it
	sorted  []string                // the words, sorted, for prefix search

	// What finds the candidates of a path or a symbol without looking at
	// every entry; coversPath and coversSymbol then say how well each
	// candidate matches.
	paths     map[string][]int32 // scope path (not a pattern) → entries
	pathList  []string           // those paths, sorted, for "p is a directory above them"
	patterns  []int32            // entries with a pattern in their scope
	symbols   map[string][]int32 // scope symbol, and each of its dotted suffixes and its lower case → entries
	symSuffix map[string][]int32 // each proper dotted suffix of a scope symbol → entries
}

// addScope indexes entry n's scope.
func (idx *index) addScope(n int32, le *loadedEntry) {
	pattern := false
	for _, p := range le.Scope.Paths {
		if strings.ContainsAny(p, "*?[") {
			pattern = true
			continue
		}
		if len(idx.paths[p]) == 0 {
			idx.pathList = append(idx.pathList, p)
		}
		idx.paths[p] = append(idx.paths[p], n)
	}
	if pattern {
		idx.patterns = append(idx.patterns, n)
	}
	for i, sym := range le.Scope.Symbols {
		idx.symbols[sym] = append(idx.symbols[sym], n)
		if l := le.symbolsLower[i]; l != sym {
			idx.symbols[l] = append(idx.symbols[l], n)
		}
		for j := strings.IndexByte(sym, '.'); j >= 0; {
			idx.symSuffix[sym[j+1:]] = append(idx.symSuffix[sym[j+1:]], n)
			k := strings.IndexByte(sym[j+1:], '.')
			if k < 0 {
				break
			}
			j += 1 + k
		}
	}
}

// pathCandidates calls yield with every entry whose scope may cover p:
// p itself, a directory above it, a path below it, or a pattern.
func (idx *index) pathCandidates(p string, yield func(int32)) {
	each := func(list []int32) {
		for _, i := range list {
			yield(i)
		}
	}
	each(idx.paths[p])
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		each(idx.paths[d])
	}
	for i := sort.SearchStrings(idx.pathList, p+"/"); i < len(idx.pathList) && strings.HasPrefix(idx.pathList[i], p+"/"); i++ {
		each(idx.paths[idx.pathList[i]])
	}
	each(idx.patterns)
}

// symbolCandidates calls yield with every entry whose scope may cover s:
// s itself, a dotted suffix of s, a symbol s is a dotted suffix of, or s in
// another case.
func (idx *index) symbolCandidates(s string, yield func(int32)) {
	each := func(list []int32) {
		for _, i := range list {
			yield(i)
		}
	}
	each(idx.symbols[s])
	each(idx.symbols[strings.ToLower(s)])
	each(idx.symSuffix[s])
	for j := strings.IndexByte(s, '.'); j >= 0; {
		each(idx.symbols[s[j+1:]])
		k := strings.IndexByte(s[j+1:], '.')
		if k < 0 {
			break
		}
		j += 1 + k
	}
}

// minPrefix is the shortest shared prefix that makes two words match
// ("decide" and "decided", "migrate" and "migration").
const minPrefix = 5

// textHits returns, for each entry, how many of terms it holds.
func (idx *index) textHits(terms []string) []int16 {
	if len(terms) == 0 {
		return nil
	}
	hits := make([]int16, len(idx.entries))
	seen := make([]int32, len(idx.entries)) // last term (1-based) that hit each entry
	for ti, t := range terms {
		mark := func(list []int32) {
			for _, e := range list {
				if seen[e] != int32(ti+1) {
					seen[e] = int32(ti + 1)
					hits[e]++
				}
			}
		}
		mark(idx.terms[t])
		if len(t) >= minPrefix {
			pre := t[:minPrefix]
			for i := sort.SearchStrings(idx.sorted, pre); i < len(idx.sorted) && strings.HasPrefix(idx.sorted[i], pre); i++ {
				if w := idx.sorted[i]; w != t {
					mark(idx.terms[w])
				}
			}
		}
	}
	return hits
}

// stopWords are ignored in queries.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the is are was were be been being to of in on at for by with and or
		not no do does did done we you i it its this that these those what which who whom why how when where
		there here our us my your me about from as into than then so if but can could should would will shall
		may might must have has had any all some there their they them he she his her one also just very`) {
		stopWords[w] = true
	}
}

// words splits text into lower-case words: runs of letters and digits,
// "_" kept inside a word; a word with "_" or a change of case also
// yields its parts ("refresh_token": refresh, token; "AuthService": auth,
// service).
func words(text string, yield func(string)) {
	emit := func(w string) {
		if len(w) < 2 {
			return
		}
		if !needsSplit(w) {
			yield(strings.ToLower(w))
			return
		}
		yield(strings.ToLower(w))
		for _, p := range splitIdent(w) {
			if len(p) >= 2 {
				yield(strings.ToLower(p))
			}
		}
	}
	start := -1
	for i, r := range text {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			emit(strings.Trim(text[start:i], "_"))
			start = -1
		}
	}
	if start >= 0 {
		emit(strings.Trim(text[start:], "_"))
	}
}

// needsSplit reports whether w has a "_" or a lower-to-upper change of
// case, so that splitIdent would split it.
func needsSplit(w string) bool {
	lower := false
	for _, r := range w {
		switch {
		case r == '_':
			return true
		case unicode.IsUpper(r):
			if lower {
				return true
			}
			lower = false
		default:
			lower = unicode.IsLower(r)
		}
	}
	return false
}

// splitIdent splits an identifier at "_" and at lower-to-upper changes of
// case.
func splitIdent(w string) []string {
	var parts []string
	for _, seg := range strings.Split(w, "_") {
		start := 0
		rs := []rune(seg)
		for i := 1; i < len(rs); i++ {
			if unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
				parts = append(parts, string(rs[start:i]))
				start = i
			}
		}
		if start < len(rs) {
			parts = append(parts, string(rs[start:]))
		}
	}
	return parts
}

// queryTerms returns the distinct words of a query that are not stop
// words.
func queryTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	words(text, func(w string) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	})
	return out
}

// readEntries returns the entry each name holds: the old index's when it
// has one (an entry's name is its content's digest, so a name read once
// need not be read again), read and checked otherwise, by as many workers
// as there are processors; nil for a name that is not an intact entry.
func (s *Store) readEntries(names []string, old *index) []*loadedEntry {
	out := make([]*loadedEntry, len(names))
	var todo []int
	for i, name := range names {
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !ValidID(id) {
			continue
		}
		if old != nil && old.byName[name] != nil {
			out[i] = old.byName[name]
			continue
		}
		todo = append(todo, i)
	}
	fsys := s.root.FS()
	read := func(i int) {
		id := strings.TrimSuffix(names[i], ".json")
		data, err := fs.ReadFile(fsys, EntriesDir+"/"+names[i])
		if err != nil {
			return
		}
		e, err := ParseEntry(data)
		if err != nil || e.ID != id {
			return
		}
		le := &loadedEntry{Entry: e}
		for _, sym := range e.Scope.Symbols {
			le.symbolsLower = append(le.symbolsLower, strings.ToLower(sym))
		}
		out[i] = le
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo)/64+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(todo); k += workers {
				read(todo[k])
			}
		}()
	}
	wg.Wait()
	return out
}

func newIndex(n int) *index {
	return &index{byName: make(map[string]*loadedEntry, n), terms: map[string][]int32{},
		paths: map[string][]int32{}, symbols: map[string][]int32{}, symSuffix: map[string][]int32{}}
}

// A dirStamp identifies a state of the entries directory: an entry added
// or removed (a rename into it, an unlink) changes its modification time.
type dirStamp struct {
	ok    bool
	mtime time.Time
	size  int64
}

// invalidate makes the next load read the directory again.
func (s *Store) invalidate() {
	s.mu.Lock()
	s.stamp = dirStamp{}
	s.mu.Unlock()
}

// load returns the index of the entries on disk, reading only the files
// added since the last load.
func (s *Store) load() (*index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var stamp dirStamp
	fi, err := s.root.Stat(EntriesDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.idx, s.stamp = newIndex(0), dirStamp{}
		return s.idx, nil
	case err != nil:
		return nil, fmt.Errorf("memory: %w", err)
	default:
		stamp = dirStamp{ok: true, mtime: fi.ModTime(), size: fi.Size()}
	}
	if s.idx != nil && s.stamp == stamp {
		return s.idx, nil
	}
	names, err := s.entryNames()
	if err != nil {
		return nil, err
	}
	old := s.idx
	idx := newIndex(len(names))
	loaded := s.readEntries(names, old)
	for i, name := range names {
		le := loaded[i]
		if le == nil {
			continue
		}
		idx.byName[name] = le
		n := int32(len(idx.entries))
		idx.entries = append(idx.entries, le)
		idx.addScope(n, le)
		seen := map[string]bool{}
		add := func(w string) {
			if !seen[w] {
				seen[w] = true
				idx.terms[w] = append(idx.terms[w], n)
			}
		}
		words(le.Text, add)
		words(le.Reason, add)
		words(string(le.Type), add)
		for _, p := range le.Scope.Paths {
			words(p, add)
		}
		for _, sym := range le.Scope.Symbols {
			words(sym, add)
		}
	}
	sort.Strings(idx.pathList)
	idx.sorted = make([]string, 0, len(idx.terms))
	for w := range idx.terms {
		idx.sorted = append(idx.sorted, w)
	}
	sort.Strings(idx.sorted)
	s.idx, s.stamp = idx, stamp
	return idx, nil
}
