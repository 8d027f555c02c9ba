package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckListenAddress(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7777", false, true},
		{"127.0.0.2:7777", false, true},
		{"[::1]:7777", false, true},
		{"localhost:7777", false, true},
		{"0.0.0.0:7777", false, false},
		{":7777", false, false},
		{"192.168.1.5:7777", false, false},
		{"example.com:7777", false, false},
		{"0.0.0.0:7777", true, true},
		{"127.0.0.1", false, false},
	} {
		err := CheckListenAddress(tc.addr, tc.remote)
		if (err == nil) != tc.ok {
			t.Errorf("CheckListenAddress(%q, %v) = %v, want ok %v", tc.addr, tc.remote, err, tc.ok)
		}
		if err != nil && !tc.ok && strings.Contains(tc.addr, ":7777") && !errors.Is(err, ErrNotLoopback) {
			t.Errorf("CheckListenAddress(%q): %v, want ErrNotLoopback", tc.addr, err)
		}
	}
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// httpClient connects an MCP client to endpoint, with token if not empty.
func httpClient(t *testing.T, endpoint, token string) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func listNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestHTTP serves both surfaces over streamable HTTP: the read-only one to
// anyone on the loopback, the mutating one only with the bearer token.
func TestHTTP(t *testing.T) {
	const token = "tok-3b1f0c9e77d54a2a"
	s := newServer(t, fixture(t), Options{Principal: "ada", Secrets: []string{token}})
	if _, err := s.HTTPHandler(HTTPOptions{Mutating: true}); !errors.Is(err, ErrNoToken) {
		t.Errorf("mutating without a token: %v, want ErrNoToken", err)
	}
	h, err := s.HTTPHandler(HTTPOptions{Mutating: true, Token: token, TokenEnv: "MY_MCP_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()

	t.Run("refused without the token", func(t *testing.T) {
		for _, auth := range []string{"", "Bearer wrong", "Basic " + token, "Bearer " + token + "x"} {
			req, _ := http.NewRequest(http.MethodPost, ts.URL+MutatingPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "MY_MCP_TOKEN") || !strings.Contains(string(body), ReadOnlyPath) {
				t.Errorf("Authorization %q: %d %s", auth, resp.StatusCode, body)
			}
		}
		if _, err := httpClient(t, ts.URL+MutatingPath, ""); err == nil {
			t.Errorf("an MCP client without the token connected to the mutating surface")
		}
	})
	t.Run("the mutating surface with the token", func(t *testing.T) {
		cs, err := httpClient(t, ts.URL+MutatingPath, token)
		if err != nil {
			t.Fatal(err)
		}
		if names := listNames(t, cs); !slices.Contains(names, "cortex_remember") || !slices.Contains(names, "cortex_validate") {
			t.Errorf("tools %v", names)
		}
		out := decode[rememberResult](t, "cortex_remember", call(t, cs, "cortex_remember", map[string]any{"type": "gotcha", "text": "over HTTP"}))
		if out.Memory.Author != "ada" {
			t.Errorf("author %q, want the principal", out.Memory.Author)
		}
	})
	t.Run("the read-only surface needs no token and has no mutating tool", func(t *testing.T) {
		cs, err := httpClient(t, ts.URL+ReadOnlyPath, "")
		if err != nil {
			t.Fatal(err)
		}
		names := listNames(t, cs)
		if slices.Contains(names, "cortex_remember") || !slices.Contains(names, "cortex_ask") {
			t.Errorf("tools %v", names)
		}
		decode[doctorResult](t, "cortex_doctor", call(t, cs, "cortex_doctor", map[string]any{}))
	})
	t.Run("no mutating surface unless asked", func(t *testing.T) {
		h, err := s.HTTPHandler(HTTPOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		defer ts.Close()
		resp, err := http.Post(ts.URL+MutatingPath, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "--mutating") {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
}

// An httpReply is what a raw request to the HTTP server got back.
type httpReply struct {
	status  int
	header  http.Header
	body    string
	message wireReply // the JSON-RPC message of the body, if any
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawDo sends method with body to url, with the headers of hdr (name:
// value), and reads the reply, the JSON-RPC message of an event stream
// included.
func rawDo(t *testing.T, method, url, body string, hdr ...string) httpReply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := httpReply{status: resp.StatusCode, header: resp.Header, body: string(b)}
	data := string(b)
	for line := range strings.Lines(data) {
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = d
			break
		}
	}
	json.Unmarshal([]byte(data), &r.message)
	r.message.raw = data
	return r
}

// openSession initializes a session at url and returns its id, or "" and
// the reply when refused.
func openSession(t *testing.T, url string, hdr ...string) (string, httpReply) {
	t.Helper()
	r := rawDo(t, http.MethodPost, url, initializeBody, hdr...)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK || id == "" || r.message.Error != nil {
		return "", r
	}
	rawDo(t, http.MethodPost, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, append(hdr, "Mcp-Session-Id", id)...)
	return id, r
}

// listTools lists the tools in session id at url: the HTTP status.
func listTools(t *testing.T, url, id string, hdr ...string) int {
	t.Helper()
	r := rawDo(t, http.MethodPost, url, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, append(hdr, "Mcp-Session-Id", id)...)
	if r.status == http.StatusOK && (r.message.Error != nil || !strings.Contains(string(r.message.Result), "cortex_")) {
		t.Errorf("tools/list: %.300s", r.body)
	}
	return r.status
}

// TestHTTPSessionCap opens sessions up to the cap: the next is refused
// with 503 and a JSON-RPC error that says why and what to do, the open
// ones keep answering, each surface has a cap of its own, and a closed
// session makes room. Concurrent openings never pass the cap. Before the
// cap, every initialize kept a session for half an hour.
func TestHTTPSessionCap(t *testing.T) {
	const token = "tok-9e1d5c3b2a"
	s := newServer(t, fixture(t), Options{Principal: "ada"})
	h, err := s.HTTPHandler(HTTPOptions{MaxSessions: 3, Mutating: true, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	ro, mut := ts.URL+ReadOnlyPath, ts.URL+MutatingPath
	var ids []string
	for range 3 {
		id, r := openSession(t, ro)
		if id == "" {
			t.Fatalf("opening a session under the cap: %d %.300s", r.status, r.body)
		}
		ids = append(ids, id)
	}
	id, r := openSession(t, ro)
	if id != "" || r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" ||
		r.message.Error == nil || !strings.Contains(r.message.Error.Message, "--max-sessions 3") || !strings.Contains(r.message.Error.Message, "DELETE") {
		t.Errorf("past the cap: %d %v %.400s; want 503 with a JSON-RPC error naming --max-sessions", r.status, r.header, r.body)
	}
	for _, id := range ids {
		if st := listTools(t, ro, id); st != http.StatusOK {
			t.Errorf("an open session at the cap: %d", st)
		}
	}
	if id, r := openSession(t, mut, "Authorization", "Bearer "+token); id == "" {
		t.Errorf("the mutating surface has a cap of its own: %d %.300s", r.status, r.body)
	}
	if r := rawDo(t, http.MethodDelete, ro, "", "Mcp-Session-Id", ids[0]); r.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	if id, r := openSession(t, ro); id == "" {
		t.Errorf("after a session closed: %d %.300s", r.status, r.body)
	}

	t.Run("concurrent", func(t *testing.T) {
		h, err := s.HTTPHandler(HTTPOptions{MaxSessions: 5})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		defer ts.Close()
		var mu sync.Mutex
		opened, refused := 0, 0
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				id, r := openSession(t, ts.URL+ReadOnlyPath)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case id != "":
					opened++
				case r.status == http.StatusServiceUnavailable:
					refused++
				default:
					t.Errorf("%d %.300s", r.status, r.body)
				}
			})
		}
		wg.Wait()
		if opened > 5 || opened == 0 || opened+refused != 40 {
			t.Errorf("40 concurrent openings under a cap of 5: %d opened, %d refused", opened, refused)
		}
	})
}

// TestHTTPSessionIdle closes a session idle for SessionIdle: its id gets
// 404 (a client then opens a new session) and its place under the cap is
// free again.
func TestHTTPSessionIdle(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	h, err := s.HTTPHandler(HTTPOptions{MaxSessions: 1, SessionIdle: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	url := ts.URL + ReadOnlyPath
	id, r := openSession(t, url)
	if id == "" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	deadline := time.Now().Add(30 * time.Second)
	for listTools(t, url, id) != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatalf("the idle session was not closed within 30 s")
		}
		time.Sleep(300 * time.Millisecond)
	}
	if id, r := openSession(t, url); id == "" {
		t.Errorf("after the idle session was closed: %d %.300s", r.status, r.body)
	}
}

// TestHTTPOriginAndHost refuses, with 403 and a message saying why, a
// request a web page could send: an Origin other than the server's own
// (on every path and method, before the bearer token is looked at), and
// on a loopback address a Host that is not a loopback name (DNS
// rebinding). Requests without Origin, from the server's own origin or
// from an allowed one are served. Before the guard, a foreign Origin was
// served.
func TestHTTPOriginAndHost(t *testing.T) {
	const token = "tok-41c0e7aa"
	s := newServer(t, fixture(t), Options{Principal: "ada"})
	if _, err := s.HTTPHandler(HTTPOptions{AllowOrigins: []string{"localhost:6274"}}); err == nil {
		t.Errorf("an origin without a scheme was accepted")
	}
	h, err := s.HTTPHandler(HTTPOptions{Mutating: true, Token: token, AllowOrigins: []string{"http://LOCALHOST:6274"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	ro, mut := ts.URL+ReadOnlyPath, ts.URL+MutatingPath
	auth := []string{"Authorization", "Bearer " + token}
	for _, tc := range []struct {
		name   string
		method string
		url    string
		hdr    []string
		want   int
		says   string
	}{
		{"no Origin", http.MethodPost, ro, nil, http.StatusOK, ""},
		{"its own Origin", http.MethodPost, ro, []string{"Origin", ts.URL}, http.StatusOK, ""},
		{"its own Origin, localhost", http.MethodPost, ro, []string{"Origin", "http://localhost:" + port, "Host", "localhost:" + port}, http.StatusOK, ""},
		{"an allowed Origin", http.MethodPost, ro, []string{"Origin", "http://localhost:6274"}, http.StatusOK, ""},
		{"a foreign Origin", http.MethodPost, ro, []string{"Origin", "http://evil.example"}, http.StatusForbidden, "--allow-origin"},
		{"a foreign Origin on the same host", http.MethodPost, ro, []string{"Origin", "http://127.0.0.1:1"}, http.StatusForbidden, "Origin"},
		{"its own host over https", http.MethodPost, ro, []string{"Origin", "https://127.0.0.1:" + port}, http.StatusForbidden, "Origin"},
		{"Origin null", http.MethodPost, ro, []string{"Origin", "null"}, http.StatusForbidden, "Origin"},
		{"a foreign Origin, GET", http.MethodGet, ro, []string{"Origin", "http://evil.example"}, http.StatusForbidden, "Origin"},
		{"a foreign Origin, mutating with the token", http.MethodPost, mut, append([]string{"Origin", "http://evil.example"}, auth...), http.StatusForbidden, "Origin"},
		{"a foreign Origin, mutating without the token", http.MethodPost, mut, []string{"Origin", "http://evil.example"}, http.StatusForbidden, "Origin"},
		{"mutating with the token", http.MethodPost, mut, auth, http.StatusOK, ""},
		{"a rebound Host", http.MethodPost, ro, []string{"Host", "evil.example:" + port, "Origin", "http://evil.example:" + port}, http.StatusForbidden, "DNS rebinding"},
		{"a rebound Host without Origin", http.MethodPost, ro, []string{"Host", "evil.example:" + port}, http.StatusForbidden, "Host"},
		{"a rebound Host, mutating without the token", http.MethodPost, mut, []string{"Host", "evil.example:" + port}, http.StatusForbidden, "Host"},
		{"a name that resolves to the loopback", http.MethodPost, ro, []string{"Host", "127.0.0.1.nip.io:" + port}, http.StatusForbidden, "Host"},
		{"localhost", http.MethodPost, ro, []string{"Host", "localhost:" + port}, http.StatusOK, ""},
		{"[::1]", http.MethodPost, ro, []string{"Host", "[::1]:" + port}, http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := initializeBody
			if tc.method == http.MethodGet {
				body = ""
			}
			r := rawDo(t, tc.method, tc.url, body, tc.hdr...)
			if r.status != tc.want || !strings.Contains(r.body, tc.says) {
				t.Errorf("%d %.300s; want %d saying %q", r.status, r.body, tc.want, tc.says)
			}
		})
	}
}

// TestHTTPMalformedBodies sends POST bodies that are not one JSON-RPC
// message within the limits: each gets a JSON-RPC error (400, or 413 for
// a body over MaxMessage) that quotes at most a short prefix, and an open
// session keeps answering.
func TestHTTPMalformedBodies(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	url := ts.URL + ReadOnlyPath
	id, r := openSession(t, url)
	if id == "" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	big := strings.Repeat("A", 1<<20)
	for _, tc := range []struct {
		name   string
		body   string
		status int
		code   int
	}{
		{"not JSON", "garbage", http.StatusBadRequest, -32700},
		{"100k nested brackets", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), http.StatusBadRequest, -32700},
		{"deep arguments", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"cortex_ask","arguments":{"question":` +
			strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}}}`, http.StatusBadRequest, -32700},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, http.StatusBadRequest, -32600},
		{"a batch", `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, http.StatusBadRequest, -32600},
		{"a megabyte method", `{"jsonrpc":"2.0","id":5,"method":"` + big + `"}`, http.StatusBadRequest, -32600},
		{"over the cap", `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"` + strings.Repeat(big, 5) + `"}}`, http.StatusRequestEntityTooLarge, -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rawDo(t, http.MethodPost, url, tc.body, "Mcp-Session-Id", id)
			if r.status != tc.status || r.message.Error == nil || r.message.Error.Code != tc.code {
				t.Errorf("%d %.300s; want %d with error %d", r.status, r.body, tc.status, tc.code)
			}
			if len(r.body) > 1024 {
				t.Errorf("the error is %d bytes", len(r.body))
			}
			if st := listTools(t, url, id); st != http.StatusOK {
				t.Errorf("the session after: %d", st)
			}
		})
	}
}
