package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/redact"
)

// A project is the opened project of a command: the public
// config.Project a host would open, plus the contained root the CLI
// resolves command-line paths with.
type project struct {
	*config.Project
	root *contain.Root
	// start is the directory relative command-line paths are relative to:
	// -C's directory, or the one cortex was started in.
	start string
	// eng is the project's engine, composed on first use (see engine).
	eng *codecortex.Engine
	// author is who remembers, the engine's author.
	author string
}

func (p *project) Close() {
	if p.eng != nil {
		p.eng.Close()
	}
	p.root.Close()
}

// engine returns the project's engine, the one composition of its layers,
// made on first use with opts (the author is the user's) and closed with
// the project: a command reaches every layer through it, as a host does.
func (p *project) engine(opts codecortex.Options) (*codecortex.Engine, error) {
	if p.eng == nil {
		if opts.Author == "" {
			opts.Author = p.author
		}
		e, err := codecortex.NewEngine(p.Project, opts)
		if err != nil {
			return nil, err
		}
		p.eng = e
	}
	return p.eng, nil
}

// badArgError marks an error as the user's argument's fault: exit 2.
type badArgError struct{ err error }

func (e *badArgError) Error() string { return e.err.Error() }
func (e *badArgError) Unwrap() error { return e.err }

// finish returns the exit code for an error of openProject or rel.
func (c *cmd) finish(err error) int {
	var bad *badArgError
	if errors.As(err, &bad) {
		return c.usageError(err)
	}
	return c.fail(err)
}

// openProject opens the project: the -C directory, or the nearest
// directory up from the start that holds .codecortex or .git. quiet keeps
// the configuration's problems and withheld requests off standard error,
// for the commands that report them in full.
func (c *cmd) openProject(quiet bool) (*project, error) {
	wd := c.Wd
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	start, dir := wd, ""
	if c.chdir != "" {
		start = c.chdir
		if !filepath.IsAbs(start) {
			start = filepath.Join(wd, start)
		}
		fi, err := os.Stat(start)
		if err != nil {
			return nil, &badArgError{fmt.Errorf("-C %s: %w", c.chdir, errors.Unwrap(err))}
		}
		if !fi.IsDir() {
			return nil, &badArgError{fmt.Errorf("-C %s: not a directory", c.chdir)}
		}
		dir = start
	} else {
		var err error
		if dir, err = config.FindRoot(start); err != nil {
			return nil, err
		}
	}
	opts := config.ProjectOptions{Getenv: c.Getenv}
	trustValue := c.trustFlag
	if trustValue == "" {
		trustValue = c.Getenv("CODECORTEX_TRUST_CONFIG")
	}
	switch {
	case trustValue == "":
	case trustValue == "any":
		opts.Trust = config.TrustAlways
	case strings.HasPrefix(trustValue, "sha256:"):
		opts.TrustDigest = trustValue
	default:
		return nil, &badArgError{fmt.Errorf("--trust-config (or CODECORTEX_TRUST_CONFIG): want a digest sha256:… or any, got %q", trustValue)}
	}
	cp, err := config.OpenProject(dir, opts)
	if err != nil {
		return nil, err
	}
	root, err := contain.Open(cp.Root)
	if err != nil {
		return nil, err
	}
	// Redact the key of every variable the configuration names, trusted or
	// not: a value worth hiding in one place is worth hiding in all.
	var keys []string
	for _, v := range []string{cp.Config.DependencyDocs.APIKeyEnv, cp.Requested.DependencyDocs.APIKeyEnv} {
		if k := c.Getenv(v); k != "" {
			keys = append(keys, k)
		}
	}
	c.red = redact.New(keys...)
	p := &project{Project: cp, root: root, start: start, author: c.author()}
	if !quiet {
		c.remarkConfig(p)
	}
	return p, nil
}

// remarkConfig prints, on standard error, one line for a configuration
// with errors and one for requests withheld for want of trust.
func (c *cmd) remarkConfig(p *project) {
	var errs []string
	for _, d := range p.Diagnostics {
		if d.Severity == config.SeverityError {
			errs = append(errs, d.String())
		}
	}
	if len(errs) > 0 {
		more := ""
		if len(errs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		c.note("cortex: %s: %s%s; cortex doctor shows all", config.File, errs[0], more)
	}
	if w := p.Trust.Withheld; len(w) > 0 {
		more := ""
		if len(w) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(w)-1)
		}
		c.note("cortex: %s is not trusted, so this is withheld: %s%s; review it and run cortex trust", config.File, w[0], more)
	}
}

// rel resolves a path from the command line, relative to where cortex
// started (or -C), to a path relative to the project root; a path outside
// the root is a bad argument.
func (p *project) rel(arg string) (string, error) {
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.start, arg)
	}
	rel, err := p.root.Rel(abs)
	if err != nil {
		return "", &badArgError{err}
	}
	return rel, nil
}

// has reports whether rel, relative to the project root, is a file or
// directory of the project.
func (p *project) has(rel string) bool {
	_, err := p.root.Stat(rel)
	return err == nil
}

// rels is rel of each argument.
func (p *project) rels(args []string) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		var err error
		if out[i], err = p.rel(a); err != nil {
			return nil, err
		}
	}
	return out, nil
}
