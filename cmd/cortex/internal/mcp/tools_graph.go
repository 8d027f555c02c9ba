package mcp

import (
	"context"
	"fmt"

	"github.com/codecortex/codecortex/graph"
)

// impactParams are cortex_impact's arguments.
type impactParams struct {
	Path      string `json:"path,omitempty" maxLength:"1024" jsonschema:"a changed file"`
	StartLine int    `json:"start_line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"with path: first changed line"`
	EndLine   int    `json:"end_line,omitempty" minimum:"1" maximum:"10000000" jsonschema:"last changed line, inclusive"`
	Symbol    string `json:"symbol,omitempty" maxLength:"300" jsonschema:"a changed symbol (Name, Type.Method, pkg.Name)"`
	Since     string `json:"since,omitempty" maxLength:"200" pattern:"^[^-\\s][^\\s]*$" jsonschema:"a commit, branch or tag: everything changed since it"`
	Depth     int    `json:"depth,omitempty" minimum:"1" maximum:"10" default:"3" jsonschema:"most edges from the change"`
	MaxNodes  int    `json:"max_nodes,omitempty" minimum:"1" maximum:"5000" default:"500" jsonschema:"most nodes to visit"`
	Budget    int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
	Mermaid   bool   `json:"mermaid,omitempty" jsonschema:"also draw it: a mermaid flowchart"`
}

// impactResult is cortex_impact's result.
type impactResult struct {
	Targets    []string     `json:"targets" jsonschema:"what was taken as changed"`
	Affected   []impactNode `json:"affected" jsonschema:"the definitions (or files) the change touches"`
	Callers    []impactNode `json:"callers" jsonschema:"what uses them, nearest first, each with the edge it was reached by"`
	Tests      []impactTest `json:"tests" jsonschema:"the tests to run"`
	Risk       float64      `json:"risk" jsonschema:"in [0, 1], for ordering and attention, not a probability"`
	RiskReason string       `json:"risk_reason" jsonschema:"the arithmetic behind risk"`
	Mix        graph.Mix    `json:"mix" jsonschema:"how many of the callers' edges are exact (compiler-resolved), inferred_high (resolved through an import or a scope) or inferred (by name)"`
	Cycles     [][]string   `json:"cycles" jsonschema:"dependency cycles among the nodes reached"`
	Depth      int          `json:"depth" jsonschema:"the depth the walk ran to"`
	Truncated  bool         `json:"truncated" jsonschema:"the walk stopped at max_nodes with more to visit"`
	Unresolved []string     `json:"unresolved" jsonschema:"targets that named nothing in the project graph"`
	Notes      []string     `json:"notes" jsonschema:"what else to know about the answer"`
	Omitted    omission     `json:"omitted" jsonschema:"what the budget left out"`
	Mermaid    string       `json:"mermaid,omitempty" jsonschema:"with mermaid: a flowchart of the changed definitions, their callers (edges labelled with kind and tier) and the tests, at most 40 nodes; left out whole when it does not fit the budget"`
}

type impactNode struct {
	Symbol string `json:"symbol" jsonschema:"path#Container.Name, or the path for a file"`
	Kind   string `json:"kind" jsonschema:"function, method, type, class... or file"`
	Path   string `json:"path" jsonschema:"the file, relative to the project root"`
	Line   int    `json:"line,omitempty" jsonschema:"the definition's first line"`
	Depth  int    `json:"depth" jsonschema:"edges from the change (0: touched)"`
	Test   bool   `json:"test" jsonschema:"in a test file"`
	Edge   string `json:"edge,omitempty" jsonschema:"how it uses the node one step nearer: calls, references, inherits, implements, imports, tests"`
	To     string `json:"to,omitempty" jsonschema:"the node one step nearer that it uses"`
	Method string `json:"method,omitempty" jsonschema:"how the edge was established: precision-index (exact), import, scope, import-path, unique-name, ambiguous-name, test-naming"`
	Trust  string `json:"trust" jsonschema:"the weakest tier on its path from the change"`
	At     string `json:"at,omitempty" jsonschema:"where the use is written, path:line:column"`
}

type impactTest struct {
	Path   string `json:"path" jsonschema:"the test file"`
	Symbol string `json:"symbol,omitempty" jsonschema:"the test definition, when one was reached"`
	Trust  string `json:"trust" jsonschema:"how strongly it is tied to the change"`
	Why    string `json:"why" jsonschema:"why it is listed"`
}

func answerImpact(ctx context.Context, s *Server, in impactParams) (impactResult, error) {
	if in.Path == "" && in.Symbol == "" && in.Since == "" {
		return impactResult{}, &toolError{Reason: "nothing changed was named", Guidance: "give path (and start_line, end_line), symbol, or since"}
	}
	if in.StartLine == 0 && in.EndLine != 0 || in.StartLine != 0 && in.Path == "" {
		return impactResult{}, &toolError{Reason: "a line range needs path and start_line", Guidance: "give path with start_line, and end_line for a range"}
	}
	if in.EndLine != 0 && in.EndLine < in.StartLine {
		return impactResult{}, &toolError{Reason: "end_line is before start_line", Guidance: "give start_line ≤ end_line"}
	}
	q := graph.Query{Depth: in.Depth, MaxNodes: in.MaxNodes}
	if in.Path != "" {
		rel, err := s.rel(in.Path)
		if err != nil {
			return impactResult{}, err
		}
		q.Targets = append(q.Targets, graph.Target{Path: rel, StartLine: in.StartLine, EndLine: in.EndLine})
	}
	if in.Symbol != "" {
		q.Targets = append(q.Targets, graph.Target{Symbol: in.Symbol})
	}
	if in.Since != "" {
		// The session's history, opened once and not bound by this call.
		if _, err := s.history(ctx); err != nil {
			return impactResult{}, err
		}
	}
	im, err := s.engine.Impact(ctx, q, in.Since)
	if err != nil {
		return impactResult{}, indexError(err)
	}
	out := impactResult{Targets: []string{}, Affected: []impactNode{}, Callers: []impactNode{}, Tests: []impactTest{},
		Risk: im.Risk, RiskReason: im.RiskReason, Mix: im.Mix, Cycles: [][]string{}, Depth: im.Depth, Truncated: im.Truncated,
		Unresolved: clipList(im.Unresolved, maxListed), Notes: clipList(im.Notes, maxListed)}
	for _, t := range im.Targets {
		out.Targets = append(out.Targets, clip(t.String(), 300))
	}
	for _, c := range im.Cycles {
		out.Cycles = append(out.Cycles, clipList(c.Nodes, maxListed))
	}
	node := func(h graph.Hit) impactNode {
		n := impactNode{Symbol: clip(h.Symbol, 300), Kind: h.Kind, Path: h.Path, Line: h.Line, Depth: h.Depth, Test: h.Test, Trust: h.Tier.String()}
		if v := h.Via; v != nil {
			n.Edge, n.To, n.Method = string(v.Kind), clip(v.To, 300), string(v.Method)
			n.At = fmt.Sprintf("%s:%d:%d", v.Path, v.Line, v.Column)
		}
		return n
	}
	var affected, callers []impactNode
	for _, h := range im.Affected {
		affected = append(affected, node(h))
	}
	for _, h := range im.Callers {
		callers = append(callers, node(h))
	}
	var tests []impactTest
	for _, t := range im.Tests {
		tests = append(tests, impactTest{Path: t.Path, Symbol: clip(t.Symbol, 300), Trust: t.Tier.String(), Why: clip(t.Why, 300)})
	}
	f := newFitter(in.Budget, out)
	if in.Mermaid {
		// A drawing is valid only whole: it fits, or it is left out.
		draw := string(im.Mermaid(0))
		if need := jsonLen(draw) + len(`,"mermaid":`); need <= f.room {
			out.Mermaid, f.room = draw, f.room-need
		} else {
			f.omitted++
		}
	}
	out.Affected = take(f, affected)
	out.Tests = take(f, tests)
	out.Callers = take(f, callers)
	out.Omitted = f.done("raise budget, or lower depth or max_nodes, to see the rest")
	return out, nil
}
