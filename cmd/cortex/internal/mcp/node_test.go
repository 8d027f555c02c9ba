package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/cmd/cortex/internal/cli"
	"github.com/codecortex/codecortex/cmd/cortex/internal/mcp"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// asCortex makes the test binary run as cortex when set: the Node client
// starts `cortex mcp` as this binary, so what it drives is the command
// line itself, flags, project opening and trust included.
const asCortex = "CODECORTEX_TEST_RUN_AS_CORTEX"

func TestMain(m *testing.M) {
	if os.Getenv(asCortex) == "1" {
		os.Exit(cli.Main())
	}
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// sdkVersion is the TypeScript SDK .ci/install-mcp.sh installs.
const sdkVersion = "1.32.2"

// sdkModules returns the node_modules directory holding the TypeScript
// SDK: skipped outside CI when it is not installed, a failure in CI.
func sdkModules(t *testing.T) string {
	t.Helper()
	prefix := os.Getenv("MCP_SDK_PREFIX")
	if prefix == "" {
		prefix = "/usr/local/lib/mcp-sdk-" + sdkVersion
	}
	modules := filepath.Join(prefix, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if testtool.InCI() {
			t.Fatalf("@modelcontextprotocol/sdk %s is required in CI but not installed in %s; .ci/run must run .ci/install-mcp.sh", sdkVersion, prefix)
		}
		t.Skipf("@modelcontextprotocol/sdk %s not installed in %s; run bash .ci/install-mcp.sh", sdkVersion, prefix)
	}
	return modules
}

// TestNodeClient drives `cortex mcp` over stdio with the official
// TypeScript SDK's client: it lists the tools, checks every input schema
// is strict at every level, calls every read-only tool on the fixture and
// parses each result, sends an unknown field, a wrong type and a value out
// of bounds, and checks that the mutating tools are absent without
// --mutating and present with it. The read-only run lists the output
// schemas (--output-schemas), so the SDK checks every result against its
// tool's; the mutating run lists none, within 16 KiB. A canary key in the
// server's environment appears in no result.
func TestNodeClient(t *testing.T) {
	node := testtool.Require(t, "node", "install Node 20 (apt-get install nodejs)")
	modules := sdkModules(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "client.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := mcp.Fixture(t)
	const canary = "ctx7sk-canary-5e0d8a1f9b2c4e6a"
	serverEnv := map[string]string{asCortex: "1", "PATH": os.Getenv("PATH"), "HOME": t.TempDir(),
		"CODECORTEX_DEPENDENCY_DOCS_API_KEY": canary}
	for _, tc := range []struct {
		mode          string
		args          []string
		outputSchemas bool
	}{
		{"read-only", []string{"mcp", "-C", dir, "--output-schemas"}, true},
		{"mutating", []string{"mcp", "-C", dir, "--mutating", "--principal", "node-client"}, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cmd, _ := json.Marshal(append([]string{self}, tc.args...))
			env, _ := json.Marshal(serverEnv)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := safeexec.Run(ctx, safeexec.Invocation{Path: node, Args: []string{script}, Dir: dir,
				Env: []string{"NODE_PATH=" + modules, "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
					"CORTEX_CMD=" + string(cmd), "CORTEX_ENV=" + string(env), "MODE=" + tc.mode, "CANARY=" + canary,
					"OUTPUT_SCHEMAS=" + map[bool]string{true: "1"}[tc.outputSchemas]}})
			out := string(res.Stdout)
			if err != nil || strings.Contains(out, "FAIL") {
				t.Errorf("node client: %v\n%s\nstderr:\n%s", err, out, res.Stderr)
				return
			}
			t.Logf("node client, %d checks passed", strings.Count(out, "ok  "))
		})
	}
}

// TestCommandLine checks the flags' policy: the mutating surface needs a
// principal, HTTP listens on the loopback only unless told otherwise, the
// mutating surface over HTTP needs its bearer token, and the HTTP limits
// are for --http and within bounds.
func TestCommandLine(t *testing.T) {
	dir := mcp.Fixture(t)
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"mcp", "--mutating"}, nil, "--mutating needs --principal"},
		{[]string{"mcp", "--principal", "ada"}, nil, "it needs --mutating"},
		{[]string{"mcp", "--http", "0.0.0.0:7777"}, nil, "--allow-remote"},
		{[]string{"mcp", "--allow-remote"}, nil, "--allow-remote is for --http"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--mutating", "--principal", "ada"}, nil, "CODECORTEX_MCP_TOKEN"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--mutating", "--principal", "ada", "--token-env", "MY_TOKEN"}, map[string]string{"CODECORTEX_MCP_TOKEN": "x"}, "MY_TOKEN"},
		{[]string{"mcp", "--max-sessions", "5"}, nil, "--max-sessions is for --http"},
		{[]string{"mcp", "--session-idle", "1m"}, nil, "--session-idle is for --http"},
		{[]string{"mcp", "--allow-origin", "http://localhost:3000"}, nil, "--allow-origin is for --http"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--max-sessions", "0"}, nil, "want at least 1"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--session-idle", "10ms"}, nil, "want at least 1s"},
		{[]string{"mcp", "--http", "127.0.0.1:0", "--allow-origin", "http://a.example, localhost:3000"}, nil, "SCHEME://HOST"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), append([]string{"-C", dir}, tc.args...), &cli.Env{Stdout: &stdout, Stderr: &stderr,
				Getenv: func(k string) string { return tc.env[k] }})
			if code != cli.ExitUsage || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit 2 mentioning %q", code, stderr.String(), stdout.String(), tc.want)
			}
		})
	}
}

// TestNodeHTTPClient drives the HTTP server, capped at two sessions, with
// the official TypeScript SDK's streamable HTTP client: its requests pass
// the Origin and Host guard and the checks of their bodies, a third
// session is refused with the server's message, and closing one makes
// room.
func TestNodeHTTPClient(t *testing.T) {
	node := testtool.Require(t, "node", "install Node 20 (apt-get install nodejs)")
	modules := sdkModules(t)
	script, err := filepath.Abs(filepath.Join("testdata", "http_client.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	s := mcp.NewServer(t, mcp.Fixture(t), mcp.Options{})
	h, err := s.HTTPHandler(mcp.HTTPOptions{MaxSessions: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: node, Args: []string{script}, Dir: t.TempDir(),
		Env: []string{"NODE_PATH=" + modules, "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "URL=" + ts.URL + mcp.ReadOnlyPath}})
	out := string(res.Stdout)
	if err != nil || strings.Contains(out, "FAIL") {
		t.Errorf("node client: %v\n%s\nstderr:\n%s", err, out, res.Stderr)
		return
	}
	t.Logf("node HTTP client, %d checks passed", strings.Count(out, "ok  "))
}
