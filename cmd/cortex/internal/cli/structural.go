package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
)

// A precision index is the symbol half of the structural fallback.
var _ structural.SymbolSearcher = (*precision.Provider)(nil)

// structuralFlags are the flags shared by search, structural and sg.
type structuralFlags struct {
	pattern    *string
	lang       *string
	rewrite    *string
	maxMatches *int
}

func newStructuralFlags(c *cmd, patternFlag bool) *structuralFlags {
	fs := c.fs
	f := &structuralFlags{}
	langs := languageList()
	if patternFlag {
		f.pattern = fs.String("p", "", "the ast-grep style `pattern`, such as 'old_api($$$ARGS)'")
		fs.StringVar(f.pattern, "pattern", "", "same as -p")
		f.lang = fs.String("l", "", "the pattern's `language` ("+langs+")")
		fs.StringVar(f.lang, "lang", "", "same as -l")
	} else {
		f.lang = fs.String("lang", "", "the pattern's `language` ("+langs+"); empty means every language the pattern parses in")
		fs.StringVar(f.lang, "l", "", "same as --lang")
	}
	f.rewrite = fs.String("rewrite", "", "print the diff that replacing every match by `template` would make; nothing is written")
	f.maxMatches = fs.Int("max-matches", 0, "stop after `n` matches (default 10000)")
	c.streams = true
	return f
}

// runSearch is `cortex search [flags] PATTERN [PATHS...]`.
//
// One command does what its name promises: words are searched in the
// local index, ranked, and a pattern is matched by syntax. A search is
// structural when it names a language (--lang), asks for a rewrite, or
// its first argument holds a metavariable ($X, $$$ARGS); the rest of the
// arguments are then paths. Otherwise every argument is a word of the text
// searched; --text forces that reading.
func runSearch(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "TEXT... | PATTERN [PATH...]"
	f := newStructuralFlags(c, false)
	text := c.fs.Bool("text", false, "search the words in the local index even if they look like a pattern")
	limit := c.fs.Int("limit", 20, "show at most `n` text hits")
	pos, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	if !*text && (*f.lang != "" || *f.rewrite != "" || metavariable.MatchString(pos[0])) {
		return structuralSearch(ctx, c, f, pos[0], pos[1:])
	}
	return textSearch(ctx, c, strings.Join(pos, " "), *limit)
}

// metavariable finds a structural pattern's metavariable.
var metavariable = regexp.MustCompile(`\$(\$\$)?[A-Z_][A-Z0-9_]*`)

// textJSON is what a text search prints with --json.
type textJSON struct {
	Mode string `json:"mode"` // "text"
	index.SearchResult
}

// textSearch searches the local index for words: ranked chunks, the ones
// that define a queried name first, then those that name it, then text.
func textSearch(ctx context.Context, c *cmd, text string, limit int) int {
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, stop, err := c.indexEngine(p, true)
	if err != nil {
		return c.fail(err)
	}
	res, err := eng.Search(ctx, codecortex.SearchQuery{Text: text, Limit: limit})
	stop()
	if errors.Is(err, index.ErrEmptyQuery) {
		return c.usageError(fmt.Errorf("%q: no word to search for", text))
	}
	if err != nil {
		return c.fail(err)
	}
	code := ExitOK
	if len(res.Hits) == 0 {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(textJSON{"text", res}); err != nil {
			return c.fail(err)
		}
		return code
	}
	for _, h := range res.Hits {
		head := fmt.Sprintf("%s:%d-%d  %s", h.Path, h.StartLine, h.EndLine, h.Match)
		if h.Symbol != "" {
			head += "  " + h.SymbolKind + " " + h.Symbol
		}
		if h.Stale {
			head += "  (changed since indexed)"
		}
		c.printf("%s\n", safe(head))
		lines := strings.Split(strings.TrimRight(h.Excerpt, "\n"), "\n")
		for i, l := range lines {
			if i == 4 {
				c.printf("    …\n")
				break
			}
			c.printf("    %s\n", safe(clip(l)))
		}
	}
	c.note("%s for %s (%s); weak evidence: text, not resolution", count(len(res.Hits), "hit"), strings.Join(res.Terms, ", "), res.Freshness.State)
	if n := res.Freshness.PendingCount; n > 0 {
		c.note("cortex: freshness partial: %d changed files not indexed yet (cortex index)", n)
	}
	for _, d := range res.Freshness.Diagnostics {
		c.note("cortex: %s", safe(d))
	}
	return code
}

// runStructural is `cortex structural -p PATTERN -l LANG [PATH...]`, for
// people used to ast-grep's flags.
func runStructural(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "-p PATTERN [-l LANG] [PATH...]"
	f := newStructuralFlags(c, true)
	pos, code, ok := c.parse(args, 0, -1)
	if !ok {
		return code
	}
	if *f.pattern == "" {
		return c.usageError(errors.New("-p PATTERN is required"))
	}
	return structuralSearch(ctx, c, f, *f.pattern, pos)
}

// structuralJSON is what search, structural and sg print with --json.
type structuralJSON struct {
	Pattern  string              `json:"pattern"`
	Language structural.Language `json:"language,omitempty"`
	Records  []evidence.Record   `json:"records"`
	Report   evidence.Report     `json:"report"`
	// Edits are the replacements --rewrite would make (nothing is written).
	Edits []structural.Edit `json:"edits,omitempty"`
}

func structuralSearch(ctx context.Context, c *cmd, f *structuralFlags, pattern string, args []string) int {
	var lang structural.Language
	if *f.lang != "" {
		l, err := structural.ParseLanguage(*f.lang)
		if err != nil {
			return c.usageError(err)
		}
		lang = l
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	paths, err := p.rels(args)
	if err != nil {
		return c.finish(err)
	}
	if *f.rewrite != "" {
		// An invalid template is refused before anything is searched.
		if err := structural.CheckTemplate(pattern, *f.rewrite); err != nil {
			return c.usageError(err)
		}
	}
	req := structural.Request{Root: p.Root, Pattern: pattern, Language: lang, Paths: paths,
		Limits: structural.Limits{MaxMatches: *f.maxMatches}}
	// One process answers one query: a parse cache would only hold every
	// tree until the process ends. A search never runs the index
	// generator: the symbol half of the fallback answers from a stale
	// index, marked stale.
	eng, err := p.engine(codecortex.Options{NoGenerate: true,
		Builtin: structural.NewBuiltin(structural.BuiltinOptions{CacheBytes: -1, Workers: searchWorkers()})})
	if err != nil {
		return c.fail(err)
	}
	prov := eng.Structural()
	if c.json != jsonOff && *f.rewrite == "" {
		engine := structural.BuiltinName
		if p.StructuralOptions().Command != "" {
			engine = structural.AstGrepName
		}
		return streamStructural(ctx, c, prov, req, engine)
	}
	return searchAndPrint(ctx, c, p, prov, req, *f.rewrite)
}

// searchAndPrint searches for req's pattern and prints the answer, or with
// a rewrite template, the diff of the rewrite (checked to parse); a
// --json document holds the records, the report and the edits.
func searchAndPrint(ctx context.Context, c *cmd, p *project, prov *structural.Provider, req structural.Request, template string) int {
	stop := progress(c.progressOut(), "searching")
	ans, err := prov.Search(ctx, req)
	stop()
	if err != nil {
		if errors.Is(err, structural.ErrInvalidPattern) {
			return c.usageError(err)
		}
		return c.fail(err)
	}
	var edits []structural.Edit
	if template != "" {
		// Rewrite checks that every rewritten file still parses.
		edits, err = prov.Rewrite(ctx, ans, template)
		var te *structural.TemplateError
		switch {
		case errors.As(err, &te):
			return c.usageError(err)
		case err != nil:
			return c.fail(err)
		}
	}
	recs := ans.Records()
	code := ExitOK
	if len(recs) == 0 {
		code = ExitFail
	}
	switch {
	case c.json != jsonOff:
		out := structuralJSON{Pattern: req.Pattern, Language: req.Language, Records: recs, Report: ans.Report, Edits: edits}
		if out.Records == nil {
			out.Records = []evidence.Record{}
		}
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
	case template != "":
		if err := printDiff(c, p, edits); err != nil {
			return c.fail(err)
		}
	default:
		printAnswer(c, ans)
	}
	return code
}

// streamStructural answers a search with --json or --json=stream (no
// rewrite): each record is printed as its match is found, in the order of
// the answer, so memory holds a few files' matches and not all of them.
// The output is what printing the whole answer at the end would give:
// one JSON line per record with --json=stream, the structuralJSON
// document with --json.
func streamStructural(ctx context.Context, c *cmd, prov *structural.Provider, req structural.Request, engine string) int {
	w := bufio.NewWriterSize(c.Stdout, 64<<10)
	// A line of --json=stream redacts the text from the source; a
	// document every string (see recordEncoder).
	st := &recordStream{w: w, doc: c.json != jsonStream, engine: engine, pattern: req.Pattern,
		enc: recordEncoder{doc: c.json != jsonStream, red: c.redact, prefix: "    "}}
	if st.doc {
		// The document's text up to its records' opening bracket; the
		// report comes after them.
		head, _, err := splitDocument(c, req, &evidence.Report{})
		if err != nil {
			return c.fail(err)
		}
		if _, err := w.Write(head); err != nil {
			return c.fail(err)
		}
	}
	// emit keeps nothing of a match (the encoder's memo copies what it
	// keeps), so the engine may read later files into a printed one's
	// memory.
	req.Each = func(m *structural.Match) error { return st.emit(m, evidence.Record{}) }
	req.Recycle = true
	stop := progress(c.progressOut(), "searching")
	ans, err := prov.Search(ctx, req)
	stop()
	if err != nil {
		if errors.Is(err, structural.ErrInvalidPattern) {
			return c.usageError(err)
		}
		return c.fail(err)
	}
	// A fallback's records were not streamed.
	for _, r := range ans.Records() {
		if err := st.emit(nil, r); err != nil {
			return c.fail(err)
		}
	}
	if st.doc {
		_, tail, err := splitDocument(c, req, &ans.Report)
		if err != nil {
			return c.fail(err)
		}
		if st.n > 0 {
			if _, err := w.WriteString("\n  "); err != nil {
				return c.fail(err)
			}
		}
		if _, err := w.Write(tail); err != nil {
			return c.fail(err)
		}
	}
	if err := w.Flush(); err != nil {
		return c.fail(err)
	}
	if st.n == 0 {
		return ExitFail
	}
	return ExitOK
}

// splitDocument returns the text of a structural answer's JSON document
// before its records (up to the array's opening bracket) and after them.
func splitDocument(c *cmd, req structural.Request, rep *evidence.Report) (head, tail []byte, err error) {
	frame := recordEncoder{doc: true, red: c.redact}
	b := frame.appendDocument(nil, req.Pattern, req.Language, rep)
	at := bytes.Index(b, recordsKey)
	if at < 0 {
		return nil, nil, errors.New("structural: the answer's JSON lacks its records")
	}
	return b[:at+len(recordsKey)], b[at+len(recordsKey):], nil
}

// A recordStream writes records as they come: one a line with
// --json=stream, or as the members of a document's records array.
type recordStream struct {
	w               *bufio.Writer
	doc             bool
	enc             recordEncoder
	engine, pattern string
	buf             []byte
	n               int // records written
}

// emit writes one record, which m is when it is not nil (encoded without
// building the record) and r otherwise.
func (st *recordStream) emit(m *structural.Match, r evidence.Record) error {
	st.buf = st.buf[:0]
	if st.doc {
		if st.n > 0 {
			st.buf = append(st.buf, ',')
		}
		st.buf = append(st.buf, "\n    "...)
	}
	var err error
	if m != nil {
		st.buf, err = st.enc.appendMatch(st.buf, m, st.engine, st.pattern)
	} else {
		st.buf, err = st.enc.appendAny(st.buf, r)
	}
	if err != nil {
		return err
	}
	if !st.doc {
		st.buf = append(st.buf, '\n')
	}
	st.n++
	_, err = st.w.Write(st.buf)
	return err
}

// recordsKey is where an indented structuralJSON opens its records.
var recordsKey = []byte("\n  \"records\": [")

func printAnswer(c *cmd, ans *structural.Answer) {
	if lx := ans.Lexical; lx != nil {
		c.printf("warning: %s\n", structural.LexicalNotice)
		c.printf("reason: %s\n", safe(lx.Reason))
		for _, h := range lx.Hits {
			c.printf("%s:%d:%d: %s\n", safe(h.Path), h.Range.StartLine, h.Range.StartColumn, safe(h.Line))
		}
		c.note("%s in %s (weak evidence)", count(len(lx.Hits), "lexical hit"), count(lx.Files, "file"))
		for _, n := range lx.Notes {
			c.note("note: %s", safe(n))
		}
		if sy := ans.Symbols; sy != nil {
			printSymbols(c, sy)
		}
		return
	}
	res := ans.Structural
	files := map[string]bool{}
	for _, m := range res.Matches {
		files[m.Path] = true
		lines := strings.Split(m.Lines, "\n")
		c.printf("%s:%d:%d: %s\n", safe(m.Path), m.Range.StartLine, m.Range.StartColumn, safe(lines[0]))
		for i, l := range lines[1:] {
			c.printf("%s:%d: %s\n", safe(m.Path), m.Range.StartLine+1+i, safe(l))
		}
	}
	c.note("%s in %s (%s engine, %s searched, %d parsed)",
		count(len(res.Matches), "match"), count(len(files), "file"), res.Engine, count(res.Files, "file"), res.Parsed)
	for _, n := range res.Notes {
		c.note("note: %s", safe(n))
	}
}

// printSymbols prints the symbol half of a fallback: where the pattern's
// names resolve, each with its tier, and on errw what was asked and the
// searcher's state.
func printSymbols(c *cmd, sy *structural.SymbolResult) {
	if len(sy.Records) > 0 {
		c.printf("warning: %s\n", structural.SymbolNotice)
		for i := range sy.Records {
			var prev *evidence.Record
			if i > 0 {
				prev = &sy.Records[i-1]
			}
			c.printf("%s\n", safe(recordLine(&sy.Records[i], prev)))
		}
	}
	if len(sy.Names) > 0 {
		c.note("%s for %s", count(len(sy.Records), "symbol record"), strings.Join(sy.Names, ", "))
	}
	rep := sy.Report
	if rep.State != evidence.Available || rep.Reason != "" {
		msg := "symbol search: " + string(rep.State)
		if rep.Reason != "" {
			msg += " — " + rep.Reason
		}
		c.note("note: %s", safe(msg))
		if rep.Guidance != "" {
			c.note("  → %s", safe(rep.Guidance))
		}
	}
	for _, d := range rep.Dropped {
		c.note("note: symbol search: dropped %s", safe(d))
	}
}

// printDiff prints the edits as a unified diff against the files as they
// are; it writes nothing.
func printDiff(c *cmd, p *project, edits []structural.Edit) error {
	byFile := map[string][]structural.Edit{}
	var names []string
	for _, ed := range edits {
		if _, ok := byFile[ed.Path]; !ok {
			names = append(names, ed.Path)
		}
		byFile[ed.Path] = append(byFile[ed.Path], ed)
	}
	sort.Strings(names)
	for _, name := range names {
		src, err := p.root.ReadFile(name)
		if err != nil {
			return err
		}
		c.printf("--- a/%s\n+++ b/%s\n", safe(name), safe(name))
		es := byFile[name]
		delta := 0
		for i := 0; i < len(es); {
			// A hunk covers whole lines and every edit touching them.
			j := i + 1
			for j < len(es) && es[j].Range.StartLine <= es[j-1].Range.EndLine {
				j++
			}
			bs := es[i].StartByte
			for bs > 0 && src[bs-1] != '\n' {
				bs--
			}
			be := es[j-1].EndByte
			for be < len(src) && src[be] != '\n' {
				be++
			}
			var shifted []structural.Edit
			for _, ed := range es[i:j] {
				ed.StartByte -= bs
				ed.EndByte -= bs
				shifted = append(shifted, ed)
			}
			newBlock, err := structural.ApplyEdits(src[bs:be], shifted)
			if err != nil {
				return err
			}
			oldLines := strings.Split(string(src[bs:be]), "\n")
			newLines := strings.Split(string(newBlock), "\n")
			start := es[i].Range.StartLine
			c.printf("@@ -%d,%d +%d,%d @@\n", start, len(oldLines), start+delta, len(newLines))
			for _, l := range oldLines {
				c.printf("-%s\n", safe(clip(l)))
			}
			for _, l := range newLines {
				c.printf("+%s\n", safe(clip(l)))
			}
			delta += len(newLines) - len(oldLines)
			i = j
		}
	}
	return nil
}

// maxDiffLine bounds a line of a previewed diff: a rewrite in a minified
// file must not print the whole file once per edit.
const maxDiffLine = 512

// clip shortens a long line for display, saying how much it left out.
func clip(l string) string {
	if len(l) <= maxDiffLine {
		return l
	}
	cut := maxDiffLine
	for cut > 0 && !utf8.RuneStart(l[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", l[:cut], len(l)-cut)
}

// progress shows a spinner-free elapsed-time line on w while work runs
// longer than a moment; nil w (see cmd.progressOut) shows nothing. The
// returned function stops it and clears the line.
func progress(w io.Writer, what string) (stop func()) {
	if w == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-t.C:
				if el := time.Since(start); el >= time.Second {
					fmt.Fprintf(w, "\rcortex: %s… %.0fs", what, el.Seconds())
					shown = true
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// count says "1 match", "2 matches", "0 files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// languageList names the languages the built-in engine of this build has.
func languageList() string {
	var langs []string
	for _, l := range structural.Languages() {
		langs = append(langs, string(l))
	}
	return strings.Join(langs, ", ")
}
