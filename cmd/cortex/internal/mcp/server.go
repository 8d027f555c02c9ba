package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/redact"
)

// A Surface is the set of tools one MCP server offers.
type Surface int

const (
	// ReadOnly offers the tools that change nothing in the project: the
	// default.
	ReadOnly Surface = iota
	// Mutating offers the read-only tools and the tools that change state
	// (memory, validation results, and later rewrites). It is served only
	// when the operator asks for it, with a named principal, and over HTTP
	// only to a request that carries the bearer token.
	Mutating
)

func (s Surface) String() string {
	if s == Mutating {
		return "mutating"
	}
	return "read-only"
}

// Defaults of Options.
const (
	// DefaultTimeout bounds a tool call other than cortex_validate.
	DefaultTimeout = time.Minute
	// ValidateTimeout bounds cortex_validate, whose commands have their own
	// timeouts besides.
	ValidateTimeout = 15 * time.Minute
)

// Options configure a [Server]. Project is required; the zero value of
// every other field works.
type Options struct {
	// Project is the project the server answers about, opened and judged
	// for trust by the front end exactly as the CLI opens it: what an
	// untrusted configuration asks to run or send is already withheld.
	Project *config.Project
	// Principal is who mutates: the operator's name for whoever drives the
	// mutating surface, recorded as the author of what it remembers.
	// Required to serve the mutating surface.
	Principal string
	// LanguageServer lets definition, reference and implementation
	// questions fall back to the language server when the precision index
	// has no fresh answer.
	LanguageServer bool
	// Getenv reads the environment (the documentation key's variable, to
	// redact its value); nil means no environment.
	Getenv func(string) string
	// Secrets are more values never to show, such as the HTTP bearer
	// token.
	Secrets []string
	// Timeout bounds one tool call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Version is the version the server reports.
	Version string
	// OutputSchemas lists each tool's output schema in tools/list. Off by
	// default: the output schemas are three quarters of the listing, and
	// every tool definition sits in the agent's context on every turn.
	// Results are checked against them before sending either way, and
	// sent as structured content that matches them.
	OutputSchemas bool
	// Log receives a line for the operator when something goes wrong
	// inside the server (a panic in a tool, with its stack); nil discards
	// it. The CLI writes it to standard error, never to the protocol.
	Log func(string)
}

// A Server answers MCP tool calls about one project. It holds one engine,
// the one composition of the project's layers, so indexes load once and
// stay warm, and every tool reaches the layers through it. It is safe for
// concurrent use; Close releases everything.
type Server struct {
	opts    Options
	project *config.Project
	root    *contain.Root
	red     *redact.Redactor
	enums   map[string][]string

	engine *codecortex.Engine

	toolsOnce sync.Once
	tools     []builtTool
	toolsErr  error

	stopWarm func()        // cancels the background index update
	warmDone chan struct{} // closed when it has returned
}

// ErrNoPrincipal is returned when the mutating surface is asked for
// without a principal.
var ErrNoPrincipal = errors.New("mcp: the mutating surface needs a principal (--principal NAME)")

// New opens the layers of opts.Project and returns a server over them.
func New(opts Options) (*Server, error) {
	if opts.Project == nil {
		return nil, errors.New("mcp: no project")
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	p := opts.Project
	root, err := contain.Open(p.Root)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, project: p, root: root}
	// Redact the key of every variable the configuration names, trusted or
	// not, as the CLI does, and the secrets the front end hands over.
	secrets := append([]string(nil), opts.Secrets...)
	for _, v := range []string{p.Config.DependencyDocs.APIKeyEnv, p.Requested.DependencyDocs.APIKeyEnv} {
		if v != "" {
			secrets = append(secrets, opts.Getenv(v))
		}
	}
	s.red = redact.New(withParts(secrets)...)
	s.enums = enumSets()

	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}
	s.engine, err = codecortex.NewEngine(p, codecortex.Options{LanguageServer: opts.LanguageServer, Author: opts.Principal})
	if err != nil {
		return fail(err)
	}
	// A long-lived server brings the local index fully up to date once, in
	// the background, and loads the precision index; queries meanwhile
	// answer within their own budget, marked partial.
	wctx, cancel := context.WithCancel(context.Background())
	s.stopWarm, s.warmDone = cancel, make(chan struct{})
	go func() {
		defer close(s.warmDone)
		if err := s.engine.Refresh(wctx); err != nil && wctx.Err() == nil {
			s.logf("cortex mcp: indexing the project: %v", err)
		}
	}()
	return s, nil
}

// WaitIndexed waits until the background update of the local index that
// New started has finished, or ctx ends.
func (s *Server) WaitIndexed(ctx context.Context) error {
	select {
	case <-s.warmDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// withParts returns secrets with the parts of each that a tokenizer may
// split it into (at every character that is neither a letter nor a digit),
// where a part is long enough to identify the secret: a search echoes its
// terms, and "ctx7sk-3f9a…" searched for is the terms "ctx7sk" and
// "3f9a…".
func withParts(secrets []string) []string {
	out := slices.Clone(secrets)
	for _, sec := range secrets {
		parts := strings.FieldsFunc(sec, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(parts) < 2 {
			continue
		}
		for _, p := range parts {
			if len(p) >= minSecretPart {
				out = append(out, p)
			}
		}
	}
	return out
}

// minSecretPart is the shortest part of a secret withParts masks on its
// own.
const minSecretPart = 8

// Close releases the engine and every layer the server holds.
func (s *Server) Close() error {
	if s.stopWarm != nil {
		s.stopWarm()
		<-s.warmDone
	}
	var errs []error
	if s.engine != nil {
		errs = append(errs, s.engine.Close())
	}
	if s.root != nil {
		errs = append(errs, s.root.Close())
	}
	return errors.Join(errs...)
}

// has reports whether rel, relative to the project root, is a file or
// directory of the project.
func (s *Server) has(rel string) bool {
	_, err := s.root.Stat(rel)
	return err == nil
}

// Root returns the project root the server answers about.
func (s *Server) Root() string { return s.project.Root }

// MCP returns a new MCP server offering the tools of surface, all backed
// by s. Several may be served at once (the HTTP transport serves both
// surfaces); they share s's layers.
func (s *Server) MCP(surface Surface) (*sdk.Server, error) {
	if surface == Mutating && strings.TrimSpace(s.opts.Principal) == "" {
		return nil, ErrNoPrincipal
	}
	tools, err := s.builtTools()
	if err != nil {
		return nil, err
	}
	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "cortex", Title: "CodeCortex", Version: version},
		&sdk.ServerOptions{Instructions: instructions(surface)})
	srv.AddReceivingMiddleware(s.shortErrors)
	for _, t := range tools {
		if t.mutates && surface != Mutating {
			continue
		}
		h := t.handler
		srv.AddTool(t.tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return h(context.WithValue(ctx, surfaceKey{}, surface), req)
		})
	}
	return srv, nil
}

// surfaceKey keys the surface a call came in on in its context.
type surfaceKey struct{}

// surfaceOf returns the surface the call of ctx came in on.
func surfaceOf(ctx context.Context) Surface {
	s, _ := ctx.Value(surfaceKey{}).(Surface)
	return s
}

// ServeStdio serves surface over in and out (standard input and output)
// until the client disconnects or ctx ends. A line that is not a JSON-RPC
// message (not JSON, longer than MaxMessage, nested deeper than MaxDepth,
// a batch) gets a JSON-RPC error and the server reads on.
func (s *Server) ServeStdio(ctx context.Context, surface Surface, in io.ReadCloser, out io.WriteCloser) error {
	srv, err := s.MCP(surface)
	if err != nil {
		return err
	}
	err = srv.Run(ctx, &stdioTransport{in: in, out: out, lim: defaultLimits, log: s.logf, clean: s.cleanError})
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// instructions is what the server tells a host about itself: what every
// tool shares, said once rather than in each tool's description.
func instructions(surface Surface) string {
	s := "CodeCortex answers questions about this repository with evidence records: each says its kind, location, " +
		"the layer that produced it and its trust tier (exact > near_exact > structural > inferred_high > inferred > weak); " +
		"a stale record comes from an index older than the source. Start with cortex_ask for a question in words; use " +
		"cortex_navigate with a position or a symbol name for exact answers. Paths are relative to the project root; lines " +
		"and columns are one-based, columns in code points. Every tool takes a token budget and says in omitted what it " +
		"left out. A failure says why and what to do, such as the command that builds a missing index; cortex_doctor " +
		"reports every layer."
	if surface == Mutating {
		s += " This is the mutating surface: cortex_remember, cortex_rename (a preview), cortex_rewrite_apply and cortex_validate change the project's state."
	}
	return s
}

// callTimeout is the bound of one call of the named tool.
func (s *Server) callTimeout(name string) time.Duration {
	if name == "cortex_validate" {
		return ValidateTimeout
	}
	if s.opts.Timeout > 0 {
		return s.opts.Timeout
	}
	return DefaultTimeout
}

// history returns the project's git history, opened once for the
// session by the engine, not bound by the first caller's context.
func (s *Server) history(ctx context.Context) (*history.Repo, error) {
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), history.DefaultTimeout)
	defer cancel()
	return s.engine.History(octx, maxHistoryLimit)
}

// rel resolves a path an agent gave (relative to the project root, or
// absolute inside it) to a root-relative slash-separated path.
func (s *Server) rel(p string) (string, error) {
	rel, err := s.root.Rel(p)
	if err != nil {
		return "", &toolError{Reason: fmt.Sprintf("path %q: %v", p, err),
			Guidance: "give a path relative to the project root " + s.project.Root + ", or an absolute path inside it"}
	}
	return rel, nil
}
