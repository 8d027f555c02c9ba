package precision

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
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
