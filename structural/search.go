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
}

// An Answer is a structural search's outcome: structural matches, or,
// when no structural engine could run, the lexical fallback, which says
// plainly that it lacks structural precision.
type Answer struct {
	Structural *Result         `json:"structural,omitempty"`
	Lexical    *LexicalResult  `json:"lexical,omitempty"`
	Report     evidence.Report `json:"report"`
}

// Records returns the answer as evidence records: structural for engine
// matches, weak and lexical for fallback hits.
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
	return out
}

// Search answers req with the configured engine. An invalid pattern is
// always an error (a [*PatternError]), never an empty answer. When the
// engine is disabled, unavailable (no cgo, ast-grep missing or not the
// verified version) or does not know the language, the answer is the
// lexical fallback and its report says why.
func Search(ctx context.Context, opts Options, req Request) (*Answer, error) {
	fallback := func(reason string, state evidence.State) (*Answer, error) {
		lex, err := LexicalSearch(ctx, req, reason)
		if err != nil {
			return nil, err
		}
		return &Answer{Lexical: lex, Report: evidence.Report{
			Provider: ProviderName, State: state, Reason: reason + "; " + LexicalNotice,
			Records: len(lex.Hits),
		}}, nil
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
