package precision

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/trust"
)

// LSPName is the provider name language-server records carry.
const LSPName = "language-server"

// LSPOptions configures an [LSPProvider]. The zero value runs gopls in the
// working directory with the default timeouts.
type LSPOptions struct {
	// Dir is the project root; empty means the working directory.
	Dir string
	// Command is the server's argv; empty means gopls. The server must
	// speak LSP over standard input and output.
	Command []string
	// Env is the server's environment; nil passes PATH, HOME and the Go,
	// Node and Python variables an indexer would get.
	Env []string
	// RequestTimeout bounds the initialize handshake and every request of
	// a kind the server has answered before; zero means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// LoadTimeout bounds the requests of each kind (definition,
	// references, implementation, workspace symbols) until the server has
	// answered one: the first waits while the server loads the workspace,
	// and gopls type-checks the module and its dependencies on a cold
	// cache. Zero means DefaultLoadTimeout.
	LoadTimeout time.Duration
}

// The timeouts an [LSPOptions] left at zero gets.
const (
	DefaultRequestTimeout = 5 * time.Second
	DefaultLoadTimeout    = 30 * time.Second
)

// Errors a language-server failure wraps, matched with errors.Is. The
// provider returns them inside an [evidence.UnavailableError] whose reason
// names the server and what it was asked.
var (
	// ErrServerNotFound: the server's executable is not installed.
	ErrServerNotFound = errors.New("precision: language server not found")
	// ErrServerExited: the server exited, at once or during a request;
	// the error carries its exit status and the end of its standard error.
	ErrServerExited = errors.New("precision: language server exited")
	// ErrServerTimeout: the server did not answer within the bound.
	ErrServerTimeout = errors.New("precision: language server did not answer in time")
)

// An LSPProvider answers definition, reference and implementation questions
// by asking a live language server over stdio. Its records are near_exact,
// never exact. The server is started through safeexec on first use,
// initialised once, reused for every later query and shut down by Close.
// A server that cannot start, exits, or does not answer within the
// timeouts makes Gather fail with an [evidence.UnavailableError] that says
// which (see [ErrServerNotFound], [ErrServerExited], [ErrServerTimeout]);
// a server that exited stays failed, one that was only slow is asked again
// next time. It is safe for concurrent use.
type LSPProvider struct {
	opts LSPOptions

	mu       sync.Mutex
	root     *contain.Root
	conn     *lspConn
	proc     *safeexec.Process
	name     string // argv[0], for reasons
	started  bool
	err      error           // the start failure or exit, kept
	answered map[string]bool // methods the server has answered
}

// NewLSP returns a language-server provider; nothing starts until it is
// used.
func NewLSP(opts LSPOptions) *LSPProvider { return &LSPProvider{opts: opts} }

// Name returns "language-server".
func (p *LSPProvider) Name() string { return LSPName }

func (p *LSPProvider) requestTimeout() time.Duration {
	if p.opts.RequestTimeout > 0 {
		return p.opts.RequestTimeout
	}
	return DefaultRequestTimeout
}

func (p *LSPProvider) loadTimeout() time.Duration {
	if p.opts.LoadTimeout > 0 {
		return p.opts.LoadTimeout
	}
	return DefaultLoadTimeout
}

// start launches and initialises the server once. p.mu is held.
func (p *LSPProvider) start(ctx context.Context) error {
	if p.started {
		return p.err
	}
	p.started = true
	p.err = p.startLocked(ctx)
	return p.err
}

func (p *LSPProvider) startLocked(ctx context.Context) error {
	dir := p.opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return &evidence.UnavailableError{Reason: "project root cannot be opened", Err: err}
	}
	p.root = root
	argv := p.opts.Command
	if len(argv) == 0 {
		argv = []string{"gopls"}
	}
	p.name = argv[0]
	p.answered = map[string]bool{}
	exe, err := safeexec.LookPath(argv[0])
	if err != nil {
		return &evidence.UnavailableError{Reason: "language server " + argv[0] + " not found",
			Err:      fmt.Errorf("%w: %w", ErrServerNotFound, err),
			Guidance: "install it (for gopls: go install golang.org/x/tools/gopls@v0.23.0)"}
	}
	env := p.opts.Env
	if env == nil {
		env = safeexec.Environ(generatorEnv...)
	}
	// The server lives until Close, not until this request's context ends.
	proc, err := safeexec.Start(context.WithoutCancel(ctx), safeexec.Invocation{
		Path: exe, Args: argv[1:], Dir: root.Dir(), Env: env})
	if err != nil {
		return &evidence.UnavailableError{Reason: "language server " + argv[0] + " cannot start", Err: err}
	}
	p.proc = proc
	p.conn = newLSPConn(proc.Stdin, proc.Stdout)
	go p.conn.readLoop()
	rootURI := fileURI(root.Dir())
	params := map[string]any{
		"processId": nil,
		"rootUri":   rootURI,
		"workspaceFolders": []map[string]string{
			{"uri": rootURI, "name": filepath.Base(root.Dir())},
		},
		"capabilities": map[string]any{
			"textDocument": map[string]any{
				"definition":     map[string]any{"linkSupport": false},
				"implementation": map[string]any{"linkSupport": false},
				"references":     map[string]any{},
			},
			"workspace": map[string]any{"workspaceFolders": true, "configuration": true},
		},
	}
	// The handshake exchanges capabilities only: loading comes after it,
	// so it gets the request bound, and a server that never answers fails
	// fast.
	if _, err := p.request(ctx, "initialize", params, p.requestTimeout()); err != nil {
		p.closeLocked()
		return &evidence.UnavailableError{Reason: "language server " + p.name + " did not initialise", Err: err}
	}
	if err := p.conn.notify("initialized", map[string]any{}); err != nil {
		err = p.exited(err)
		p.closeLocked()
		return &evidence.UnavailableError{Reason: "language server " + p.name + " did not initialise", Err: err}
	}
	return nil
}

// request sends one request bounded by bound, or, when bound is zero, by
// the load timeout for the first request of its method and the request
// timeout after. A server error is returned as an *rpcError. p.mu is held.
func (p *LSPProvider) request(ctx context.Context, method string, params any, bound time.Duration) (json.RawMessage, error) {
	if bound == 0 {
		bound = p.requestTimeout()
		if !p.answered[method] {
			bound = p.loadTimeout()
		}
	}
	rctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	raw, err := p.conn.call(rctx, method, params)
	var re *rpcError
	switch {
	case err == nil || errors.As(err, &re):
		p.answered[method] = true
		return raw, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("%w: no answer to %s within %s", ErrServerTimeout, method, bound)
	}
	err = p.exited(err)
	if errors.Is(err, ErrServerExited) {
		p.err = &evidence.UnavailableError{Reason: "language server " + p.name + " exited during " + method, Err: err}
	}
	return nil, err
}

// exited turns a failure to talk to the server into ErrServerExited with
// the exit status and the end of its standard error when the server has
// exited (or does within a second); other failures are returned as they
// are. p.mu is held.
func (p *LSPProvider) exited(err error) error {
	if p.proc == nil {
		return err
	}
	select {
	case <-p.proc.Done():
	case <-time.After(time.Second):
		return err
	}
	status := "exit status 0"
	if perr := p.proc.Close(time.Second); perr != nil {
		status = perr.Error()
	}
	msg := strings.TrimSpace(string(tail(p.proc.Stderr(), 300)))
	p.proc = nil
	if msg != "" {
		return fmt.Errorf("%w (%s): %s", ErrServerExited, status, msg)
	}
	return fmt.Errorf("%w (%s)", ErrServerExited, status)
}

// Close shuts the server down cleanly (shutdown, exit), then waits for it,
// interrupting and finally killing it if it lingers. A server that never
// answered is not asked to shut down.
func (p *LSPProvider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closeLocked()
}

func (p *LSPProvider) closeLocked() error {
	var err error
	grace := time.Second
	if p.conn != nil {
		if len(p.answered) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), p.requestTimeout())
			_, _ = p.conn.call(ctx, "shutdown", nil)
			cancel()
			grace = 2 * time.Second
		}
		_ = p.conn.notify("exit", nil)
		p.conn = nil
	}
	if p.proc != nil {
		err = p.proc.Close(grace)
		p.proc = nil
	}
	if p.root != nil {
		p.root.Close()
		p.root = nil
	}
	if p.err == nil {
		p.err = errors.New("language server closed")
	}
	p.started = true
	return err
}

// Gather asks the server about the position in q, for the kinds q wants,
// or, without a position, about every workspace symbol named q.Symbol (as
// [Index.LookupName] reads a name), each record carrying the candidate's
// container ("package"), qualified name ("qualified_name") and the number
// of candidates ("candidates"). A reference answer includes the
// declaration, marked as the index provider marks it ([IsDeclaration]). A
// position on a missing file or past the end of one answers no records and
// a report that says which.
func (p *LSPProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	position := q.Path != "" && (q.Line != 0 || q.Column != 0)
	if !position && q.Symbol == "" {
		return evidence.Response{}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(ctx); err != nil {
		return evidence.Response{}, err
	}
	files := map[string][]string{} // lines of each file, read once per request
	if !position {
		return p.byName(ctx, &q, files)
	}
	lines, why := checkPosition(p.root, q.Path, q.Line, q.Column)
	if why != "" {
		return evidence.Response{Report: evidence.Report{State: evidence.Available, Reason: why}}, nil
	}
	files[q.Path] = lines
	recs, dropped, err := p.ask(ctx, &q, q.Path, q.Line, q.Column, files)
	if err != nil {
		return evidence.Response{}, err
	}
	return evidence.Response{Records: recs, Report: evidence.Report{Dropped: dropped}}, nil
}

// ask puts q's questions to the server about one position. p.mu is held.
func (p *LSPProvider) ask(ctx context.Context, q *evidence.Query, path string, line, col int, files map[string][]string) ([]evidence.Record, []string, error) {
	abs, err := p.root.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	lines := files[path]
	pos := map[string]any{
		"textDocument": map[string]string{"uri": fileURI(abs)},
		"position": map[string]int{"line": line - 1,
			"character": FromCodePoints(lines[line-1], col-1, UTF16)},
	}
	var recs []evidence.Record
	var dropped []string
	add := func(kind evidence.Kind, locs []lspLocation, declarations map[lspLocation]bool) {
		for _, l := range locs {
			r, ok, why := p.record(kind, l, files)
			if !ok {
				dropped = append(dropped, why)
				continue
			}
			if declarations[l] {
				r.Metadata.Attributes = map[string]string{DeclarationAttribute: "true"}
			}
			recs = append(recs, r)
		}
	}
	if q.Wants(evidence.Definition) {
		locs, err := p.locations(ctx, "textDocument/definition", pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Definition, locs, nil)
	}
	if q.Wants(evidence.Reference) {
		locs, decl, err := p.references(ctx, pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Reference, locs, decl)
	}
	if q.Wants(evidence.Implementation) {
		locs, err := p.locations(ctx, "textDocument/implementation", pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Implementation, locs, nil)
	}
	return recs, dropped, nil
}

// locations returns the locations the server answers method with; none
// when it has no answer there (such as the implementation of a var).
func (p *LSPProvider) locations(ctx context.Context, method string, params map[string]any) ([]lspLocation, error) {
	raw, err := p.request(ctx, method, params, 0)
	var re *rpcError
	if errors.As(err, &re) {
		return nil, nil // the server has no answer here, such as implementation of a var
	}
	if err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + p.name + " failed on " + method, Err: err}
	}
	locs, err := decodeLocations(raw)
	if err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + p.name + " answered " + method + " with something else than locations", Err: err}
	}
	return locs, nil
}

// references returns the references at the position pos, and which of
// them are the declaration: what the answer with it has and the answer
// without it lacks.
func (p *LSPProvider) references(ctx context.Context, pos map[string]any) ([]lspLocation, map[lspLocation]bool, error) {
	refParams := func(decl bool) map[string]any {
		m := map[string]any{"context": map[string]bool{"includeDeclaration": decl}}
		for k, v := range pos {
			m[k] = v
		}
		return m
	}
	with, err := p.locations(ctx, "textDocument/references", refParams(true))
	if err != nil {
		return nil, nil, err
	}
	without, err := p.locations(ctx, "textDocument/references", refParams(false))
	if err != nil {
		return nil, nil, err
	}
	decl := map[lspLocation]bool{}
	for _, l := range with {
		decl[l] = true
	}
	for _, l := range without {
		delete(decl, l)
	}
	return with, decl, nil
}

// byName answers q about every workspace symbol named q.Symbol. p.mu is
// held.
func (p *LSPProvider) byName(ctx context.Context, q *evidence.Query, files map[string][]string) (evidence.Response, error) {
	raw, err := p.request(ctx, "workspace/symbol", map[string]string{"query": q.Symbol}, 0)
	var re *rpcError
	if errors.As(err, &re) {
		raw, err = nil, nil
	}
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "language server " + p.name + " failed on workspace/symbol", Err: err}
	}
	var syms []struct {
		Name          string      `json:"name"`
		ContainerName string      `json:"containerName"`
		Location      lspLocation `json:"location"`
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &syms); err != nil {
			return evidence.Response{}, &evidence.UnavailableError{Reason: "language server " + p.name + " answered workspace/symbol with something else than symbols", Err: err}
		}
	}
	type candidate struct {
		path       string
		line, col  int
		name, cont string
	}
	var cands []candidate
	var dropped []string
	for _, s := range syms {
		if s.Name != q.Symbol && !strings.HasSuffix(s.Name, "."+q.Symbol) {
			continue
		}
		r, ok, _ := p.record(evidence.Definition, s.Location, files)
		if !ok {
			continue // declared outside the project
		}
		cands = append(cands, candidate{r.Path, r.StartLine, r.StartColumn, s.Name, s.ContainerName})
	}
	if len(cands) == 0 {
		return evidence.Response{Report: evidence.Report{State: evidence.Available,
			Reason: fmt.Sprintf("the language server knows no symbol named %q in the project", q.Symbol)}}, nil
	}
	var recs []evidence.Record
	n := strconv.Itoa(len(cands))
	for _, c := range cands {
		rs, d, err := p.ask(ctx, q, c.path, c.line, c.col, files)
		if err != nil {
			return evidence.Response{}, err
		}
		dropped = append(dropped, d...)
		qualified := c.name
		if c.cont != "" {
			qualified = c.cont + "." + c.name
		}
		for _, r := range rs {
			if r.Metadata.Attributes == nil {
				r.Metadata.Attributes = map[string]string{}
			}
			r.Metadata.Attributes["package"] = c.cont
			r.Metadata.Attributes["qualified_name"] = qualified
			r.Metadata.Attributes["candidates"] = n
			recs = append(recs, r)
		}
	}
	rep := evidence.Report{Dropped: dropped}
	if len(cands) > 1 {
		names := make([]string, len(cands))
		for i, c := range cands {
			names[i] = c.cont + "." + c.name
		}
		rep.State = evidence.Available
		rep.Reason = fmt.Sprintf("%q may mean %d symbols, all answered: %s", q.Symbol, len(cands), strings.Join(names, ", "))
	}
	return evidence.Response{Records: recs, Report: rep}, nil
}

type lspLocation struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
}

// decodeLocations reads a Location, a Location[] or null.
func decodeLocations(raw json.RawMessage) ([]lspLocation, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	if strings.HasPrefix(s, "{") {
		var l lspLocation
		err := json.Unmarshal(raw, &l)
		return []lspLocation{l}, err
	}
	var ls []lspLocation
	err := json.Unmarshal(raw, &ls)
	return ls, err
}

// record converts an LSP location (UTF-16, zero-based) to a near_exact
// record in code points; locations outside the root are not served.
func (p *LSPProvider) record(kind evidence.Kind, l lspLocation, files map[string][]string) (evidence.Record, bool, string) {
	u, err := url.Parse(l.URI)
	if err != nil || u.Scheme != "file" {
		return evidence.Record{}, false, "not a file location: " + l.URI
	}
	rel, err := p.root.Rel(u.Path)
	if err != nil {
		return evidence.Record{}, false, "outside the project root: " + u.Path
	}
	lines, ok := files[rel]
	if !ok {
		data, err := p.root.ReadFile(rel)
		if err != nil {
			return evidence.Record{}, false, "unreadable: " + rel
		}
		lines = splitLines(string(data))
		files[rel] = lines
	}
	line := func(n int) string {
		if n >= 0 && n < len(lines) {
			return lines[n]
		}
		return ""
	}
	rg := l.Range
	return evidence.Record{
		Kind: kind, Provider: LSPName, Provenance: trust.LanguageServer, Trust: trust.NearExact,
		Confidence: 0.9,
		Path:       rel,
		StartLine:  rg.Start.Line + 1, StartColumn: ToCodePoints(line(rg.Start.Line), rg.Start.Character, UTF16) + 1,
		EndLine: rg.End.Line + 1, EndColumn: ToCodePoints(line(rg.End.Line), rg.End.Character, UTF16) + 1,
	}, true, ""
}

func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// lspConn is a JSON-RPC 2.0 connection with LSP's Content-Length framing.
type lspConn struct {
	w       io.Writer
	r       *bufio.Reader
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan rpcResult
	closed  chan struct{}
	readErr error
}

type rpcResult struct {
	result json.RawMessage
	err    error
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("language server error %d: %s", e.Code, e.Message)
}

func newLSPConn(w io.Writer, r io.Reader) *lspConn {
	return &lspConn{w: w, r: bufio.NewReader(r), pending: map[int]chan rpcResult{}, closed: make(chan struct{})}
}

func (c *lspConn) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = c.w.Write(b)
	return err
}

func (c *lspConn) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *lspConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.readErr != nil {
		err := c.readErr
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan rpcResult, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.write(msg); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-c.closed:
		return nil, fmt.Errorf("language server exited: %w", c.readErr)
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		_ = c.notify("$/cancelRequest", map[string]int{"id": id})
		return nil, ctx.Err()
	}
}

// maxMessage caps one message from the server.
const maxMessage = 64 << 20

func (c *lspConn) readLoop() {
	err := c.readMessages()
	c.mu.Lock()
	c.readErr = err
	c.mu.Unlock()
	close(c.closed)
}

func (c *lspConn) readMessages() error {
	for {
		length := -1
		for {
			line, err := c.r.ReadString('\n')
			if err != nil {
				return err
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || n < 0 || n > maxMessage {
					return fmt.Errorf("bad Content-Length %q", v)
				}
				length = n
			}
		}
		if length < 0 {
			return errors.New("message without Content-Length")
		}
		// Grown as bytes arrive, so a lying length allocates nothing.
		var buf bytes.Buffer
		if _, err := io.CopyN(&buf, c.r, int64(length)); err != nil {
			return err
		}
		body := buf.Bytes()
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			continue
		}
		switch {
		case msg.Method != "" && len(msg.ID) > 0:
			c.answerServer(msg.ID, msg.Method, msg.Params)
		case msg.Method == "" && len(msg.ID) > 0:
			id, err := strconv.Atoi(string(msg.ID))
			if err != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				r := rpcResult{result: msg.Result}
				if msg.Error != nil {
					r.err = msg.Error
				}
				ch <- r
			}
		}
		// Notifications from the server (logs, diagnostics) are ignored.
	}
}

// answerServer replies to a request from the server: configuration gets
// one null per item, everything else a null result.
func (c *lspConn) answerServer(id json.RawMessage, method string, params json.RawMessage) {
	var result any
	if method == "workspace/configuration" {
		var p struct{ Items []json.RawMessage }
		_ = json.Unmarshal(params, &p)
		result = make([]any, len(p.Items))
	}
	go func() { _ = c.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}) }()
}
