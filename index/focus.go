package index

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/syntax"
)

// First contact: a question asked of a project whose index is far behind
// the disk (a new clone, a large checkout) cannot wait for every changed
// file to be parsed. The refresh before it then reads every changed file
// once for the names the question asks about, as a text search would,
// and indexes only the files that mention one, those that look like they
// define it first, then the files that re-export modules wholesale. The
// rest stay pending, and the answer's Focus says so.

// Bounds on a focused refresh.
const (
	// focusAbove is the number of changed files above which a budgeted
	// refresh with names to look for is focused: below it, every changed
	// file is indexed in any order within the budget.
	focusAbove = 32
	// minFocusWord is the shortest word a focus looks for: shorter ones
	// are in too many files to select any.
	minFocusWord = 3
	// maxFocusWords bounds the words one refresh looks for.
	maxFocusWords = 8
	// maxFocusListed bounds the paths a Focus lists.
	maxFocusListed = 20
	// maxRankedHits bounds the occurrences of a word one file's rank
	// looks at.
	maxRankedHits = 64
	// maxMemoWords bounds the words whose verdicts an Index remembers.
	maxMemoWords = 32
	// focusAtLeast is how many of the files that mention a name a
	// focused refresh indexes even past its deadline.
	focusAtLeast = 2
	// focusDefinersAtLeast bounds the files that look like they define a
	// name which a focused refresh indexes even past its deadline, all of
	// them up to this many: what a definition question asks for does not
	// depend on how loaded the machine is.
	focusDefinersAtLeast = 16
	// focusScanMin is how long a scan may read past the refresh's
	// deadline: on a tree of a few thousand files it reads them all, as a
	// text search would, whatever the budget.
	focusScanMin = time.Second
)

// A Focus says that a refresh found more changed files than it could
// index in time and, given names to look for, read every changed file for
// them (each once, ignoring case) and indexed only those that mention
// one, the ones that look like they define one first. The changed files
// it did not index are pending: a file that mentions no name is not
// indexed until a refresh without names (`cortex index`, a server's
// background update) or one that looks for a name it mentions.
type Focus struct {
	// Names are the words looked for.
	Names []string `json:"names"`
	// Matched is how many changed files mention a name; Indexed lists
	// (by rank, the first maxFocusListed) those this refresh indexed, and
	// IndexedCount counts them. The others that match are pending.
	Matched      int      `json:"matched"`
	Indexed      []string `json:"indexed,omitempty"`
	IndexedCount int      `json:"indexed_count"`
	// Unread is how many changed files the scan did not reach before the
	// deadline: they may mention a name.
	Unread int `json:"unread,omitempty"`
	// Elapsed is how long the scan took.
	Elapsed time.Duration `json:"elapsed"`
}

// namesKey is the context key of the names a question asks about.
type namesKey struct{}

// WithNames returns ctx carrying the names a question asks about (as
// [Index.Lookup] takes them: "Name", "Type.Method", "pkg.Name"). A query
// of the index run with it that has no words of its own (a refresh, the
// facts a project graph reads) focuses on them when the index is far
// behind the disk (see [Focus]).
func WithNames(ctx context.Context, names ...string) context.Context {
	if len(focusTerms(names)) == 0 {
		return ctx
	}
	return context.WithValue(ctx, namesKey{}, slices.Clone(names))
}

// askedKey is the context key of the moment a question was asked.
type askedKey struct{}

// WithAsked returns ctx carrying the moment t a question was asked. The
// queries of the index run with it (each brings the index up to date with
// the disk first) share one walk of the tree begun at or after t instead
// of each walking it again: every one of them still sees the disk as it
// was after the question was asked.
func WithAsked(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, askedKey{}, t)
}

// askedAt returns the moment WithAsked put in ctx; zero without one.
func askedAt(ctx context.Context) time.Time {
	t, _ := ctx.Value(askedKey{}).(time.Time)
	return t
}

// namesFrom returns the words WithNames put in ctx.
func namesFrom(ctx context.Context) []string {
	w, _ := ctx.Value(namesKey{}).([]string)
	return w
}

// A focusTerm is a name a focus looks for, with the qualifiers that
// rank higher the files that mention it: "DB.Head" looks for Head and
// ranks first the files that also mention DB.
type focusTerm struct {
	name  string
	quals []string
}

// focusTerms reads the names worth looking for (as [Index.Lookup] takes
// them; a plain word is a name): at least minFocusWord bytes, without
// repeats (ignoring case), at most maxFocusWords.
func focusTerms(names []string) []focusTerm {
	var out []focusTerm
	seen := map[string]bool{}
	for _, n := range names {
		nq, ok := parseName(n)
		if !ok || len(nq.name) < minFocusWord {
			continue
		}
		k := lowerASCII(strings.Join(append(slices.Clone(nq.quals), nq.name), "."))
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, focusTerm{name: nq.name, quals: nq.quals})
		if len(out) == maxFocusWords {
			break
		}
	}
	return out
}

// scanWords returns the words a scan for terms reads files for, without
// repeats (ignoring case), and each word's index by its lower case.
func scanWords(terms []focusTerm) ([]string, map[string]int) {
	var words []string
	index := map[string]int{}
	for _, t := range terms {
		for _, w := range append(slices.Clone(t.quals), t.name) {
			if _, ok := index[lowerASCII(w)]; !ok {
				index[lowerASCII(w)] = len(words)
				words = append(words, w)
			}
		}
	}
	return words, index
}

// A scanMark is what a scan found in a file at a size and mtime.
type scanMark struct {
	size, mtime int64
	rank        int // 0: no mention
}

// A focusMemo remembers, for the last words scanned for, what each file
// read held, so that the refreshes of one question (a lookup, the search
// after it, the graph's facts) read each file once.
type focusMemo struct {
	mu    sync.Mutex
	order []string                       // words, least recently used first
	marks map[string]map[string]scanMark // word (lower case) → path → mark
}

// get returns the rank of f for word and whether it is known.
func (m *focusMemo) get(word string, f diskFile) (int, bool) {
	mk, ok := m.marks[word][f.path]
	if !ok || mk.size != f.size || mk.mtime != f.mtime {
		return 0, false
	}
	return mk.rank, true
}

// use makes room for words and marks them most recently used. m.mu is
// held.
func (m *focusMemo) use(words []string) {
	if m.marks == nil {
		m.marks = map[string]map[string]scanMark{}
	}
	for _, w := range words {
		m.order = slices.DeleteFunc(m.order, func(o string) bool { return o == w })
		m.order = append(m.order, w)
		if m.marks[w] == nil {
			m.marks[w] = map[string]scanMark{}
		}
	}
	for len(m.order) > maxMemoWords {
		delete(m.marks, m.order[0])
		m.order = m.order[1:]
	}
}

// A focused plan is the changed files split by what a scan found.
type focused struct {
	first []diskFile // files to index: those that mention a word, by rank, then those not read
	rest  []diskFile // files that mention no word
	focus Focus
	// definers counts the files first begins with that mention a name
	// where a definition would name it (rankDefinesIt).
	definers int
}

// focus reads every file of changed for the terms' names and qualifiers
// (ignoring case), on every CPU, until deadline or focusScanMin after it
// starts, whichever is later, and splits them: the
// files that mention a name first, best first (see focusKey), then those
// the scan did not reach; the files that mention none apart.
func (ix *Index) focus(changed []diskFile, terms []focusTerm, deadline time.Time) focused {
	start := time.Now()
	words, index := scanWords(terms)
	named := len(words) // the words after these are wholesale re-exports
	words = append(words, wholesaleExports...)
	lw := make([]string, len(words))
	for i, w := range words {
		lw[i] = lowerASCII(w)
	}
	m := &ix.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	m.use(lw)
	wr := make([][]int, len(changed)) // per file, the rank of each word; nil: not read
	var todo []int
	for i, f := range changed {
		per := make([]int, len(words))
		known := true
		for j, w := range lw {
			per[j], known = m.get(w, f)
			if !known {
				break
			}
		}
		if known {
			wr[i] = per
		} else {
			todo = append(todo, i)
		}
	}
	if floor := start.Add(focusScanMin); deadline.Before(floor) {
		deadline = floor
	}
	ix.scanFiles(changed, todo, words, lw, wr, deadline)
	out := focused{focus: Focus{}}
	for _, t := range terms {
		out.focus.Names = append(out.focus.Names, strings.Join(append(slices.Clone(t.quals), t.name), "."))
	}
	var unread, carriers []diskFile
	keys := make([]int, len(changed))
	var order []int
	for i, f := range changed {
		switch {
		case wr[i] == nil:
			unread = append(unread, f)
		default:
			keys[i] = focusKey(terms, index, wr[i][:named], f.path)
			switch {
			case keys[i] > 0:
				order = append(order, i)
			case slices.ContainsFunc(wr[i][named:], func(r int) bool { return r > rankNone }) && len(carriers) < maxCarriers:
				carriers = append(carriers, f)
			default:
				out.rest = append(out.rest, f)
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] > keys[order[b]] })
	for _, i := range order {
		out.first = append(out.first, changed[i])
		if slices.Contains(wr[i][:named], rankDefinesIt) && out.definers == len(out.first)-1 {
			out.definers++
		}
	}
	out.focus.Matched, out.focus.Unread = len(order), len(unread)
	// A file that re-exports modules wholesale (a barrel's export * from)
	// carries every name of theirs without writing it: an import of the
	// name through it resolves only when it is indexed too.
	out.first = append(out.first, carriers...)
	out.first = append(out.first, unread...)
	out.focus.Elapsed = time.Since(start)
	return out
}

// wholesaleExports are the words of a re-export of a whole module:
// JavaScript's and TypeScript's export * from, Rust's pub use m::*.
var wholesaleExports = []string{"export * from", "::*;"}

// maxCarriers bounds the files of wholesale re-exports a focused refresh
// indexes beside those that mention a name.
const maxCarriers = 16

// focusKey orders the files that mention a term's name, higher first
// (0: none): by how the name is mentioned (see rankFile), then whether
// every qualifier of the term is mentioned as a whole word, then whether
// the syntax floor parses the file (a definition can be found in it),
// then whether it is not a test.
func focusKey(terms []focusTerm, index map[string]int, per []int, p string) int {
	best := 0
	for _, t := range terms {
		r := per[index[lowerASCII(t.name)]]
		if r == rankNone {
			continue
		}
		k := 2 * r
		if len(t.quals) > 0 && !slices.ContainsFunc(t.quals, func(q string) bool { return per[index[lowerASCII(q)]] < rankWord }) {
			k++
		}
		best = max(best, k)
	}
	if best == 0 {
		return 0
	}
	best *= 4
	if _, ok := syntax.LanguageOf(p); ok {
		best += 2
	}
	if !syntax.IsTestFile(p) {
		best++
	}
	return best
}

// scanBatch is how many files, consecutive in path order, one scan
// worker takes at a time: files of a directory go to one worker, which
// then opens the directory once.
const scanBatch = 16

// scanFiles reads the files of changed at the indexes todo, on every CPU
// until deadline, and sets their ranks of each word in wr (nil for a file
// not reached) and the memo's marks (m.mu is held). Each worker reads batches of files in path
// order through its own directory cache, into one buffer, at most the
// index's file size limit of each. A file that cannot be read, or that
// the index would hold as binary, mentions nothing.
func (ix *Index) scanFiles(changed []diskFile, todo []int, words, lw []string, wr [][]int, deadline time.Time) {
	sort.Slice(todo, func(a, b int) bool { return changed[todo[a]].path < changed[todo[b]].path })
	marks := make([][]int, len(todo)) // per todo entry, the rank of each word
	limit := ix.opts.maxFileSize()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(todo), max(1, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dirs := ix.root.DirCache()
			defer dirs.Close()
			var src, low []byte // reused: the file, and the file in lower case
			for {
				start := int(next.Add(1)-1) * scanBatch
				if start >= len(todo) || expired(deadline) {
					return
				}
				for k := start; k < min(start+scanBatch, len(todo)); k++ {
					f := changed[todo[k]]
					per := make([]int, len(words))
					var err error
					if src, err = readLimited(dirs, f.path, src[:0], limit); err == nil && !isBinary(src) {
						low = lowerInto(low, src)
						for j := range words {
							per[j] = rankFile(src, low, words[j], lw[j])
						}
					}
					marks[k] = per
				}
			}
		}()
	}
	wg.Wait()
	for k, i := range todo {
		if marks[k] == nil {
			continue
		}
		for j, w := range lw {
			ix.memo.marks[w][changed[i].path] = scanMark{size: changed[i].size, mtime: changed[i].mtime, rank: marks[k][j]}
		}
		wr[i] = marks[k]
	}
}

// readLimited reads the file name through dirs into buf, at most limit
// bytes of it.
func readLimited(dirs *contain.DirCache, name string, buf []byte, limit int64) ([]byte, error) {
	f, err := dirs.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(int(limit)-len(buf), max(cap(buf), 64<<10)))
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), int(limit))])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// Ranks of a file for a word, best last.
const (
	rankNone      = iota
	rankPart      // the word inside a longer identifier, or in another case
	rankWord      // the word whole, as written
	rankDefinesIt // the word whole, as written, where a definition would name it
)

// rankFile says how src (and low, src in lower case) mentions word (and
// lw, word in lower case): not at all, inside another word or in another
// case, as a whole word, or as a whole word on a line that looks like its
// definition (see defLike). It looks at the first maxRankedHits
// occurrences.
func rankFile(src, low []byte, word, lw string) int {
	best := rankNone
	exactCase := word != lw // a word given in lower case matches any case
	for at, n := 0, 0; n < maxRankedHits; n++ {
		i := bytes.Index(low[at:], []byte(lw))
		if i < 0 {
			break
		}
		i += at
		at = i + len(lw)
		r := rankPart
		whole := (i == 0 || !isIdentByte(src[i-1])) && (at == len(src) || !isIdentByte(src[at]))
		if whole && (!exactCase || string(src[i:at]) == word) {
			r = rankWord
			if defLike(src, i, len(lw)) {
				return rankDefinesIt
			}
		}
		best = max(best, r)
	}
	return best
}

// defKeywords are the words that, right before a name, declare it in one
// of the languages the index parses.
var defKeywords = map[string]bool{
	"func": true, "fn": true, "def": true, "fun": true, "function": true, "sub": true, "macro": true,
	"class": true, "struct": true, "interface": true, "enum": true, "trait": true, "union": true,
	"type": true, "typedef": true, "record": true, "object": true, "protocol": true, "module": true,
	"mod": true, "namespace": true, "const": true, "let": true, "var": true, "val": true,
	"static": true, "alias": true, "defmacro": true, "defn": true,
}

// notTypes are words that, before a name and its parameters, make a call
// rather than a definition.
var notTypes = map[string]bool{
	"return": true, "new": true, "if": true, "while": true, "for": true, "switch": true, "else": true,
	"case": true, "throw": true, "await": true, "yield": true, "go": true, "defer": true, "not": true,
	"and": true, "or": true, "in": true, "sizeof": true, "typeof": true, "delete": true,
}

// defLike reports whether the name at src[i:i+n] sits where a definition
// names what it defines: after a declaring keyword (with Go's receiver or
// Ruby's "self." stepped over), or, followed by its parameters, after a
// type on a line that does not end a statement (C, Java, C#), or first
// on a line that opens a body (a method in JavaScript or TypeScript). It
// only orders the files to parse; the parse decides.
func defLike(src []byte, i, n int) bool {
	ls := bytes.LastIndexByte(src[:i], '\n') + 1
	le := bytes.IndexByte(src[i:], '\n')
	if le < 0 {
		le = len(src)
	} else {
		le += i
	}
	if i-ls > 200 {
		return false
	}
	before := bytes.TrimRight(src[ls:i], " \t*&")
	if b, ok := bytes.CutSuffix(before, []byte("self.")); ok { // Ruby: def self.name
		before = bytes.TrimRight(b, " \t")
	}
	if k := len(before); k > 0 && before[k-1] == ')' { // Go: func (r *T) Name
		if o := bytes.LastIndexByte(before, '('); o >= 0 {
			before = bytes.TrimRight(before[:o], " \t")
		}
	}
	last := lastWord(before)
	if defKeywords[last] {
		return true
	}
	after := bytes.TrimLeft(src[i+n:le], " \t")
	if len(after) == 0 || after[0] != '(' {
		return false
	}
	line := bytes.TrimRight(src[ls:le], " \t\r")
	lead := bytes.TrimSpace(before)
	if len(lead) == 0 {
		return bytes.HasSuffix(line, []byte("{"))
	}
	return !notTypes[last] && !bytes.ContainsAny(lead, "=(,;:.!?<>+-/|") && !bytes.HasSuffix(line, []byte(";"))
}

// lastWord returns the identifier that ends b, if any.
func lastWord(b []byte) string {
	j := len(b)
	for j > 0 && isIdentByte(b[j-1]) {
		j--
	}
	return string(b[j:])
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lowerTable maps each byte to itself, ASCII capitals to their lower
// case.
var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// lowerInto returns src with ASCII letters in lower case, in dst's
// storage when it is large enough; other bytes are kept, so offsets are
// the same in both.
func lowerInto(dst, src []byte) []byte {
	dst = slices.Grow(dst[:0], len(src))[:len(src)]
	for i, c := range src {
		dst[i] = lowerTable[c]
	}
	return dst
}

func lowerASCII(s string) string { return string(lowerInto(nil, []byte(s))) }

// describe says what a focused refresh did, for an answer's report: which
// files it read and indexed, and that the others are not indexed yet, so
// that an absence is never taken for complete knowledge. pending is how
// many changed files the refresh left pending.
func (f *Focus) describe(pending int) string {
	var b strings.Builder
	names := `"` + strings.Join(f.Names, `", "`) + `"`
	fmt.Fprintf(&b, "first contact: the index holds only part of the project (%d files not indexed yet); this question read those files for %s", pending+f.IndexedCount, names)
	if f.Matched == 0 && f.Unread == 0 {
		b.WriteString(" and none mentions them: every file that does is indexed, and what the others define and use is not known until they are indexed")
		return b.String()
	}
	if f.Matched == 0 {
		b.WriteString(" and none it read mentions them")
	} else {
		fmt.Fprintf(&b, ": %d mention them", f.Matched)
		if f.IndexedCount > 0 {
			fmt.Fprintf(&b, "; indexed now: %s", strings.Join(f.Indexed, ", "))
			if f.IndexedCount > len(f.Indexed) {
				fmt.Fprintf(&b, " and %d more", f.IndexedCount-len(f.Indexed))
			}
		}
		if left := f.Matched - f.IndexedCount; left > 0 {
			fmt.Fprintf(&b, "; %d that mention them did not fit in the time budget and are not indexed yet", left)
		}
	}
	if f.Unread > 0 {
		fmt.Fprintf(&b, "; %d were not read in time and may mention them", f.Unread)
	}
	if rest := pending - max(0, f.Matched-f.IndexedCount) - f.Unread; rest > 0 {
		fmt.Fprintf(&b, "; the other %d do not mention them, and what they define and use is not known until they are indexed", rest)
	}
	return b.String()
}
