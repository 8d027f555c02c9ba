package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// The modes a suite is asked in.
const (
	// ModeFirstContact asks each question on a fresh copy of the corpus,
	// with no .codecortex and no precision index: what an agent gets on a
	// new clone.
	ModeFirstContact = "first contact"
	// ModeIndexed asks on a copy whose local index is built (cortex index),
	// with no precision index.
	ModeIndexed = "indexed, no SCIP"
	// ModeSCIP asks on an indexed copy with the corpus's SCIP index in
	// place and accepted.
	ModeSCIP = "SCIP"
)

// Modes lists the modes in the order tables show them.
var Modes = []string{ModeFirstContact, ModeIndexed, ModeSCIP}

// A Runner asks suites of the engine.
type Runner struct {
	// Work is where corpus copies are made and removed.
	Work string
	// FirstContactSample is how many questions of a suite are asked at
	// first contact, each on its own fresh copy; 0 means all.
	FirstContactSample int
	// Progress, when set, receives a line per step.
	Progress func(string)
}

func (r *Runner) log(format string, args ...any) {
	if r.Progress != nil {
		r.Progress(fmt.Sprintf(format, args...))
	}
}

// Copy makes a fresh copy of the corpus at dir under r.Work, without any
// .codecortex a command run in the corpus left there (every mode starts
// from none), with every source file an hour older than now (so that an
// index made or copied later is newer than its sources).
func (r *Runner) Copy(dir string) (string, error) {
	if err := os.MkdirAll(r.Work, 0o755); err != nil {
		return "", err
	}
	dst, err := os.MkdirTemp(r.Work, "corpus-")
	if err != nil {
		return "", err
	}
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		os.RemoveAll(dst)
		return "", err
	}
	if err := os.RemoveAll(filepath.Join(dst, ".codecortex")); err != nil {
		os.RemoveAll(dst)
		return "", err
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return dst, nil
}

func open(dir string) (*codecortex.Engine, error) {
	return codecortex.Open(dir, codecortex.Options{
		Project:    config.ProjectOptions{Trust: config.TrustNever},
		NoGenerate: true,
	})
}

// Ask asks c of eng and scores the answer.
func Ask(ctx context.Context, eng *codecortex.Engine, s *Suite, c Case, mode string) (Outcome, error) {
	start := time.Now()
	ans, err := eng.Ask(ctx, codecortex.Question{Text: c.Question, Budget: s.Budget})
	if err != nil {
		return Outcome{}, fmt.Errorf("gen: %q: %w", c.Question, err)
	}
	el := time.Since(start)
	o := Score(c, HitsOf(ans.Records, ans.Context.Trace))
	o.Corpus, o.Language, o.Mode, o.Elapsed = s.Corpus, s.Language, mode, el
	o.Tokens, o.Budget = ans.Context.Used, ans.Context.Budget
	if doc, err := json.Marshal(ans); err == nil {
		o.Document = evidence.EstimateTokens(len(doc))
	}
	return o, nil
}

// Run asks s in mode on copies of the corpus at dir; scip is the corpus's
// SCIP index, needed in ModeSCIP.
func (r *Runner) Run(ctx context.Context, dir, scip string, s *Suite, mode string) ([]Outcome, error) {
	var outs []Outcome
	if mode == ModeFirstContact {
		cases := sample(s.Cases, r.FirstContactSample)
		for _, c := range cases {
			cp, err := r.Copy(dir)
			if err != nil {
				return nil, err
			}
			eng, err := open(cp)
			if err != nil {
				os.RemoveAll(cp)
				return nil, err
			}
			o, err := Ask(ctx, eng, s, c, mode)
			eng.Close()
			os.RemoveAll(cp)
			if err != nil {
				return nil, err
			}
			outs = append(outs, o)
		}
		return outs, nil
	}
	cp, err := r.Copy(dir)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cp)
	if mode == ModeSCIP {
		if err := placeIndex(scip, cp); err != nil {
			return nil, err
		}
	}
	eng, err := open(cp)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	if mode == ModeSCIP {
		if _, err := eng.Precision().Accept(ctx); err != nil {
			return nil, fmt.Errorf("gen: accepting the SCIP index: %w", err)
		}
	}
	start := time.Now()
	if err := eng.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("gen: indexing %s: %w", s.Corpus, err)
	}
	r.log("%s, %s: indexed in %v", s.Corpus, mode, time.Since(start).Round(time.Millisecond))
	for _, c := range s.Cases {
		o, err := Ask(ctx, eng, s, c, mode)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// placeIndex copies the SCIP index into the project's root as index.scip;
// whoever then asks accepts it, as its maker does with cortex
// precision-status --accept, under the user key that asks.
func placeIndex(scip, dir string) error {
	b, err := os.ReadFile(scip)
	if err != nil {
		return fmt.Errorf("gen: the SCIP index: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "index.scip"), b, 0o644)
}

// sample is every n-th case, spread over the suite, n of them at most.
func sample(cases []Case, n int) []Case {
	if n <= 0 || n >= len(cases) {
		return cases
	}
	out := make([]Case, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, cases[i*len(cases)/n])
	}
	return out
}

// RunBaseline runs `rg -w -F -l NAME` (the bare name of the question) in
// the corpus at dir, with the rg executable at rg, and scores reading
// every file it names.
func RunBaseline(ctx context.Context, rg, dir string, s *Suite) ([]Baseline, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var out []Baseline
	for _, c := range s.Cases {
		name := bareName(c.Name)
		res, err := safeexec.Run(ctx, safeexec.Invocation{
			Path: rg, Args: []string{"-w", "-F", "-l", "--", name, "."}, Dir: dir,
			Env: safeexec.Environ("PATH", "HOME"), Timeout: time.Minute,
		})
		if err != nil && res.ExitCode != 1 { // 1: nothing found
			return nil, fmt.Errorf("gen: rg %s: %w", name, err)
		}
		files := map[string]int{}
		sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
		for sc.Scan() {
			p := strings.TrimPrefix(filepath.ToSlash(sc.Text()), "./")
			if !validPath(p) {
				continue
			}
			if fi, err := root.Stat(p); err == nil {
				files[p] = int(fi.Size())
			}
		}
		b := ScoreBaseline(c, files)
		b.Corpus, b.Language, b.Elapsed = s.Corpus, s.Language, res.Duration
		out = append(out, b)
	}
	return out, nil
}

// bareName is the last identifier of T.M, T::M or T#M.
func bareName(n string) string {
	for _, sep := range []string{"::", "#", "."} {
		if i := strings.LastIndex(n, sep); i >= 0 {
			n = n[i+len(sep):]
		}
	}
	return n
}

// A Timing is the whole-process time of one question asked through the
// cortex binary.
type Timing struct {
	Corpus, Mode string
	Elapsed      time.Duration
}

// TimeProcess asks each of cases through `cortex ask --json` (the
// executable at cortex, with env) in mode on copies of the corpus at dir
// and measures each whole process. At first contact each question gets a
// fresh copy; otherwise the copy is indexed first (cortex index) and, for
// ModeSCIP, holds the accepted index.
func (r *Runner) TimeProcess(ctx context.Context, cortex string, env []string, dir, scip string, s *Suite, cases []Case, mode string) ([]Timing, error) {
	ask := func(cp string, c Case) (Timing, error) {
		res, err := safeexec.Run(ctx, safeexec.Invocation{
			Path: cortex, Args: []string{"ask", "--json", "--budget", fmt.Sprint(s.Budget), c.Question},
			Dir: cp, Env: env, Timeout: 2 * time.Minute, MaxStdout: 64 << 20,
		})
		if err != nil && res.ExitCode != 1 {
			return Timing{}, fmt.Errorf("gen: cortex ask %q: %w: %s", c.Question, err, res.Stderr)
		}
		return Timing{Corpus: s.Corpus, Mode: mode, Elapsed: res.Duration}, nil
	}
	var out []Timing
	if mode == ModeFirstContact {
		for _, c := range cases {
			cp, err := r.Copy(dir)
			if err != nil {
				return nil, err
			}
			t, err := ask(cp, c)
			os.RemoveAll(cp)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
		return out, nil
	}
	cp, err := r.Copy(dir)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cp)
	if mode == ModeSCIP {
		if err := placeIndex(scip, cp); err != nil {
			return nil, err
		}
		// Accepted by the binary timed, under the key it asks with.
		if res, err := safeexec.Run(ctx, safeexec.Invocation{Path: cortex, Args: []string{"precision-status", "--accept"}, Dir: cp, Env: env, Timeout: time.Minute}); err != nil {
			return nil, fmt.Errorf("gen: cortex precision-status --accept: %w: %s", err, res.Stderr)
		}
	}
	if res, err := safeexec.Run(ctx, safeexec.Invocation{Path: cortex, Args: []string{"index"}, Dir: cp, Env: env, Timeout: 10 * time.Minute}); err != nil {
		return nil, fmt.Errorf("gen: cortex index: %w: %s", err, res.Stderr)
	}
	for _, c := range cases {
		t, err := ask(cp, c)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
