package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/codecortex/codecortex/cmd/cortex/internal/mcp"
)

// runMCP is cortex mcp: the Model Context Protocol server over standard
// input and output (or streamable HTTP with --http), read-only unless the
// operator asks for the mutating surface and names its principal. The
// project is opened exactly as every other command opens it, trust
// included. Standard output carries the protocol only; notes go to
// standard error.
func runMCP(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[--mutating --principal NAME] [--http 127.0.0.1:PORT [--allow-remote] [--token-env VAR] [--max-sessions N] [--session-idle DURATION] [--allow-origin ORIGIN,...]] [--lsp] [--output-schemas]"
	f := newMCPFlags(c)
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	token, err := f.check(c)
	if err != nil {
		return c.usageError(err)
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	srv, err := mcp.New(mcp.Options{Project: p.Project, Principal: *f.principal, LanguageServer: *f.lsp, Getenv: c.Getenv,
		Secrets: []string{token}, Version: Version, Log: func(s string) { fmt.Fprintln(c.Stderr, s) },
		OutputSchemas: *f.outputSchemas})
	if err != nil {
		return c.fail(err)
	}
	defer srv.Close()
	surface := mcp.ReadOnly
	if *f.mutating {
		surface = mcp.Mutating
	}
	if *f.addr == "" {
		if err := srv.ServeStdio(ctx, surface, io.NopCloser(os.Stdin), nopWriteCloser{c.Stdout}); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	if err := serveMCPHTTP(ctx, c, srv, f, token, p.Root); err != nil {
		return c.fail(err)
	}
	return ExitOK
}

// mcpFlags are cortex mcp's flags.
type mcpFlags struct {
	mutating, allowRemote, lsp, outputSchemas *bool
	principal, addr, tokenEnv, allowOrigin    *string
	maxSessions                               *int
	sessionIdle                               *time.Duration
	origins                                   []string // --allow-origin, split by check
}

func newMCPFlags(c *cmd) *mcpFlags {
	return &mcpFlags{
		mutating:      c.fs.Bool("mutating", false, "also offer the tools that change state (cortex_remember, cortex_validate); needs --principal"),
		principal:     c.fs.String("principal", "", "who mutates: the `name` recorded as the author of what the mutating tools remember"),
		addr:          c.fs.String("http", "", "serve streamable HTTP on `host:port` instead of standard input and output (loopback only unless --allow-remote)"),
		allowRemote:   c.fs.Bool("allow-remote", false, "let --http listen on an address other machines can reach"),
		tokenEnv:      c.fs.String("token-env", mcp.DefaultTokenEnv, "the environment `variable` holding the bearer token that guards the mutating surface over HTTP"),
		maxSessions:   c.fs.Int("max-sessions", mcp.DefaultMaxSessions, "with --http, the most live sessions each surface keeps; past it a new session is refused (503) until one closes"),
		sessionIdle:   c.fs.Duration("session-idle", mcp.DefaultSessionIdle, "with --http, close a session that has had no request for this `duration`"),
		allowOrigin:   c.fs.String("allow-origin", "", "with --http, browser `origins` (SCHEME://HOST[:PORT], comma-separated) whose pages may call the server besides its own"),
		lsp:           c.fs.Bool("lsp", false, "let definition, reference and implementation questions fall back to the language server of each file's language"),
		outputSchemas: c.fs.Bool("output-schemas", false, "list each tool's output schema in tools/list, for clients that validate or generate types (about 50 KB more in the agent's context; results match them either way)"),
	}
}

// check refuses flags that do not go together and returns the bearer
// token of the mutating surface over HTTP.
func (f *mcpFlags) check(c *cmd) (token string, err error) {
	var httpOnly []string
	c.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "max-sessions", "session-idle", "allow-origin":
			httpOnly = append(httpOnly, "--"+fl.Name)
		}
	})
	for o := range strings.SplitSeq(*f.allowOrigin, ",") {
		if o = strings.TrimSpace(o); o != "" {
			f.origins = append(f.origins, o)
		}
	}
	*f.principal = strings.TrimSpace(*f.principal)
	switch {
	case *f.mutating && *f.principal == "":
		return "", errors.New("--mutating needs --principal NAME: the mutating tools record who changed what")
	case !*f.mutating && *f.principal != "":
		return "", errors.New("--principal names who mutates; it needs --mutating")
	case *f.allowRemote && *f.addr == "":
		return "", errors.New("--allow-remote is for --http")
	case len(httpOnly) > 0 && *f.addr == "":
		return "", fmt.Errorf("%s is for --http", httpOnly[0])
	case *f.maxSessions < 1:
		return "", fmt.Errorf("--max-sessions %d: want at least 1", *f.maxSessions)
	case *f.sessionIdle < time.Second:
		return "", fmt.Errorf("--session-idle %s: want at least 1s, such as 10m", *f.sessionIdle)
	}
	for _, o := range f.origins {
		if err := mcp.CheckOrigin(o); err != nil {
			return "", err
		}
	}
	if *f.addr == "" {
		return "", nil
	}
	if err := mcp.CheckListenAddress(*f.addr, *f.allowRemote); err != nil {
		return "", err
	}
	if *f.mutating {
		if token = strings.TrimSpace(c.Getenv(*f.tokenEnv)); token == "" {
			return "", fmt.Errorf("--mutating over --http needs a bearer token: set %s (or name another variable with --token-env)", *f.tokenEnv)
		}
	}
	return token, nil
}

// serveMCPHTTP serves srv over streamable HTTP at --http until ctx ends.
func serveMCPHTTP(ctx context.Context, c *cmd, srv *mcp.Server, f *mcpFlags, token, root string) error {
	h, err := srv.HTTPHandler(mcp.HTTPOptions{Mutating: *f.mutating, Token: token, TokenEnv: *f.tokenEnv,
		MaxSessions: *f.maxSessions, SessionIdle: *f.sessionIdle, AllowOrigins: f.origins})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *f.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	c.note("cortex mcp: serving %s at http://%s%s (read-only; at most %d sessions, closed after %s idle)", root, ln.Addr(), mcp.ReadOnlyPath, *f.maxSessions, *f.sessionIdle)
	if *f.mutating {
		c.note("cortex mcp: mutating surface at http://%s%s for principal %s, bearer token from %s", ln.Addr(), mcp.MutatingPath, *f.principal, *f.tokenEnv)
	}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// nopWriteCloser is a writer whose Close does nothing: the protocol's end
// must not close standard output under the rest of the program.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
