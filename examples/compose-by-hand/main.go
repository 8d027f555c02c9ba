// Command compose-by-hand is a template for a host that composes the
// CodeCortex layers itself, without the engine: it opens a project, makes
// each layer's provider from the options the configuration maps onto,
// asks route for a plan, runs the providers the plan names side by side,
// and fuses, ranks and packs their evidence:
//
//	question → route → providers → fuse → rank → pack
//
// Start here when you want only some layers, options of your own for
// each, or your own way of choosing them. A host that wants every layer
// as the cortex command composes them is shorter as a host of the engine
// (examples/compose-all). It needs no index and no network: the local
// index is made under .codecortex/ and brought up to date before the
// questions, and the optional layers report why they are off.
//
//	go run ./examples/compose-by-hand [-C DIR] [-pos FILE:LINE:COL] [-text QUESTION]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/structural"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "compose-by-hand:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out, diag io.Writer) error {
	fl := flag.NewFlagSet("compose-by-hand", flag.ContinueOnError)
	dir := fl.String("C", ".", "the project root")
	pos := fl.String("pos", "", "a position question, FILE:LINE:COL (one-based code points)")
	text := fl.String("text", "where is NewEngine defined?", "a question in words")
	budget := fl.Int("budget", 1500, "the token budget of each packed answer")
	refresh := fl.Bool("refresh", true, "bring the local index up to date before asking (a question alone indexes what its time allows)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var requests []route.Request
	if *pos != "" {
		r, err := positionRequest(*pos)
		if err != nil {
			return err
		}
		requests = append(requests, r)
	}
	if *text != "" {
		requests = append(requests, route.Request{Text: *text})
	}
	if len(requests) == 0 {
		return errors.New("ask something: -pos FILE:LINE:COL and/or -text QUESTION")
	}

	// The configuration, judged for trust: what it asks to run or send is
	// withheld unless the user trusted it (cortex trust) or the host does.
	project, err := config.OpenProject(*dir, config.ProjectOptions{})
	if err != nil {
		return err
	}
	for _, d := range project.Diagnostics {
		fmt.Fprintln(diag, "config:", d)
	}
	for _, w := range project.Trust.Withheld {
		fmt.Fprintln(diag, "withheld:", w)
	}
	layers, ix, closeAll, err := compose(project)
	if err != nil {
		return err
	}
	defer closeAll()
	if *refresh {
		fmt.Fprintln(diag, "indexing…")
		if _, err := ix.Update(ctx); err != nil {
			return err
		}
	}

	for _, req := range requests {
		// route reads the question and plans the layers that can answer
		// it, each with a reason; it reads no file. The declared
		// dependencies (route.Request.Declared), left out here, would let
		// it propose the documentation layer.
		plan := route.Route(req)
		var providers []evidence.Provider
		for _, l := range plan.Layers() {
			if p, ok := layers[l]; ok {
				providers = append(providers, p)
			}
		}
		qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		records, reports := evidence.Collect(qctx, queryFor(project.Root, req, plan), providers, evidence.CollectOptions{})
		cancel()
		packed := evidence.Pack(evidence.Rank(evidence.Fuse(records)), *budget)
		printAnswer(out, req, plan, reports, packed)
	}
	return nil
}

// compose makes the provider of each layer, from the options the
// project's configuration maps onto, and returns them by route layer,
// with the local index they share and the function that closes them.
func compose(project *config.Project) (map[route.Layer]evidence.Provider, *index.Index, func(), error) {
	var closers []func() error
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	scip := precision.New(project.PrecisionOptions())
	closers = append(closers, scip.Close)
	// One local index, read by the local layer and the project graph.
	ix, err := index.Open(project.IndexOptions())
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	closers = append(closers, ix.Close)
	gopts := project.GraphOptions() // callers, tests and impact, from the local index,
	gopts.Index = ix                // with the precision index's exact edges fused in
	gopts.Exact = scip
	relations := graph.New(gopts)
	closers = append(closers, relations.Close)
	sopts := project.StructuralOptions()
	sopts.Symbols = scip // the symbol half of the structural fallback
	team, err := memory.Open(project.MemoryOptions("compose-by-hand"))
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	closers = append(closers, team.Close)
	return map[route.Layer]evidence.Provider{
		route.Precision:      scip,
		route.LocalIndex:     ix.Provider(),
		route.Graph:          relations,
		route.Impact:         relations,
		route.Structural:     structural.New(sopts),
		route.Manifests:      project.ManifestProvider(),
		route.DependencyDocs: project.DocsProvider(),
		route.History:        history.New(project.HistoryOptions()),
		route.Memory:         team,
	}, ix, closeAll, nil
}

// queryFor is what the providers are asked: the question, the position
// with the identifier written there (which the local index looks up when
// the precision index cannot answer), and the pattern or first name the
// plan found in the text.
func queryFor(root string, req route.Request, plan route.Plan) evidence.Query {
	q := evidence.Query{Text: req.Text, Path: req.Path, Line: req.Line, Column: req.Column,
		Pattern: plan.Pattern, Language: plan.Language}
	switch {
	case q.Path != "":
		q.Symbol = identifierAt(root, q.Path, q.Line, q.Column)
	case len(plan.Names) > 0:
		q.Symbol = plan.Names[0].Text
	}
	if plan.Intent == route.IntentDefinition {
		q.Kinds = []evidence.Kind{evidence.Definition}
	}
	return q
}

// identifierAt returns the identifier written at a one-based line and
// code-point column of the file p in the project at root, or "". The file
// is read through an os.Root, so a path that leaves the project reads
// nothing.
func identifierAt(root, p string, line, col int) string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return ""
	}
	defer r.Close()
	b, err := r.ReadFile(filepath.FromSlash(p))
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	text := []rune(lines[line-1])
	ident := func(c rune) bool { return c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) }
	start := col - 1
	if start < 0 || start >= len(text) || !ident(text[start]) {
		return ""
	}
	end := start
	for start > 0 && ident(text[start-1]) {
		start--
	}
	for end < len(text) && ident(text[end]) {
		end++
	}
	return string(text[start:end])
}

// printAnswer prints the plan with its reasons, each provider's state and
// the packed context a reader model would get.
func printAnswer(out io.Writer, req route.Request, plan route.Plan, reports []evidence.Report, packed evidence.Context) {
	if req.Path != "" {
		fmt.Fprintf(out, "question: %s:%d:%d\n", req.Path, req.Line, req.Column)
	} else {
		fmt.Fprintf(out, "question: %s\n", req.Text)
	}
	fmt.Fprintf(out, "route: %s (%s)\n", plan.Intent, plan.Cue)
	for _, s := range plan.Steps {
		fmt.Fprintf(out, "  step %s: %s\n", s.Layer, s.Reason)
	}
	for _, r := range reports {
		line := fmt.Sprintf("  %s: %s, %d records", r.Provider, r.State, r.Records)
		if r.Reason != "" {
			line += " — " + r.Reason
		}
		fmt.Fprintln(out, line)
	}
	fmt.Fprintf(out, "packed: %d of %d records in %d of %d tokens\n%s\n\n",
		packed.Included, packed.Included+packed.Omitted, packed.Used, packed.Budget, packed.Prompt)
}

// positionRequest reads FILE:LINE:COL.
func positionRequest(s string) (route.Request, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return route.Request{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	n := len(parts)
	line, err1 := strconv.Atoi(parts[n-2])
	col, err2 := strconv.Atoi(parts[n-1])
	if err1 != nil || err2 != nil {
		return route.Request{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	return route.Request{Path: strings.Join(parts[:n-2], ":"), Line: line, Column: col}, nil
}
