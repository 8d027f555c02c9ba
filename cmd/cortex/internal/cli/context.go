package cli

import (
	"context"
	"errors"
	"fmt"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/validation"
)

// runHistory is cortex history PATH[:LINE[-LINE]] (a file's commits,
// following renames, with the pull requests they came from, and who last
// changed the lines), or --since REV (what changed since a commit, the
// work tree included; without PATH and --since, since HEAD). The engine
// answers (Engine.HistoryOf), as it does cortex_history.
func runHistory(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[PATH[:LINE[-LINE]]] [--since REV]"
	since := c.fs.String("since", "", "what changed since the commit `rev`, work tree and untracked files included")
	limit := c.fs.Int("limit", history.DefaultLimit, "show at most `n` commits")
	pos, code, ok := c.parse(args, 0, 1)
	if !ok {
		return code
	}
	q := codecortex.HistoryQuery{Since: *since, Limit: *limit}
	var file string
	if len(pos) == 1 {
		var err error
		if file, q.StartLine, q.EndLine, err = parseLineRange(pos[0]); err != nil {
			return c.usageError(err)
		}
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	if file != "" {
		if q.Path, err = p.rel(file); err != nil {
			return c.finish(err)
		}
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	out, err := eng.HistoryOf(ctx, q)
	if errors.Is(err, codecortex.ErrBadTarget) || errors.Is(err, history.ErrRevision) {
		return c.usageError(err)
	}
	if err != nil {
		return c.fail(err)
	}
	if c.json != jsonOff {
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printFileHistory(c, out.History)
	for _, hk := range out.Blame {
		who := hk.Commit.Short() + " " + hk.Commit.Author + " " + hk.Commit.Date.Format(time.DateOnly) + " " + hk.Commit.Subject
		if hk.Uncommitted {
			who = "not committed yet"
		}
		c.printf("  lines %d-%d: %s\n", hk.StartLine, hk.EndLine, safe(who))
	}
	printChanges(c, out.Changes, *since)
	return ExitOK
}

// printFileHistory prints a file's commits, one a line, newest first.
func printFileHistory(c *cmd, h *history.FileHistory) {
	if h == nil {
		return
	}
	c.printf("%s: %s\n", safe(h.Path), count(len(h.Entries), "commit"))
	for _, e := range h.Entries {
		line := fmt.Sprintf("  %s %s %-10s %s", e.Short(), e.Date.Format(time.DateOnly), e.Status, e.Subject)
		if e.PR != nil {
			line += "  [" + e.PR.Ref() + "]"
		}
		if e.OldPath != "" {
			line += fmt.Sprintf("  (from %s)", e.OldPath)
		}
		c.printf("%s\n", safe(line))
	}
	if h.More {
		c.printf("  … older commits past --limit\n")
	}
}

// printChanges prints what changed since a revision: the changed files,
// then the commits.
func printChanges(c *cmd, cs *history.ChangeSet, since string) {
	if cs == nil {
		return
	}
	if since == "" {
		since = "HEAD"
	}
	c.printf("since %s: %s, %s\n", safe(since), count(len(cs.Commits), "commit"), count(len(cs.Changes), "changed file"))
	for _, ch := range cs.Changes {
		line := fmt.Sprintf("  %-9s %s", ch.Status, ch.Path)
		if ch.OldPath != "" {
			line += " (from " + ch.OldPath + ")"
		}
		if !ch.Binary {
			line += fmt.Sprintf("  +%d -%d", ch.Added, ch.Deleted)
		}
		c.printf("%s\n", safe(line))
	}
	for _, cm := range cs.Commits {
		line := fmt.Sprintf("  %s %s %s", cm.Short(), cm.Date.Format(time.DateOnly), cm.Subject)
		if cm.PR != nil {
			line += "  [" + cm.PR.Ref() + "]"
		}
		c.printf("%s\n", safe(line))
	}
	if cs.Shallow {
		c.note("cortex: a shallow clone: the commit list may stop early")
	}
}

// parseLineRange reads PATH, PATH:LINE or PATH:LINE-LINE.
func parseLineRange(s string) (file string, start, end int, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !isDigits(strings.Replace(s[i+1:], "-", "", 1)) {
		return s, 0, 0, nil
	}
	a, b, ranged := strings.Cut(s[i+1:], "-")
	start, err1 := strconv.Atoi(a)
	end = start
	var err2 error
	if ranged {
		end, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || start < 1 || end < start {
		return "", 0, 0, fmt.Errorf("%q: want PATH:LINE or PATH:LINE-LINE with 1 ≤ LINE ≤ LINE", s)
	}
	return s[:i], start, end, nil
}

// memoryOf returns the project's memory, the engine's, whose author is the
// user remembering.
func (c *cmd) memoryOf(p *project) (*memory.Store, error) {
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return nil, err
	}
	return eng.Memory(), nil
}

// author is who the user is: $CODECORTEX_AUTHOR, or the login name.
func (c *cmd) author() string {
	if a := c.Getenv("CODECORTEX_AUTHOR"); a != "" {
		return a
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// runRemember is cortex remember --type T [--reason R] [--path P]…
// [--symbol S]… TEXT: one durable, auditable memory entry.
func runRemember(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "--type convention|decision|gotcha|failure [--reason R] [--path P]... [--symbol S]... TEXT..."
	typ := c.fs.String("type", "", "the entry's `type`: convention, decision, gotcha or failure")
	reason := c.fs.String("reason", "", "why it holds")
	var paths, syms stringList
	c.fs.Var(&paths, "path", "a file, directory or pattern the entry is about (repeatable)")
	c.fs.Var(&syms, "symbol", "a symbol the entry is about, such as Engine.Ask (repeatable)")
	pos, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	if !memory.Type(*typ).Valid() {
		return c.usageError(fmt.Errorf("--type %q: want convention, decision, gotcha or failure", *typ))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	scope := memory.Scope{Symbols: syms}
	if len(paths) > 0 {
		if scope.Paths, err = p.rels(paths); err != nil {
			return c.finish(err)
		}
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	e, err := eng.Remember(ctx, memory.Entry{Type: memory.Type(*typ), Text: strings.Join(pos, " "), Reason: *reason, Scope: scope})
	var ee *memory.EntryError
	if errors.As(err, &ee) || errors.Is(err, memory.ErrInvalid) {
		return c.usageError(err)
	}
	if err != nil {
		return c.fail(err)
	}
	if c.json != jsonOff {
		if err := c.writeJSON(e); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	c.printf("remembered %s (%s): %s\n", e.ID, e.Type, safe(e.Text))
	return ExitOK
}

// runRecall is cortex recall [--path P] [--symbol S] [--type T] [TEXT...]:
// the memories that match, with their decayed confidence.
func runRecall(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[--path P] [--symbol S] [--type T]... [TEXT...]"
	path := c.fs.String("path", "", "entries whose scope covers this file or directory")
	sym := c.fs.String("symbol", "", "entries whose scope covers this symbol")
	var types stringList
	c.fs.Var(&types, "type", "only entries of this `type` (repeatable)")
	limit := c.fs.Int("limit", 20, "show at most `n` entries")
	pos, code, ok := c.parse(args, 0, -1)
	if !ok {
		return code
	}
	q := memory.Query{Text: strings.Join(pos, " "), Symbol: *sym, Limit: *limit}
	for _, t := range types {
		if !memory.Type(t).Valid() {
			return c.usageError(fmt.Errorf("--type %q: want convention, decision, gotcha or failure", t))
		}
		q.Types = append(q.Types, memory.Type(t))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	if *path != "" {
		if q.Path, err = p.rel(*path); err != nil {
			return c.finish(err)
		}
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	ms, err := eng.Recall(ctx, q)
	if err != nil {
		return c.fail(err)
	}
	if ms == nil {
		ms = []memory.Match{}
	}
	code = ExitOK
	if len(ms) == 0 {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(map[string]any{"memories": ms}); err != nil {
			return c.fail(err)
		}
		return code
	}
	printMatches(c, ms)
	if len(ms) == 0 {
		c.note("no memories")
	}
	return code
}

// printMatches prints memories for people, one entry a line with its
// reason and scope below. A reviewed entry reads as today; an unreviewed
// one says so first and quotes every field it holds, so that what it says
// reads as its claim and never as cortex's.
func printMatches(c *cmd, ms []memory.Match) {
	unreviewed := 0
	for _, m := range ms {
		e := m.Entry
		date := m.Created.Format(time.DateOnly)
		if m.FutureDated {
			date += " (its own date is in the future)"
		}
		state := fmt.Sprintf("confidence %.2f", m.Confidence)
		if m.Stale {
			state += ", stale"
		}
		scope := append(append([]string{}, e.Scope.Paths...), e.Scope.Symbols...)
		if m.Review.Reviewed() {
			if m.Review == memory.Accepted {
				state += ", accepted by you"
			}
			c.printf("%s %-10s %s  (%s, %s, %s)\n", e.ID, e.Type, safe(e.Text), state, safe(e.Author), date)
			if e.Reason != "" {
				c.printf("    because %s\n", safe(e.Reason))
			}
			if len(scope) > 0 {
				c.printf("    about %s\n", safe(strings.Join(scope, ", ")))
			}
			continue
		}
		unreviewed++
		c.printf("%s %-10s %s  (UNREVIEWED, supplied with the repository; %s, author %s, %s)\n",
			e.ID, e.Type, strconv.Quote(e.Text), state, strconv.Quote(e.Author), date)
		if e.Reason != "" {
			c.printf("    reason %s\n", strconv.Quote(e.Reason))
		}
		if len(scope) > 0 {
			quoted := make([]string, len(scope))
			for i, s := range scope {
				quoted[i] = strconv.Quote(s)
			}
			c.printf("    about %s\n", strings.Join(quoted, ", "))
		}
	}
	if unreviewed > 0 {
		c.note("%d of these %s unreviewed: supplied with the repository, neither written nor accepted by you; text, author and date are the entry's claims, not cortex's; %s",
			unreviewed, plural(unreviewed, "is", "are"), memory.AcceptHint)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// runForget is cortex forget ID --reason R: the entry is purged, and the
// audit log keeps who forgot it, when and why (never its text).
func runForget(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "ID --reason R"
	reason := c.fs.String("reason", "", "why it is forgotten (kept in the audit log)")
	pos, code, ok := c.parse(args, 1, 1)
	if !ok {
		return code
	}
	if strings.TrimSpace(*reason) == "" {
		return c.usageError(errors.New("--reason is required: the audit log says why an entry was forgotten"))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	store, err := c.memoryOf(p)
	if err != nil {
		return c.fail(err)
	}
	err = store.Forget(ctx, pos[0], c.author(), *reason)
	switch {
	case errors.Is(err, memory.ErrNotFound):
		return c.usageError(err)
	case err != nil:
		return c.fail(err)
	}
	if c.json != jsonOff {
		_ = c.writeJSON(map[string]string{"forgotten": pos[0]})
		return ExitOK
	}
	c.printf("forgot %s\n", safe(pos[0]))
	return ExitOK
}

// runMemory is cortex memory verify | list [--unreviewed] | accept ID... |
// accept --all: check every entry's digest and the audit log, and list
// the entries this user has not reviewed (exit 1 on a problem or an
// unreviewed entry); list the entries with their review state; or accept
// entries this user has read, with an audit line sealed under their key.
func runMemory(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "verify | list [--unreviewed] | accept ID... | accept --all"
	all := c.fs.Bool("all", false, "accept: every unreviewed entry (read them first: cortex memory list --unreviewed)")
	onlyUnreviewed := c.fs.Bool("unreviewed", false, "list: only the entries you have not reviewed")
	pos, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	sub, ids := pos[0], pos[1:]
	switch {
	case sub != "verify" && sub != "list" && sub != "accept":
		return c.usageError(fmt.Errorf("unknown memory subcommand %q: want verify, list or accept", sub))
	case sub != "accept" && len(ids) > 0:
		return c.usageError(fmt.Errorf("memory %s takes no arguments", sub))
	case sub != "accept" && *all, sub != "list" && *onlyUnreviewed:
		return c.usageError(fmt.Errorf("--all is for memory accept, --unreviewed for memory list"))
	case sub == "accept" && (len(ids) == 0) == !*all:
		return c.usageError(errors.New("memory accept takes the ids of the entries you have read, or --all"))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	store, err := c.memoryOf(p)
	if err != nil {
		return c.fail(err)
	}
	switch sub {
	case "list":
		return memoryList(c, store, *onlyUnreviewed)
	case "accept":
		return memoryAccept(ctx, c, store, ids, *all)
	}
	rep, err := store.Verify(ctx)
	if err != nil {
		return c.fail(err)
	}
	code = ExitOK
	if !rep.OK() {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(rep); err != nil {
			return c.fail(err)
		}
		return code
	}
	c.printf("%d entries, %d intact, %d reviewed by you; %d audit lines, %d sealed by you\n",
		rep.Entries, rep.Intact, rep.Reviewed, rep.AuditLines, rep.SealedLines)
	if rep.ForeignLines > 0 {
		c.printf("  %d audit %s not sealed by you (a teammate's, from before lines were sealed, or written by hand): %s nothing to you\n",
			rep.ForeignLines, plural(rep.ForeignLines, "line is", "lines are"), plural(rep.ForeignLines, "it proves", "they prove"))
	}
	for _, pr := range rep.Problems {
		c.printf("  %s\n", safe(fmt.Sprint(pr)))
	}
	for _, pr := range rep.Unreviewed {
		c.printf("  %s: %s\n", pr.ID, safe(pr.Reason))
	}
	return code
}

// memoryList is cortex memory list: every intact entry, or only those
// this user has not reviewed, newest first.
func memoryList(c *cmd, store *memory.Store, onlyUnreviewed bool) int {
	ms, err := store.Recall(memory.Query{Limit: -1})
	if err != nil {
		return c.fail(err)
	}
	kept := []memory.Match{}
	for _, m := range ms {
		if !onlyUnreviewed || !m.Review.Reviewed() {
			kept = append(kept, m)
		}
	}
	slices.SortStableFunc(kept, func(a, b memory.Match) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Entry.ID, b.Entry.ID)
	})
	if c.json != jsonOff {
		if err := c.writeJSON(map[string]any{"memories": kept}); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printMatches(c, kept)
	if len(kept) == 0 {
		c.note("no memories")
	}
	return ExitOK
}

// memoryAccept is cortex memory accept ID... | --all: each entry named (or
// every unreviewed one) accepted by this user.
func memoryAccept(ctx context.Context, c *cmd, store *memory.Store, ids []string, all bool) int {
	if all {
		ms, err := store.Recall(memory.Query{Limit: -1})
		if err != nil {
			return c.fail(err)
		}
		for _, m := range ms {
			if !m.Review.Reviewed() {
				ids = append(ids, m.Entry.ID)
			}
		}
		slices.Sort(ids)
	}
	type accepted struct {
		ID     string        `json:"id"`
		Type   memory.Type   `json:"type"`
		Review memory.Review `json:"review"`
		// Already says the entry was reviewed before this call.
		Already bool `json:"already"`
	}
	out := []accepted{}
	for _, id := range ids {
		e, was, err := store.Accept(ctx, id, c.author())
		switch {
		case errors.Is(err, memory.ErrNotFound):
			return c.usageError(err)
		case err != nil:
			return c.fail(fmt.Errorf("%s: %w", safe(id), err))
		}
		already := was.Reviewed()
		rev := memory.Accepted
		if already {
			rev = was
		}
		out = append(out, accepted{ID: e.ID, Type: e.Type, Review: rev, Already: already})
		if c.json == jsonOff {
			if already {
				c.printf("%s was reviewed already (%s)\n", e.ID, was)
			} else {
				c.printf("accepted %s (%s): %s\n", e.ID, e.Type, strconv.Quote(e.Text))
			}
		}
	}
	if c.json != jsonOff {
		if err := c.writeJSON(map[string]any{"accepted": out}); err != nil {
			return c.fail(err)
		}
	} else if len(out) == 0 {
		c.note("no unreviewed memories")
	}
	return ExitOK
}

// runValidate is cortex validate: the project's validation commands (the
// configured ones once trusted, or those detected for its ecosystems) run
// now; their results become the validation evidence later questions see.
func runValidate(ctx context.Context, c *cmd, args []string) int {
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	stop := progress(c.progressOut(), "validating")
	out, err := eng.Validate(ctx)
	stop()
	if errors.Is(err, validation.ErrNoCommands) {
		return c.fail(errors.New("nothing to validate: no validation.commands configured and no ecosystem detected (go.mod, tsconfig.json)"))
	}
	if err != nil {
		return c.fail(err)
	}
	code := ExitOK
	if !out.Passed {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return code
	}
	for _, r := range out.Results {
		state := "passed"
		if !r.Passed {
			state = "FAILED"
		}
		c.printf("%-7s %s (%s) in %s\n", state, safe(r.Name), safe(strings.Join(r.Argv, " ")), r.Duration.Round(time.Millisecond))
		if r.Error != "" {
			c.printf("  %s\n", safe(r.Error))
		}
		for _, d := range r.Diagnostics {
			loc := d.Path
			if d.Line > 0 {
				loc += fmt.Sprintf(":%d:%d", d.Line, d.Column)
			}
			what := d.Message
			if d.Test != "" {
				what = d.Test + ": " + what
			}
			c.printf("  %s: %s\n", safe(loc), safe(what))
		}
		if r.Dropped > 0 {
			c.printf("  (%d diagnostics outside the project left out)\n", r.Dropped)
		}
	}
	return code
}
