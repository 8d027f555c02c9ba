package config

import (
	"maps"
	"time"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// The project's configuration, mapped onto each layer's public options.
// What needs trust is already withheld from Config when it is not
// trusted, so these never name a program or an endpoint the user has not
// trusted.

// PrecisionOptions returns the precision index provider's options.
func (p *Project) PrecisionOptions() precision.Options {
	c := p.Config.PrecisionIndex
	return precision.Options{
		Dir:              p.Root,
		IndexPath:        c.Path,
		Disabled:         !c.Enabled,
		AutoGenerate:     c.AutoGenerate,
		GeneratorCommand: c.GeneratorCommand,
		Seal:             p.seal,
	}
}

// LSPOptions returns the language-server provider's options: the
// configured servers (language_server is Go's, language_servers each
// language's), the well-known ones for the rest, and the configured wait.
func (p *Project) LSPOptions() precision.LSPOptions {
	c := p.Config.PrecisionIndex
	opts := precision.LSPOptions{Dir: p.Root, Command: c.LanguageServer, Servers: maps.Clone(c.LanguageServers)}
	if c.LanguageServerTimeoutSeconds > 0 {
		opts.RequestTimeout = time.Duration(c.LanguageServerTimeoutSeconds) * time.Second
		opts.LoadTimeout = max(precision.DefaultLoadTimeout, 6*opts.RequestTimeout)
	}
	return opts
}

// StructuralOptions returns structural search's options: the configured
// ast-grep binary, or the built-in engine.
func (p *Project) StructuralOptions() structural.Options {
	c := p.Config.Structural
	opts := structural.Options{Dir: p.Root, Disabled: !c.Enabled}
	if c.Command != nil {
		opts.Command = *c.Command
	}
	return opts
}

// IndexOptions returns the local index's options: the project root, with
// definitions read from every language the syntax floor parses.
func (p *Project) IndexOptions() index.Options {
	return index.Options{Dir: p.Root, Seal: p.seal}
}

// GraphOptions returns the project graph's options: the local index's
// options. The precision index's exact edges are the composition's to
// give (graph.Options.Exact): the engine fuses in those of its own
// precision provider, so that one process holds one.
func (p *Project) GraphOptions() graph.Options {
	return graph.Options{Dir: p.Root, IndexOptions: p.IndexOptions()}
}

// ManifestProvider returns the provider of the project's dependency
// facts: declared constraints and resolved versions, located at the
// manifest or lockfile line that records them.
func (p *Project) ManifestProvider() *depdocs.ManifestProvider {
	return &depdocs.ManifestProvider{Dir: p.Root}
}

// DocsOptions returns the documentation provider's options. The key is
// read from the configured environment variable, and from nowhere else.
func (p *Project) DocsOptions() depdocs.DocsOptions {
	c := p.Config.DependencyDocs
	ttl := time.Duration(c.CacheTTLSeconds) * time.Second
	if c.CacheTTLSeconds == 0 {
		ttl = -1 // 0 seconds: never fresh
	}
	return depdocs.DocsOptions{
		Enabled:    c.Enabled,
		Dir:        p.Root,
		BaseURL:    c.BaseURL,
		APIKey:     p.getenv(c.APIKeyEnv),
		KeyEnv:     c.APIKeyEnv,
		CacheTTL:   ttl,
		ServeStale: c.ServeStaleWhenOffline,
		Seal:       p.seal,
	}
}

// DocsProvider returns the documentation evidence provider: the installed
// version of the dependency a question names, then documentation pinned to
// it from the configured provider, or a report of why there is none.
func (p *Project) DocsProvider() *depdocs.DocsEvidence {
	return &depdocs.DocsEvidence{Dir: p.Root, Docs: depdocs.NewDocs(p.DocsOptions())}
}

// HistoryOptions returns the git history layer's options: the
// repository's own git configuration is trusted when Trust.Git says so.
func (p *Project) HistoryOptions() history.Options {
	return history.Options{Dir: p.Root, TrustRepoConfig: p.Trust.Git.Trusted}
}

// MemoryOptions returns the project and team memory's options; author is
// who remembers (the user, as the host knows them).
func (p *Project) MemoryOptions(author string) memory.Options {
	return memory.Options{Dir: p.Root, Author: author, Seal: p.seal}
}

// ValidationOptions returns the validation runs' options: the configured
// commands (only once the configuration is trusted), or the defaults
// detected for the project's ecosystems.
func (p *Project) ValidationOptions() validation.Options {
	opts := validation.Options{Dir: p.Root, Seal: p.seal}
	for _, c := range p.Config.Validation.Commands {
		opts.Commands = append(opts.Commands, validation.Command{Name: c.Name, Argv: c.Argv,
			Timeout: time.Duration(c.TimeoutSeconds) * time.Second, Format: c.Format})
	}
	return opts
}

// RewriteOptions returns the guarded rewrite's options: the structural
// section's limits, preview lifetime and allow_apply. The layers a
// rewrite consults (its matcher, impact, reindexer and validator) are
// left to the composition: the engine's rewriter (codecortex.Engine.Rewriter) is
// given the engine's structural search, project graph, indexes and
// validation.
func (p *Project) RewriteOptions() rewrite.Options {
	s := p.Config.Structural
	return rewrite.Options{
		Dir:        p.Root,
		Limits:     rewrite.Limits{MaxFiles: s.MaxRewriteFiles, MaxMatches: s.MaxRewriteMatches, MaxBytes: s.MaxRewriteBytes},
		PreviewTTL: time.Duration(s.PreviewTTLSeconds) * time.Second,
		DenyApply:  !s.AllowApply,
		Seal:       p.seal,
	}
}
