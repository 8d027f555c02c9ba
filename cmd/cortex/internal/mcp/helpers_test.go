package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// fixtureFiles is a small Go module: an interface, a type implementing
// it, a caller, a package.json with a dependency, and some prose.
var fixtureFiles = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go": `package cart

// Store keeps items.
type Store interface {
	Add(item string)
}

// Cart holds items.
type Cart struct{ items []string }

// Add puts an item in the cart.
func (c *Cart) Add(item string) { c.items = append(c.items, item) }

// Total counts the items.
func (c *Cart) Total() int { return len(c.items) }
`,
	"main.go": `package main

import "example.com/shop/cart"

func fill(s cart.Store) {
	s.Add("apple")
	s.Add("pear")
}

func main() {
	var c cart.Cart
	fill(&c)
	println(c.Total())
}
`,
	"package.json": `{"name": "shop-ui", "dependencies": {"left-pad": "^1.3.0"}}` + "\n",
	"README.md":    "# Shop\n\nThe cart keeps the customer's items until checkout.\n",
}

// fixture writes the fixture module into a new git repository with two
// commits and returns its directory.
func fixture(t testing.TB) string {
	t.Helper()
	gitPath := testtool.Require(t, "git", "apt-get install git")
	dir := testtool.WriteTree(t, fixtureFiles)
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gitPath, Args: args, Dir: dir,
			Env: append(safeexec.Environ("PATH", "HOME"), "GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
				"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")})
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, res.Stderr)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "cart: a cart of items")
	if err := os.WriteFile(filepath.Join(dir, "cart", "cart.go"), []byte(fixtureFiles["cart/cart.go"]+"\n// Empty reports whether the cart holds nothing.\nfunc (c *Cart) Empty() bool { return len(c.items) == 0 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-am", "cart: Empty (#7)")
	old := time.Now().Add(-time.Hour)
	for name := range fixtureFiles {
		os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), old, old)
	}
	return dir
}

// openProject opens the project at dir with a trust store of the test's
// own; trusted trusts its configuration.
func openProject(t testing.TB, dir string, trusted bool, getenv func(string) string) *config.Project {
	t.Helper()
	opts := config.ProjectOptions{Getenv: getenv, Store: config.TrustStore{Path: filepath.Join(t.TempDir(), "trusted.json")}}
	if trusted {
		opts.Trust = config.TrustAlways
	}
	p, err := config.OpenProject(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newServer returns a server over dir whose local index is up to date.
func newServer(t testing.TB, dir string, opts Options) *Server {
	t.Helper()
	if opts.Project == nil {
		opts.Project = openProject(t, dir, false, opts.Getenv)
	}
	if opts.Log == nil {
		opts.Log = func(s string) { t.Log(s) }
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

// connect returns a client session talking to surface of s over
// in-memory transports.
func connect(t testing.TB, s *Server, surface Surface) *sdk.ClientSession {
	t.Helper()
	srv, err := s.MCP(surface)
	if err != nil {
		t.Fatal(err)
	}
	return connectServer(t, srv)
}

func connectServer(t testing.TB, srv *sdk.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls tool name with args and returns its result; a protocol
// error fails the test.
func call(t testing.TB, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

// text returns a result's text content.
func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// decode checks that res succeeded, that its text is the JSON of its
// structured content, and decodes that into a T.
func decode[T any](t testing.TB, name string, res *sdk.CallToolResult) T {
	t.Helper()
	var out T
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(structured, &a); err != nil {
		t.Fatalf("%s: structured content: %v", name, err)
	}
	if err := json.Unmarshal([]byte(text(res)), &b); err != nil {
		t.Fatalf("%s: text content is not JSON: %v\n%s", name, err, text(res))
	}
	if !jsonEqual(a, b) {
		t.Errorf("%s: text content differs from structured content", name)
	}
	dec := json.NewDecoder(strings.NewReader(string(structured)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, structured)
	}
	return out
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
