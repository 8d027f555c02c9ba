package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/index"
)

// indexEngine returns the project's engine, whose local index shows the
// progress of a long update on standard error when progress is shown
// (cmd.progressOut); stop clears the progress line.
func (c *cmd) indexEngine(p *project, progress bool) (eng *codecortex.Engine, stop func(), err error) {
	var opts codecortex.Options
	stop = func() {}
	if w := c.progressOut(); progress && w != nil {
		opts.IndexProgress, stop = progressRate(w)
	}
	eng, err = p.engine(opts)
	return eng, stop, err
}

// openIndex returns the project's local index, the engine's, showing the
// progress of a long update as indexEngine does.
func (c *cmd) openIndex(p *project, progress bool) (*index.Index, func(), error) {
	eng, stop, err := c.indexEngine(p, progress)
	if err != nil {
		return nil, stop, err
	}
	ix, err := eng.Index()
	if err != nil {
		return nil, stop, err
	}
	return ix, stop, nil
}

// progressRate returns a progress callback that shows files done of the
// total and the rate, at most ten times a second, and a function that
// clears the line.
func progressRate(w interface{ Write([]byte) (int, error) }) (func(done, total int), func()) {
	var mu sync.Mutex
	start := time.Now()
	var last time.Time
	shown := false
	report := func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(last) < 100*time.Millisecond && done != total {
			return
		}
		last = now
		rate := float64(done) / max(now.Sub(start).Seconds(), 1e-3)
		fmt.Fprintf(w, "\rcortex: indexed %d of %d files (%.0f files/s)\033[K", done, total, rate)
		shown = true
	}
	clear := func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return report, clear
}

// keepGraph keeps the snapshot of the engine's project graph of the index
// just brought up to date, for the questions that follow: the graph is
// built unless a snapshot of this state of the index is kept already.
func keepGraph(ctx context.Context, p *project) error {
	eng, err := p.engine(codecortex.Options{}) // the engine the index came from
	if err != nil {
		return err
	}
	gp, err := eng.Graph()
	if err != nil {
		return err
	}
	return gp.Keep(ctx)
}

// updateIndex brings the index up to date with no time bound, builds the
// project graph (keepGraph) while the index finishes, calls stop (which
// clears the progress line), and notes what each did.
func (c *cmd) updateIndex(ctx context.Context, p *project, ix *index.Index, stop func()) error {
	var gerr error
	var took time.Duration
	fr, err := ix.UpdateWhile(ctx, func() {
		start := time.Now()
		gerr = keepGraph(ctx, p)
		took = time.Since(start)
	})
	stop()
	if err != nil {
		return err
	}
	if c.json == jsonOff {
		c.note("cortex: %d files indexed, %d removed, in %s", fr.Indexed, fr.Removed, fr.Elapsed.Round(time.Millisecond))
		for _, d := range fr.Diagnostics {
			c.note("cortex: %s", safe(d))
		}
		if gerr != nil {
			c.note("cortex: the project graph was not built: %s", safe(gerr.Error()))
		} else {
			c.note("cortex: project graph ready in %s", took.Round(time.Millisecond))
		}
	}
	return nil
}

// runIndex is cortex index [--status | --precision [--lang L,...]]: it
// brings the local index up to date with no time bound (a cold index shows
// its progress), or with --status reports its identity, counts, freshness
// and size without indexing anything, or with --precision builds the
// precision index with the installed SCIP indexers (runPrecisionIndex).
func runIndex(ctx context.Context, c *cmd, args []string) int {
	status := c.fs.Bool("status", false, "report the index's identity, counts, freshness and size on disk; index nothing")
	precise := c.fs.Bool("precision", false, "build the precision index instead: run the installed SCIP indexer of each language the project has (scip-go, scip-typescript, scip-python), write it where cortex reads it and accept it as yours; a missing indexer is named with the command that installs it")
	lang := c.fs.String("lang", "", "with --precision, index only these `languages` (comma-separated: "+indexerLanguages()+") instead of those found")
	dep := c.fs.String("dependency", "", "index the `dependency` the code names (pflag, github.com/spf13/pflag, uuid) instead: run its SCIP indexer (scip-go, scip-typescript, scip-python) over the copy the project uses, once checked against the lockfile, so that its definitions are answered exact")
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	if *dep != "" {
		return runDependencyIndex(ctx, c, *dep)
	}
	if *precise || *lang != "" {
		return runPrecisionIndex(ctx, c, *precise, *status, *lang)
	}
	if !*status {
		batchCollection()
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	ix, stop, err := c.openIndex(p, !*status)
	if err != nil {
		return c.fail(err)
	}
	if !*status {
		if err := c.updateIndex(ctx, p, ix, stop); err != nil {
			return c.fail(err)
		}
	}
	st, err := ix.Status(ctx)
	if err != nil {
		return c.fail(err)
	}
	if c.json != jsonOff {
		if err := c.writeJSON(st); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	row := func(k, v string) { c.printf("%-11s %s\n", k, safe(v)) }
	row("identity", st.Identity.String())
	row("database", fmt.Sprintf("%s (%s on disk, schema %d, chunker %d)", st.Database, bytesize(st.SizeBytes), st.SchemaVersion, st.ChunkerVersion))
	extractor := st.Extractor
	if extractor == "" {
		extractor = "none: text only"
	}
	row("extractor", extractor)
	row("contents", fmt.Sprintf("%d files (%d without text), %d symbols, %d imports, %d chunks", st.Files, st.Skipped, st.Symbols, st.Imports, st.Chunks))
	fresh := string(st.Freshness.State)
	if n := st.Freshness.PendingCount; n > 0 {
		fresh = fmt.Sprintf("%d files changed since they were indexed (such as %s); the next query indexes them within its budget, cortex index all of them",
			n, strings.Join(st.Freshness.Pending[:min(3, len(st.Freshness.Pending))], ", "))
	}
	row("freshness", fresh)
	for _, d := range st.Freshness.Diagnostics {
		row("note", d)
	}
	for _, s := range st.Stored {
		switch {
		case s.Active:
		case s.Foreign != "":
			row("foreign", fmt.Sprintf("%s (%s): not written by this user's CodeCortex, never read; removed when a new identity's index is made, or now with rm %s*",
				s.File, s.Foreign, s.File))
		default:
			row("also", fmt.Sprintf("%s, %s, last used %s", s.Identity.String(), bytesize(s.SizeBytes), s.LastUsed.Format(time.DateTime)))
		}
	}
	if *status {
		// What opening the index did (a damaged or foreign database
		// rebuilt); an update printed its own above.
		for _, d := range st.Freshness.Diagnostics {
			c.note("cortex: %s", safe(d))
		}
	}
	return ExitOK
}

// runDependencyIndex is cortex index --dependency DEP.
func runDependencyIndex(ctx context.Context, c *cmd, dep string) int {
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, stop, err := c.indexEngine(p, false)
	if err != nil {
		return c.fail(err)
	}
	defer stop()
	if w := c.progressOut(); w != nil {
		fmt.Fprintf(w, "cortex: indexing %s (the indexer may take minutes on a large dependency)\n", safe(dep))
	}
	res, err := eng.IndexDependency(ctx, dep)
	if err != nil {
		return c.fail(err)
	}
	if c.json != jsonOff {
		if err := c.writeJSON(res); err != nil {
			return c.fail(err)
		}
	} else {
		for _, ix := range res.Indexes {
			c.printf("%s %s: %s, %d files by %s in %s\n", safe(ix.Copy.Name), safe(ix.Copy.Version), safe(ix.Path),
				ix.Documents, safe(ix.Indexer), ix.Duration.Round(time.Millisecond))
		}
		for _, pr := range res.Problems {
			c.note("cortex: cannot index %s", safe(pr.String()))
			if pr.Guidance != "" {
				c.note("cortex: %s", safe(pr.Guidance))
			}
		}
	}
	switch {
	case len(res.Indexes) > 0 && len(res.Problems) == 0:
		return ExitOK
	case len(res.Indexes) == 0 && len(res.Problems) == 0:
		if c.json == jsonOff {
			c.note("cortex: %s names no dependency of this project (cortex deps lists them)", safe(dep))
		}
		return ExitUsage
	}
	return ExitFail
}

// runSymbols is cortex symbols [PATH|DEP]: an outline of the definitions in
// a file, or in every file under a directory (the whole project without
// PATH), from the local index; or of a dependency the code names DEP, read
// from its copy at the locked version. A name that is both is the path.
func runSymbols(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[PATH|DEP]"
	limit := c.fs.Int("limit", 2000, "show at most `n` definitions")
	all := c.fs.Bool("all", false, "of a dependency, every definition: unexported ones (Go) and members")
	pos, code, ok := c.parse(args, 0, 1)
	if !ok {
		return code
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	var target string
	if len(pos) == 1 {
		var done bool
		if target, code, done = symbolsTarget(ctx, c, p, pos[0], *all, *limit); done {
			return code
		}
	}
	eng, stop, err := c.indexEngine(p, true)
	if err != nil {
		return c.fail(err)
	}
	res, err := eng.Symbols(ctx, codecortex.SymbolsQuery{Path: target})
	stop()
	if errors.Is(err, codecortex.ErrBadTarget) {
		return c.usageError(err)
	}
	if err != nil {
		return c.fail(err)
	}
	truncated := len(res.Definitions) > *limit
	if truncated {
		res.Definitions = res.Definitions[:*limit]
	}
	if c.json != jsonOff {
		out := struct {
			index.OutlineResult
			Truncated bool `json:"truncated"`
		}{res, truncated}
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	file := ""
	for _, d := range res.Definitions {
		if d.Path != file {
			file = d.Path
			c.printf("%s\n", safe(file))
		}
		indent := "  "
		if d.Container != "" {
			indent = "    "
		}
		sig := d.Signature
		if sig == "" {
			sig = d.Name
		}
		c.printf("%s%d  %s %s\n", indent, d.NameRange.StartLine, d.Kind, safe(sig))
	}
	if truncated {
		c.note("cortex: showing the first %d definitions (--limit)", *limit)
	}
	if res.Freshness.PendingCount > 0 {
		c.note("cortex: freshness partial: %d changed files not indexed yet; cortex index indexes them", res.Freshness.PendingCount)
	}
	for _, d := range res.Freshness.Diagnostics {
		c.note("cortex: %s", safe(d))
	}
	if len(res.Definitions) == 0 {
		c.note("no definitions")
		return ExitFail
	}
	return ExitOK
}

// symbolsTarget resolves symbols's argument: a path of the project is
// returned, relative to its root; else a dependency it names is outlined
// (done); else the path, or why it is not one, is returned as a path.
func symbolsTarget(ctx context.Context, c *cmd, p *project, arg string, all bool, limit int) (target string, code int, done bool) {
	rel, err := p.rel(arg)
	if err != nil || !p.has(rel) {
		if code, done := dependencyOutline(ctx, c, p, arg, all, limit); done {
			return "", code, true
		}
	}
	if err != nil {
		return "", c.finish(err), true
	}
	return rel, 0, false
}

// dependencyOutline prints the outline of the dependency dep names, when it
// names one; done is false when it names none.
func dependencyOutline(ctx context.Context, c *cmd, p *project, dep string, all bool, limit int) (code int, done bool) {
	eng, stop, err := c.indexEngine(p, true)
	if err != nil {
		return c.fail(err), true
	}
	defer stop()
	out, err := eng.DependencyOutline(ctx, codecortex.DependencyOutlineQuery{Dependency: dep, All: all})
	if err != nil {
		return c.fail(err), true
	}
	if !out.Names() {
		return 0, false
	}
	truncated := len(out.Records) > limit
	if truncated {
		out.Records = out.Records[:limit]
	}
	if c.json != jsonOff {
		res := struct {
			*codecortex.DependencyOutline
			Truncated bool `json:"truncated"`
		}{out, truncated}
		if err := c.writeJSON(res); err != nil {
			return c.fail(err), true
		}
		if len(out.Records) == 0 {
			return ExitFail, true
		}
		return ExitOK, true
	}
	for _, cp := range out.Copies {
		where := "in " + cp.Root
		if cp.Root == depsource.RootProject {
			where = "installed in the project"
		}
		checked := ""
		if cp.Checked != "" {
			checked = ", checked against " + cp.Checked
		}
		c.printf("dependency %s %s (%s%s; outside the project)\n", safe(cp.Name), safe(cp.Version), where, safe(checked))
	}
	file := ""
	for i := range out.Records {
		r := &out.Records[i]
		if r.Path != file {
			file = r.Path
			c.printf("%s\n", safe(file))
		}
		a := r.Metadata.Attributes
		indent := "  "
		if a["container"] != "" {
			indent = "    "
		}
		sig := a["signature"]
		if sig == "" {
			sig = r.Symbol
		}
		c.printf("%s%d  %s %s\n", indent, r.StartLine, a["kind"], safe(sig))
	}
	if truncated {
		c.note("cortex: showing the first %d definitions (--limit)", limit)
	}
	if out.Partial != "" {
		c.note("cortex: partial: %s", safe(out.Partial))
	}
	for _, pr := range out.Problems {
		c.note("cortex: cannot read %s", safe(pr.String()))
		if pr.Guidance != "" {
			c.note("cortex: %s", safe(pr.Guidance))
		}
	}
	if len(out.Records) == 0 {
		c.note("no definitions")
		return ExitFail, true
	}
	return ExitOK, true
}

func bytesize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w interface{ Write([]byte) (int, error) }) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
