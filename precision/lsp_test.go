package precision

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/google/go-cmp/cmp"
)

// FuzzLSPMessages feeds the LSP reader arbitrary server output: it must
// never panic, must honour the message cap, and must deliver a well-framed
// response to the request waiting for it.
func FuzzLSPMessages(f *testing.F) {
	f.Add([]byte("Content-Length: 46\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{\"uri\":\"\"}]}"))
	f.Add([]byte("Content-Length: 62\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"workspace/configuration\"}"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newLSPConn(io.Discard, bytes.NewReader(data))
		done := make(chan error, 1)
		go func() { done <- c.readMessages() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("reader did not finish on finite input")
		}
		if r, err := decodeLocations(data); err == nil {
			_ = r
		}
	})
}

func frame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// The reader answers a server request and delivers the response to the
// waiting call.
func TestLSPConnDeliversResponses(t *testing.T) {
	server := frame(`{"jsonrpc":"2.0","id":"s1","method":"workspace/configuration","params":{"items":[{},{}]}}`) +
		frame(`{"jsonrpc":"2.0","method":"window/logMessage","params":{"message":"hi"}}`) +
		frame(`{"jsonrpc":"2.0","id":1,"result":{"uri":"file:///x.go","range":{"start":{"line":2,"character":5},"end":{"line":2,"character":9}}}}`)
	pr, pw := io.Pipe()
	var out lockedBuffer
	c := newLSPConn(&out, pr)
	go c.readLoop()
	res := make(chan []lspLocation, 1)
	go func() {
		raw, err := c.call(context.Background(), "textDocument/definition", nil)
		if err != nil {
			t.Error(err)
		}
		locs, err := decodeLocations(raw)
		if err != nil {
			t.Error(err)
		}
		res <- locs
	}()
	// Reply once the request is on the wire.
	for !strings.Contains(out.String(), `"method":"textDocument/definition"`) {
		time.Sleep(time.Millisecond)
	}
	go pw.Write([]byte(server))
	select {
	case locs := <-res:
		if len(locs) != 1 || locs[0].URI != "file:///x.go" || locs[0].Range.Start.Character != 5 {
			t.Errorf("locations = %+v", locs)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no response delivered")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), `"id":"s1","jsonrpc":"2.0","result":[null,null]`) {
		if time.Now().After(deadline) {
			t.Fatalf("configuration request not answered: %s", out.String())
		}
		time.Sleep(time.Millisecond)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A language server that cannot start, exits, or never answers is reported
// with its reason, and the wait is bounded by the timeouts.
func TestLSPFailures(t *testing.T) {
	dir := writeProject(t)
	q := evidence.Query{Path: "a.go", Line: 2, Column: 12}
	tests := []struct {
		name    string
		opts    LSPOptions
		want    error
		reasons []string
	}{
		{"missing binary", LSPOptions{Dir: dir, Command: []string{"no-such-language-server-xyz"}},
			ErrServerNotFound, []string{"language server no-such-language-server-xyz not found"}},
		{"exits at once", LSPOptions{Dir: dir, Command: []string{"false"}},
			ErrServerExited, []string{"language server false did not initialise", "exited (exit status 1)"}},
		{"never answers", LSPOptions{Dir: dir, Command: []string{"sleep", "600"}, RequestTimeout: 200 * time.Millisecond},
			ErrServerTimeout, []string{"language server sleep did not initialise", "no answer to initialize within 200ms"}},
		// The handshake's bound is generous: a race-built test binary took
		// over 100 ms to start on a loaded machine.
		{"never answers a request", withTimeouts(fakeLSP(t, dir, "silent"), 5*time.Second, 300*time.Millisecond),
			ErrServerTimeout, []string{"failed on textDocument/definition", "no answer to textDocument/definition within 300ms"}},
		{"exits at a request", fakeLSP(t, dir, "exit"),
			ErrServerExited, []string{"textDocument/definition", "exit status 3", "boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.Command[0] == "false" || tt.opts.Command[0] == "sleep" {
				testtool.Require(t, tt.opts.Command[0], "install coreutils")
			}
			lsp := NewLSP(tt.opts)
			defer lsp.Close()
			for range 2 { // a failed server is reported again, never a silent nothing
				_, err := lsp.Gather(context.Background(), q)
				var ue *evidence.UnavailableError
				if !errors.As(err, &ue) || !errors.Is(err, tt.want) {
					t.Fatalf("Gather error = %v, want an UnavailableError wrapping %v", err, tt.want)
				}
				for _, r := range tt.reasons {
					if !strings.Contains(err.Error(), r) {
						t.Errorf("error %q does not say %q", err, r)
					}
				}
			}
			_, reps := evidence.Collect(context.Background(), q, []evidence.Provider{lsp}, evidence.CollectOptions{})
			if reps[0].State != evidence.Unavailable || !strings.Contains(reps[0].Reason, tt.reasons[0]) {
				t.Errorf("report = %+v", reps[0])
			}
		})
	}
}

func withTimeouts(o LSPOptions, request, load time.Duration) LSPOptions {
	o.RequestTimeout, o.LoadTimeout = request, load
	return o
}

// A position on a missing file or past the end is reported as such,
// without asking the server.
func TestLSPPositionProblems(t *testing.T) {
	dir := writeProject(t)
	lsp := NewLSP(withTimeouts(fakeLSP(t, dir, "exit"), time.Second, time.Second))
	defer lsp.Close()
	for _, tt := range []struct {
		q      evidence.Query
		reason string
	}{
		{evidence.Query{Path: "zzz.go", Line: 1, Column: 1}, "zzz.go:1:1: zzz.go is not a file in the project"},
		{evidence.Query{Path: "a.go", Line: 99, Column: 1}, "a.go:99:1: line 99 is past the end of a.go, which has 4 lines"},
		{evidence.Query{Path: "a.go", Line: 1, Column: 99}, "a.go:1:99: column 99 is past the end of line 1, which has 9 characters"},
	} {
		resp, err := lsp.Gather(context.Background(), tt.q)
		if err != nil {
			t.Fatalf("%+v: %v (the server was asked)", tt.q, err)
		}
		if len(resp.Records) != 0 || resp.Report.Reason != tt.reason {
			t.Errorf("%+v: %+v, want reason %q", tt.q, resp, tt.reason)
		}
	}
}

// fakeAnswering returns options whose python server is the fake server
// answering every request with answer, and whose Go server is missing.
func fakeAnswering(t *testing.T, dir, answer string) LSPOptions {
	o := fakeLSP(t, dir, "answer")
	o.Env = append(o.Env, fakeAnswerEnv+"="+answer)
	o.Servers = map[string][]string{"python": o.Command}
	o.Command = []string{"no-such-language-server-xyz"}
	o.RequestTimeout, o.LoadTimeout = 5*time.Second, 5*time.Second
	return o
}

// A file goes to its language's server, started on first need; the
// others are not started, a missing one is reported as missing, and a
// language without a server says so.
func TestLSPRoutesByLanguage(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"a.go": "package a\n", "b.py": "é = 1\n", "c.xyz": "x\n"})
	opts := fakeAnswering(t, dir, `{"uri":"{{URI}}","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}`)
	lsp := NewLSP(opts)
	defer lsp.Close()
	before := lsp.Servers()
	resp, err := lsp.Gather(context.Background(), evidence.Query{Path: "b.py", Line: 1, Column: 1, Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || resp.Records[0].Location() != "b.py:1:1-1:2" {
		t.Errorf("records = %+v", resp.Records)
	}
	_, err = lsp.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 1, Column: 1})
	if !errors.Is(err, ErrServerNotFound) {
		t.Errorf("a.go: %v, want the missing Go server", err)
	}
	_, err = lsp.Gather(context.Background(), evidence.Query{Path: "c.xyz", Line: 1, Column: 1})
	if !errors.Is(err, ErrNoServer) {
		t.Errorf("c.xyz: %v, want no server", err)
	}
	state := func(sts []ServerStatus, lang string) string {
		for _, s := range sts {
			if slices.Contains(s.Languages, lang) {
				return s.State
			}
		}
		return "absent"
	}
	after := lsp.Servers()
	for _, c := range []struct {
		sts         []ServerStatus
		lang, state string
	}{
		{before, "python", ServerNotStarted}, {before, "go", ServerNotFound},
		{after, "python", ServerRunning}, {after, "go", ServerNotFound},
	} {
		if got := state(c.sts, c.lang); got != c.state {
			t.Errorf("%s: state %q, want %q (%+v)", c.lang, got, c.state, c.sts)
		}
	}

	opts.Servers["python"] = []string{} // turned off
	off := NewLSP(opts)
	defer off.Close()
	if _, err := off.Gather(context.Background(), evidence.Query{Path: "b.py", Line: 1, Column: 1}); !errors.Is(err, ErrNoServer) {
		t.Errorf("python turned off: %v, want no server", err)
	}
}

// Rename returns the server's edits by file in code points, and refuses
// an answer it must not apply.
func TestLSPRename(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"b.py": "é = 1\nprint(é)\n", "c.py": "from b import é\n"})
	edit := func(uri string, line, from, to int) string {
		return fmt.Sprintf(`{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"newText":"x"}`, line, from, line, to)
	}
	cURI := fileURI(filepath.Join(mustEval(t, dir), "c.py"))
	tests := []struct {
		name, answer string
		want         []FileEdits
		err          string
	}{
		{"changes", `{"changes":{"{{URI}}":[` + edit("", 1, 6, 7) + `,` + edit("", 0, 0, 1) + `],"` + cURI + `":[` + edit("", 0, 14, 15) + `]}}`,
			[]FileEdits{{Path: "b.py", Edits: []TextEdit{{1, 1, 1, 2, "x"}, {2, 7, 2, 8, "x"}}}, {Path: "c.py", Edits: []TextEdit{{1, 15, 1, 16, "x"}}}}, ""},
		{"document changes", `{"documentChanges":[{"textDocument":{"uri":"{{URI}}","version":1},"edits":[` + edit("", 0, 0, 1) + `]}]}`,
			[]FileEdits{{Path: "b.py", Edits: []TextEdit{{1, 1, 1, 2, "x"}}}}, ""},
		{"file operation", `{"documentChanges":[{"kind":"rename","oldUri":"{{URI}}","newUri":"file:///tmp/x.py"}]}`, nil, "asks to rename a file"},
		{"outside the root", `{"changes":{"file:///etc/passwd":[` + edit("", 0, 0, 1) + `]}}`, nil, "outside the project root"},
		{"overlap", `{"changes":{"{{URI}}":[` + edit("", 0, 0, 2) + `,` + edit("", 0, 1, 3) + `]}}`, nil, "overlap at 1:2"},
		{"past the line", `{"changes":{"{{URI}}":[` + edit("", 0, 0, 9) + `]}}`, nil, "past the end of its line"},
		{"past the file", `{"changes":{"{{URI}}":[` + edit("", 7, 0, 1) + `]}}`, nil, "outside the file"},
		{"refused", `error:cannot rename a builtin`, nil, "refused the rename at b.py:1:1: cannot rename a builtin"},
		{"nothing", `null`, nil, "nothing to rename there"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lsp := NewLSP(fakeAnswering(t, dir, tt.answer))
			defer lsp.Close()
			got, err := lsp.Rename(context.Background(), "b.py", 1, 1, "x")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("edits (-want +got):\n%s", diff)
			}
		})
	}
	lsp := NewLSP(fakeAnswering(t, dir, "null"))
	defer lsp.Close()
	for _, name := range []string{"", "a\nb", strings.Repeat("x", MaxRenameName+1)} {
		if _, err := lsp.Rename(context.Background(), "b.py", 1, 1, name); err == nil || !strings.Contains(err.Error(), "not a name to rename to") {
			t.Errorf("new name %q: %v", name, err)
		}
	}
	if _, err := lsp.Rename(context.Background(), "b.py", 9, 1, "x"); err == nil || !strings.Contains(err.Error(), "past the end") {
		t.Errorf("position past the end: %v", err)
	}
}

func mustEval(t *testing.T, dir string) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// FuzzWorkspaceEdit feeds the rename answer's decoder, and the readers of
// the handshake's serverInfo and of pyright's log, arbitrary server
// output: they never panic, and what they accept stays within the bounds.
func FuzzWorkspaceEdit(f *testing.F) {
	f.Add([]byte(`{"changes":{"file:///a.py":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"x"}]}}`))
	f.Add([]byte(`{"documentChanges":[{"textDocument":{"uri":"file:///a.py","version":1},"edits":[]},{"kind":"create","uri":"file:///b"}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"documentChanges":[1]}`))
	f.Add([]byte(`{"serverInfo":{"name":"Pyright","version":"1.1.414\u0007"}}`))
	f.Add([]byte(`{"message":"Found 18 source files"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The other readers of server output: the handshake's serverInfo
		// is cut short and printable, and a log line is only read.
		if info := decodeServerInfo(data); len([]rune(info)) > 120 || strings.ContainsFunc(info, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			t.Fatalf("serverInfo %q is not short and printable", info)
		}
		_ = pyrightLoaded("window/logMessage", data)
		got, err := decodeWorkspaceEdit(data)
		if err != nil {
			return
		}
		n := 0
		for _, u := range got {
			n += len(u.edits)
			for _, e := range u.edits {
				if len(e.NewText) > maxEditText {
					t.Fatalf("accepted an edit of %d bytes", len(e.NewText))
				}
			}
		}
		if len(got) > maxRenameFiles || n > maxRenameEdits {
			t.Fatalf("accepted %d edits in %d files", n, len(got))
		}
		lines := []string{"é = 1", "print(é)", ""}
		for _, u := range got {
			for _, e := range u.edits {
				if te, err := toTextEdit(e, lines); err == nil {
					if te.StartLine < 1 || te.StartColumn < 1 || te.EndLine > len(lines) {
						t.Fatalf("edit %+v outside the lines", te)
					}
				}
			}
		}
	})
}

// A server that answers a kind of request "method not found" (pyright has
// no textDocument/implementation) is not asked it again, and an answer
// that needed it says so instead of passing for an empty answer.
func TestLSPMethodNotFound(t *testing.T) {
	dir := writeProject(t)
	lsp := NewLSP(fakeLSP(t, dir, "no-implementation"))
	defer lsp.Close()
	both := evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition, evidence.Implementation}}
	for range 2 {
		resp, err := lsp.Gather(context.Background(), both)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Report.Reason, "does not answer implementation requests (method not found)") {
			t.Errorf("report %+v does not say the server has no implementation request", resp.Report)
		}
	}
	srv, _ := lsp.server("go")
	if !srv.unsupported["textDocument/implementation"] || srv.unsupported["textDocument/definition"] {
		t.Errorf("unsupported methods: %v", srv.unsupported)
	}
	resp, err := lsp.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil || resp.Report.Reason != "" {
		t.Errorf("a definition question: %v, report %+v", err, resp.Report)
	}
}
