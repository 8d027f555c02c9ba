package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
)

func runPrecisionStatus(ctx context.Context, c *cmd, args []string) int {
	accept := c.fs.Bool("accept", false, "vouch for the index as one you made (such as by running scip-go by hand): record its sources, sealed with your key, so that it is served as exact while they are unchanged; an index nobody accepted is served as stale, since it may have come with the repository")
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	// A status command runs nothing: a missing or stale index is reported,
	// not regenerated.
	eng, err := p.engine(codecortex.Options{NoGenerate: true})
	if err != nil {
		return c.fail(err)
	}
	prov := eng.Precision()
	var st precision.Status
	if *accept {
		if st, err = prov.Accept(ctx); err != nil {
			return c.fail(err)
		}
		c.note("cortex: accepted the precision index %s as yours", safe(st.IndexPath))
	} else {
		st = prov.Status(ctx)
	}
	code := ExitOK
	if st.State == evidence.StaleState || st.State == evidence.Unavailable {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(st); err != nil {
			return c.fail(err)
		}
		return code
	}
	c.printf("%s", precisionStatusText(p, st))
	return code
}

// precisionStatusText is the precision index's status for people: its
// state with what fixes it, and once loaded its indexer, counts, encodings
// and staleness, one row each.
func precisionStatusText(p *project, st precision.Status) string {
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-14s %s\n", k, safe(v)) }
	state := string(st.State)
	if st.Reason != "" {
		state += " — " + st.Reason
	}
	row("index", st.IndexPath)
	row("state", state)
	if g := precisionGuidance(p, st); g != "" {
		row("", "→ "+g)
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
		if st.Snapshot != "" {
			row("snapshot", st.Snapshot)
		}
	}
	return b.String()
}

// positionCommand returns the run function of def, refs, impl or callers: the
// argument is FILE:LINE:COL (one-based code points, FILE relative to where
// cortex started) or a symbol name (Name, Type.Method, pkg.Name). The
// engine answers (Engine.Locate), as it does the MCP tools; --json prints
// its answer as it is.
func positionCommand(rel codecortex.Relation) func(ctx context.Context, c *cmd, args []string) int {
	return func(ctx context.Context, c *cmd, args []string) int {
		c.argsUsage = "FILE:LINE:COL | NAME"
		useLSP := c.fs.Bool("lsp", false, "when the index has no fresh answer, ask the language server of the file's language (gopls, pyright-langserver, typescript-language-server, ... or as configured); its answers are near_exact")
		var noDecl *bool
		if rel == codecortex.References {
			noDecl = c.fs.Bool("no-declaration", false, "leave out the declaration, which references include by default")
		}
		pos, code, ok := c.parse(args, 1, 1)
		if !ok {
			return code
		}
		file, line, col, isPos, err := parsePosition(pos[0])
		if err != nil {
			return c.usageError(err)
		}
		p, err := c.openProject(false)
		if err != nil {
			return c.finish(err)
		}
		defer p.Close()
		q := codecortex.LocateQuery{Relation: rel, NoDeclaration: noDecl != nil && *noDecl}
		if q.Target, err = p.target(pos[0], file, line, col, isPos); err != nil {
			return c.finish(err)
		}
		eng, err := c.lspEngine(p, *useLSP)
		if err != nil {
			return c.fail(err)
		}
		ans, err := eng.Locate(ctx, q)
		if errors.Is(err, codecortex.ErrBadTarget) {
			return c.usageError(err)
		}
		if err != nil {
			return c.fail(err)
		}
		if c.json != jsonOff {
			if err := c.writeJSON(ans); err != nil {
				return c.fail(err)
			}
		} else {
			if ans.ByName != "" {
				c.note("cortex: no index resolved %s:%d:%d, so %q, the name written there, was looked up by name", q.Path, q.Line, q.Column, ans.ByName)
			}
			if a := ans.Alias; a != nil {
				c.note("cortex: the project defines no %s: %s:%d binds %s of %s to that name, so these are %s's",
					safe(a.As), safe(a.Path), a.Line, safe(a.Name), safe(a.Module), safe(a.Name))
			}
			c.printRecords(ans.Records, ans.Reports)
		}
		if len(ans.Records) == 0 {
			return ExitFail
		}
		return ExitOK
	}
}

// printRecords prints records, one line each, and on standard error the
// reports that matter: a layer unavailable or stale, or one that dropped
// something; every report that says anything with -v, or when nothing
// answered.
func (c *cmd) printRecords(recs []evidence.Record, reps []evidence.Report) {
	for i := range recs {
		var prev *evidence.Record
		if i > 0 {
			prev = &recs[i-1]
		}
		c.printf("%s\n", safe(recordLine(&recs[i], prev)))
	}
	for _, rep := range reps {
		if !c.reportMatters(rep, len(recs) == 0) {
			continue
		}
		msg := fmt.Sprintf("%s: %s", rep.Provider, rep.State)
		if rep.Reason != "" {
			msg += " — " + rep.Reason
		}
		c.note("%s", safe(msg))
		if rep.Guidance != "" {
			c.note("  → %s", safe(rep.Guidance))
		}
		for _, d := range rep.Dropped {
			c.note("  dropped %s", safe(d))
		}
	}
	if len(recs) == 0 {
		c.note("no results")
	}
}

// reportMatters reports whether a layer's report is worth a line: it says
// the layer is unavailable or stale, or that it dropped something; or,
// with -v or when nothing answered, it says anything at all.
func (c *cmd) reportMatters(rep evidence.Report, empty bool) bool {
	switch {
	case rep.State == evidence.Unavailable || rep.State == evidence.StaleState || len(rep.Dropped) > 0:
		return true
	case c.verbose || empty:
		return rep.State != evidence.Available || rep.Reason != ""
	}
	return false
}

// recordLine is a record as one line: location, tier (stale said so),
// the short name of its symbol and, when it uses another (a caller's
// callee), " → " and that one's, and what else marks it (a declaration
// among references). A name the record above (prev, nil for the first)
// already showed is left out: a caller's name is not repeated on each of
// its calls, nor the callee on each caller's line.
func recordLine(r, prev *evidence.Record) string {
	tier := r.Trust.String()
	if r.Stale {
		tier += " (stale)"
	}
	var name string
	if prev == nil || prev.Symbol != r.Symbol {
		name = shortSymbol(r.Symbol)
	}
	if t := r.TargetSymbol; t != "" && t != r.Symbol && (prev == nil || prev.TargetSymbol != t) {
		name = strings.TrimSpace(name + " → " + shortSymbol(t))
	}
	line := fmt.Sprintf("%s\t%s\t%s", r.Location(), tier, name)
	if r.Metadata.Attributes["declaration"] == "true" {
		line += "\t(declaration)"
	}
	if n := outsideNote(r); n != "" {
		line += "\t" + strings.TrimPrefix(n, ", ")
	}
	return strings.TrimRight(line, "\t")
}

// dependencyNote is def's help on a dependency's names.
const dependencyNote = "A name qualified as the code imports a dependency (pflag.FlagSet, uuid.v4, requests.get,\n" +
	"serde_json::from_str) is also read from the dependency's copy at the locked version (module cache,\n" +
	"node_modules, site-packages, Cargo registry), marked outside the project; a copy that is not the\n" +
	"locked version is reported, not read."

// outsideNote says, for a record of a dependency's copy, which dependency
// at which version and where its path is relative to: such a path is
// outside the project and never a file to edit.
func outsideNote(r *evidence.Record) string {
	if !depsource.Outside(r) {
		return ""
	}
	a := r.Metadata.Attributes
	where := "in " + a["root"]
	if a["root"] == depsource.RootProject {
		where = "installed in the project"
	}
	note := fmt.Sprintf(", dependency %s %s (%s", a["dependency"], a["version"], where)
	if c := a["checked_against"]; c != "" {
		note += ", checked against " + c
	}
	return note + "; outside the project)"
}

// parsePosition reads FILE:LINE:COL (one-based code points; the file may
// itself contain colons). An argument that does not end in a number is a
// symbol name (Name, Type.Method, pkg.Name, a::b): isPos is false. One
// that ends in a number but is not a valid position is an error.
func parsePosition(s string) (file string, line, col int, isPos bool, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !isDigits(s[i+1:]) {
		if strings.ContainsAny(s, "/\\") || strings.TrimSpace(s) == "" {
			return "", 0, 0, false, fmt.Errorf("%q is neither FILE:LINE:COL nor a symbol name", s)
		}
		return "", 0, 0, false, nil
	}
	j := strings.LastIndexByte(s[:i], ':')
	bad := fmt.Errorf("%q: want FILE:LINE:COL with LINE and COL positive integers (one-based code points)", s)
	if j <= 0 {
		return "", 0, 0, false, bad
	}
	line, err1 := strconv.Atoi(s[j+1 : i])
	col, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return "", 0, 0, false, bad
	}
	return s[:j], line, col, true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// target is the engine's Target for an argument parsePosition read: a
// position in a file of the project, or a symbol's name.
func (p *project) target(arg, file string, line, col int, isPos bool) (codecortex.Target, error) {
	if !isPos {
		return codecortex.Target{Symbol: arg}, nil
	}
	path, err := p.rel(file)
	return codecortex.Target{Path: path, Line: line, Column: col}, err
}

// lspEngine is the project's engine, falling back to the language server
// of each file's language when lsp is set, with progress on standard
// error when it is shown.
func (c *cmd) lspEngine(p *project, lsp bool) (*codecortex.Engine, error) {
	opts := codecortex.Options{LanguageServer: lsp}
	if w := c.progressOut(); w != nil {
		opts.Progress = func(s string) { io.WriteString(w, s) }
	}
	return p.engine(opts)
}
