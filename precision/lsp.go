package precision

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/trust"
)

// LSPName is the provider name language-server records carry.
const LSPName = "language-server"

// LSPOptions configures an [LSPProvider]. The zero value serves each
// language with its well-known server found on PATH (gopls for Go,
// pyright-langserver or basedpyright-langserver for Python,
// typescript-language-server for TypeScript and JavaScript, rust-analyzer,
// clangd; see [LSPLanguages]) in the working directory, with the default
// timeouts.
type LSPOptions struct {
	// Dir is the project root; empty means the working directory.
	Dir string
	// Command is Go's server's argv; empty means gopls. It is the one
	// server of the provider before it served other languages, and
	// Servers["go"] overrides it.
	Command []string
	// Servers maps a language ([LSPLanguage].Name: "go", "python",
	// "typescript", "javascript", "rust", "c", "cpp", ...) to its server's
	// argv. A language left out gets its default; an empty argv turns the
	// language off. Languages with equal argvs share one process. Every
	// server must speak LSP over standard input and output.
	Servers map[string][]string
	// Env is every server's environment; nil passes PATH, HOME and the
	// Go, Node and Python variables an indexer would get.
	Env []string
	// RequestTimeout bounds the initialize handshake and every request of
	// a kind the server has answered before; zero means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// LoadTimeout bounds the requests of each kind (definition,
	// references, implementation, rename, workspace symbols) until the
	// server has answered one, and those about a document the server has
	// just been given (opened, or changed since): the first waits while
	// the server loads the workspace (gopls type-checks the module and its
	// dependencies on a cold cache, pyright lists and analyses the files),
	// the others while it analyses the document. It also bounds the wait
	// for pyright to say it has listed the workspace. Zero means
	// DefaultLoadTimeout.
	LoadTimeout time.Duration
}

// The timeouts an [LSPOptions] left at zero gets.
const (
	DefaultRequestTimeout = 5 * time.Second
	DefaultLoadTimeout    = 60 * time.Second
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
	// ErrNoServer: no server serves the file's language (none is
	// configured, no well-known one is on PATH, or it is turned off).
	ErrNoServer = errors.New("precision: no language server for this language")
)

// An LSPProvider answers definition, reference and implementation
// questions, and computes renames ([LSPProvider.Rename]), by asking live
// language servers over stdio, one per language. Its records are
// near_exact, never exact. A file goes to the server of its language
// ([LSPLanguageOf]); each server is started through safeexec on the first
// question about a file of its language, initialised once, reused for
// every later question and shut down by Close. A server that cannot start,
// exits, or does not answer within the timeouts makes Gather fail with an
// [evidence.UnavailableError] that says which (see [ErrServerNotFound],
// [ErrServerExited], [ErrServerTimeout]); a server that exited stays
// failed, one that was only slow is asked again next time, and the others
// are not affected. A kind of question a server has no request for
// (pyright answers textDocument/implementation "method not found") gets
// no records and a report that says so. [LSPProvider.Servers] reports
// each. It is safe for concurrent use.
type LSPProvider struct {
	opts LSPOptions

	mu      sync.Mutex
	root    *contain.Root
	rootErr error
	closed  bool
	servers map[string]*lspServer // by serverKey
}

// NewLSP returns a language-server provider; nothing starts until it is
// used.
func NewLSP(opts LSPOptions) *LSPProvider {
	opts.Servers = maps.Clone(opts.Servers)
	return &LSPProvider{opts: opts, servers: map[string]*lspServer{}}
}

// Name returns "language-server".
func (p *LSPProvider) Name() string { return LSPName }

// openRoot opens the project root once. p.mu is held.
func (p *LSPProvider) openRoot() (*contain.Root, error) {
	if p.root == nil && p.rootErr == nil {
		dir := p.opts.Dir
		if dir == "" {
			dir = "."
		}
		root, err := contain.Open(dir)
		if err != nil {
			p.rootErr = &evidence.UnavailableError{Reason: "project root cannot be opened", Err: err}
		}
		p.root = root
	}
	return p.root, p.rootErr
}

// server returns the server of lang, made (not started) on first need.
func (p *LSPProvider) server(lang string) (*lspServer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, &evidence.UnavailableError{Reason: "language servers closed", Err: ErrServerExited}
	}
	root, err := p.openRoot()
	if err != nil {
		return nil, err
	}
	argv, ok := p.opts.serverArgv(lang)
	if !ok {
		reason := "no language server for " + lang + " files"
		if lang == "" {
			reason = "no language server for files of this kind"
		}
		return nil, &evidence.UnavailableError{Reason: reason, Err: ErrNoServer,
			Guidance: noServerGuidance(lang)}
	}
	k := serverKey(argv)
	s := p.servers[k]
	if s == nil {
		s = &lspServer{argv: argv, langs: p.opts.planned()[k], opts: &p.opts, root: root}
		p.servers[k] = s
	}
	return s, nil
}

func noServerGuidance(lang string) string {
	l, ok := lspLanguage(lang)
	switch {
	case !ok:
		return "this file's language has no language server"
	case len(l.Defaults) > 0:
		return "install " + l.Defaults[0][0] + " or set precision_index.language_servers." + lang
	}
	return "set precision_index.language_servers." + lang + " to its server's argv"
}

// Close shuts every server down cleanly (shutdown, exit), then waits for
// it, interrupting and finally killing it if it lingers. A server that
// never answered is not asked to shut down. Nothing starts after Close.
func (p *LSPProvider) Close() error {
	p.mu.Lock()
	servers := slices.Collect(maps.Values(p.servers))
	p.closed = true
	p.mu.Unlock()
	var errs []error
	for _, s := range servers {
		s.mu.Lock()
		errs = append(errs, s.closeLocked())
		s.mu.Unlock()
	}
	p.mu.Lock()
	if p.root != nil {
		p.root.Close()
		p.root = nil
		p.rootErr = errors.New("language servers closed")
	}
	p.mu.Unlock()
	return errors.Join(errs...)
}

// Gather asks the server of q.Path's language about the position in q,
// for the kinds q wants, or, without a position, every server that may
// know the name ([LSPProvider.Gather] asks those already started and
// those of the languages whose project files are at the root: go.mod,
// pyproject.toml, package.json, ...) about every workspace symbol named
// q.Symbol (as [Index.LookupName] reads a name), each record carrying the
// candidate's container ("package"), qualified name ("qualified_name") and
// the number of candidates ("candidates"). A reference answer includes the
// declaration, marked as the index provider marks it ([IsDeclaration]). A
// position on a missing file or past the end of one answers no records and
// a report that says which.
func (p *LSPProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if q.Outgoing {
		return evidence.NotOutgoing(p.Name()), nil
	}
	position := q.Path != "" && (q.Line != 0 || q.Column != 0)
	if !position && q.Symbol == "" {
		return evidence.Response{}, nil
	}
	if !position {
		return p.byName(ctx, &q)
	}
	p.mu.Lock()
	root, err := p.openRoot()
	p.mu.Unlock()
	if err != nil {
		return evidence.Response{}, err
	}
	lines, why := checkPosition(root, q.Path, q.Line, q.Column)
	if why != "" {
		return evidence.Response{Report: evidence.Report{State: evidence.Available, Reason: why}}, nil
	}
	s, err := p.server(LSPLanguageOf(q.Path))
	if err != nil {
		return evidence.Response{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.start(ctx); err != nil {
		return evidence.Response{}, err
	}
	files := map[string][]string{q.Path: lines} // lines of each file, read once per request
	recs, dropped, err := s.ask(ctx, q, q.Path, q.Line, q.Column, files)
	if err != nil {
		return evidence.Response{}, err
	}
	rep := evidence.Report{Dropped: dropped}
	if why := s.unanswered(q); why != "" {
		rep.State, rep.Reason = evidence.Available, why
	}
	return evidence.Response{Records: recs, Report: rep}, nil
}

// position opens path on the server and returns the LSP parameters of the
// one-based code-point position (line, col) in it. s.mu is held.
func (s *lspServer) position(path string, line, col int, files map[string][]string) (map[string]any, error) {
	abs, err := s.root.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := s.root.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := s.sync(path, LSPLanguageOf(path), data); err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " did not take " + path, Err: s.exited(err)}
	}
	lines, ok := files[path]
	if !ok {
		lines = splitLines(string(data))
		files[path] = lines
	}
	text := ""
	if line-1 < len(lines) {
		text = lines[line-1]
	}
	return map[string]any{
		"textDocument": map[string]string{"uri": fileURI(abs)},
		"position":     map[string]int{"line": line - 1, "character": FromCodePoints(text, col-1, UTF16)},
	}, nil
}

// ask puts q's questions to the server about one position. s.mu is held.
func (s *lspServer) ask(ctx context.Context, q evidence.Query, path string, line, col int, files map[string][]string) ([]evidence.Record, []string, error) {
	pos, err := s.position(path, line, col, files)
	if err != nil {
		return nil, nil, err
	}
	var recs []evidence.Record
	var dropped []string
	add := func(kind evidence.Kind, locs []lspLocation, declarations map[lspLocation]bool) {
		for _, l := range locs {
			r, ok, why := s.record(kind, l, files)
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
		locs, err := s.locations(ctx, "textDocument/definition", pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Definition, locs, nil)
	}
	if q.Wants(evidence.Reference) {
		locs, decl, err := s.references(ctx, pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Reference, locs, decl)
	}
	if q.Wants(evidence.Implementation) {
		locs, err := s.locations(ctx, "textDocument/implementation", pos)
		if err != nil {
			return nil, nil, err
		}
		add(evidence.Implementation, locs, nil)
	}
	return recs, dropped, nil
}

// locations returns the locations the server answers method with; none
// when it has no answer there (such as the implementation of a var).
func (s *lspServer) locations(ctx context.Context, method string, params map[string]any) ([]lspLocation, error) {
	if s.unsupported[method] {
		return nil, nil
	}
	raw, err := s.request(ctx, method, params, 0)
	var re *rpcError
	if errors.As(err, &re) {
		if re.Code == codeMethodNotFound {
			s.unsupported[method] = true
		}
		return nil, nil // the server has no answer here, such as implementation of a var
	}
	if err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " failed on " + method, Err: err}
	}
	locs, err := decodeLocations(raw)
	if err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " answered " + method + " with something else than locations", Err: err}
	}
	return locs, nil
}

// codeMethodNotFound is JSON-RPC's error code for a method the server
// does not have.
const codeMethodNotFound = -32601

// kindMethods are the requests that answer each kind of question.
var kindMethods = []struct {
	kind   evidence.Kind
	method string
}{
	{evidence.Definition, "textDocument/definition"},
	{evidence.Reference, "textDocument/references"},
	{evidence.Implementation, "textDocument/implementation"},
}

// unanswered says which of q's kinds the server cannot answer at all (it
// answered their request "method not found"), or "". s.mu is held.
func (s *lspServer) unanswered(q evidence.Query) string {
	var kinds []string
	for _, km := range kindMethods {
		if q.Wants(km.kind) && s.unsupported[km.method] {
			kinds = append(kinds, string(km.kind))
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	return s.name() + " does not answer " + strings.Join(kinds, " or ") + " requests (method not found)"
}

// references returns the references at the position pos, declaration
// included, and which of them are the declaration: what the answer with
// the declaration has and the answer without it lacks (as LSP defines
// includeDeclaration) or, from a server that leaves out something else
// (pyright leaves out the import that binds the name asked about, and
// keeps the definition it imports), those that start where its definition
// of the position does.
func (s *lspServer) references(ctx context.Context, pos map[string]any) ([]lspLocation, map[lspLocation]bool, error) {
	refParams := func(decl bool) map[string]any {
		m := map[string]any{"context": map[string]bool{"includeDeclaration": decl}}
		maps.Copy(m, pos)
		return m
	}
	with, err := s.locations(ctx, "textDocument/references", refParams(true))
	if err != nil {
		return nil, nil, err
	}
	decl := map[lspLocation]bool{}
	if s.declByDefinition {
		defs, err := s.locations(ctx, "textDocument/definition", pos)
		if err != nil {
			return nil, nil, err
		}
		type start struct {
			uri        string
			line, char int
		}
		starts := map[start]bool{}
		for _, d := range defs {
			starts[start{d.URI, d.Range.Start.Line, d.Range.Start.Character}] = true
		}
		for _, l := range with {
			if starts[start{l.URI, l.Range.Start.Line, l.Range.Start.Character}] {
				decl[l] = true
			}
		}
		return with, decl, nil
	}
	without, err := s.locations(ctx, "textDocument/references", refParams(false))
	if err != nil {
		return nil, nil, err
	}
	for _, l := range with {
		decl[l] = true
	}
	for _, l := range without {
		delete(decl, l)
	}
	return with, decl, nil
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
func (s *lspServer) record(kind evidence.Kind, l lspLocation, files map[string][]string) (evidence.Record, bool, string) {
	u, err := url.Parse(l.URI)
	if err != nil || u.Scheme != "file" {
		return evidence.Record{}, false, "not a file location: " + l.URI
	}
	rel, err := s.root.Rel(u.Path)
	if err != nil {
		return evidence.Record{}, false, "outside the project root: " + u.Path
	}
	lines, ok := files[rel]
	if !ok {
		data, err := s.root.ReadFile(rel)
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

// startServer returns the started server of lang.
func (p *LSPProvider) startServer(ctx context.Context, lang string) (*lspServer, error) {
	s, err := p.server(lang)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s, s.start(ctx)
}
