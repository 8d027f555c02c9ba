// Command compose-all is a host program that uses CodeCortex the way any Go
// tool outside this repository would: through its public packages alone.
// It opens a project, reads its configuration, composes every layer as an
// evidence provider, asks one position question and one text question, and
// prints each answer packed into a token budget.
//
//	go run . -C /path/to/project -pos file.go:12:6 -text "where is Handler defined?"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
)

func main() {
	dir := flag.String("C", ".", "the project root")
	pos := flag.String("pos", "", "a position question, FILE:LINE:COL (one-based code points)")
	text := flag.String("text", "", "a question in words")
	budget := flag.Int("budget", 1500, "the token budget of each packed answer")
	flag.Parse()
	if err := run(*dir, *pos, *text, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "compose-all:", err)
		os.Exit(1)
	}
}

func run(dir, pos, text string, budget int) error {
	// The configuration, judged for trust: what it asks to run or send is
	// withheld unless the user trusted it (cortex trust) or the host does.
	project, err := config.OpenProject(dir, config.ProjectOptions{})
	if err != nil {
		return err
	}
	for _, d := range project.Diagnostics {
		fmt.Fprintln(os.Stderr, "config:", d)
	}
	for _, w := range project.Trust.Withheld {
		fmt.Fprintln(os.Stderr, "withheld:", w)
	}

	// Every layer, each from the options the configuration maps onto.
	scip := precision.New(project.PrecisionOptions())
	defer scip.Close()
	syntax := project.StructuralOptions()
	syntax.Symbols = scip // the symbol half of the structural fallback
	local := index.NewProvider(project.IndexOptions())
	defer local.Close()
	gopts := project.GraphOptions() // callers, tests and impact, from the local index,
	gopts.Exact = scip              // with the precision index's exact edges fused in
	relations := graph.New(gopts)
	defer relations.Close()
	team, err := memory.Open(project.MemoryOptions("compose-all"))
	if err != nil {
		return err
	}
	defer team.Close()
	providers := []evidence.Provider{
		scip,
		local,
		relations,
		structural.New(syntax),
		project.ManifestProvider(),
		project.DocsProvider(),
		history.New(project.HistoryOptions()),
		team,
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var questions []evidence.Query
	if pos != "" {
		q, err := positionQuery(pos)
		if err != nil {
			return err
		}
		questions = append(questions, q)
	}
	if text != "" {
		questions = append(questions, evidence.Query{Text: text})
	}
	if len(questions) == 0 {
		return errors.New("ask something: -pos FILE:LINE:COL and/or -text QUESTION")
	}
	for _, q := range questions {
		records, reports := evidence.Collect(ctx, q, providers, evidence.CollectOptions{})
		packed := evidence.Pack(evidence.Rank(evidence.Fuse(records)), budget)
		fmt.Printf("question: %s\n", describe(q))
		for _, r := range reports {
			line := fmt.Sprintf("  %s: %s, %d records", r.Provider, r.State, r.Records)
			if r.Reason != "" {
				line += " — " + r.Reason
			}
			fmt.Println(line)
		}
		fmt.Printf("packed: %d of %d records in %d of %d tokens\n%s\n\n",
			packed.Included, packed.Included+packed.Omitted, packed.Used, packed.Budget, packed.Prompt)
	}
	return nil
}

// positionQuery reads FILE:LINE:COL into a definition-and-references
// question.
func positionQuery(s string) (evidence.Query, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return evidence.Query{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	n := len(parts)
	line, err1 := strconv.Atoi(parts[n-2])
	col, err2 := strconv.Atoi(parts[n-1])
	if err1 != nil || err2 != nil {
		return evidence.Query{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	return evidence.Query{Path: strings.Join(parts[:n-2], ":"), Line: line, Column: col,
		Kinds: []evidence.Kind{evidence.Definition, evidence.Reference}}, nil
}

func describe(q evidence.Query) string {
	if q.Path != "" {
		return fmt.Sprintf("%s:%d:%d (%v)", q.Path, q.Line, q.Column, q.Kinds)
	}
	return q.Text
}
