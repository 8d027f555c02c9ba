package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

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
