package structural

import (
	"context"
	"errors"
	"fmt"

	"github.com/codecortex/codecortex/evidence"
)

// Options choose how [Search] and the [Provider] answer. The zero value
// searches the working directory with the built-in engine and falls back
// to lexical search when it cannot run. Callees never modify it.
type Options struct {
	// Dir is the project root; "" means the working directory. [Search]
	// uses it for a request without a Root, and the Provider for every
	// query.
	Dir string
	// Limits bound every search; a zero field takes the request's value
	// in [Search], and the default when both are zero.
	Limits Limits
	// Disabled switches structural search off (config structural.enabled
	// false): every answer is the lexical fallback.
	Disabled bool
	// Command, when set, is an ast-grep binary to use instead of the
	// built-in engine (config structural.command).
	Command string
	// Builtin is the built-in engine to use, so that its parse cache
	// lives across searches; nil means a new one for each [Search] (the
	// Provider keeps one of its own).
	Builtin *Builtin
	// Symbols, when set, is the symbol half of the fallback: when no
	// structural engine answers, it is asked about the identifiers the
	// pattern names (or the terms of a question in words), and its
	// records join the lexical hits. It is never asked when an engine
	// answers.
	Symbols SymbolSearcher
}

// An Answer is a structural search's outcome: structural matches, or,
// when no structural engine could run or the question was asked in
// words, the fallback: lexical hits and, with [Options.Symbols], symbol
// records, which say plainly that they lack structural precision.
type Answer struct {
	// Pattern is the pattern searched for; empty for a question in words.
	Pattern string `json:"pattern,omitempty"`
	// Terms are the identifier-like terms of a question in words that the
	// fallback searched for (see [TextTerms]); empty for a pattern.
	Terms      []string       `json:"terms,omitempty"`
	Structural *Result        `json:"structural,omitempty"`
	Lexical    *LexicalResult `json:"lexical,omitempty"`
	// Symbols is the symbol half of a fallback; nil for a structural
	// answer or without a [SymbolSearcher].
	Symbols *SymbolResult   `json:"symbols,omitempty"`
	Report  evidence.Report `json:"report"`
	// root is the directory searched, which [Provider.Rewrite] checks the
	// rewritten files in.
	root string
}

// Records returns the answer as evidence records: structural for engine
// matches; for a fallback, weak and lexical for the text hits, then the
// symbol records as the [SymbolSearcher] produced them.
func (a *Answer) Records() []evidence.Record {
	var out []evidence.Record
	if a.Structural != nil {
		for i := range a.Structural.Matches {
			out = append(out, a.Structural.Matches[i].Record(a.Structural.Engine, a.Pattern))
		}
	}
	if a.Lexical != nil {
		for i := range a.Lexical.Hits {
			out = append(out, a.Lexical.Hits[i].Record(a.Pattern))
		}
	}
	if a.Symbols != nil {
		out = append(out, a.Symbols.Records...)
	}
	return out
}

// request returns req with the root and limits opts gives where req
// gives none.
func (opts *Options) request(req Request) Request {
	if req.Root == "" {
		req.Root = opts.Dir
	}
	l := &req.Limits
	if l.MaxFiles <= 0 {
		l.MaxFiles = opts.Limits.MaxFiles
	}
	if l.MaxMatches <= 0 {
		l.MaxMatches = opts.Limits.MaxMatches
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = opts.Limits.MaxFileBytes
	}
	return req
}

// Search answers req with the configured engine, in req.Root (or
// opts.Dir when it is empty). An invalid pattern is always an error (a
// [*PatternError]), never an empty answer. When the engine is disabled,
// unavailable (no cgo, ast-grep missing or not the verified version) or
// does not know the language, the answer is the fallback — lexical hits,
// plus the records of opts.Symbols about the identifiers the pattern
// names — and its report says why. A failing symbol searcher is a note in
// the report, never a failed search.
func Search(ctx context.Context, opts Options, req Request) (*Answer, error) {
	req = opts.request(req)
	fallback := func(reason string, state evidence.State) (*Answer, error) {
		lex, err := LexicalSearch(ctx, req, reason)
		if err != nil {
			return nil, err
		}
		ans := &Answer{Pattern: req.Pattern, root: req.Root, Lexical: lex, Report: evidence.Report{
			Provider: ProviderName, State: state, Reason: reason + "; " + LexicalNotice,
			Records: len(lex.Hits),
		}}
		if opts.Symbols != nil {
			ans.addSymbols(searchSymbols(ctx, opts.Symbols, symbolNames(req.Pattern), "the pattern names no identifier to look up"))
		}
		return ans, nil
	}
	if err := checkPatternSize(req.Pattern, req.Language); err != nil {
		return nil, err
	}
	if opts.Disabled {
		return fallback("structural search is disabled in the configuration (structural.enabled is false)", evidence.Disabled)
	}
	if req.Language != "" && !req.Language.Valid() {
		return fallback(fmt.Sprintf("no structural engine supports the language %q", req.Language), evidence.Unavailable)
	}
	var eng Engine
	if opts.Command != "" {
		eng = NewAstGrep(AstGrepOptions{Command: opts.Command})
	} else {
		b := opts.Builtin
		if b == nil {
			b = NewBuiltin(BuiltinOptions{})
		}
		if err := b.Available(); err != nil {
			return fallback(err.Error(), evidence.Unavailable)
		}
		eng = b
	}
	res, err := eng.Search(ctx, req)
	if err != nil {
		var pe *PatternError
		if errors.As(err, &pe) && pe.Problem != ProblemLanguage {
			return nil, err
		}
		if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrVersionMismatch) || errors.As(err, &pe) {
			return fallback(err.Error(), evidence.Unavailable)
		}
		return nil, err
	}
	return &Answer{Pattern: req.Pattern, root: req.Root, Structural: res, Report: evidence.Report{
		Provider: ProviderName, State: evidence.Available, Records: res.Found,
	}}, nil
}

// addSymbols adds the symbol half of a fallback to the answer and its
// report.
func (a *Answer) addSymbols(sym *SymbolResult) {
	a.Symbols = sym
	a.Report.Records += len(sym.Records)
	a.Report.Reason += "; " + sym.summary()
	if a.Report.Guidance == "" {
		a.Report.Guidance = sym.Report.Guidance
	}
}
