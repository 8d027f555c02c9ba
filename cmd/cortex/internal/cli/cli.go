// Package cli implements the cortex command line, a thin front end over the
// public packages: it opens the project with config.OpenProject, maps
// the configuration onto each layer's options as any host would, and
// prints. Every command prints for people by default and one JSON document
// with --json (errors included); progress goes to standard error, only on
// a terminal unless --progress asks for it; exit codes are 0 for success,
// 1 for findings or a failed check, 2 for a usage error or a bad argument.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/internal/redact"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitUsage = 2
)

// Version is the version cortex reports.
const Version = "0.1.0-dev"

// A command is one cortex subcommand.
type command struct {
	name    string
	aliases []string // other names it answers to
	summary string
	// run parses args (after the command name, global flags included)
	// and does the work.
	run func(ctx context.Context, c *cmd, args []string) int
}

// commands lists every subcommand; each lives in a file of its own.
func commands() []command {
	return []command{
		{"ask", nil, `answer a question with ranked evidence: cortex ask "where is AuthService defined?"`, runAsk},
		{"eval", nil, "score the answers to a fixture of frozen questions: top-1, top-3, tiers, tokens", runEval},
		{"version", nil, "print the version", runVersion},
		{"doctor", nil, "report each layer's state and configuration problems (runs nothing the configuration names)", runDoctor},
		{"config", nil, "print the effective configuration (secrets redacted) and whether it is trusted", runConfig},
		{"trust", nil, "trust this project's configuration, and its git configuration, to run what they name (--show, --revoke)", runTrust},
		{"precision-status", nil, "show the precision index: counts, indexer, encoding, staleness", runPrecisionStatus},
		{"def", nil, "definition of the symbol at FILE:LINE:COL (one-based code points) or named NAME", positionCommand(codecortex.Definitions)},
		{"refs", nil, "references of the symbol at FILE:LINE:COL or named NAME, declaration included", positionCommand(codecortex.References)},
		{"callers", nil, "what uses the symbol at FILE:LINE:COL or named NAME, each with its caller, declaration left out", positionCommand(codecortex.Callers)},
		{"impl", nil, "implementations of an interface, or the interfaces a type implements, at FILE:LINE:COL or named NAME", positionCommand(codecortex.Implementations)},
		{"search", nil, "search the local index for words, or code by syntax: cortex search TEXT..., cortex search PATTERN [--lang L] [PATH...]", runSearch},
		{"index", nil, "bring the local index up to date (--status: its identity, counts, freshness, size; --precision: build the SCIP precision index)", runIndex},
		{"symbols", nil, "outline the definitions of a file or directory from the local index, or of a dependency: cortex symbols [PATH|DEP]", runSymbols},
		{"map", nil, "the repository's most used definitions by file, within a token budget: cortex map [PATH] [--budget N] [--format text|json|mermaid]", runMap},
		{"structural", []string{"sg"}, "structural search: -p PATTERN -l LANG [PATH...] (--rewrite previews a diff)", runStructural},
		{"rewrite", nil, "guarded rewrite: preview -p PATTERN -r TEMPLATE -l LANG [PATH...], show ID, apply ID --yes, recover", runRewrite},
		{"rename", nil, "rename a symbol by meaning: rename FILE:LINE:COL|NAME NEWNAME previews the edits (exact from a SCIP index, near_exact from a language server), refuses conflicts; apply with rewrite apply ID --yes", runRename},
		{"deps", nil, "list dependencies (declared vs resolved), only NAME... or --ecosystem E when given; deps why NAME", runDeps},
		{"impact", nil, "what a change affects: callers, tests to run, risk and the exact/inferred mix: impact FILE[:LINE[-LINE]]|SYMBOL... | --since REV", runImpact},
		{"history", nil, "a file's commits and pull requests, who changed its lines, or what changed since a commit: history [PATH[:LINE[-LINE]]] [--since REV]", runHistory},
		{"remember", nil, "keep a convention, decision, gotcha or failure in the project's memory", runRemember},
		{"recall", nil, "the memories about a path, a symbol or words, with their decayed confidence", runRecall},
		{"forget", nil, "purge a memory entry, keeping an audit line: forget ID --reason R", runForget},
		{"memory", nil, "memory verify | list [--unreviewed] | accept ID...|--all: check the entries and the audit log; review what came with the repository", runMemory},
		{"validate", nil, "run the project's validation commands; their results become evidence", runValidate},
		{"docs", nil, "version-pinned documentation: docs LIBRARY [QUESTION]", runDocs},
		{"mcp", nil, "serve the Model Context Protocol over stdio (--http ADDR for HTTP); read-only unless --mutating --principal NAME", runMCP},
	}
}

// Env is what a command runs with.
type Env struct {
	Stdout, Stderr io.Writer
	// Wd is the directory cortex was started in; empty means the process's
	// working directory. Without -C the project root is found from it, and
	// relative paths on the command line are relative to it.
	Wd string
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string
}

// Main runs cortex with the process's arguments and streams.
func Main() int {
	deferFirstCollection()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], &Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
}

// globalValueFlags are the flags every command takes that consume the next
// argument when written without "=".
var globalValueFlags = []string{"C", "trust-config"}

// Run runs one cortex command line and returns its exit code. Global flags
// (-C, --json, --trust-config) may come before or after the command name;
// every command's flags may come before or after its arguments, and "--"
// ends the flags.
func Run(ctx context.Context, args []string, e *Env) int {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	// Find the command name: the first argument that is neither a flag nor
	// a global flag's value.
	name, at := "", -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			name, at = a, i
			break
		}
		if f := strings.TrimLeft(a, "-"); slices.Contains(globalValueFlags, f) {
			i++ // its value
		}
	}
	rest := slices.Concat(args[:max(at, 0)], args[at+1:])
	if at < 0 {
		rest = args
	}
	switch name {
	case "":
		if slices.ContainsFunc(rest, func(a string) bool { return a == "-h" || a == "--help" || a == "-help" }) {
			usage(e.Stdout)
			return ExitOK
		}
		c := newCmd(e, "cortex", "<command> [flags] [arguments]")
		if _, code, ok := c.parse(rest, 0, 0); !ok {
			return code
		}
		usage(e.Stderr)
		return c.usageError(errors.New("no command given"))
	case "help":
		return runHelp(ctx, e, rest)
	}
	if cm, ok := findCommand(name); ok {
		return cm.run(ctx, newCommandCmd(e, cm), rest)
	}
	c := newCmd(e, "cortex", "<command> [flags] [arguments]")
	if _, code, ok := c.parse(rest, 0, -1); !ok {
		return code
	}
	return c.unknownCommand(name)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cortex [-C dir] <command> [flags] [arguments]")
	fmt.Fprintln(w, "       cortex help <command>   (or cortex <command> --help): its flags and examples")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		name := c.name
		if len(c.aliases) > 0 {
			name += ", " + strings.Join(c.aliases, ", ")
		}
		fmt.Fprintf(w, "  %-18s %s\n", name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Flags go before or after arguments; -- ends them. Every command takes:")
	fmt.Fprintln(w, "  -C dir                the project root (default: the nearest directory up from here holding .codecortex or .git)")
	fmt.Fprintln(w, "  --json                one JSON document on standard output, errors included")
	fmt.Fprintln(w, "  --trust-config VALUE  trust the configuration for this run: its digest (sha256:…, several separated by commas), or any")
	fmt.Fprintln(w, "  --progress            progress on standard error even when it is not a terminal (default: only on a terminal;")
	fmt.Fprintln(w, "                        also CODECORTEX_PROGRESS=1 or 0); --progress=false never")
	fmt.Fprintln(w, "  -v, --verbose         every layer's report on standard error, not only those that say a layer is unavailable")
	fmt.Fprintln(w, "                        or stale or dropped something")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 findings or a failed check, 2 usage error or bad argument.")
}

// jsonMode is the value of --json.
type jsonMode string

const (
	jsonOff    jsonMode = ""
	jsonOn     jsonMode = "true"
	jsonStream jsonMode = "stream"
)

// jsonFlag is --json, --json=true|false, or --json=stream where a command
// streams.
type jsonFlag struct{ m *jsonMode }

func (f jsonFlag) String() string {
	if f.m == nil {
		return ""
	}
	return string(*f.m)
}

func (f jsonFlag) IsBoolFlag() bool { return true }

func (f jsonFlag) Set(s string) error {
	switch s {
	case "true", "1", "pretty":
		*f.m = jsonOn
	case "false", "0":
		*f.m = jsonOff
	case "stream":
		*f.m = jsonStream
	default:
		return fmt.Errorf("want --json, --json=false or --json=stream, got %q", s)
	}
	return nil
}

// A cmd is one command being run: its flags, its output mode and, once
// opened, its project.
type cmd struct {
	*Env
	name      string
	argsUsage string
	fs        *flag.FlagSet
	json      jsonMode
	chdir     string // -C
	trustFlag string // --trust-config
	progress  *bool  // --progress; nil when not given
	verbose   bool   // -v, --verbose
	streams   bool   // whether --json=stream is allowed
	red       *redact.Redactor
	info      *command // the command run, for its help; nil for cortex and help themselves
}

// newCommandCmd returns the cmd that runs the command cm.
func newCommandCmd(e *Env, cm command) *cmd {
	c := newCmd(e, cm.name, "")
	c.info = &cm
	return c
}

func newCmd(e *Env, name, argsUsage string) *cmd {
	c := &cmd{Env: e, name: name, argsUsage: argsUsage}
	c.fs = flag.NewFlagSet("cortex "+name, flag.ContinueOnError)
	c.fs.SetOutput(io.Discard)
	c.fs.Var(jsonFlag{&c.json}, "json", "print one JSON document for machines")
	c.fs.StringVar(&c.chdir, "C", "", "run with `dir` as the project root")
	c.fs.StringVar(&c.trustFlag, "trust-config", "", "trust the configuration for this run: its `digest` (sha256:…, several separated by commas) or any")
	c.fs.BoolVar(&c.verbose, "v", false, "say more: every layer's report, also when it has nothing to add")
	c.fs.BoolVar(&c.verbose, "verbose", false, "the same as -v")
	c.fs.Var(progressFlag{&c.progress}, "progress", "show progress on standard error even when it is not a terminal; --progress=false never shows it")
	return c
}

// progressFlag is --progress or --progress=false; unset, cmd.progress
// stays nil.
type progressFlag struct{ p **bool }

func (f progressFlag) String() string {
	if f.p == nil || *f.p == nil {
		return ""
	}
	return strconv.FormatBool(**f.p)
}

func (f progressFlag) IsBoolFlag() bool { return true }

func (f progressFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want --progress or --progress=false, got %q", s)
	}
	*f.p = &v
	return nil
}

// progressOut is where progress goes: standard error when it is a
// terminal, or when --progress or CODECORTEX_PROGRESS=1 asks for it
// (--progress=false or CODECORTEX_PROGRESS=0: never); nil when progress is
// not shown. Progress never goes to standard output, so --json is
// unaffected.
func (c *cmd) progressOut() io.Writer {
	show := isTerminal(c.Stderr)
	if v, err := strconv.ParseBool(c.Getenv("CODECORTEX_PROGRESS")); err == nil {
		show = v
	}
	if c.progress != nil {
		show = *c.progress
	}
	if !show {
		return nil
	}
	return c.Stderr
}

// printUsage prints the command's usage and flags on w.
func (c *cmd) printUsage(w io.Writer) {
	fmt.Fprintln(w, strings.TrimSpace(fmt.Sprintf("usage: cortex %s [flags] %s", c.name, c.argsUsage)))
	fmt.Fprintln(w, "flags:")
	c.fs.SetOutput(w)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
}

// parse parses the command's flags wherever they are among args and
// checks that between minArgs and maxArgs positional arguments remain
// (maxArgs < 0: no limit). ok is false with the exit code to return, the
// usage or error already printed.
func (c *cmd) parse(args []string, minArgs, maxArgs int) (pos []string, code int, ok bool) {
	if err := c.parseFlags(args, &pos); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.printHelp(c.Stdout)
			return nil, ExitOK, false
		}
		return nil, c.usageError(err), false
	}
	if c.json == jsonStream && !c.streams {
		return nil, c.usageError(errors.New("--json=stream: this command prints one document; use --json")), false
	}
	if n := len(pos); n < minArgs || (maxArgs >= 0 && n > maxArgs) {
		what := "missing arguments"
		if n > minArgs {
			what = fmt.Sprintf("unexpected arguments %q", pos[max(maxArgs, 0):])
		}
		return nil, c.usageError(errors.New(what)), false
	}
	return pos, 0, true
}

// parseFlags parses flags that may come before, between or after the
// positional arguments, which it appends to pos; everything after "--" is
// positional.
func (c *cmd) parseFlags(args []string, pos *[]string) error {
	for {
		if err := c.fs.Parse(args); err != nil {
			return err
		}
		rest := c.fs.Args()
		if len(rest) == 0 {
			return nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			*pos = append(*pos, rest...)
			return nil
		}
		*pos = append(*pos, rest[0])
		args = rest[1:]
	}
}

// usageError reports a usage error or a bad argument and returns
// ExitUsage: with --json as an error document, otherwise on standard error
// with the command's usage.
func (c *cmd) usageError(err error) int {
	if c.json != jsonOff {
		c.writeError(err, ExitUsage)
		return ExitUsage
	}
	prefix := "cortex " + c.name
	if c.name == "cortex" {
		prefix = "cortex"
	}
	fmt.Fprintln(c.Stderr, prefix+": "+c.redact(err.Error()))
	if c.argsUsage != "" {
		c.printUsage(c.Stderr)
	}
	return ExitUsage
}

// fail reports a failure and returns ExitFail.
func (c *cmd) fail(err error) int {
	if c.json != jsonOff {
		c.writeError(err, ExitFail)
		return ExitFail
	}
	fmt.Fprintln(c.Stderr, "cortex: "+strings.TrimPrefix(c.redact(err.Error()), "cortex: "))
	return ExitFail
}

// errorJSON is the document --json prints for an error.
type errorJSON struct {
	Error struct {
		Message  string `json:"message"`
		ExitCode int    `json:"exit_code"`
	} `json:"error"`
}

func (c *cmd) writeError(err error, code int) {
	var doc errorJSON
	doc.Error.Message, doc.Error.ExitCode = c.redact(err.Error()), code
	_ = c.writeJSON(doc)
}

// redact removes secrets from s.
func (c *cmd) redact(s string) string {
	if c.red == nil {
		return redact.New().String(s)
	}
	return c.red.String(s)
}

// writeJSON prints v as one indented JSON document ending in a newline,
// redacted string by string (a redaction could cut through encoded JSON),
// in the order the types give their fields.
func (c *cmd) writeJSON(v any) error {
	b, err := c.renderJSON(v)
	if err != nil {
		return err
	}
	_, err = c.Stdout.Write(b)
	return err
}

// writeCompactJSON prints v as writeJSON does but on one line: for a
// document whose size a token budget bounds (ask's answer), where
// indentation would be tokens spent on nothing.
func (c *cmd) writeCompactJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out, err := redactJSON(b, c.redact)
	if err != nil {
		return err
	}
	_, err = c.Stdout.Write(append(out, '\n'))
	return err
}

// renderJSON returns what writeJSON prints.
func (c *cmd) renderJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out, err := redactJSON(b, c.redact)
	if err != nil {
		return nil, err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, out, "", "  "); err != nil {
		return nil, err
	}
	ind.WriteByte('\n')
	return ind.Bytes(), nil
}

// redactJSON re-encodes the JSON document b with every string, keys
// included, passed through red; everything else, order included, is kept.
func redactJSON(b []byte, red func(string) string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	// n counts the tokens written in each open container: in an object,
	// even ones are keys and odd ones values.
	type level struct {
		object bool
		n      int
	}
	var stack []level
	sep := func() {
		if len(stack) == 0 {
			return
		}
		l := &stack[len(stack)-1]
		switch {
		case l.object && l.n%2 == 1:
			out.WriteByte(':')
		case l.n > 0:
			out.WriteByte(',')
		}
		l.n++
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '}' || t == ']' {
				stack = stack[:len(stack)-1]
				out.WriteByte(byte(t))
				continue
			}
			sep()
			out.WriteByte(byte(t))
			stack = append(stack, level{object: t == '{'})
		case string:
			sep()
			q, _ := json.Marshal(red(t))
			out.Write(q)
		default:
			sep()
			q, _ := json.Marshal(t)
			out.Write(q)
		}
	}
}

// printf prints human output, redacted.
func (c *cmd) printf(format string, args ...any) {
	fmt.Fprint(c.Stdout, c.redact(fmt.Sprintf(format, args...)))
}

// note prints a line on standard error, redacted.
func (c *cmd) note(format string, args ...any) {
	fmt.Fprintln(c.Stderr, c.redact(fmt.Sprintf(format, args...)))
}

func runVersion(ctx context.Context, c *cmd, args []string) int {
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	if c.json != jsonOff {
		_ = c.writeJSON(map[string]string{"version": Version})
		return ExitOK
	}
	c.printf("cortex %s\n", Version)
	return ExitOK
}
