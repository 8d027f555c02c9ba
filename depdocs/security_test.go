package depdocs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recordingTransport fails every request and counts it: a client over it
// must not be used.
type recordingTransport struct {
	mu   sync.Mutex
	sent []string
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.sent = append(rt.sent, r.URL.String())
	return nil, errors.New("recordingTransport: no request may be sent")
}

// TestEndpointPolicy: the key is sent only over HTTPS, or over HTTP to a
// loopback address; any other address is refused before a request exists,
// with a reason that names the address and not the key.
func TestEndpointPolicy(t *testing.T) {
	for _, c := range []struct {
		base string
		ok   bool
	}{
		{"https://context7.com/api", true},
		{"HTTPS://context7.com/api", true},
		{"http://127.0.0.1:18777", true},
		{"http://127.3.4.5", true},
		{"http://[::1]:8080/api", true},
		{"http://localhost:8080", true},
		{"http://192.0.2.2:18777", false},
		{"http://context7.com/api", false},
		{"http://127.0.0.1.example.com", false},
		{"ftp://127.0.0.1", false},
		{"context7.com/api", false},
		{"https://user:pw@context7.com", false},
		{"https://context7.com/api?x=1", false},
		{"", true}, // DefaultContext7URL
	} {
		t.Run(c.base, func(t *testing.T) {
			rt := &recordingTransport{}
			cl := NewContext7(Context7Options{BaseURL: c.base, APIKey: testKey, HTTPClient: &http.Client{Transport: rt}, Attempts: 1})
			r, err := cl.Docs(context.Background(), nextReq)
			refused := errors.Is(err, ErrInsecureEndpoint)
			if refused == c.ok {
				t.Fatalf("refused = %v (%s %q %v)", refused, r.State, r.Reason, err)
			}
			if len(rt.sent) != map[bool]int{true: 1, false: 0}[c.ok] {
				t.Errorf("%d requests sent: %v", len(rt.sent), rt.sent)
			}
			if !c.ok && (r.State != DocsUnavailable || !strings.Contains(r.Reason, "https://")) {
				t.Errorf("refusal: %s %q", r.State, r.Reason)
			}
			if strings.Contains(r.Reason+fmt.Sprint(err), "SECRET-0123") {
				t.Errorf("key in %q / %v", r.Reason, err)
			}
			a := CheckDocs(DocsOptions{Enabled: true, BaseURL: c.base, APIKey: testKey})
			if a.Available() != c.ok || !c.ok && a.State != DocsUnavailable || strings.Contains(a.Reason, "SECRET-0123") {
				t.Errorf("CheckDocs: %+v", a)
			}
		})
	}
}

// nonLoopbackIP is an address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// TestKeyNotSentOverPlainHTTP reproduces the report: a configuration that
// points the provider at http:// on a non-loopback address gets no request
// at all, so no Authorization header, from NewDocs.
func TestKeyNotSentOverPlainHTTP(t *testing.T) {
	ip := nonLoopbackIP(t)
	if ip == "" {
		t.Skip("this machine has no non-loopback IPv4 address to listen on")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skip("cannot listen on", ip, err)
	}
	var mu sync.Mutex
	var got []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprint(w, `{"results":[]}`)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	// The listener answers on plain HTTP at a routable address.
	if resp, err := http.Get(srv.URL); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	docs := NewDocs(DocsOptions{Enabled: true, Dir: t.TempDir(), BaseURL: srv.URL, APIKey: testKey, KeyEnv: "MY_OTHER_SECRET"})
	r, err := docs.Docs(context.Background(), nextReq)
	if !errors.Is(err, ErrInsecureEndpoint) || r.State != DocsUnavailable {
		t.Errorf("%s %q %v", r.State, r.Reason, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{""}, got); diff != "" {
		t.Errorf("requests' Authorization (-want +got)\n%s", diff)
	}
}

// TestKeyNotSentAfterRedirect: an HTTP redirect is never followed, even
// with a host's client that follows redirects (net/http forwards the
// Authorization header to another port of the same host and to
// subdomains), so the key never reaches the redirect's target.
func TestKeyNotSentAfterRedirect(t *testing.T) {
	var mu sync.Mutex
	var atTarget []string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		atTarget = append(atTarget, r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprint(w, `{"results":[{"id":"/a/b","state":"finalized","versions":["15.1.8"]}]}`)
	}))
	defer target.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.RequestURI(), http.StatusFound)
	}))
	defer origin.Close()
	for name, client := range map[string]*http.Client{"default": nil, "host's client that follows redirects": {}} {
		t.Run(name, func(t *testing.T) {
			cl := NewContext7(Context7Options{BaseURL: origin.URL, APIKey: testKey, HTTPClient: client, Attempts: 1})
			r, _ := cl.Docs(context.Background(), nextReq)
			if r.State != DocsUnavailable {
				t.Errorf("state %s", r.State)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(atTarget) != 0 {
				t.Errorf("the redirect's target got %d requests (Authorization %q)", len(atTarget), atTarget)
			}
		})
	}
	if client := (&http.Client{}); client.CheckRedirect != nil {
		t.Error("the host's client was modified")
	}
}

// TestDocsDeadline: against an endpoint that never answers, a whole call
// ends at one deadline: the first try spends it and no retry starts (three
// tries of a per-request timeout took 45 s before). Through NewDocs, the
// configured Timeout is that deadline.
func TestDocsDeadline(t *testing.T) {
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	for name, docs := range map[string]DocsProvider{
		"client":  NewContext7(Context7Options{BaseURL: srv.URL, APIKey: testKey, Timeout: 200 * time.Millisecond}),
		"NewDocs": NewDocs(DocsOptions{Enabled: true, Dir: t.TempDir(), BaseURL: srv.URL, APIKey: testKey, Timeout: 200 * time.Millisecond}),
	} {
		t.Run(name, func(t *testing.T) {
			mu.Lock()
			requests = 0
			mu.Unlock()
			r, _ := docs.Docs(context.Background(), nextReq)
			if r.State != DocsUnavailable || !strings.Contains(r.Reason, "did not answer within 200ms") {
				t.Errorf("%s %q", r.State, r.Reason)
			}
			mu.Lock()
			defer mu.Unlock()
			if requests != 1 {
				t.Errorf("%d requests, want 1: the deadline covers the whole call", requests)
			}
		})
	}
	if got := NewContext7(Context7Options{}).opts.Timeout; got != DefaultDocsTimeout || DefaultDocsTimeout > 15*time.Second {
		t.Errorf("default deadline %s", got)
	}
}

// Secrets of every kind the cache must never write.
const (
	plainKey  = "plainkeywithoutanyshape0123456789" // the configured key, not shaped like one
	shapedKey = "ctx7sk-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
	password  = "hunter2hunter2"
	awsKey    = "AKIAIOSFODNN7EXAMPLE"
)

var secrets = []string{plainKey, shapedKey, password, awsKey}

// diskText returns every file under dir, by slash path.
func diskText(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func leaks(s string) []string {
	var out []string
	for _, x := range secrets {
		if strings.Contains(s, x) || strings.Contains(s, strings.ReplaceAll(x, "-", "")) {
			out = append(out, x)
		}
	}
	return out
}

// TestCacheStoresNoSecret: a question carrying a key-shaped string, a
// password and an AWS key id, and a provider that echoes the configured key
// and the question back, leave no secret in any file under .codecortex, in
// the answer returned, or in what the provider is asked; the entry's file
// name is derived from the redacted request; .codecortex/cache/.gitignore
// ignores everything.
func TestCacheStoresNoSecret(t *testing.T) {
	question := fmt.Sprintf("why does %s fail with password=%s and %s", shapedKey, password, awsKey)
	var asked []string
	echo := DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
		asked = append(asked, req.Question)
		return Resolution{Library: req.Name, Version: req.Version, State: DocsFallback, LibraryID: "/o/r",
			Reason:  "no label; you sent " + plainKey,
			Content: fmt.Sprintf("key %s, JSON %q, question %s, stored %s password=%s %s", plainKey, `"`+plainKey+`"`, req.Question, shapedKey, password, awsKey),
		}, errors.New("echo: " + plainKey)
	})
	dir := t.TempDir()
	c := NewCache(dir, echo, CacheOptions{Secrets: []string{plainKey}})
	req := DocsRequest{Ecosystem: NPM, Name: "next", Version: "15.1.8", Question: question, Source: Registry}
	for i := range 2 { // the second answer comes from the cache
		r, err := c.Docs(context.Background(), req)
		if l := leaks(fmt.Sprintf("%+v %v", r, err)); len(l) > 0 {
			t.Errorf("answer %d holds %v", i, l)
		}
		if r.Content == "" || r.Cached != (i == 1) {
			t.Fatalf("answer %d: %+v", i, r)
		}
	}
	if l := leaks(strings.Join(asked, "\n")); len(l) > 0 || len(asked) != 1 {
		t.Errorf("the provider was asked %q", asked)
	}
	files := diskText(t, dir)
	if len(files) != 2 {
		t.Errorf("files: %v", files)
	}
	for name, text := range files {
		if l := leaks(name + text); len(l) > 0 {
			t.Errorf("%s holds %v:\n%s", name, l, text)
		}
	}
	if files[".codecortex/cache/.gitignore"] != "*\n" {
		t.Errorf(".gitignore: %q", files[".codecortex/cache/.gitignore"])
	}
	redacted := c.redactRequest(req)
	if _, ok := files[cacheKey(redacted)]; !ok || cacheKey(redacted) == cacheKey(req) {
		t.Errorf("entry not named by the redacted request: %v", files)
	}
	// Another secret in the same place asks the same question: one entry.
	other := req
	other.Question = strings.Replace(question, password, "correcthorsebattery", 1)
	if r, _ := c.Docs(context.Background(), other); !r.Cached {
		t.Errorf("a question that differs only in a secret was asked again")
	}
	if err := PurgeCache(dir); err != nil {
		t.Fatal(err)
	}
	if files := diskText(t, dir); len(files) != 1 {
		t.Errorf("after purge: %v", files)
	}
}

// TestNewDocsStoresNoKey: end to end, a provider that echoes the
// configured key (read by the host from its variable, not shaped like a
// key) gets nothing of it written under .codecortex.
func TestNewDocsStoresNoKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		switch r.URL.Path {
		case "/v2/libs/search":
			fmt.Fprint(w, `{"results":[{"id":"/vercel/next.js","title":"Next.js","state":"finalized","versions":["v1.0.0"]}]}`)
		default:
			fmt.Fprintf(w, `{"infoSnippets":[{"breadcrumb":"b %s","content":"you are %s; asked %s"}]}`, key, key, r.URL.Query().Get("query"))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	docs := NewDocs(DocsOptions{Enabled: true, Dir: dir, BaseURL: srv.URL, APIKey: plainKey, KeyEnv: "X"})
	r, err := docs.Docs(context.Background(), DocsRequest{Ecosystem: NPM, Name: "next", Version: "15.1.8",
		Question: "password=" + password + " " + awsKey, Source: Registry})
	if err != nil || r.State != DocsFallback {
		t.Fatalf("%+v %v", r, err)
	}
	if l := leaks(r.Content); len(l) > 0 {
		t.Errorf("answer holds %v: %q", l, r.Content)
	}
	files := diskText(t, dir)
	if len(files) != 2 {
		t.Errorf("files %v", files)
	}
	for name, text := range files {
		if l := leaks(text); len(l) > 0 {
			t.Errorf("%s holds %v", name, l)
		}
	}
}

// TestDocsOptions: the zero value is disabled; each refusal says why;
// NewDocs answers in the state CheckDocs gives; the TTL maps as the
// configuration's cache_ttl_seconds does (0 → a day, negative → never fresh).
func TestDocsOptions(t *testing.T) {
	for _, c := range []struct {
		name  string
		opts  DocsOptions
		state DocsState
		why   string
	}{
		{"zero", DocsOptions{}, DocsDisabled, "enabled is false"},
		{"no key", DocsOptions{Enabled: true, KeyEnv: "CODECORTEX_DEPENDENCY_DOCS_API_KEY"}, DocsNoCredentials, "CODECORTEX_DEPENDENCY_DOCS_API_KEY is not set"},
		{"plain http", DocsOptions{Enabled: true, APIKey: testKey, BaseURL: "http://docs.example.com"}, DocsUnavailable, "clear text to http://docs.example.com"},
		{"ready", DocsOptions{Enabled: true, APIKey: testKey}, DocsAvailable, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := CheckDocs(c.opts)
			if a.State != c.state || !strings.Contains(a.Reason, c.why) {
				t.Errorf("CheckDocs: %+v", a)
			}
			if c.state == DocsAvailable {
				return
			}
			r, _ := NewDocs(c.opts).Docs(context.Background(), nextReq)
			if r.State != c.state || r.Reason != a.Reason {
				t.Errorf("NewDocs: %s %q", r.State, r.Reason)
			}
		})
	}
	dir := t.TempDir()
	var asked int
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	inner := DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
		asked++
		return Resolution{Library: req.Name, State: DocsFallback, Content: "docs", Reason: "r"}, nil
	})
	never := NewCache(dir, inner, CacheOptions{TTL: -1, Now: func() time.Time { return now }})
	never.Docs(context.Background(), nextReq)
	if r, _ := never.Docs(context.Background(), nextReq); r.Cached || asked != 2 {
		t.Errorf("a negative TTL served a fresh entry: %+v after %d asks", r, asked)
	}
}
