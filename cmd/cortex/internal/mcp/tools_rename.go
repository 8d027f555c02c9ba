package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex"
)

// renameParams are cortex_rename's arguments.
type renameParams struct {
	Target        string `json:"target" minLength:"1" maxLength:"1100" pattern:"^[^\\s]+$" jsonschema:"FILE:LINE:COL or a name (Type.Method)"`
	NewName       string `json:"new_name" minLength:"1" maxLength:"256" jsonschema:"the new identifier"`
	AllowInferred bool   `json:"allow_inferred,omitempty" jsonschema:"go on from name matches, marked inferred"`
}

// renameTarget reads a target as cortex rename does: FILE:LINE:COL
// (one-based, code points) when it ends in two numbers, a name otherwise.
func renameTarget(s string) (path string, line, col int, symbol string) {
	rest, c, ok1 := cutNumber(s)
	file, l, ok2 := cutNumber(rest)
	if !ok1 || !ok2 || file == "" {
		return "", 0, 0, s
	}
	return file, l, c, ""
}

// cutNumber splits "x:N" into x and N.
func cutNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return s, 0, false
	}
	return s[:i], n, true
}

// renameResult is cortex_rename's result: the preview to apply, or the
// conflicts that refused it.
type renameResult struct {
	ID        string           `json:"id,omitempty" jsonschema:"the preview id for cortex_rewrite_apply"`
	Refused   bool             `json:"refused" jsonschema:"refused: nothing was written"`
	Symbol    string           `json:"symbol,omitempty" jsonschema:"the symbol"`
	OldName   string           `json:"old_name,omitempty" jsonschema:"its name"`
	NewName   string           `json:"new_name" jsonschema:"its new name"`
	Tier      string           `json:"tier,omitempty" jsonschema:"the weakest edit's tier"`
	Files     []renameFileView `json:"files" jsonschema:"the edits by file"`
	Conflicts []renameConflict `json:"conflicts" jsonschema:"why it is refused"`
	Guidance  string           `json:"guidance,omitempty" jsonschema:"what would make it possible"`
	Diffs     []previewDiff    `json:"diffs" jsonschema:"the diffs"`
	Omitted   omission         `json:"omitted" jsonschema:"what the budget left out"`
}

type renameFileView struct {
	Path  string           `json:"path" jsonschema:"the file"`
	Edits []renameEditView `json:"edits" jsonschema:"its edits"`
}

type renameEditView struct {
	Line        int    `json:"line" jsonschema:"line"`
	Column      int    `json:"column" jsonschema:"column"`
	Tier        string `json:"tier" jsonschema:"its evidence's tier"`
	Declaration bool   `json:"declaration,omitempty" jsonschema:"the declaration"`
	Inferred    bool   `json:"inferred,omitempty" jsonschema:"a name match: check it"`
}

type renameConflict struct {
	Kind   string `json:"kind" jsonschema:"declared, shadow, ambiguous (a candidate), imprecise..."`
	Path   string `json:"path,omitempty" jsonschema:"file"`
	Line   int    `json:"line,omitempty" jsonschema:"line"`
	Column int    `json:"column,omitempty" jsonschema:"column"`
	Reason string `json:"reason" jsonschema:"why"`
}

// answerRename plans a rename with the engine's Rename, as cortex rename
// does: a stored preview, or the conflicts. It writes a preview, so it is
// served on the mutating surface only.
func answerRename(ctx context.Context, s *Server, in renameParams) (renameResult, error) {
	if s.opts.Principal == "" || surfaceOf(ctx) != Mutating {
		return renameResult{}, &toolError{Reason: "cortex_rename is served on the mutating surface only, with a principal",
			Guidance: "the operator starts cortex mcp with --mutating --principal NAME", Err: ErrNoPrincipal}
	}
	w, err := s.locate(renameTarget(in.Target))
	if err != nil {
		return renameResult{}, err
	}
	req := codecortex.RenameRequest{Target: codecortex.Target{Path: w.path, Line: w.line, Column: w.column, Symbol: w.symbol},
		NewName: in.NewName, AllowInferred: in.AllowInferred}
	plan, err := s.engine.Rename(ctx, req)
	if err != nil && !errors.Is(err, codecortex.ErrRenameRefused) {
		return renameResult{}, err
	}
	out := renameView(plan, err != nil)
	var diffs []previewDiff
	if pv := plan.Preview; pv != nil {
		for _, f := range pv.Files {
			diffs = append(diffs, previewDiff{Path: f.Path, Diff: f.Diff})
		}
	}
	f := newFitter(DefaultBudget, out)
	out.Files = take(f, out.Files)
	out.Diffs = take(f, diffs)
	out.Omitted = f.done("more changes than fit: cortex_rewrite_show with the id and a larger budget shows the diffs")
	return out, nil
}

// renameView is the result of a plan, every file included.
func renameView(plan *codecortex.RenamePlan, refused bool) renameResult {
	out := renameResult{ID: plan.ID, Refused: refused, Symbol: plan.Symbol, OldName: plan.OldName, NewName: plan.NewName,
		Guidance: plan.Guidance, Files: []renameFileView{}, Conflicts: []renameConflict{}, Diffs: []previewDiff{}}
	if plan.Tier != 0 {
		out.Tier = plan.Tier.String()
	}
	for _, f := range plan.Files {
		v := renameFileView{Path: f.Path}
		for _, ed := range f.Edits {
			v.Edits = append(v.Edits, renameEditView{Line: ed.Line, Column: ed.Column, Tier: ed.Tier.String(),
				Declaration: ed.Declaration, Inferred: ed.Inferred})
		}
		out.Files = append(out.Files, v)
	}
	for _, c := range plan.Conflicts {
		out.Conflicts = append(out.Conflicts, renameConflict{Kind: c.Kind, Path: c.Path, Line: c.Line, Column: c.Column, Reason: c.Reason})
	}
	for _, c := range plan.Candidates {
		name := c.Name
		if name == "" {
			name = c.Symbol
		}
		out.Conflicts = append(out.Conflicts, renameConflict{Kind: codecortex.ConflictAmbiguous, Path: c.Path, Line: c.Line, Column: c.Column,
			Reason: "candidate " + name + ": rename it by this position"})
	}
	if refused && len(out.Conflicts) == 0 {
		out.Conflicts = append(out.Conflicts, renameConflict{Kind: "refused", Reason: fmt.Sprintf("the rename of %s was refused", plan.Symbol)})
	}
	return out
}
