package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
)

// A precision index is the symbol half of the structural fallback.
var _ structural.SymbolSearcher = (*precision.Provider)(nil)

// structuralFlags are the flags shared by search, structural and sg.
type structuralFlags struct {
	fs         *flag.FlagSet
	asJSON     *bool
	pattern    *string
	lang       *string
	rewrite    *string
	maxMatches *int
}

func newStructuralFlags(e *Env, name, argsUsage string, patternFlag bool) *structuralFlags {
	fs, asJSON := flags(e, name, argsUsage)
	f := &structuralFlags{fs: fs, asJSON: asJSON}
	if patternFlag {
		f.pattern = fs.String("p", "", "the ast-grep style `pattern`, such as 'old_api($$$ARGS)'")
		fs.StringVar(f.pattern, "pattern", "", "same as -p")
		f.lang = fs.String("l", "", "the pattern's `language` (c, go, java, javascript, json, python, rust, tsx, typescript)")
		fs.StringVar(f.lang, "lang", "", "same as -l")
	} else {
		f.lang = fs.String("lang", "", "the pattern's `language`; empty means every language the pattern parses in")
		fs.StringVar(f.lang, "l", "", "same as --lang")
	}
	f.rewrite = fs.String("rewrite", "", "print the diff that replacing every match by `template` would make; nothing is written")
	f.maxMatches = fs.Int("max-matches", 0, "stop after `n` matches (default 10000)")
	return f
}

// runSearch is `cortex search [flags] PATTERN [PATHS...]`.
func runSearch(ctx context.Context, e *Env, args []string) int {
	f := newStructuralFlags(e, "search", "PATTERN [PATH...]", false)
	pos, code, ok := parseInterleaved(f.fs, args)
	if !ok {
		return code
	}
	if len(pos) < 1 {
		f.fs.Usage()
		return ExitUsage
	}
	return structuralSearch(ctx, e, f, pos[0], pos[1:])
}

// runStructural is `cortex structural -p PATTERN -l LANG [PATH...]`, for
// people used to ast-grep's flags.
func runStructural(ctx context.Context, e *Env, args []string) int {
	f := newStructuralFlags(e, "structural", "-p PATTERN -l LANG [PATH...]", true)
	pos, code, ok := parseInterleaved(f.fs, args)
	if !ok {
		return code
	}
	if *f.pattern == "" {
		fmt.Fprintln(e.Stderr, "cortex structural: -p PATTERN is required")
		f.fs.Usage()
		return ExitUsage
	}
	return structuralSearch(ctx, e, f, *f.pattern, pos)
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, which it returns; everything after "--" is
// positional.
func parseInterleaved(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if code, ok := parse(fs, args); !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func structuralSearch(ctx context.Context, e *Env, f *structuralFlags, pattern string, paths []string) int {
	var lang structural.Language
	if *f.lang != "" {
		l, err := structural.ParseLanguage(*f.lang)
		if err != nil {
			fmt.Fprintln(e.Stderr, "cortex: "+err.Error())
			return ExitUsage
		}
		lang = l
	}
	p, err := openProject(e)
	if err != nil {
		return fail(e, nil, err)
	}
	defer p.Close()
	opts := structural.Options{Disabled: !p.cfg.Structural.Enabled}
	if c := p.cfg.Structural.Command; c != nil {
		opts.Command = *c
	}
	if p.cfg.PrecisionIndex.Enabled {
		// The symbol half of the fallback. A search never runs the index
		// generator: a stale index answers, marked stale.
		prov := precisionProvider(e, p)
		prov.DisableGeneration()
		defer prov.Close()
		opts.Symbols = prov
	}
	req := structural.Request{Root: p.root.Dir(), Pattern: pattern, Language: lang, Paths: paths,
		Limits: structural.Limits{MaxMatches: *f.maxMatches}}

	stop := progress(e.Stderr, "searching")
	ans, err := structural.Search(ctx, opts, req)
	stop()
	if err != nil {
		if errors.Is(err, structural.ErrInvalidPattern) {
			fmt.Fprintln(e.Stderr, "cortex: "+p.red.String(err.Error()))
			return ExitUsage
		}
		return fail(e, p.red, err)
	}
	var edits []structural.Edit
	if *f.rewrite != "" {
		if ans.Structural == nil {
			fmt.Fprintln(e.Stderr, "cortex: no rewrite: "+ans.Report.Reason)
			return ExitFail
		}
		edits, err = structural.Rewrite(ans.Structural.Matches, *f.rewrite)
		if err != nil {
			fmt.Fprintln(e.Stderr, "cortex: "+p.red.String(err.Error()))
			return ExitUsage
		}
	}
	recs := ans.Records(pattern)
	switch {
	case *f.asJSON && *f.rewrite != "":
		// Redact the values, not the encoded JSON, which a redaction
		// pattern could cut through.
		for i := range edits {
			edits[i].Old, edits[i].New = p.red.String(edits[i].Old), p.red.String(edits[i].New)
		}
		b, err := json.MarshalIndent(map[string]any{"edits": edits, "report": ans.Report}, "", "  ")
		if err != nil {
			return fail(e, p.red, err)
		}
		fmt.Fprintln(e.Stdout, string(b))
	case *f.asJSON:
		for _, r := range recs {
			b, err := json.Marshal(redactRecord(p, r))
			if err != nil {
				return fail(e, p.red, err)
			}
			fmt.Fprintln(e.Stdout, string(b))
		}
	case *f.rewrite != "":
		if err := printDiff(e.Stdout, p, edits); err != nil {
			return fail(e, p.red, err)
		}
	default:
		printAnswer(e.Stdout, e.Stderr, p, ans)
	}
	if len(recs) == 0 {
		return ExitFail
	}
	return ExitOK
}

// redactRecord redacts the text a record carries from the source.
func redactRecord(p *project, r evidence.Record) evidence.Record {
	r.Metadata.Excerpt = p.red.String(r.Metadata.Excerpt)
	attrs := make(map[string]string, len(r.Metadata.Attributes))
	for k, v := range r.Metadata.Attributes {
		attrs[k] = p.red.String(v)
	}
	r.Metadata.Attributes = attrs
	return r
}

func printAnswer(out, errw io.Writer, p *project, ans *structural.Answer) {
	if lx := ans.Lexical; lx != nil {
		fmt.Fprintln(out, "warning: "+structural.LexicalNotice)
		fmt.Fprintln(out, "reason: "+p.red.String(lx.Reason))
		for _, h := range lx.Hits {
			fmt.Fprintf(out, "%s:%d:%d: %s\n", h.Path, h.Range.StartLine, h.Range.StartColumn, p.red.String(h.Line))
		}
		fmt.Fprintf(errw, "%s in %s (weak evidence)\n", count(len(lx.Hits), "lexical hit"), count(lx.Files, "file"))
		for _, n := range lx.Notes {
			fmt.Fprintln(errw, "note: "+p.red.String(n))
		}
		if sy := ans.Symbols; sy != nil {
			printSymbols(out, errw, p, sy)
		}
		return
	}
	res := ans.Structural
	files := map[string]bool{}
	for _, m := range res.Matches {
		files[m.Path] = true
		lines := strings.Split(m.Lines, "\n")
		fmt.Fprintf(out, "%s:%d:%d: %s\n", m.Path, m.Range.StartLine, m.Range.StartColumn, p.red.String(lines[0]))
		for i, l := range lines[1:] {
			fmt.Fprintf(out, "%s:%d: %s\n", m.Path, m.Range.StartLine+1+i, p.red.String(l))
		}
	}
	fmt.Fprintf(errw, "%s in %s (%s engine, %s searched, %d parsed)\n",
		count(len(res.Matches), "match"), count(len(files), "file"), res.Engine, count(res.Files, "file"), res.Parsed)
	for _, n := range res.Notes {
		fmt.Fprintln(errw, "note: "+p.red.String(n))
	}
}

// printSymbols prints the symbol half of a fallback: where the pattern's
// names resolve, each with its tier, and on errw what was asked and the
// searcher's state.
func printSymbols(out, errw io.Writer, p *project, sy *structural.SymbolResult) {
	if len(sy.Records) > 0 {
		fmt.Fprintln(out, "warning: "+structural.SymbolNotice)
		for _, r := range sy.Records {
			fmt.Fprintln(out, p.red.String(recordLine(r)))
		}
	}
	if len(sy.Names) > 0 {
		fmt.Fprintf(errw, "%s for %s\n", count(len(sy.Records), "symbol record"), strings.Join(sy.Names, ", "))
	}
	rep := sy.Report
	if rep.State != evidence.Available || rep.Reason != "" {
		msg := "symbol search: " + string(rep.State)
		if rep.Reason != "" {
			msg += " — " + rep.Reason
		}
		fmt.Fprintln(errw, "note: "+p.red.String(msg))
		if rep.Guidance != "" {
			fmt.Fprintln(errw, p.red.String("  → "+rep.Guidance))
		}
	}
	for _, d := range rep.Dropped {
		fmt.Fprintln(errw, p.red.String("note: symbol search: dropped "+d))
	}
}

// printDiff prints the edits as a unified diff against the files as they
// are; it writes nothing.
func printDiff(w io.Writer, p *project, edits []structural.Edit) error {
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
		fmt.Fprintf(w, "--- a/%s\n+++ b/%s\n", name, name)
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
			fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", start, len(oldLines), start+delta, len(newLines))
			for _, l := range oldLines {
				fmt.Fprintln(w, p.red.String("-"+l))
			}
			for _, l := range newLines {
				fmt.Fprintln(w, p.red.String("+"+l))
			}
			delta += len(newLines) - len(oldLines)
			i = j
		}
	}
	return nil
}

// progress shows a spinner-free elapsed-time line on w while work runs
// longer than a moment, only when w is a terminal. The returned function
// stops it and clears the line.
func progress(w io.Writer, what string) (stop func()) {
	f, ok := w.(*os.File)
	if !ok {
		return func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
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
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case <-t.C:
				if el := time.Since(start); el >= time.Second {
					fmt.Fprintf(f, "\rcortex: %s… %.0fs", what, el.Seconds())
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
