package codecortex

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
	defs "github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// A RenameRequest asks [Engine.Rename] to give one symbol a new name.
type RenameRequest struct {
	// Target names the symbol: a position or a name (Name, Type.Method,
	// pkg.Name), as [Engine.Locate] takes it.
	Target
	// NewName is the identifier the symbol gets.
	NewName string `json:"new_name"`
	// AllowInferred lets the rename go on when no precise source (a fresh
	// SCIP index, a language server) knows the symbol, from the local
	// index's name matches; every such edit is marked inferred.
	AllowInferred bool `json:"allow_inferred,omitempty"`
}

// A RenameEdit is one occurrence a rename replaces: the name's range,
// one-based lines and code-point columns, half-open, and the evidence it
// comes from.
type RenameEdit struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndColumn int `json:"end_column"`
	// Tier is the trust tier of the evidence that the occurrence is the
	// symbol's: exact from a fresh SCIP index, near_exact from a language
	// server, lower from a name match.
	Tier trust.Tier `json:"tier"`
	// Provenance is how that evidence was established.
	Provenance trust.Method `json:"provenance"`
	// Declaration marks the symbol's declaration.
	Declaration bool `json:"declaration,omitempty"`
	// Inferred marks an edit below near_exact (only with AllowInferred).
	Inferred bool `json:"inferred,omitempty"`
}

// A RenameFile is the edits of one file, in order.
type RenameFile struct {
	Path  string       `json:"path"`
	Edits []RenameEdit `json:"edits"`
}

// The kinds of [RenameConflict].
const (
	ConflictIdentifier = "identifier"  // the new name is not an identifier of the language
	ConflictKeyword    = "keyword"     // the new name is a keyword
	ConflictSame       = "same"        // the new name is the old one
	ConflictDeclared   = "declared"    // the new name is declared in the same scope, package or method set
	ConflictShadow     = "shadow"      // the new name is visible at an edit site: one would shadow the other
	ConflictUnexported = "unexported"  // an exported Go name made unexported while used from another package
	ConflictExternal   = "external"    // the symbol is defined outside the project
	ConflictGenerated  = "generated"   // an edit falls in generated code
	ConflictStale      = "stale"       // the text at an occurrence is not the old name
	ConflictRelated    = "related"     // the symbol is tied to another one (an interface method) the rename leaves
	ConflictUnsupport  = "unsupported" // a kind of symbol the rename does not handle (a package, a module)
	ConflictAmbiguous  = "ambiguous"   // the target names several symbols
	ConflictImprecise  = "imprecise"   // only inferred evidence, and AllowInferred not given
)

// A RenameConflict is a reason the rename is refused, at the location it
// concerns when it has one.
type RenameConflict struct {
	Kind   string `json:"kind"`
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Reason string `json:"reason"`
}

// A RenameCandidate is one symbol an ambiguous target may mean, at its
// declaration.
type RenameCandidate struct {
	Symbol string     `json:"symbol"`
	Name   string     `json:"name,omitempty"`
	Path   string     `json:"path,omitempty"`
	Line   int        `json:"line,omitempty"`
	Column int        `json:"column,omitempty"`
	Tier   trust.Tier `json:"tier"`
}

// A RenamePlan is [Engine.Rename]'s answer: the symbol, every edit by
// file with its evidence tier, and either the stored preview (ID, to
// apply with rewrite's Apply, cortex rewrite apply ID --yes) or the
// conflicts and candidates that refused it.
type RenamePlan struct {
	// ID is the stored preview's id; empty when the rename was refused.
	ID string `json:"id,omitempty"`
	// Symbol is the symbol renamed, as its source names it.
	Symbol   string `json:"symbol,omitempty"`
	OldName  string `json:"old_name,omitempty"`
	NewName  string `json:"new_name"`
	Language string `json:"language,omitempty"`
	// Tier is the weakest edit's tier; absent when the rename was
	// refused before its edits were read.
	Tier trust.Tier `json:"tier,omitempty"`
	// Source says which source gave the edits.
	Source     string            `json:"source,omitempty"`
	Files      []RenameFile      `json:"files"`
	Conflicts  []RenameConflict  `json:"conflicts"`
	Candidates []RenameCandidate `json:"candidates,omitempty"`
	// Guidance is what would make a refused rename possible.
	Guidance string `json:"guidance,omitempty"`
	// Preview is the stored preview: diffs, impact and risk, hashes.
	Preview *rewrite.Preview `json:"preview,omitempty"`
	// Reports are the states of the layers asked.
	Reports []evidence.Report `json:"reports,omitempty"`
}

// Edits counts the plan's edits.
func (p *RenamePlan) Edits() int {
	n := 0
	for _, f := range p.Files {
		n += len(f.Edits)
	}
	return n
}

// ErrRenameRefused is matched by every [RenameError].
var ErrRenameRefused = errors.New("codecortex: rename refused")

// A RenameError is a refused rename: its plan lists the conflicts (or the
// candidates) and nothing was written.
type RenameError struct{ Plan *RenamePlan }

func (e *RenameError) Error() string {
	p := e.Plan
	if len(p.Candidates) > 1 {
		return fmt.Sprintf("rename refused: %q names %d symbols; name one (a position, or a qualified name)", p.Symbol, len(p.Candidates))
	}
	var reasons []string
	for i, c := range p.Conflicts {
		if i == 3 {
			reasons = append(reasons, fmt.Sprintf("and %d more", len(p.Conflicts)-3))
			break
		}
		reasons = append(reasons, c.Reason)
	}
	return "rename refused: " + strings.Join(reasons, "; ")
}

func (e *RenameError) Unwrap() error { return ErrRenameRefused }

// maxRenameEdits bounds the occurrences one rename replaces.
const maxRenameEdits = 20000

// Rename plans renaming the symbol req names to req.NewName and, when
// nothing conflicts, stores it as a rewrite preview (changing nothing in
// the project): the edits are the symbol's references, declaration
// included, at the strongest tier a source has (a fresh SCIP index, a
// language server); each replaces exactly the old name, which must be
// the text at its range. The rename is refused, with a [*RenameError]
// whose plan lists every conflict at its location, when the target names
// several symbols, when only name matches know it (unless AllowInferred),
// and when the new name is no identifier, a keyword, declared in the same
// scope, package or method set, visible at an edit site, an exported Go
// name made unexported while used from another package, or the symbol is
// defined outside the project or in generated code. A target that names
// nothing is a [*TargetError].
func (e *Engine) Rename(ctx context.Context, req RenameRequest) (*RenamePlan, error) {
	return e.rename(ctx, req, locateSource{e})
}

// rename runs Rename with the occurrences of src.
func (e *Engine) rename(ctx context.Context, req RenameRequest, src renameSource) (*RenamePlan, error) {
	if err := e.checkTarget(req.Target); err != nil {
		return nil, err
	}
	plan := &RenamePlan{NewName: req.NewName, Source: src.name(), Files: []RenameFile{}, Conflicts: []RenameConflict{}}
	occ, err := src.occurrences(ctx, req.Target)
	if err != nil {
		return nil, err
	}
	plan.Reports = occ.reports
	sym, ok := e.chooseSymbol(plan, req, occ)
	if !ok {
		return plan, &RenameError{Plan: plan}
	}
	rs, err := e.newRenameSet(plan, sym, req.AllowInferred)
	if err != nil {
		return nil, err
	}
	if len(plan.Conflicts) == 0 {
		e.renameConflicts(plan, rs)
	}
	if len(plan.Conflicts) > 0 {
		return plan, &RenameError{Plan: plan}
	}
	rw, err := e.Rewriter()
	if err != nil {
		return nil, err
	}
	pv, err := rw.PreviewEdits(ctx, renameDescription(plan), rs.edits)
	if err != nil {
		return nil, err
	}
	plan.ID, plan.Preview = pv.ID, pv
	return plan, nil
}

// renameDescription is what the stored preview says of the rename, its
// inferred edits named.
func renameDescription(p *RenamePlan) string {
	d := fmt.Sprintf("rename %s to %s (%s, %d edits, weakest %s)", p.OldName, p.NewName, p.Symbol, p.Edits(), p.Tier)
	var inferred []string
	for _, f := range p.Files {
		for _, ed := range f.Edits {
			if ed.Inferred {
				inferred = append(inferred, fmt.Sprintf("%s:%d:%d", f.Path, ed.Line, ed.Column))
			}
		}
	}
	if len(inferred) > 0 {
		d += "; inferred edits, check each: " + strings.Join(rewriteLimit(inferred, 50), ", ")
	}
	return d
}

// rewriteLimit keeps the first n items and says how many more there are.
func rewriteLimit(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(items[:n:n], fmt.Sprintf("and %d more", len(items)-n))
}

// A renameSource gives the occurrences of the symbol a target names: its
// references, declarations marked (precision.IsDeclaration), each with
// the name's range. The engine's source is its Locate; a language
// server's rename edits are another.
type renameSource interface {
	name() string
	occurrences(ctx context.Context, t Target) (*occurrences, error)
}

// occurrences are a source's answer: the records, one symbol or several
// (grouped by symbolKey), and the layers' reports.
type occurrences struct {
	records []evidence.Record
	reports []evidence.Report
}

// locateSource answers from [Engine.Locate]'s references: the precision
// layer (a fresh SCIP index, or the language server when the engine has
// one), else the local index by name.
type locateSource struct{ e *Engine }

func (locateSource) name() string { return "references" }

func (s locateSource) occurrences(ctx context.Context, t Target) (*occurrences, error) {
	ans, err := s.e.Locate(ctx, LocateQuery{Relation: References, Target: t})
	if err != nil {
		return nil, err
	}
	var recs []evidence.Record
	strong := false
	for _, r := range ans.Records {
		if r.Kind == evidence.Reference || r.Kind == evidence.Call {
			recs = append(recs, r)
			strong = strong || precise(&r)
		}
	}
	occ := &occurrences{records: recs, reports: ans.Reports}
	if strong {
		return occ, nil
	}
	// Name matches: the local index's references are uses, so the
	// definitions are asked for too, and marked as the declarations.
	defs, err := s.e.Locate(ctx, LocateQuery{Relation: Definitions, Target: t})
	if err != nil {
		return nil, err
	}
	for _, d := range defs.Records {
		if d.Kind != evidence.Definition || precise(&d) {
			continue
		}
		d.Kind = evidence.Reference
		attrs := map[string]string{precision.DeclarationAttribute: "true"}
		for k, v := range d.Metadata.Attributes {
			attrs[k] = v
		}
		d.Metadata.Attributes = attrs
		occ.records = append(occ.records, d)
	}
	return occ, nil
}

// symbolKey is the symbol a reference record is about: the SCIP symbol,
// or the qualified name a language server's or the local index's answer
// by name gives, or "" when the answer is about one symbol (a position).
func symbolKey(r *evidence.Record) string {
	if r.Provenance == trust.PrecisionIndex && r.Symbol != "" {
		return r.Symbol
	}
	if q := r.Metadata.Attributes["qualified_name"]; q != "" {
		return q
	}
	return ""
}

// precise reports whether r is evidence a rename may use without
// AllowInferred: near_exact or better, and not stale.
func precise(r *evidence.Record) bool {
	return !r.Stale && r.Trust >= trust.NearExact
}

// chooseSymbol picks the one symbol the occurrences are about, from the
// strongest evidence; it fills the plan's candidates and conflicts and
// returns false when there is none or more than one.
func (e *Engine) chooseSymbol(plan *RenamePlan, req RenameRequest, occ *occurrences) ([]evidence.Record, bool) {
	var strong, weak []evidence.Record
	for _, r := range occ.records {
		if precise(&r) {
			strong = append(strong, r)
		} else {
			weak = append(weak, r)
		}
	}
	recs := strong
	if len(recs) == 0 {
		recs = weak
	}
	what := req.Symbol
	if what == "" {
		what = fmt.Sprintf("%s:%d:%d", req.Path, req.Line, req.Column)
	}
	plan.Symbol = what
	if len(recs) == 0 {
		plan.Conflicts = append(plan.Conflicts, RenameConflict{Kind: ConflictImprecise,
			Reason: fmt.Sprintf("no source knows a symbol at %s", what)})
		plan.Guidance = imprecision(e)
		return nil, false
	}
	groups := map[string][]evidence.Record{}
	var keys []string
	for _, r := range recs {
		k := symbolKey(&r)
		if !precise(&r) {
			k = inferredKey(&r, req.Target, recs)
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	if _, ok := groups["other"]; ok {
		keys = slices.DeleteFunc(keys, func(k string) bool { return k == "other" })
	}
	if len(keys) > 1 {
		keys = preferDeclared(keys, groups)
	}
	if len(keys) > 1 {
		plan.Candidates = candidates(keys, groups)
		plan.Conflicts = append(plan.Conflicts, RenameConflict{Kind: ConflictAmbiguous,
			Reason: fmt.Sprintf("%s names %d symbols", what, len(keys))})
		plan.Guidance = "name one of the candidates by its declaration's FILE:LINE:COL"
		return nil, false
	}
	if keys[0] != "" {
		plan.Symbol = keys[0]
	}
	return groups[keys[0]], true
}

// inferredKey groups name matches: one group when the name has one
// definition or the target is the position of one, otherwise a group per
// definition (the candidates) beside the uses.
func inferredKey(r *evidence.Record, t Target, recs []evidence.Record) string {
	var decls []*evidence.Record
	for i := range recs {
		if precision.IsDeclaration(&recs[i]) {
			decls = append(decls, &recs[i])
		}
	}
	if len(decls) <= 1 || !precision.IsDeclaration(r) {
		return ""
	}
	for _, d := range decls {
		if d.Path == t.Path && d.StartLine == t.Line && d.StartColumn <= t.Column && t.Column <= d.EndColumn {
			if d == r {
				return ""
			}
			return "other"
		}
	}
	return r.Location()
}

// preferDeclared keeps the keys whose symbols are declared in the project
// when some are: another module's symbol of the same name is no
// candidate for a rename.
func preferDeclared(keys []string, groups map[string][]evidence.Record) []string {
	var out []string
	for _, k := range keys {
		for i := range groups[k] {
			if precision.IsDeclaration(&groups[k][i]) {
				out = append(out, k)
				break
			}
		}
	}
	if len(out) == 0 {
		return keys
	}
	return out
}

// candidates lists each key's symbol at its declaration (or first
// occurrence), in key order.
func candidates(keys []string, groups map[string][]evidence.Record) []RenameCandidate {
	out := make([]RenameCandidate, 0, len(keys))
	for _, k := range keys {
		rs := groups[k]
		at := rs[0]
		for i := range rs {
			if precision.IsDeclaration(&rs[i]) {
				at = rs[i]
				break
			}
		}
		name := at.Metadata.Attributes["qualified_name"]
		out = append(out, RenameCandidate{Symbol: k, Name: name, Path: at.Path, Line: at.StartLine, Column: at.StartColumn, Tier: at.Trust})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// imprecision says what would give the engine precise occurrences.
func imprecision(e *Engine) string {
	g := "build a SCIP index (cortex index --precision)"
	if e.lsp == nil {
		g += ", or ask a language server (--lsp, with the language's server configured)"
	}
	return g + "; or pass --allow-inferred to rename from name matches, each edit marked inferred"
}

// languageOf is the language of a file, by its extension.
func languageOf(p string) syntax.Language {
	l, _ := syntax.LanguageOf(path.Base(p))
	return l
}

// A renameSet is a rename's edits, checked against the files.
type renameSet struct {
	lang    syntax.Language
	old     string
	decls   []evidence.Record // the declarations, in the project
	records []evidence.Record // every occurrence, declarations included
	edits   []structural.Edit
	files   map[string]*renameText
	// symbols are the files' definitions, read once each (nil: no parser);
	// declared is the declaration's, nil for a local.
	symbols  map[string]*defs.File
	declared *defs.Symbol
}
