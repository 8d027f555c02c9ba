package structural

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// A Provider is structural search as an [evidence.Provider]: a query
// carrying a pattern is answered by structural search, and a question in
// words by the labelled lexical and symbol fallback on its terms. It
// keeps one built-in engine, so its parse cache lives across queries, and
// is safe for concurrent use.
type Provider struct {
	opts Options
}

var _ evidence.Provider = (*Provider)(nil)

// New returns the provider for opts (copied; a nil opts.Builtin becomes
// an engine of the provider's own).
func New(opts Options) *Provider {
	if opts.Builtin == nil {
		opts.Builtin = NewBuiltin(BuiltinOptions{})
	}
	return &Provider{opts: opts}
}

// Name returns "structural".
func (p *Provider) Name() string { return ProviderName }

// Gather answers q in the provider's project root:
//
//   - With q.Pattern, structural search for it in q.Language (a name or
//     alias such as "go" or "ts"; empty means every language the pattern
//     parses in): structural match records of tier structural. When no
//     engine can run (disabled, no cgo, ast-grep missing, a language no
//     engine knows), the lexical and symbol fallback, whose records are
//     weak (lexical) or the symbol searcher's, and whose report (disabled
//     or unavailable) says why and that they lack structural precision.
//     An invalid pattern is an error (a [*PatternError]), never an empty
//     answer.
//   - Without a pattern, the identifier-like terms of q.Text (see
//     [TextTerms]), after q.Symbol if it is set: the lexical and symbol
//     fallback on them, never claiming structural precision; its report
//     says so in Reason.
//
// Records are restricted to q.Kinds. The symbol searcher's records keep
// their provenance and tier and take the provider's name, with their own
// provider in the attribute "via".
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	var (
		ans *Answer
		err error
	)
	if q.Pattern != "" {
		lang := Language(q.Language)
		if l, perr := ParseLanguage(q.Language); perr == nil {
			lang = l
		}
		ans, err = p.Search(ctx, Request{Pattern: q.Pattern, Language: lang})
	} else {
		ans, err = p.askText(ctx, q)
	}
	if err != nil {
		return evidence.Response{}, err
	}
	var recs []evidence.Record
	for _, r := range ans.Records() {
		if !q.Wants(r.Kind) {
			continue
		}
		if r.Provider != ProviderName {
			attrs := make(map[string]string, len(r.Metadata.Attributes)+1)
			for k, v := range r.Metadata.Attributes {
				attrs[k] = v
			}
			attrs["via"] = r.Provider
			r.Metadata.Attributes = attrs
			r.Provider = ProviderName
		}
		recs = append(recs, r)
	}
	rep := ans.Report
	rep.Records = len(recs)
	return evidence.Response{Records: recs, Report: rep}, nil
}

// Search runs [Search] with the provider's options; a request without a
// Root searches the provider's project root, and its zero limits take the
// provider's.
func (p *Provider) Search(ctx context.Context, req Request) (*Answer, error) {
	return Search(ctx, p.opts, req)
}

// SearchText answers a question in words, such as "where is AuthService
// defined?", in the files of lang (empty: every language the engines
// know): the lexical and symbol fallback on its terms ([TextTerms]),
// never claiming structural precision.
func (p *Provider) SearchText(ctx context.Context, text string, lang Language) (*Answer, error) {
	return p.askText(ctx, evidence.Query{Text: text, Language: string(lang)})
}

func (p *Provider) askText(ctx context.Context, q evidence.Query) (*Answer, error) {
	terms := TextTerms(q.Text)
	if s := strings.TrimSpace(q.Symbol); s != "" {
		// A symbol given by name leads; one given as a resolved symbol
		// (with spaces, as SCIP writes them) is not a term.
		if toks := scanTokens(s); len(toks) == 1 && toks[0].text == s {
			terms = append([]string{s}, terms...)
		}
	}
	terms = dedupe(terms)
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	lang := Language(q.Language)
	if l, err := ParseLanguage(q.Language); err == nil {
		lang = l
	}
	req := p.opts.request(Request{Language: lang})
	words := TermWords(terms)
	reason := "a question in words has no structural pattern: lexical fallback on its terms"
	if len(terms) > 0 {
		reason += " (" + strings.Join(terms, ", ") + ")"
	}
	lex, err := lexicalSearch(ctx, req, words, reason, "the question names no identifier to search for")
	if err != nil {
		return nil, err
	}
	state := evidence.Available
	if p.opts.Disabled {
		state = evidence.Disabled
		reason = "structural search is disabled in the configuration (structural.enabled is false); " + reason
	}
	ans := &Answer{Terms: terms, Lexical: lex, Report: evidence.Report{
		Provider: ProviderName, State: state, Reason: reason + "; " + LexicalNotice, Records: len(lex.Hits),
	}}
	if len(terms) == 0 {
		ans.Report.Reason = "the question names no identifier to search for; " + LexicalNotice
	}
	if p.opts.Symbols != nil {
		ans.addSymbols(searchSymbols(ctx, p.opts.Symbols, words, "the question names no identifier to look up"))
	}
	return ans, nil
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// ErrNoMatches is returned by [Provider.Rewrite] for an answer without
// structural matches (a fallback, or a question in words): lexical hits
// never drive a rewrite.
var ErrNoMatches = errors.New("structural: no structural matches to rewrite")

// Rewrite returns the edits that rewrite every structural match of ans
// with template, after checking all that can be checked before anything
// is written: the template references only metavariables the pattern
// binds ([CheckTemplate]), every match has the captures it needs
// ([Rewrite]), and the rewritten files parse in their language, with no
// syntax error the files did not have ([CheckEdits]). A template that
// fails is a [*TemplateError]; an answer that is not structural is
// [ErrNoMatches]. The files are read from the directory the answer
// searched. Nothing is written: the caller previews and applies the
// edits.
func (p *Provider) Rewrite(ctx context.Context, ans *Answer, template string) ([]Edit, error) {
	if ans == nil || ans.Structural == nil {
		reason := "the answer is not structural"
		if ans != nil && ans.Report.Reason != "" {
			reason = ans.Report.Reason
		}
		return nil, fmt.Errorf("%w: %s", ErrNoMatches, reason)
	}
	if err := CheckTemplate(ans.Pattern, template); err != nil {
		return nil, err
	}
	edits, err := Rewrite(ans.Structural.Matches, template)
	if err != nil {
		return nil, err
	}
	dir := ans.root
	if dir == "" {
		dir = p.opts.Dir
	}
	if err := CheckEdits(ctx, dir, edits, template); err != nil {
		return nil, err
	}
	return edits, nil
}
