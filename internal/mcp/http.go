package mcp

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

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

// HTTPOptions configure [Server.HTTPHandler].
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
}

// SessionTimeout closes an HTTP session idle this long, so sessions a
// client abandons do not pile up.
const SessionTimeout = 30 * time.Minute

func streamOptions() *sdk.StreamableHTTPOptions {
	return &sdk.StreamableHTTPOptions{SessionTimeout: SessionTimeout}
}

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
// message that says so. The SDK's protection against DNS rebinding stays
// on.
func (s *Server) HTTPHandler(opts HTTPOptions) (http.Handler, error) {
	ro, err := s.MCP(ReadOnly)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(ReadOnlyPath, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return ro }, streamOptions()))
	if !opts.Mutating {
		mux.HandleFunc(MutatingPath, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "cortex mcp: the mutating surface is not served; the operator starts it with --mutating --principal NAME", http.StatusNotFound)
		})
		return mux, nil
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
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mut }, streamOptions())
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
	return mux, nil
}
