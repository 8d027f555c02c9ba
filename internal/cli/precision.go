package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
)

// precisionProvider builds the precision provider from the project's
// configuration; generation progress goes to standard error.
func precisionProvider(e *Env, p *project) *precision.Provider {
	opts := precision.FromConfig(p.root.Dir(), p.cfg.PrecisionIndex)
	opts.Progress = e.Stderr
	return precision.New(opts)
}

func runPrecisionStatus(ctx context.Context, e *Env, args []string) int {
	fs, asJSON := flags(e, "precision-status", "")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return ExitUsage
	}
	p, err := openProject(e)
	if err != nil {
		return fail(e, nil, err)
	}
	defer p.Close()
	prov := precisionProvider(e, p)
	defer prov.Close()
	st := prov.Status(ctx)
	code := ExitOK
	if st.State == evidence.StaleState || st.State == evidence.Unavailable {
		code = ExitFail
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, p.red, st); err != nil {
			return fail(e, p.red, err)
		}
		return code
	}
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-14s %s\n", k, v) }
	state := string(st.State)
	if st.Reason != "" {
		state += " — " + st.Reason
	}
	row("index", st.IndexPath)
	row("state", state)
	if st.Guidance != "" {
		row("", "→ "+st.Guidance)
	}
	if st.Loaded {
		row("indexer", strings.TrimSpace(st.Metadata.Tool+" "+st.Metadata.ToolVersion))
		row("documents", strconv.Itoa(st.Stats.Documents))
		row("symbols", strconv.Itoa(st.Stats.Symbols))
		row("occurrences", strconv.Itoa(st.Stats.Occurrences))
		var encs []string
		for k, n := range st.Stats.Encodings {
			encs = append(encs, fmt.Sprintf("%s: %d documents", k, n))
		}
		sort.Strings(encs)
		row("encoding", strings.Join(encs, "; "))
		dropped := strconv.Itoa(len(st.Dropped))
		if len(st.Dropped) > 0 {
			dropped += fmt.Sprintf(" (such as %s: %s)", st.Dropped[0].Path, st.Dropped[0].Reason)
		}
		row("dropped", dropped)
		if st.Stats.MergedDocuments > 0 {
			row("merged", fmt.Sprintf("%d repeated documents merged by path", st.Stats.MergedDocuments))
		}
		if st.Stats.InvalidOccurrences > 0 {
			row("invalid", fmt.Sprintf("%d occurrences with invalid ranges skipped", st.Stats.InvalidOccurrences))
		}
		fresh := "fresh"
		if st.Staleness.Stale {
			fresh = "stale: " + st.Staleness.Reason
		}
		row("staleness", fmt.Sprintf("%s (%d documents checked by %s)", fresh, st.Staleness.Checked, st.Staleness.Method))
		row("load time", st.LoadTime)
	}
	fmt.Fprint(e.Stdout, p.red.String(b.String()))
	return code
}

// positionCommand returns the run function of def, refs or impl.
func positionCommand(name string, kind evidence.Kind) func(ctx context.Context, e *Env, args []string) int {
	return func(ctx context.Context, e *Env, args []string) int {
		fs, asJSON := flags(e, name, "FILE:LINE:COL")
		useLSP := fs.Bool("lsp", false, "when the index has no fresh answer, ask the language server (gopls); its answers are near_exact")
		if code, ok := parse(fs, args); !ok {
			return code
		}
		if fs.NArg() != 1 {
			fs.Usage()
			return ExitUsage
		}
		file, line, col, err := parsePosition(fs.Arg(0))
		if err != nil {
			fmt.Fprintln(e.Stderr, "cortex "+name+": "+err.Error())
			return ExitUsage
		}
		p, err := openProject(e)
		if err != nil {
			return fail(e, nil, err)
		}
		defer p.Close()
		rel, err := p.root.Rel(file)
		if err != nil {
			return fail(e, p.red, err)
		}
		prov := precisionProvider(e, p)
		defer prov.Close()
		var provider evidence.Provider = prov
		if *useLSP {
			lsp := precision.NewLSP(precision.LSPOptions{Dir: p.root.Dir(), Command: p.cfg.PrecisionIndex.LanguageServer})
			defer lsp.Close()
			provider = &precision.Fallback{Index: prov, Server: lsp}
		}
		q := evidence.Query{Path: rel, Line: line, Column: col, Kinds: []evidence.Kind{kind}}
		recs, reps := evidence.Collect(ctx, q, []evidence.Provider{provider}, evidence.CollectOptions{
			Check: func(r *evidence.Record) error {
				if !p.root.Inside(r.Path) {
					return errors.New("location outside the project root")
				}
				return nil
			},
		})
		if *asJSON {
			out := struct {
				Query   evidence.Query    `json:"query"`
				Records []evidence.Record `json:"records"`
				Reports []evidence.Report `json:"reports"`
			}{q, recs, reps}
			if out.Records == nil {
				out.Records = []evidence.Record{}
			}
			if err := writeJSON(e.Stdout, p.red, out); err != nil {
				return fail(e, p.red, err)
			}
		} else {
			printRecords(e, p, recs, reps)
		}
		if len(recs) == 0 {
			return ExitFail
		}
		return ExitOK
	}
}

func printRecords(e *Env, p *project, recs []evidence.Record, reps []evidence.Report) {
	for _, r := range recs {
		fmt.Fprintln(e.Stdout, p.red.String(recordLine(r)))
	}
	for _, rep := range reps {
		if rep.State == evidence.Available && rep.Reason == "" && len(rep.Dropped) == 0 {
			continue
		}
		msg := fmt.Sprintf("%s: %s", rep.Provider, rep.State)
		if rep.Reason != "" {
			msg += " — " + rep.Reason
		}
		fmt.Fprintln(e.Stderr, p.red.String(msg))
		if rep.Guidance != "" {
			fmt.Fprintln(e.Stderr, p.red.String("  → "+rep.Guidance))
		}
		for _, d := range rep.Dropped {
			fmt.Fprintln(e.Stderr, p.red.String("  dropped "+d))
		}
	}
	if len(recs) == 0 {
		fmt.Fprintln(e.Stderr, "no results")
	}
}

// recordLine is a record as one line: location, tier (stale said so) and
// symbol.
func recordLine(r evidence.Record) string {
	tier := r.Trust.String()
	if r.Stale {
		tier += " (stale)"
	}
	line := fmt.Sprintf("%s\t%s\t%s", r.Location(), tier, r.Symbol)
	if r.TargetSymbol != "" && r.TargetSymbol != r.Symbol {
		line += " → " + r.TargetSymbol
	}
	return line
}

// parsePosition splits FILE:LINE:COL (one-based code points); the file may
// itself contain colons.
func parsePosition(s string) (file string, line, col int, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, 0, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j <= 0 {
		return "", 0, 0, fmt.Errorf("%q is not FILE:LINE:COL", s)
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return "", 0, 0, fmt.Errorf("%q: LINE and COL must be positive integers (one-based code points)", s)
	}
	return s[:j], line, col, nil
}
