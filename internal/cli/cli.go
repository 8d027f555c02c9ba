// Package cli implements the cortex command line. Every command prints for
// people by default and JSON with --json; progress goes to standard error;
// exit codes are 0 for success, 1 for findings or a failed check, 2 for a
// usage error.
package cli

import (
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
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/config"
	"github.com/codecortex/codecortex/internal/contain"
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
	// run parses args (after the command name) and does the work.
	run func(ctx context.Context, e *Env, args []string) int
}

// commands lists every subcommand; each lives in a file of its own.
func commands() []command {
	return []command{
		{"version", nil, "print the version", runVersion},
		{"doctor", nil, "report each layer's state and configuration problems", runDoctor},
		{"config", nil, "print the effective configuration (secrets redacted)", runConfig},
		{"precision-status", nil, "show the precision index: counts, indexer, encoding, staleness", runPrecisionStatus},
		{"def", nil, "definition of the symbol at FILE:LINE:COL (one-based code points)", positionCommand("def", evidence.Definition)},
		{"refs", nil, "references of the symbol at FILE:LINE:COL", positionCommand("refs", evidence.Reference)},
		{"impl", nil, "implementations of the symbol at FILE:LINE:COL", positionCommand("impl", evidence.Implementation)},
		{"search", nil, "find code by syntax: cortex search PATTERN [--lang L] [PATH...]", runSearch},
		{"structural", []string{"sg"}, "structural search: -p PATTERN -l LANG [PATH...] (--rewrite previews a diff)", runStructural},
		{"deps", nil, "list dependencies (declared vs resolved); deps why NAME", runDeps},
		{"docs", nil, "version-pinned documentation: docs LIBRARY [QUESTION]", runDocs},
	}
}

// Env is what a command runs with.
type Env struct {
	Stdout, Stderr io.Writer
	// Dir is the project root as given by -C (default: the working directory).
	Dir string
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string
}

// Main runs cortex with the process's arguments and streams.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], &Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
}

// Run runs one cortex command line and returns its exit code.
func Run(ctx context.Context, args []string, e *Env) int {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	fs := flag.NewFlagSet("cortex", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.StringVar(&e.Dir, "C", ".", "run in `dir` as the project root")
	fs.Usage = func() { usage(e.Stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	rest := fs.Args()
	if len(rest) == 0 {
		usage(e.Stderr)
		return ExitUsage
	}
	name := rest[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(e.Stdout)
		return ExitOK
	}
	for _, c := range commands() {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c.run(ctx, e, rest[1:])
		}
	}
	fmt.Fprintf(e.Stderr, "cortex: unknown command %q\n\n", name)
	usage(e.Stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cortex [-C dir] <command> [flags] [arguments]")
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
	fmt.Fprintln(w, "Every command takes --json for machine-readable output.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 findings or a failed check, 2 usage error.")
}

// flags returns a flag set for a command with the common --json flag.
func flags(e *Env, name, argsUsage string) (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet("cortex "+name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	asJSON := fs.Bool("json", false, "print JSON for machines")
	fs.Usage = func() {
		fmt.Fprintf(e.Stderr, "usage: cortex %s [flags] %s\n", name, argsUsage)
		fs.PrintDefaults()
	}
	return fs, asJSON
}

// parse parses a command's flags; ok is false with the exit code to return.
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK, false
		}
		return ExitUsage, false
	}
	return 0, true
}

// parseN is parse followed by a check that between minArgs and maxArgs
// positional arguments remain (maxArgs < 0: no limit).
func parseN(fs *flag.FlagSet, args []string, minArgs, maxArgs int) (code int, ok bool) {
	if code, ok := parse(fs, args); !ok {
		return code, false
	}
	if n := fs.NArg(); n < minArgs || (maxArgs >= 0 && n > maxArgs) {
		fmt.Fprintf(fs.Output(), "%s: unexpected arguments %q (flags go before arguments)\n", fs.Name(), fs.Args())
		fs.Usage()
		return ExitUsage, false
	}
	return 0, true
}

// project is an opened project root with its configuration.
type project struct {
	root  *contain.Root
	cfg   config.Config
	diags []config.Diagnostic
	red   *redact.Redactor
}

func openProject(e *Env) (*project, error) {
	root, err := contain.Open(e.Dir)
	if err != nil {
		return nil, err
	}
	cfg, diags := config.Load(root.FS())
	red := redact.New(e.Getenv(cfg.DependencyDocs.APIKeyEnv))
	return &project{root: root, cfg: cfg, diags: diags, red: red}, nil
}

func (p *project) Close() { p.root.Close() }

// writeJSON prints v as indented JSON, redacted.
func writeJSON(w io.Writer, red *redact.Redactor, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, red.String(string(b))+"\n")
	return err
}

// fail prints a redacted error and returns ExitFail.
func fail(e *Env, red *redact.Redactor, err error) int {
	fmt.Fprintln(e.Stderr, "cortex: "+strings.TrimPrefix(red.String(err.Error()), "cortex: "))
	return ExitFail
}

func runVersion(ctx context.Context, e *Env, args []string) int {
	fs, asJSON := flags(e, "version", "")
	if code, ok := parseN(fs, args, 0, 0); !ok {
		return code
	}
	if *asJSON {
		_ = writeJSON(e.Stdout, nil, map[string]string{"version": Version})
		return ExitOK
	}
	fmt.Fprintln(e.Stdout, "cortex "+Version)
	return ExitOK
}
