package structural

import (
	"context"
	"errors"
	"fmt"

	"github.com/codecortex/codecortex/evidence"
)

// Options choose how [Search] answers. The zero value uses the built-in
// engine and falls back to lexical search when it cannot run.
type Options struct {
	// Disabled switches structural search off (config structural.enabled
	// false): every answer is the lexical fallback.
	Disabled bool
	// Command, when set, is an ast-grep binary to use instead of the
	// built-in engine (config structural.command).
	Command string
	// Builtin is the built-in engine to use, so that its parse cache
	// lives across searches; nil means a new one.
	Builtin *Builtin
	// Symbols, when set, is the symbol half of the fallback: when no
	// structural engine answers, it is asked about the identifiers the
	// pattern names, and its records join the lexical hits. It is never
	// asked when an engine answers.
	Symbols SymbolSearcher
}

// An Answer is a structural search's outcome: structural matches, or,
// when no structural engine could run, the fallback: lexical hits and,
// with [Options.Symbols], symbol records, which say plainly that they lack
// structural precision.
type Answer struct {
	Structural *Result        `json:"structural,omitempty"`
	Lexical    *LexicalResult `json:"lexical,omitempty"`
	// Symbols is the symbol half of a fallback; nil for a structural
	// answer or without a [SymbolSearcher].
	Symbols *SymbolResult   `json:"symbols,omitempty"`
	Report  evidence.Report `json:"report"`
}

// Records returns the answer as evidence records: structural for engine
// matches; for a fallback, weak and lexical for the text hits, then the
// symbol records as the [SymbolSearcher] produced them.
func (a *Answer) Records(pattern string) []evidence.Record {
	var out []evidence.Record
	if a.Structural != nil {
		for i := range a.Structural.Matches {
			out = append(out, a.Structural.Matches[i].Record(a.Structural.Engine, pattern))
		}
	}
	if a.Lexical != nil {
		for i := range a.Lexical.Hits {
			out = append(out, a.Lexical.Hits[i].Record(pattern))
		}
	}
	if a.Symbols != nil {
		out = append(out, a.Symbols.Records...)
	}
	return out
}

// Search answers req with the configured engine. An invalid pattern is
// always an error (a [*PatternError]), never an empty answer. When the
// engine is disabled, unavailable (no cgo, ast-grep missing or not the
// verified version) or does not know the language, the answer is the
// fallback — lexical hits, plus the records of opts.Symbols about the
// identifiers the pattern names — and its report says why. A failing
// symbol searcher is a note in the report, never a failed search.
func Search(ctx context.Context, opts Options, req Request) (*Answer, error) {
	fallback := func(reason string, state evidence.State) (*Answer, error) {
		lex, err := LexicalSearch(ctx, req, reason)
		if err != nil {
			return nil, err
		}
		ans := &Answer{Lexical: lex, Report: evidence.Report{
			Provider: ProviderName, State: state, Reason: reason + "; " + LexicalNotice,
			Records: len(lex.Hits),
		}}
		if opts.Symbols != nil {
			sym := searchSymbols(ctx, opts.Symbols, req.Pattern)
			ans.Symbols = sym
			ans.Report.Records += len(sym.Records)
			ans.Report.Reason += "; " + sym.summary()
			if ans.Report.Guidance == "" {
				ans.Report.Guidance = sym.Report.Guidance
			}
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
	return &Answer{Structural: res, Report: evidence.Report{
		Provider: ProviderName, State: evidence.Available, Records: len(res.Matches),
	}}, nil
}
