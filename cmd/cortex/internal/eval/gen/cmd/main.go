// Command cmd generates the oracle-backed evaluation and runs it: it reads
// the corpora that scripts/eval-corpora.sh fetched, writes each corpus's
// questions with their expected sites, asks them of the engine in three
// modes beside the rg baseline, and prints the markdown tables.
//
//	go run ./cmd/cortex/internal/eval/gen/cmd generate [-cache DIR] [-seed N] [-corpus a,b]
//	go run ./cmd/cortex/internal/eval/gen/cmd run [-cache DIR] [-corpus a,b] [-cortex BIN] [-out FILE]
//
// It is a separate program rather than a cortex flag: it needs a cache of
// corpora, outside tools (ast-grep, rg, the SCIP indexers' output) and
// minutes of work, none of which the cortex a host ships should carry.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/codecortex/codecortex/cmd/cortex/internal/eval/gen"
	"github.com/codecortex/codecortex/internal/safeexec"
)

type corpus struct {
	name, lang, version string
}

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "generate" && os.Args[1] != "run" && os.Args[1] != "misses") {
		fmt.Fprintln(os.Stderr, "usage: cmd generate|run|misses [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	cacheDefault := os.Getenv("EVAL_CACHE")
	if cacheDefault == "" {
		if d, err := os.UserCacheDir(); err == nil {
			cacheDefault = filepath.Join(d, "codecortex-eval")
		}
	}
	cache := fs.String("cache", cacheDefault, "the corpora cache `dir` (scripts/eval-corpora.sh)")
	only := fs.String("corpus", "", "comma-separated corpus `names`; empty means all")
	seed := fs.Uint64("seed", 37, "the sampling seed")
	cortex := fs.String("cortex", "", "the cortex `binary` to time whole processes with; empty builds one into the cache")
	out := fs.String("out", "", "write the markdown to `file` as well as standard output")
	full := fs.Bool("full", true, "add the breakdown by language and kind")
	firstContact := fs.Int("first-contact", 24, "questions per corpus asked at first contact, each on a fresh copy; 0 means all")
	process := fs.Int("process", 4, "questions per corpus and mode timed through the cortex binary")
	kinds := fs.String("kind", "", "comma-separated question `kinds` to ask (run) or show (misses); empty means all")
	modes := fs.String("mode", "", "comma-separated `modes` to ask in or show: first, indexed, scip; empty means all")
	results := fs.String("results", "", "the results `file` (default results.json in the cache)")
	fs.Parse(os.Args[2:])
	if *results == "" {
		*results = filepath.Join(*cache, "results.json")
	}
	sel := selection{kinds: set(*kinds), modes: set(*modes)}
	if os.Args[1] == "misses" {
		if err := misses(*results, sel, os.Stdout); err != nil {
			fail(err)
		}
		return
	}

	corpora, err := readCorpora(filepath.Join(*cache, "corpora.tsv"), *only)
	if err != nil {
		fail(err)
	}
	// Keep the seal key and trust store of this run in the cache, away
	// from the user's.
	config := filepath.Join(*cache, "config")
	os.Setenv("XDG_CONFIG_HOME", config)
	ctx := context.Background()
	switch os.Args[1] {
	case "generate":
		err = generate(ctx, *cache, corpora, *seed)
	case "run":
		err = run(ctx, *cache, corpora, *cortex, *out, *results, sel, *full, *firstContact, *process)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "eval:", err)
	os.Exit(1)
}

func readCorpora(tsv, only string) ([]corpus, error) {
	b, err := os.ReadFile(tsv)
	if err != nil {
		return nil, fmt.Errorf("%w (run bash scripts/eval-corpora.sh first)", err)
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var out []corpus
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 || (len(want) > 0 && !want[f[0]]) {
			continue
		}
		out = append(out, corpus{name: f[0], lang: f[1], version: f[2]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no corpus in %s matches %q", tsv, only)
	}
	return out, nil
}

func generate(ctx context.Context, cache string, corpora []corpus, seed uint64) error {
	if err := os.MkdirAll(filepath.Join(cache, "questions"), 0o755); err != nil {
		return err
	}
	total := 0
	for _, c := range corpora {
		dir := filepath.Join(cache, "corpora", c.name)
		t, err := truth(ctx, cache, c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		s, err := gen.Generate(t, gen.Meta{Corpus: c.name, Language: c.lang, Version: c.version}, os.DirFS(dir), seed)
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(cache, "questions", c.name+".json"), append(b, '\n'), 0o644); err != nil {
			return err
		}
		counts := map[string]int{}
		for _, q := range s.Cases {
			counts[q.Kind]++
		}
		var parts []string
		for _, k := range gen.Kinds {
			parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
		}
		fmt.Printf("%-13s %-7s %4d questions (%s) from %s: %d definitions, %d references, %d relations\n",
			c.name, c.lang, len(s.Cases), strings.Join(parts, ", "), t.Source, len(t.Defs), len(t.Refs), len(t.Impls))
		total += len(s.Cases)
	}
	fmt.Printf("%d questions in %s\n", total, filepath.Join(cache, "questions"))
	return nil
}

// truth reads a corpus's truth: its SCIP index, or ast-grep's matches.
func truth(ctx context.Context, cache string, c corpus) (*gen.Truth, error) {
	dir := filepath.Join(cache, "corpora", c.name)
	switch c.lang {
	case "go", "ts", "js", "python":
		f, err := os.Open(filepath.Join(cache, "scip", c.name+".scip"))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return gen.ReadSCIP(bufio.NewReaderSize(f, 1<<20), os.DirFS(dir))
	}
	exe, err := safeexec.LookPath("ast-grep")
	if err != nil {
		return nil, fmt.Errorf("ast-grep: %w", err)
	}
	return gen.RunAstGrep(ctx, exe, c.lang, dir)
}

func run(ctx context.Context, cache string, corpora []corpus, cortex, out, results string, sel selection, full bool, firstContact, process int) error {
	rg, err := safeexec.LookPath("rg")
	if err != nil {
		return fmt.Errorf("rg (the baseline): %w; scripts/eval-corpora.sh installs it", err)
	}
	if cortex == "" {
		if cortex, err = buildCortex(ctx, cache); err != nil {
			return err
		}
	}
	env := append(safeexec.Environ("PATH", "HOME"), "XDG_CONFIG_HOME="+filepath.Join(cache, "config"))
	r := &gen.Runner{
		Work:               filepath.Join(cache, "work"),
		FirstContactSample: firstContact,
		Progress:           func(s string) { fmt.Fprintln(os.Stderr, "eval:", s) },
	}
	rep := &gen.Report{}
	for _, c := range corpora {
		f, err := os.Open(filepath.Join(cache, "questions", c.name+".json"))
		if err != nil {
			return fmt.Errorf("%w (run the generate step first)", err)
		}
		s, err := gen.ParseSuite(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		s.Cases = sel.cases(s.Cases)
		if len(s.Cases) == 0 {
			continue
		}
		dir := filepath.Join(cache, "corpora", c.name)
		scip := filepath.Join(cache, "scip", c.name+".scip")
		b, err := gen.RunBaseline(ctx, rg, dir, s)
		if err != nil {
			return err
		}
		rep.Baselines = append(rep.Baselines, b...)
		for _, m := range gen.Modes {
			if !sel.mode(m) {
				continue
			}
			if m == gen.ModeSCIP {
				if _, err := os.Stat(scip); err != nil {
					continue
				}
			}
			start := time.Now()
			outs, err := r.Run(ctx, dir, scip, s, m)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", c.name, m, err)
			}
			rep.Outcomes = append(rep.Outcomes, outs...)
			r.Progress(fmt.Sprintf("%s, %s: %d questions in %v", c.name, m, len(outs), time.Since(start).Round(time.Millisecond)))
			if process > 0 {
				ts, err := r.TimeProcess(ctx, cortex, env, dir, scip, s, spread(s.Cases, process), m)
				if err != nil {
					return fmt.Errorf("%s, %s: %w", c.name, m, err)
				}
				rep.Timings = append(rep.Timings, ts...)
			}
		}
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	if err := os.WriteFile(results, raw, 0o644); err != nil {
		return err
	}
	var md bytes.Buffer
	rep.WriteMarkdown(&md, full)
	os.Stdout.Write(md.Bytes())
	if out != "" {
		return os.WriteFile(out, md.Bytes(), 0o644)
	}
	return nil
}

// buildCortex builds the cortex binary of the module in the working
// directory into the cache, for timing whole processes, and returns its path.
func buildCortex(ctx context.Context, cache string) (string, error) {
	cortex := filepath.Join(cache, "bin", "cortex")
	goexe, err := safeexec.LookPath("go")
	if err != nil {
		return "", err
	}
	wd, _ := os.Getwd()
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: goexe, Args: []string{"build", "-o", cortex, "./cmd/cortex"}, Dir: wd,
		Env: safeexec.Environ("PATH", "HOME", "GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY"), Timeout: 10 * time.Minute,
	})
	if err != nil {
		return "", fmt.Errorf("building cortex (run from the module root, or pass -cortex): %w: %s", err, res.Stderr)
	}
	return cortex, nil
}

// spread picks n cases spread over the suite, skipping the first kind's
// run so that each kind has a chance.
func spread(cases []gen.Case, n int) []gen.Case {
	if n >= len(cases) {
		return cases
	}
	out := make([]gen.Case, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, cases[(2*i+1)*len(cases)/(2*n)])
	}
	return out
}
