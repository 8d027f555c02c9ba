// Command structural-search is a template for a host that embeds
// structural search and nothing else: ast-grep's pattern language matched
// on the tree-sitter grammars built into the structural package, over a
// directory tree, printing each match as the engine finds it. It imports
// no other layer of CodeCortex, so the binary holds the engine and the
// grammars only; docs/benchmarks.md sets it beside cortex sg, which links
// every layer, and ast-grep.
//
//	go run ./examples/structural-search -p 'fmt.Errorf($$$A)' -l go .
//	go run ./examples/structural-search -p 'errors.New($A)' -l go --json .
//
// With --json it prints one structural.Match per line as JSON. The exit
// code is 0 when something matched, 1 when nothing did and 2 for an error,
// such as an invalid pattern.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"

	"github.com/codecortex/codecortex/structural"
)

func main() {
	// A worker parsing in C holds its processor as a system call does;
	// one processor to spare saves the runtime taking it back (see
	// structural.BuiltinOptions).
	workers := runtime.GOMAXPROCS(0)
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(workers + 1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], workers, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run searches as the command line args asks, with workers files parsed
// at once (0: one per processor), printing to stdout and stderr, and
// returns the exit code.
func run(ctx context.Context, args []string, workers int, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("structural-search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pattern := fs.String("p", "", "the ast-grep style `pattern`, such as 'old_api($$$ARGS)'")
	lang := fs.String("l", "", "the pattern's `language`, such as go, py or ts")
	asJSON := fs.Bool("json", false, "print one JSON object per match")
	maxMatches := fs.Int("max-matches", 0, "stop after `n` matches (default 10000)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: structural-search -p PATTERN -l LANG [--json] [PATH...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pattern == "" || *lang == "" {
		fs.Usage()
		return 2
	}
	l, err := structural.ParseLanguage(*lang)
	if err != nil {
		fmt.Fprintln(stderr, "structural-search:", err)
		return 2
	}

	out := bufio.NewWriterSize(stdout, 64<<10)
	var line []byte
	req := structural.Request{
		Root:     ".",
		Pattern:  *pattern,
		Language: l,
		Paths:    fs.Args(),
		Limits:   structural.Limits{MaxMatches: *maxMatches},
		// Each match is printed as it is found and then forgotten, so
		// memory holds a few files and not every match; Recycle lets the
		// engine read later files into the memory of printed ones.
		Each: func(m *structural.Match) error {
			if *asJSON {
				// What json.Marshal would write, without reflection.
				line = append(m.AppendJSON(line[:0]), '\n')
				_, err := out.Write(line)
				return err
			}
			first, _, _ := strings.Cut(m.Text, "\n")
			_, err := fmt.Fprintf(out, "%s:%d:%d: %s\n", m.Path, m.Range.StartLine, m.Range.StartColumn, first)
			return err
		},
		Recycle: true,
	}
	// One process answers one search: a parse cache would only hold every
	// tree until it exits.
	opts := structural.Options{Builtin: structural.NewBuiltin(structural.BuiltinOptions{CacheBytes: -1, Workers: workers})}

	ans, err := structural.Search(ctx, opts, req)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintln(stderr, "structural-search:", err)
		return 2
	}
	if ans.Structural == nil {
		// The engine could not run (a build without cgo): the answer is
		// lexical search's, which this template does not print.
		fmt.Fprintln(stderr, "structural-search: no structural engine answered:", ans.Report.Reason)
		return 2
	}
	// A limit that cut the search short (files, file size, matches) says
	// so in a note.
	for _, n := range ans.Structural.Notes {
		fmt.Fprintln(stderr, "structural-search:", n)
	}
	if ans.Structural.Found == 0 {
		return 1
	}
	return 0
}
