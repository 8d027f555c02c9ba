package mcp

import (
	"context"
	"errors"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/structural"
)

// structuralParams are cortex_structural_search's arguments.
type structuralParams struct {
	Pattern    string   `json:"pattern" minLength:"1" maxLength:"4096" jsonschema:"one syntax node in the language's syntax; $X matches one node, $$$ARGS any number: 'if err != nil { return $E }'"`
	Language   string   `json:"language,omitempty" enum:"$languages" jsonschema:"the pattern's language; absent: all it parses in"`
	Paths      []string `json:"paths,omitempty" maxItems:"64" maxLength:"1024" jsonschema:"files or directories; absent: the whole project"`
	MaxMatches int      `json:"max_matches,omitempty" minimum:"1" maximum:"10000" default:"500" jsonschema:"most matches"`
	Budget     int      `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// structuralResult is cortex_structural_search's result.
type structuralResult struct {
	Pattern   string   `json:"pattern" jsonschema:"the pattern searched for"`
	Language  string   `json:"language,omitempty" jsonschema:"its language, when given"`
	Engine    string   `json:"engine,omitempty" jsonschema:"the structural engine that matched (absent for the fallback)"`
	Fallback  bool     `json:"fallback" jsonschema:"true when no structural engine could run: the records are text matches of the pattern's words (trust weak), not structural matches"`
	Notice    string   `json:"notice,omitempty" jsonschema:"what the fallback's records are worth"`
	Files     int      `json:"files" jsonschema:"files searched"`
	Truncated bool     `json:"truncated" jsonschema:"the search stopped at max_matches or another limit"`
	Records   []record `json:"records" jsonschema:"the matches, in file order"`
	Report    report   `json:"report" jsonschema:"the structural layer's state"`
	Notes     []string `json:"notes" jsonschema:"what else the search says (files skipped, limits hit)"`
	Omitted   omission `json:"omitted" jsonschema:"what the budget left out"`
}

func answerStructural(ctx context.Context, s *Server, in structuralParams) (structuralResult, error) {
	var lang structural.Language
	if in.Language != "" {
		l, err := structural.ParseLanguage(in.Language)
		if err != nil {
			return structuralResult{}, err
		}
		lang = l
	}
	paths := make([]string, 0, len(in.Paths))
	for _, p := range in.Paths {
		rel, err := s.rel(p)
		if err != nil {
			return structuralResult{}, err
		}
		paths = append(paths, rel)
	}
	ans, err := s.engine.Structural().Search(ctx, structural.Request{Pattern: in.Pattern, Language: lang, Paths: paths,
		Limits: structural.Limits{MaxMatches: in.MaxMatches}})
	if err != nil {
		var pe *structural.PatternError
		if errors.As(err, &pe) {
			return structuralResult{}, &toolError{Reason: pe.Error(),
				Guidance: "write one syntax node in the language's own syntax ($X one node, $$$ARGS several), and give the language", Err: err}
		}
		return structuralResult{}, err
	}
	recs, _ := evidence.Keep(ans.Records(), evidence.LocationCheck(s.root.Check))
	out := structuralResult{Pattern: in.Pattern, Language: string(lang), Records: []record{},
		Report: reportViews([]evidence.Report{ans.Report})[0], Notes: []string{}}
	switch {
	case ans.Structural != nil:
		out.Engine, out.Files, out.Truncated = ans.Structural.Engine, ans.Structural.Files, ans.Structural.Truncated
		out.Notes = clipList(ans.Structural.Notes, maxListed)
	case ans.Lexical != nil:
		out.Fallback, out.Notice = true, structural.LexicalNotice
		out.Files, out.Truncated = ans.Lexical.Files, ans.Lexical.Truncated
		out.Notes = clipList(ans.Lexical.Notes, maxListed)
	}
	f := newFitter(in.Budget, out)
	out.Records = take(f, recordViews(recs))
	out.Omitted = f.done("the matches after the last one shown were left out; search fewer paths, or raise budget")
	return out, nil
}
