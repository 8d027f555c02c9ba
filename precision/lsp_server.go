package precision

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// maxOpenDocuments bounds the documents a server is told are open; past
// it the one opened longest ago is closed.
const maxOpenDocuments = 64

// An lspServer is one language server process and the languages it
// serves. It is started on first need, initialised once and reused; its
// mutex is held for each exchange, so one server answers one question at
// a time while servers of other languages answer theirs.
type lspServer struct {
	argv  []string
	langs []string
	opts  *LSPOptions
	root  *contain.Root

	mu       sync.Mutex
	conn     *lspConn
	proc     *safeexec.Process
	started  bool
	err      error           // the start failure or exit, kept
	answered map[string]bool // methods the server has answered
	// unsupported are the methods the server answered "method not found"
	// (pyright has no textDocument/implementation): it is not asked them
	// again, and an answer that needed one says so.
	unsupported map[string]bool
	info        string // serverInfo from initialize: "name version"
	open        map[string]openDoc
	opened      []string // open documents, oldest first
	lastTimeout string   // the last request given up, for the status
	// declByDefinition: the server's references without the declaration
	// do not lack exactly the declaration (pyright), so the declaration
	// is read from its definition answer instead.
	declByDefinition bool
	notReady         string // the workspace did not load in time, for the status
	// fresh: the question being asked is about a document just opened or
	// changed, which the server analyses before it answers (pyright takes
	// seconds per file), so its requests get the load timeout.
	fresh bool
}

// isPyright reports whether the program is pyright's or basedpyright's
// language server.
func isPyright(program string) bool {
	return strings.Contains(strings.ToLower(filepath.Base(program)), "pyright")
}

// pyrightLoaded accepts pyright's log line that it has listed the
// workspace's files ("Found 18 source files", "No source files found"):
// until then it answers from the open files only.
func pyrightLoaded(method string, params json.RawMessage) bool {
	if method != "window/logMessage" {
		return false
	}
	var p struct{ Message string }
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	m := strings.ToLower(p.Message)
	return strings.Contains(m, "source file") && (strings.HasPrefix(m, "found ") || strings.HasPrefix(m, "no source files"))
}

type openDoc struct {
	version int
	digest  [32]byte
}

func (s *lspServer) name() string { return s.argv[0] }

func (s *lspServer) requestTimeout() time.Duration {
	if s.opts.RequestTimeout > 0 {
		return s.opts.RequestTimeout
	}
	return DefaultRequestTimeout
}

func (s *lspServer) loadTimeout() time.Duration {
	if s.opts.LoadTimeout > 0 {
		return s.opts.LoadTimeout
	}
	return DefaultLoadTimeout
}

// start launches and initialises the server once. s.mu is held.
func (s *lspServer) start(ctx context.Context) error {
	if s.started {
		return s.err
	}
	s.started = true
	s.err = s.startLocked(ctx)
	return s.err
}

func (s *lspServer) startLocked(ctx context.Context) error {
	s.answered = map[string]bool{}
	s.unsupported = map[string]bool{}
	s.open = map[string]openDoc{}
	exe, err := safeexec.LookPath(s.name())
	if err != nil {
		return &evidence.UnavailableError{Reason: "language server " + s.name() + " not found",
			Err: fmt.Errorf("%w: %w", ErrServerNotFound, err), Guidance: installGuidance(s.name())}
	}
	env := s.opts.Env
	if env == nil {
		env = safeexec.Environ(generatorEnv...)
	}
	// The server lives until Close, not until this request's context ends.
	proc, err := safeexec.Start(context.WithoutCancel(ctx), safeexec.Invocation{
		Path: exe, Args: s.argv[1:], Dir: s.root.Dir(), Env: env})
	if err != nil {
		return &evidence.UnavailableError{Reason: "language server " + s.name() + " cannot start", Err: err}
	}
	s.proc = proc
	s.conn = newLSPConn(proc.Stdin, proc.Stdout)
	waitReady := isPyright(s.name())
	if waitReady {
		s.conn.readyWhen = pyrightLoaded // read by readLoop only, from now on
	}
	go s.conn.readLoop()
	// The handshake exchanges capabilities only: loading comes after it,
	// so it gets the request bound, and a server that never answers fails
	// fast.
	raw, err := s.request(ctx, "initialize", initializeParams(s.root.Dir(), s.name()), s.requestTimeout())
	if err == nil {
		s.info = decodeServerInfo(raw)
		s.declByDefinition = isPyright(s.name()) || strings.Contains(strings.ToLower(s.info), "pyright")
		err = s.conn.notify("initialized", map[string]any{})
		if err != nil {
			err = s.exited(err)
		}
	}
	if err == nil && waitReady {
		err = s.awaitReady(ctx)
	}
	if err != nil {
		s.closeLocked()
		return &evidence.UnavailableError{Reason: "language server " + s.name() + " did not initialise", Err: err}
	}
	return nil
}

// awaitReady waits, within the load timeout, for the server to say it has
// loaded the workspace. A server that does not say so in time is asked
// anyway (its answers may miss files it has not read; the status says
// so); one that exits meanwhile fails. s.mu is held.
func (s *lspServer) awaitReady(ctx context.Context) error {
	t := time.NewTimer(s.loadTimeout())
	defer t.Stop()
	select {
	case <-s.conn.ready:
	case <-s.conn.closed:
		return s.exited(fmt.Errorf("language server exited: %w", s.conn.readErr))
	case <-t.C:
		s.notReady = fmt.Sprintf("did not say it had loaded the workspace within %s; answers may miss files", s.loadTimeout())
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// installGuidance says how to install a well-known server.
func installGuidance(name string) string {
	switch name {
	case "gopls":
		return "install it: go install golang.org/x/tools/gopls@v0.23.0"
	case "pyright-langserver":
		return "install it: npm install -g pyright@1.1.414"
	case "basedpyright-langserver":
		return "install it: pip install basedpyright"
	case "typescript-language-server":
		return "install it: npm install -g typescript-language-server@6.0.2 typescript@5.9.3"
	}
	return "install " + name + " or configure another server in precision_index.language_servers"
}

// initializeParams are the handshake's parameters. typescript-language-server
// is asked to send every request to its semantic server (its syntax
// server, which answers while the project loads, knows only the open
// files, so its references would miss the others), and to rename a
// symbol where it is declared even when asked from a file that imports
// it (by default it renames only the importing file's alias:
// "import { unit as renamed }").
func initializeParams(dir, program string) map[string]any {
	rootURI := fileURI(dir)
	var init any
	if strings.TrimSuffix(filepath.Base(program), ".cmd") == "typescript-language-server" {
		init = map[string]any{"tsserver": map[string]any{"useSyntaxServer": "never"},
			"preferences": map[string]any{"providePrefixAndSuffixTextForRename": false}}
	}
	return map[string]any{
		"initializationOptions": init,
		"processId":             nil,
		"rootUri":               rootURI,
		"rootPath":              dir,
		"workspaceFolders": []map[string]string{
			{"uri": rootURI, "name": filepath.Base(dir)},
		},
		"capabilities": map[string]any{
			"textDocument": map[string]any{
				"synchronization": map[string]any{},
				"definition":      map[string]any{"linkSupport": false},
				"implementation":  map[string]any{"linkSupport": false},
				"references":      map[string]any{},
				"rename":          map[string]any{"prepareSupport": false},
			},
			"workspace": map[string]any{"workspaceFolders": true, "configuration": true,
				"workspaceEdit": map[string]any{"documentChanges": true}},
		},
	}
}

// decodeServerInfo reads "name version" from an initialize result; ""
// when the server does not say. The text is the server's: it is cut short
// and kept to printable characters.
func decodeServerInfo(raw json.RawMessage) string {
	var r struct {
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	return printable(strings.TrimSpace(r.ServerInfo.Name+" "+r.ServerInfo.Version), 120)
}

// printable keeps s's printable characters, at most n of them.
func printable(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		if n == 0 {
			break
		}
		if r >= ' ' && r != 0x7f && r != 0xfffd {
			b.WriteRune(r)
			n--
		}
	}
	return b.String()
}

// request sends one request bounded by bound, or, when bound is zero, by
// the load timeout for the first request of its method and the request
// timeout after. A server error is returned as an *rpcError. s.mu is held.
func (s *lspServer) request(ctx context.Context, method string, params any, bound time.Duration) (json.RawMessage, error) {
	if s.conn == nil {
		return nil, s.err
	}
	if bound == 0 {
		bound = s.requestTimeout()
		if !s.answered[method] || s.fresh {
			bound = s.loadTimeout()
		}
	}
	rctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	raw, err := s.conn.call(rctx, method, params)
	var re *rpcError
	switch {
	case err == nil || errors.As(err, &re):
		s.answered[method] = true
		return raw, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		s.lastTimeout = fmt.Sprintf("gave up on %s after %s", method, bound)
		return nil, fmt.Errorf("%w: no answer to %s within %s", ErrServerTimeout, method, bound)
	}
	err = s.exited(err)
	if errors.Is(err, ErrServerExited) {
		s.err = &evidence.UnavailableError{Reason: "language server " + s.name() + " exited during " + method, Err: err}
	}
	return nil, err
}

// exited turns a failure to talk to the server into ErrServerExited with
// the exit status and the end of its standard error when the server has
// exited (or does within a second); other failures are returned as they
// are. s.mu is held.
func (s *lspServer) exited(err error) error {
	if s.proc == nil {
		return err
	}
	select {
	case <-s.proc.Done():
	case <-time.After(time.Second):
		return err
	}
	status := "exit status 0"
	if perr := s.proc.Close(time.Second); perr != nil {
		status = perr.Error()
	}
	msg := strings.TrimSpace(string(tail(s.proc.Stderr(), 300)))
	s.proc = nil
	if msg != "" {
		return fmt.Errorf("%w (%s): %s", ErrServerExited, status, msg)
	}
	return fmt.Errorf("%w (%s)", ErrServerExited, status)
}

// closeLocked shuts the server down cleanly (shutdown, exit), then waits
// for it, interrupting and finally killing it if it lingers. A server that
// never answered is not asked to shut down. s.mu is held.
func (s *lspServer) closeLocked() error {
	var err error
	grace := time.Second
	if s.conn != nil {
		if len(s.answered) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), s.requestTimeout())
			_, _ = s.conn.call(ctx, "shutdown", nil)
			cancel()
			grace = 2 * time.Second
		}
		_ = s.conn.notify("exit", nil)
		s.conn = nil
	}
	if s.proc != nil {
		err = s.proc.Close(grace)
		s.proc = nil
	}
	if s.err == nil {
		s.err = errors.New("language server closed")
	}
	s.started = true
	return err
}

// sync tells the server the file at rel is open with its current content
// (didOpen, or didChange when it changed since), so that servers which
// answer only about open documents (typescript-language-server) answer,
// and sets s.fresh when it told the server anything. s.mu is held.
func (s *lspServer) sync(rel, lang string, data []byte) error {
	s.fresh = false
	abs, err := s.root.Abs(rel)
	if err != nil {
		return err
	}
	uri := fileURI(abs)
	digest := sha256.Sum256(data)
	doc, ok := s.open[rel]
	switch {
	case ok && doc.digest == digest:
		return nil
	case ok:
		s.fresh = true
		doc.version++
		doc.digest = digest
		s.open[rel] = doc
		return s.conn.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": doc.version},
			"contentChanges": []map[string]string{{"text": string(data)}},
		})
	}
	if len(s.opened) >= maxOpenDocuments {
		oldest := s.opened[0]
		s.opened = s.opened[1:]
		delete(s.open, oldest)
		if oabs, err := s.root.Abs(oldest); err == nil {
			_ = s.conn.notify("textDocument/didClose", map[string]any{
				"textDocument": map[string]string{"uri": fileURI(oabs)}})
		}
	}
	s.fresh = true
	s.open[rel] = openDoc{version: 1, digest: digest}
	s.opened = append(s.opened, rel)
	return s.conn.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": languageID(lang, rel), "version": 1, "text": string(data)},
	})
}
