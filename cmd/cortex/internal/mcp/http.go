package mcp

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The HTTP paths of the two surfaces.
const (
	ReadOnlyPath = "/mcp"
	MutatingPath = "/mcp/mutating"
)

// DefaultTokenEnv is the environment variable the bearer token guarding
// the mutating surface is read from, unless the operator names another.
const DefaultTokenEnv = "CODECORTEX_MCP_TOKEN"

// HTTPOptions configure [Server.HTTPHandler]. The zero value serves the
// read-only surface with the default limits.
type HTTPOptions struct {
	// Mutating serves the mutating surface at MutatingPath besides the
	// read-only one at ReadOnlyPath.
	Mutating bool
	// Token is the bearer token a request to MutatingPath must carry
	// (Authorization: Bearer TOKEN); required with Mutating.
	Token string
	// TokenEnv names the variable Token came from, for the refusal's
	// message.
	TokenEnv string
	// MaxSessions caps the live sessions of each surface; 0 means
	// DefaultMaxSessions. Past it, a request that would open one more is
	// refused with 503 and a JSON-RPC error that says what to do; no
	// session is closed to make room.
	MaxSessions int
	// SessionIdle closes a session that has had no request for this long;
	// 0 means DefaultSessionIdle.
	SessionIdle time.Duration
	// AllowOrigins are browser origins (SCHEME://HOST[:PORT]) whose pages
	// may call the server besides its own; a request with any other Origin
	// header is refused with 403.
	AllowOrigins []string
}

// Defaults of HTTPOptions.
const (
	// DefaultMaxSessions is the most live sessions a surface keeps.
	DefaultMaxSessions = 64
	// DefaultSessionIdle closes an HTTP session idle this long, so that
	// sessions a client abandons do not pile up. A client whose session
	// was closed gets 404 and opens a new one, as the MCP specification
	// asks.
	DefaultSessionIdle = 10 * time.Minute
)

// ErrNoToken is returned when the mutating surface would be served over
// HTTP without a bearer token.
var ErrNoToken = errors.New("mcp: the mutating surface over HTTP needs a bearer token")

// ErrNotLoopback is returned for a listening address that is not a
// loopback one when remote access was not allowed explicitly.
var ErrNotLoopback = errors.New("mcp: not a loopback address")

// CheckListenAddress checks that addr (host:port) listens on a loopback
// address only, unless allowRemote: a server reachable from other
// machines is the operator's explicit decision.
func CheckListenAddress(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: want HOST:PORT, such as 127.0.0.1:7777: %w", addr, err)
	}
	if allowRemote {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%w: --http %s would accept connections from other machines; listen on 127.0.0.1 or [::1], or pass --allow-remote to mean it", ErrNotLoopback, addr)
	}
	return nil
}

// HTTPHandler returns the streamable HTTP handler of the server: the
// read-only surface at ReadOnlyPath and, with opts.Mutating, the mutating
// surface at MutatingPath, where every request must carry the bearer
// token; one without it, or with another, is refused with 401 and a
// message that says so.
//
// Every request is checked before it is served:
//
//   - on a loopback address, its Host header must name a loopback address
//     or localhost, and an Origin header, if there is one, must be the
//     server's own or one of opts.AllowOrigins; otherwise 403 (a web page
//     must not reach the server through a DNS name it controls, nor send
//     it requests from another site);
//   - a POST's body is one JSON-RPC message of at most MaxMessage bytes
//     nested at most MaxDepth deep (413 or 400 with a JSON-RPC error
//     otherwise, as on standard input);
//   - a POST that would open a session past opts.MaxSessions is refused
//     with 503; sessions idle for opts.SessionIdle are closed.
func (s *Server) HTTPHandler(opts HTTPOptions) (http.Handler, error) {
	origins := map[string]bool{}
	for _, o := range opts.AllowOrigins {
		if err := CheckOrigin(o); err != nil {
			return nil, err
		}
		origins[normOrigin(o)] = true
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.SessionIdle <= 0 {
		opts.SessionIdle = DefaultSessionIdle
	}
	ro, err := s.MCP(ReadOnly)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	top := &guard{next: mux, origins: origins}
	mux.Handle(ReadOnlyPath, s.surfaceHandler(ro, opts))
	if !opts.Mutating {
		mux.HandleFunc(MutatingPath, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "cortex mcp: the mutating surface is not served; the operator starts it with --mutating --principal NAME", http.StatusNotFound)
		})
		return top, nil
	}
	if opts.Token == "" {
		return nil, ErrNoToken
	}
	mut, err := s.MCP(Mutating)
	if err != nil {
		return nil, err
	}
	env := opts.TokenEnv
	if env == "" {
		env = DefaultTokenEnv
	}
	inner := s.surfaceHandler(mut, opts)
	want := []byte(opts.Token)
	mux.HandleFunc(MutatingPath, func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cortex mcp mutating surface"`)
			http.Error(w, "cortex mcp: the mutating surface needs the bearer token: send Authorization: Bearer <the value of "+env+
				" where cortex mcp runs>; without it, use the read-only surface at "+ReadOnlyPath, http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	})
	return top, nil
}

// surfaceHandler serves srv, one surface, over streamable HTTP: sessions
// capped and closed when idle, bodies checked. The SDK's own protection
// against DNS rebinding stays on besides the guard's.
func (s *Server) surfaceHandler(srv *sdk.Server, opts HTTPOptions) http.Handler {
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{SessionTimeout: opts.SessionIdle, MaxRequestBodyBytes: MaxMessage})
	return &sessionGate{next: checkBody(inner), srv: srv, max: opts.MaxSessions, idle: opts.SessionIdle, log: s.logf}
}

// sessionHeader is the header that names a streamable HTTP session.
const sessionHeader = "Mcp-Session-Id"

// A sessionGate admits a request that would open a session (a POST
// without a session id) only while the surface has fewer than max
// sessions, counting those being opened.
type sessionGate struct {
	next http.Handler
	srv  *sdk.Server
	max  int
	idle time.Duration
	log  func(string, ...any)

	mu      sync.Mutex
	opening int  // requests that may open a session, being served
	full    bool // the operator has been told the cap was reached
}

func (g *sessionGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
		g.next.ServeHTTP(w, r)
		return
	}
	g.mu.Lock()
	live := g.live()
	if live+g.opening >= g.max {
		tell := !g.full
		g.full = true
		g.mu.Unlock()
		if tell {
			g.log("cortex mcp: %d HTTP sessions are open, the most --max-sessions allows; refusing new ones until one closes", g.max)
		}
		g.refuse(w)
		return
	}
	g.full = false
	g.opening++
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.opening--
		g.mu.Unlock()
	}()
	g.next.ServeHTTP(w, r)
}

// live counts the surface's initialized sessions; one being initialized
// is counted by opening.
func (g *sessionGate) live() int {
	n := 0
	for ss := range g.srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}

// refuse answers a request past the cap: 503, and a JSON-RPC error that
// says why and what to do.
func (g *sessionGate) refuse(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	writeError(w, http.StatusServiceUnavailable, &frameError{Code: codeTooManySessions, Msg: fmt.Sprintf(
		"cortex mcp: this surface already keeps %d sessions, the most it is allowed (--max-sessions %d); "+
			"close a session you no longer use (an HTTP DELETE with its %s header), wait for an idle one to be closed "+
			"(after %s without a request), or restart cortex mcp with a higher --max-sessions", g.max, g.max, sessionHeader, g.idle)})
}

// codeTooManySessions is the JSON-RPC error code of a session refused
// past the cap, in the range JSON-RPC leaves to servers.
const codeTooManySessions = -32000

// writeError writes e as the JSON-RPC response to a refused request.
func writeError(w http.ResponseWriter, status int, e *frameError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(e.reply(), '\n'))
}

// checkBody refuses a POST whose body is not one JSON-RPC message within
// the limits of one (MaxMessage bytes, MaxDepth deep), with the error the
// same message gets on standard input, before the SDK decodes it.
func checkBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeError(w, http.StatusRequestEntityTooLarge, tooLong(mbe.Limit+1, defaultLimits))
				return
			}
			http.Error(w, "cortex mcp: reading the request: "+shorten(err.Error()), http.StatusBadRequest)
			return
		}
		msg, ferr := parseFrame(body, defaultLimits)
		if ferr == nil && msg == nil {
			ferr = &frameError{Code: jsonrpc.CodeInvalidRequest, Msg: "invalid request: the body is empty; send one JSON-RPC message"}
		}
		if ferr != nil {
			writeError(w, http.StatusBadRequest, ferr)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// A guard refuses, with 403, what a web page could send the server from
// elsewhere: on a loopback address, a Host header that is not a loopback
// name (a DNS name an attacker controls, pointed at 127.0.0.1), and on
// any address an Origin header that is not the server's own nor allowed.
// A request without Origin, as every client that is not a browser sends,
// passes.
type guard struct {
	next    http.Handler
	origins map[string]bool // normalized by normOrigin
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if onLoopback(r) && !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("cortex mcp: refused: the Host header %s is not a loopback address or localhost. "+
			"This server listens on a loopback address and answers requests addressed to 127.0.0.1, [::1] or localhost only, "+
			"so that a web page cannot reach it through a DNS name that points there (DNS rebinding)", prefix([]byte(r.Host))), http.StatusForbidden)
		return
	}
	for _, o := range r.Header.Values("Origin") {
		if n, own := normOrigin(o), selfOrigin(r); n == "" || (n != own && !g.origins[n]) {
			http.Error(w, fmt.Sprintf("cortex mcp: refused: a request from the web page origin %s, which is not this server's own (%s). "+
				"Requests from other origins are refused so that a web page cannot drive the server; clients that are not browsers send no Origin header. "+
				"To serve a page from that origin, start cortex mcp with --allow-origin ORIGIN", prefix([]byte(o)), own), http.StatusForbidden)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// onLoopback reports whether r arrived on a loopback address.
func onLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || addr == nil {
		return false
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackHost reports whether host, a Host header, names a loopback
// address or localhost.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// selfOrigin returns the origin r was addressed to, normalized.
func selfOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return normOrigin(scheme + "://" + r.Host)
}

// normOrigin returns origin as SCHEME://HOST:PORT, lower case, with the
// scheme's default port made explicit, or "" if it is not an http or
// https origin (null, a path, user information).
func normOrigin(origin string) string {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// CheckOrigin checks that origin is a browser origin, such as
// http://localhost:6274, for HTTPOptions.AllowOrigins.
func CheckOrigin(origin string) error {
	if normOrigin(origin) == "" {
		return fmt.Errorf("--allow-origin %s: want SCHEME://HOST[:PORT], such as http://localhost:6274", prefix([]byte(origin)))
	}
	return nil
}
