// Command compose-all is a template for a host of the engine: a Go tool
// that wants every CodeCortex layer, composed the way the cortex command
// composes them, plus one provider of its own. It opens the project with
// its configuration judged for trust, hands the engine an extra provider
// (the owners of a file, read from CODEOWNERS), asks each question through
// Engine.Ask (route, the layers side by side, fuse, rank, pack) and prints
// the route, each layer's state and the packed answer.
//
// Start here when the engine's layers suit you and you want to add
// evidence of your own; see examples/compose-by-hand to compose the
// layers yourself instead, and examples/custom-provider for providers
// alone. It needs no index and no network: the local index is made under
// .codecortex/ and brought up to date before the questions, and the
// optional layers report why they are off.
//
//	go run ./examples/compose-all [-C DIR] [-pos FILE:LINE:COL] [-text QUESTION]
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "compose-all:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out, diag io.Writer) error {
	fl := flag.NewFlagSet("compose-all", flag.ContinueOnError)
	dir := fl.String("C", ".", "the project root")
	pos := fl.String("pos", "", "a position question, FILE:LINE:COL (one-based code points)")
	text := fl.String("text", "where is NewEngine defined?", "a question in words")
	budget := fl.Int("budget", 1500, "the token budget of each packed answer")
	refresh := fl.Bool("refresh", true, "bring the local index up to date before asking (a question alone indexes what its time allows)")
	if err := fl.Parse(args); err != nil {
		return err
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
	// The engine composes every layer once; the host's own provider is
	// asked beside the routed layers on every question, and its records
	// are fused and ranked with theirs.
	eng, err := codecortex.NewEngine(project, codecortex.Options{
		Extra:  []evidence.Provider{owners{root: project.Root}},
		Author: "compose-all",
		Budget: *budget,
	})
	if err != nil {
		return err
	}
	defer eng.Close()
	if *refresh {
		fmt.Fprintln(diag, "indexing…")
		if err := eng.Refresh(ctx); err != nil {
			return err
		}
	}

	var questions []codecortex.Question
	if *pos != "" {
		q, err := positionQuestion(*pos)
		if err != nil {
			return err
		}
		questions = append(questions, q)
	}
	if *text != "" {
		questions = append(questions, codecortex.Question{Text: *text})
	}
	if len(questions) == 0 {
		return errors.New("ask something: -pos FILE:LINE:COL and/or -text QUESTION")
	}
	for _, q := range questions {
		ans, err := eng.Ask(ctx, q)
		if err != nil {
			return err
		}
		printAnswer(out, ans)
	}
	return nil
}

// printAnswer prints the route, each provider's state and the packed
// context a reader model would get.
func printAnswer(out io.Writer, ans *codecortex.Answer) {
	q := ans.Question
	if q.Path != "" {
		fmt.Fprintf(out, "question: %s:%d:%d\n", q.Path, q.Line, q.Column)
	} else {
		fmt.Fprintf(out, "question: %s\n", q.Text)
	}
	fmt.Fprintf(out, "route: %s (%s)\n", ans.Plan.Intent, ans.Plan.Cue)
	for _, r := range ans.Reports {
		line := fmt.Sprintf("  %s: %s, %d records", r.Provider, r.State, r.Records)
		if r.Reason != "" {
			line += " — " + r.Reason
		}
		fmt.Fprintln(out, line)
	}
	c := ans.Context
	fmt.Fprintf(out, "packed: %d of %d records in %d of %d tokens\n%s\n\n",
		c.Included, c.Included+c.Omitted, c.Used, c.Budget, c.Prompt)
}

// positionQuestion reads FILE:LINE:COL.
func positionQuestion(s string) (codecortex.Question, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return codecortex.Question{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	n := len(parts)
	line, err1 := strconv.Atoi(parts[n-2])
	col, err2 := strconv.Atoi(parts[n-1])
	if err1 != nil || err2 != nil {
		return codecortex.Question{}, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	return codecortex.Question{Path: strings.Join(parts[:n-2], ":"), Line: line, Column: col}, nil
}

// owners is the host's own provider: for a question about a file, the
// line of the project's CODEOWNERS that assigns it (the last that
// matches, as on GitHub and GitLab), as memory: what the team wrote down,
// inferred at most. It reads a subset of the syntax: a pattern without a
// slash matches a file or directory name anywhere ("*.go", "docs"); one
// with a slash matches from the root ("/cmd/", "internal/*.go"); a
// trailing slash matches a directory and everything under it. Without a
// CODEOWNERS file it is unavailable, and says so.
type owners struct{ root string }

// The places CODEOWNERS is read from, in order.
var ownersFiles = []string{"CODEOWNERS", ".github/CODEOWNERS", ".gitlab/CODEOWNERS", "docs/CODEOWNERS"}

func (owners) Name() string { return "owners" }

func (o owners) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	if q.Path == "" {
		// Only a question about a file has owners; who owns it is context
		// for every such question, whatever kinds of evidence it wants.
		return evidence.Response{}, nil
	}
	for _, name := range ownersFiles {
		f, err := os.Open(filepath.Join(o.root, filepath.FromSlash(name)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return evidence.Response{}, err
		}
		defer f.Close()
		rec, ok, err := ownerOf(f, name, path.Clean(q.Path))
		if err != nil || !ok {
			return evidence.Response{}, err
		}
		return evidence.Response{Records: []evidence.Record{rec}}, nil
	}
	return evidence.Response{}, &evidence.UnavailableError{Reason: "the project has no CODEOWNERS file",
		Guidance: "write one at the root, in .github/ or in docs/"}
}

// ownerOf returns the record of the last line of the CODEOWNERS file r
// (at name) whose pattern matches the file p, and whether there is one.
func ownerOf(r io.Reader, name, p string) (evidence.Record, bool, error) {
	var rec evidence.Record
	found := false
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || !ownedBy(fields[0], p) {
			continue
		}
		found = true
		rec = evidence.Record{
			Kind: evidence.Memory, Provider: "owners", Provenance: trust.Memory,
			Trust: trust.Inferred, Confidence: 0.7,
			Path: name, StartLine: n, StartColumn: 1, EndLine: n, EndColumn: utf8.RuneCountInString(line) + 1,
			Metadata: evidence.Metadata{Excerpt: p + " is owned by " + strings.Join(fields[1:], " ")},
		}
	}
	return rec, found, sc.Err()
}

// ownedBy reports whether the CODEOWNERS pattern pat matches the file p.
func ownedBy(pat, p string) bool {
	dirOnly := strings.HasSuffix(pat, "/")
	anchored := strings.Contains(strings.TrimSuffix(pat, "/"), "/")
	pat = strings.Trim(pat, "/")
	elems := strings.Split(p, "/")
	if pat == "*" || pat == "**" {
		return true
	}
	if !anchored {
		// A name anywhere: a directory on the way, or the file itself.
		for i, e := range elems {
			if ok, _ := path.Match(pat, e); ok && (!dirOnly || i < len(elems)-1) {
				return true
			}
		}
		return false
	}
	pelems := strings.Split(pat, "/")
	if len(pelems) > len(elems) || (dirOnly && len(pelems) == len(elems)) {
		return false
	}
	for i, pe := range pelems {
		if ok, _ := path.Match(pe, elems[i]); !ok {
			return false
		}
	}
	return true
}
