package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
)

// askParams are cortex_ask's arguments.
type askParams struct {
	Question string `json:"question" minLength:"1" maxLength:"4000" jsonschema:"the question in words"`
	Path     string `json:"path,omitempty" maxLength:"1024" jsonschema:"a file the question is about"`
	Line     int    `json:"line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"with path: a line"`
	Column   int    `json:"column,omitempty" minimum:"1" maximum:"1000000" jsonschema:"with line: a column"`
	Symbol   string `json:"symbol,omitempty" maxLength:"400" jsonschema:"a symbol the question is about: Name, Type.Method, pkg.Name"`
	Pattern  string `json:"pattern,omitempty" maxLength:"4096" jsonschema:"a structural pattern, as cortex_structural_search takes"`
	Language string `json:"language,omitempty" enum:"$languages" jsonschema:"the pattern's language"`
	Intent   string `json:"intent,omitempty" enum:"$intents" jsonschema:"what the question asks, if its words should not decide"`
	Budget   int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// askResult is cortex_ask's result.
type askResult struct {
	Intent    string    `json:"intent" jsonschema:"what the question was read as asking"`
	Cue       string    `json:"cue" jsonschema:"the words or structure that decided the intent"`
	Layers    []step    `json:"layers" jsonschema:"the layers asked, each with why"`
	Skipped   []step    `json:"skipped" jsonschema:"the optional layers not asked, each with why"`
	Symbol    string    `json:"symbol,omitempty" jsonschema:"the symbol name looked up"`
	Records   []record  `json:"records" jsonschema:"the evidence, strongest first"`
	Shared    []shared  `json:"shared,omitempty" jsonschema:"by layer, the attributes every one of its records carries alike, written once here instead of in each record"`
	Reports   []report  `json:"reports" jsonschema:"each asked layer's state, with reason and guidance"`
	Freshness freshness `json:"freshness" jsonschema:"how current the sources were"`
	Omitted   omission  `json:"omitted" jsonschema:"what the budget left out"`
}

// A step is one layer of a route, with the reason for it.
type step struct {
	Layer  string `json:"layer" jsonschema:"the layer"`
	Reason string `json:"reason" jsonschema:"why"`
}

type freshness struct {
	Precision string   `json:"precision,omitempty" jsonschema:"the precision index: fresh, stale, unavailable or disabled"`
	Stale     []string `json:"stale" jsonschema:"the layers whose evidence came from an out-of-date source"`
}

func steps(ss []route.Step) []step {
	out := make([]step, 0, len(ss))
	for _, s := range ss {
		out = append(out, step{Layer: string(s.Layer), Reason: clip(s.Reason, 200)})
	}
	return out
}

func answerAsk(ctx context.Context, s *Server, in askParams) (askResult, error) {
	q := codecortex.Question{Text: in.Question, Symbol: in.Symbol, Pattern: in.Pattern, Language: in.Language,
		Intent: route.Intent(in.Intent), Budget: in.Budget}
	if in.Path != "" {
		rel, err := s.rel(in.Path)
		if err != nil {
			return askResult{}, err
		}
		q.Path, q.Line, q.Column = rel, in.Line, in.Column
	} else if in.Line != 0 || in.Column != 0 {
		return askResult{}, &toolError{Reason: "line and column need a path", Guidance: "give path with line and column, or leave all three out"}
	}
	ans, err := s.engine.Ask(ctx, q)
	if err != nil {
		return askResult{}, err
	}
	out := askResult{Intent: string(ans.Plan.Intent), Cue: clip(ans.Plan.Cue, 200), Layers: []step{}, Skipped: []step{},
		Symbol: clip(ans.Query.Symbol, 400), Records: []record{}, Reports: []report{},
		Freshness: freshness{Precision: ans.Freshness.Precision, Stale: append([]string{}, ans.Freshness.Stale...)}}
	// What the layers say about themselves comes first: a missing index
	// and the command that builds it matter more than one more record.
	shared, lean := evidence.ShareAttributes(ans.Records)
	out.Shared = sharedViews(shared)
	f := newFitter(in.Budget, out)
	out.Reports = take(f, reportViews(ans.Reports))
	out.Layers = take(f, steps(ans.Plan.Steps))
	out.Records = take(f, recordViews(lean))
	out.Skipped = take(f, steps(ans.Plan.Skipped))
	f.omitted += ans.Omitted[codecortex.OmittedForBudget] // what the engine's own fit left out
	out.Omitted = f.done("the weakest records (then the skipped layers) were left out; raise budget, or ask a narrower question")
	return out, nil
}

// positionParams are a definition or implementations question as
// cortex_navigate passes it on: a position or a name. Its tags document
// the fields; the schema served is navigateParams's.
type positionParams struct {
	Path   string `json:"path,omitempty" maxLength:"1024" jsonschema:"the file, relative to the project root (or absolute inside it); give path, line and column together, or symbol instead"`
	Line   int    `json:"line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"one-based line of the position"`
	Column int    `json:"column,omitempty" minimum:"1" maximum:"1000000" jsonschema:"one-based column of the position, in code points (a tab is one)"`
	Symbol string `json:"symbol,omitempty" minLength:"1" maxLength:"400" pattern:"^[^\\s]+$" jsonschema:"a symbol name instead of a position: Name, Type.Method, pkg.Name or pkg.Type.Method; an ambiguous name answers every candidate with its package"`
	Budget int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget of the result (estimated at 3 bytes a token); what does not fit is counted in omitted"`
}

// referencesParams are a references question as cortex_navigate passes
// it on.
type referencesParams struct {
	Path               string `json:"path,omitempty" maxLength:"1024" jsonschema:"the file, relative to the project root (or absolute inside it); give path, line and column together, or symbol instead"`
	Line               int    `json:"line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"one-based line of the position"`
	Column             int    `json:"column,omitempty" minimum:"1" maximum:"1000000" jsonschema:"one-based column of the position, in code points (a tab is one)"`
	Symbol             string `json:"symbol,omitempty" minLength:"1" maxLength:"400" pattern:"^[^\\s]+$" jsonschema:"a symbol name instead of a position: Name, Type.Method, pkg.Name or pkg.Type.Method"`
	IncludeDeclaration bool   `json:"include_declaration,omitempty" default:"true" jsonschema:"include the declaration among the references (marked declaration), as editors' find-all-references does"`
	Budget             int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget of the result (estimated at 3 bytes a token); what does not fit is counted in omitted"`
}

// positionResult is cortex_navigate's result, whatever the relation.
type positionResult struct {
	Path    string   `json:"path,omitempty" jsonschema:"the position's file, relative to the project root"`
	Line    int      `json:"line,omitempty" jsonschema:"the position's line"`
	Column  int      `json:"column,omitempty" jsonschema:"the position's column"`
	Symbol  string   `json:"symbol,omitempty" jsonschema:"the name asked about"`
	Notes   []string `json:"notes" jsonschema:"how the answer was found when it is not plain resolution"`
	Records []record `json:"records" jsonschema:"the answers, strongest first: exact from a fresh precision index, near_exact from a language server, structural from the local symbol index, weak for text matches"`
	Reports []report `json:"reports" jsonschema:"each asked layer's state, with reason and guidance"`
	Omitted omission `json:"omitted" jsonschema:"what the budget left out"`
}

// where is a position question's target: a position or a name.
type where struct {
	path         string
	line, column int
	symbol       string
}

// locate checks that exactly one of a position and a name was given.
func (s *Server) locate(path string, line, column int, symbol string) (where, error) {
	hasPos := path != "" || line != 0 || column != 0
	switch {
	case hasPos && symbol != "":
		return where{}, &toolError{Reason: "both a position and a symbol were given", Guidance: "give path, line and column, or symbol, not both"}
	case symbol != "":
		return where{symbol: symbol}, nil
	case path == "" || line == 0 || column == 0:
		return where{}, &toolError{Reason: "no complete position and no symbol",
			Guidance: "give path, line and column (one-based, code points) of the symbol's occurrence, or its name as symbol"}
	}
	rel, err := s.rel(path)
	if err != nil {
		return where{}, err
	}
	return where{path: rel, line: line, column: column}, nil
}

// askPosition answers the position question of intent about w with the
// engine's Locate (Callers for callers), as the CLI's def, refs, impl and
// callers do, and returns the
// records of the wanted kinds. When no layer resolves a position, the
// identifier written there is looked up by name instead, and the result
// says so.
func askPosition(ctx context.Context, s *Server, w where, intent route.Intent, budget int, keep func([]evidence.Record) []evidence.Record, kinds ...evidence.Kind) (positionResult, error) {
	target := codecortex.Target{Path: w.path, Line: w.line, Column: w.column, Symbol: w.symbol}
	var ans *codecortex.Located
	var err error
	switch intent {
	case route.IntentCallers:
		ans, err = s.engine.Callers(ctx, target)
	case route.IntentReferences:
		ans, err = s.engine.Locate(ctx, codecortex.LocateQuery{Relation: codecortex.References, Target: target})
	case route.IntentImplementations:
		ans, err = s.engine.Locate(ctx, codecortex.LocateQuery{Relation: codecortex.Implementations, Target: target})
	default:
		ans, err = s.engine.Locate(ctx, codecortex.LocateQuery{Relation: codecortex.Definitions, Target: target})
	}
	var te *codecortex.TargetError
	if errors.As(err, &te) {
		return positionResult{}, &toolError{Reason: te.Error(), Err: err,
			Guidance: "give a path relative to the project root with a line and column inside the file (one-based, code points), or a symbol name"}
	}
	if err != nil {
		return positionResult{}, err
	}
	var recs []evidence.Record
	for _, r := range ans.Records {
		if slices.Contains(kinds, r.Kind) {
			recs = append(recs, r)
		}
	}
	if keep != nil {
		recs = keep(recs)
	}
	reps := ans.Reports
	out := positionResult{Path: w.path, Line: w.line, Column: w.column, Symbol: w.symbol, Notes: []string{}, Records: []record{}}
	if ans.ByName != "" {
		out.Symbol = ans.ByName
		out.Notes = append(out.Notes, fmt.Sprintf("no index resolved %s:%d:%d, so %q, the name written there, was looked up by name: "+
			"these are candidates of that name, not a resolution of that occurrence", w.path, w.line, w.column, ans.ByName))
	}
	if a := ans.Alias; a != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("the project defines no %s: %s:%d binds %s of %s to that name, so these are %s's",
			a.As, a.Path, a.Line, a.Name, a.Module, a.Name))
	}
	if len(recs) == 0 {
		if err := unanswered(strings.Join(kindNames(kinds), " or "), reps); err != nil {
			return positionResult{}, err
		}
	}
	out.Reports = []report{}
	f := newFitter(budget, out)
	out.Reports = take(f, reportViews(reps))
	out.Records = take(f, recordViews(recs))
	out.Omitted = f.done("the weakest records were left out; raise budget to see them")
	return out, nil
}

func kindNames(ks []evidence.Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

func answerDefinition(ctx context.Context, s *Server, in positionParams) (positionResult, error) {
	w, err := s.locate(in.Path, in.Line, in.Column, in.Symbol)
	if err != nil {
		return positionResult{}, err
	}
	return askPosition(ctx, s, w, route.IntentDefinition, in.Budget, nil, evidence.Definition)
}

func answerReferences(ctx context.Context, s *Server, in referencesParams) (positionResult, error) {
	w, err := s.locate(in.Path, in.Line, in.Column, in.Symbol)
	if err != nil {
		return positionResult{}, err
	}
	var keep func([]evidence.Record) []evidence.Record
	if !in.IncludeDeclaration {
		keep = precision.WithoutDeclarations
	}
	return askPosition(ctx, s, w, route.IntentReferences, in.Budget, keep, evidence.Reference, evidence.Call)
}

func answerImplementations(ctx context.Context, s *Server, in positionParams) (positionResult, error) {
	w, err := s.locate(in.Path, in.Line, in.Column, in.Symbol)
	if err != nil {
		return positionResult{}, err
	}
	return askPosition(ctx, s, w, route.IntentImplementations, in.Budget, nil, evidence.Implementation)
}

// Relations cortex_navigate answers.
const (
	relationDefinition      = "definition"
	relationReferences      = "references"
	relationImplementations = "implementations"
	relationCallers         = "callers"
)

// navigateParams are cortex_navigate's arguments: a relation, and a
// position or a name. IncludeDeclaration is a pointer so that false
// survives encoding (omitempty drops a false bool, and the default would
// turn it back into true); absent means true.
type navigateParams struct {
	Relation           string `json:"relation" enum:"definition|references|implementations|callers" jsonschema:"what to find"`
	Path               string `json:"path,omitempty" maxLength:"1024" jsonschema:"the position's file, with line and column; or give symbol"`
	Line               int    `json:"line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"one-based line"`
	Column             int    `json:"column,omitempty" minimum:"1" maximum:"1000000" jsonschema:"one-based column, in code points"`
	Symbol             string `json:"symbol,omitempty" minLength:"1" maxLength:"400" pattern:"^[^\\s]+$" jsonschema:"a name instead of a position: Name, Type.Method, pkg.Name"`
	IncludeDeclaration *bool  `json:"include_declaration,omitempty" default:"true" jsonschema:"references: include the declaration, marked"`
	Budget             int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// answerNavigate answers the relation asked for: a definition, the
// references, the implementations or the callers of a position or a name.
func answerNavigate(ctx context.Context, s *Server, in navigateParams) (positionResult, error) {
	switch in.Relation {
	case relationDefinition:
		return answerDefinition(ctx, s, positionParams{Path: in.Path, Line: in.Line, Column: in.Column, Symbol: in.Symbol, Budget: in.Budget})
	case relationReferences:
		return answerReferences(ctx, s, referencesParams{Path: in.Path, Line: in.Line, Column: in.Column, Symbol: in.Symbol,
			IncludeDeclaration: in.IncludeDeclaration == nil || *in.IncludeDeclaration, Budget: in.Budget})
	case relationImplementations:
		return answerImplementations(ctx, s, positionParams{Path: in.Path, Line: in.Line, Column: in.Column, Symbol: in.Symbol, Budget: in.Budget})
	case relationCallers:
		w, err := s.locate(in.Path, in.Line, in.Column, in.Symbol)
		if err != nil {
			return positionResult{}, err
		}
		return askPosition(ctx, s, w, route.IntentCallers, in.Budget, nil, evidence.Reference, evidence.Call)
	}
	// The schema's enum refuses any other value before the handler runs.
	return positionResult{}, &toolError{Reason: fmt.Sprintf("unknown relation %q", in.Relation),
		Guidance: "give relation definition, references, implementations or callers"}
}
