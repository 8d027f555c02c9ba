package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A commandHelp is what cortex help CMD and cortex CMD --help print
// besides the command's summary, usage and flags: examples that run as
// written, and notes such as what the exit code means. It is kept apart
// from the command table so that the table stays one line a command.
type commandHelp struct {
	examples []string
	notes    string
}

// helps holds every command's help by name; TestEveryCommandHasHelp checks
// that none is missing.
var helps = map[string]commandHelp{
	"ask": {examples: []string{
		`cortex ask "where is AuthService defined?"`,
		`cortex ask "who calls Fuse?" --budget 2000 --json`,
	}},
	"eval": {examples: []string{
		"cortex eval cmd/cortex/internal/eval/testdata/codecortex.json",
	}},
	"version": {examples: []string{"cortex version --json"}},
	"doctor": {
		examples: []string{"cortex doctor", "cortex doctor --json"},
		notes: "Exit codes: 1 when something can be fixed: the configuration has an error, or a layer that is\n" +
			"enabled or configured is broken or stale (fix_needed in --json; its → line says what repairs it).\n" +
			"0 otherwise, also when an optional layer is merely off: dependency docs disabled, no precision\n" +
			"index made yet (cortex index --precision makes one), no language server.",
	},
	"config":           {examples: []string{"cortex config", "cortex config --json"}},
	"trust":            {examples: []string{"cortex trust --show", "cortex trust", "cortex trust --revoke"}},
	"precision-status": {examples: []string{"cortex precision-status", "cortex precision-status --accept"}},
	"def":              {examples: []string{"cortex def evidence/fuse.go:17:6", "cortex def evidence.Fuse --json", "cortex def pflag.FlagSet"}, notes: dependencyNote},
	"refs":             {examples: []string{"cortex refs evidence.Fuse", "cortex refs evidence/fuse.go:17:6 --no-declaration"}},
	"callers":          {examples: []string{"cortex callers evidence.Fuse", "cortex callers evidence/fuse.go:17:6 --json"}},
	"impl":             {examples: []string{"cortex impl Provider", "cortex impl evidence/provider.go:56:6 --lsp"}},
	"search": {examples: []string{
		"cortex search scip index freshness",
		"cortex search --lang go 'errors.Is($E, $T)' evidence/",
	}},
	"index": {examples: []string{"cortex index", "cortex index --status", "cortex index --precision", "cortex index --precision --lang go", "cortex index --dependency pflag"}},
	"map": {examples: []string{
		"cortex map",
		"cortex map internal/cli --budget 2000",
		"cortex map --format mermaid --budget 600",
		"cortex map --json --focus engine.go,route",
	}},
	"symbols": {examples: []string{
		"cortex symbols evidence/",
		"cortex symbols engine.go --json",
		"cortex symbols pflag",
	}, notes: "A name that is no file or directory of the project but names a dependency as the code imports it\n" +
		"(pflag, github.com/spf13/pflag, uuid) outlines the dependency's copy at the locked version (module cache,\n" +
		"node_modules, site-packages, Cargo registry), marked outside the project: a Go package's exported\n" +
		"definitions, every other language's top-level ones (--all: every one); a copy that is not the locked\n" +
		"version is reported, not read."},
	"structural": {examples: []string{
		"cortex structural -p 'fmt.Errorf($MSG)' -l go",
		"cortex sg -p 'old_api($$$ARGS)' -l python --rewrite 'new_api($$$ARGS)' src/",
	}},
	"rewrite": {examples: []string{
		"cortex rewrite preview -p 'fmt.Errorf($MSG)' -r 'errors.New($MSG)' -l go",
		"cortex rewrite apply ID --yes",
	}},
	"rename": {
		examples: []string{
			"cortex rename Engine.Locate Find",
			"cortex rename engine.go:140:17 Find --json",
			"cortex rename oldHelper newHelper --allow-inferred",
		},
		notes: "Exit codes: 0 a preview was stored (apply it with cortex rewrite apply ID --yes), 1 the rename was\n" +
			"refused (each conflict with its location; candidates when the name means several symbols), 2 usage.",
	},
	"deps": {examples: []string{
		"cortex deps",
		"cortex deps react zod --ecosystem npm",
		"cortex deps why zod",
	}},
	"impact": {examples: []string{
		"cortex impact evidence.Fuse",
		"cortex impact evidence/fuse.go:17-40",
		"cortex impact --since HEAD~3",
		"cortex impact --format mermaid evidence.Fuse",
	}},
	"history": {examples: []string{
		"cortex history engine.go",
		"cortex history engine.go:40-60",
		"cortex history --since HEAD~3",
	}},
	"remember": {examples: []string{`cortex remember --type convention --path evidence/ "errors wrap with %w"`}},
	"recall":   {examples: []string{"cortex recall --path evidence/", "cortex recall error wrapping"}},
	"forget":   {examples: []string{`cortex forget m0123456789abcdef --reason "superseded by the v2 API"`}},
	"memory": {examples: []string{
		"cortex memory verify",
		"cortex memory list --unreviewed",
		"cortex memory accept m0123456789abcdef",
	}},
	"validate": {examples: []string{"cortex validate", "cortex validate --json"}},
	"docs":     {examples: []string{`cortex docs next "app router"`}},
	"mcp": {examples: []string{
		"cortex mcp",
		"cortex mcp --http 127.0.0.1:8765",
	}},
}

// printHelp prints what cortex help CMD and cortex CMD --help show: the
// summary, the usage, the flags, the notes and examples.
func (c *cmd) printHelp(w io.Writer) {
	if c.info != nil {
		fmt.Fprintf(w, "cortex %s: %s\n\n", c.info.name, c.info.summary)
	}
	c.printUsage(w)
	if c.info == nil {
		return
	}
	if len(c.info.aliases) > 0 {
		fmt.Fprintf(w, "\nalso called: %s\n", strings.Join(c.info.aliases, ", "))
	}
	h := helps[c.info.name]
	if h.notes != "" {
		fmt.Fprintf(w, "\n%s\n", h.notes)
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, ex := range h.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

// findCommand returns the command called name, by its name or an alias.
func findCommand(name string) (command, bool) {
	for _, cm := range commands() {
		if cm.name == name || slices.Contains(cm.aliases, name) {
			return cm, true
		}
	}
	return command{}, false
}

// runHelp is cortex help [COMMAND]: the list of commands, or one
// command's help as COMMAND --help prints it.
func runHelp(ctx context.Context, e *Env, args []string) int {
	c := newCmd(e, "help", "[COMMAND]")
	pos, code, ok := c.parse(args, 0, 1)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		usage(e.Stdout)
		return ExitOK
	}
	cm, found := findCommand(pos[0])
	if !found {
		return c.unknownCommand(pos[0])
	}
	return cm.run(ctx, newCommandCmd(e, cm), []string{"--help"})
}

// unknownCommand reports a command name cortex does not know, with the
// names it might have meant, and returns ExitUsage.
func (c *cmd) unknownCommand(name string) int {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := suggest(name); len(s) > 0 {
		msg += "; did you mean " + orList(s) + "?"
	} else {
		msg += " (cortex help lists them)"
	}
	argsUsage := c.argsUsage
	c.argsUsage = "" // the usage of help or cortex would not help here
	code := c.usageError(fmt.Errorf("%s", msg))
	c.argsUsage = argsUsage
	return code
}

// suggest returns the command names (aliases included) that name may have
// been meant as, closest first: those within an edit distance of a third
// of its length (at least one edit), those it is the beginning of, and
// those it begins with (impl for implementations). At most five.
func suggest(name string) []string {
	name = strings.ToLower(name)
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	for _, cm := range commands() {
		for _, n := range append([]string{cm.name}, cm.aliases...) {
			d := editDistance(name, n)
			prefix := len(name) >= 2 && strings.HasPrefix(n, name) || len(n) >= 3 && strings.HasPrefix(name, n)
			if d <= max(1, len([]rune(name))/3) || prefix {
				cands = append(cands, cand{n, d})
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(len(cands), 5)] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in code
// points: the fewest insertions, deletions and substitutions that turn
// one into the other.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			sub := prev[j-1]
			if ra[i-1] != rb[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
