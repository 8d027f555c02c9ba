package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A stdioPeer drives ServeStdio through pipes, as a host drives `cortex
// mcp` through its standard input and output.
type stdioPeer struct {
	t     *testing.T
	in    *io.PipeWriter
	out   *bufio.Reader
	lines chan string
	done  chan error
}

// serveStdio starts s's stdio server on surface and returns the peer
// that talks to it; the server is stopped when the test ends.
func serveStdio(t *testing.T, s *Server, surface Surface) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<16), lines: make(chan string), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		p.done <- s.ServeStdio(ctx, surface, inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(p.lines)
		for {
			line, err := p.out.ReadString('\n')
			if err != nil {
				return
			}
			p.lines <- line
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("the stdio server did not stop")
		}
	})
	return p
}

// send writes line and a newline to the server's standard input.
func (p *stdioPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("writing to the server: %v", err)
	}
}

// A wireReply is a JSON-RPC response as it arrives.
type wireReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

// recv reads the server's next line: a test failure if the server ends
// or says nothing within a minute.
func (p *stdioPeer) recv() wireReply {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			err := errors.New("no error")
			select {
			case err = <-p.done:
				p.done <- err
			default:
			}
			p.t.Fatalf("the server closed its output (it returned %v)", err)
		}
		var r wireReply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			p.t.Fatalf("the server wrote a line that is not JSON: %v: %.200q", err, line)
		}
		r.raw = line
		return r
	case <-time.After(time.Minute):
		p.t.Fatalf("the server said nothing within a minute")
	}
	return wireReply{}
}

// initialize opens the MCP session.
func (p *stdioPeer) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`)
	if r := p.recv(); r.Error != nil || string(r.ID) != `"init"` {
		p.t.Fatalf("initialize: %s", r.raw)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStdioMalformedFrames sends the stdio server, line by line, what a
// broken or hostile client may send: each gets a JSON-RPC error (a parse
// error or an invalid request, with the id when one can be read) that
// quotes at most a short prefix of it, and the server reads on and still
// answers. Before the framing was the server's own, the first of them
// ended the server without a word.
func TestStdioMalformedFrames(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	p := serveStdio(t, s, ReadOnly)
	p.initialize()
	big := strings.Repeat("A", 1<<20)
	for _, tc := range []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", "garbage", -32700, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, -32700, "null"},
		{"two values on a line", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, -32700, "null"},
		{"100k unclosed brackets", strings.Repeat("[", 100_000), -32700, "null"},
		{"100k nested brackets", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), -32700, "null"},
		{"deep params", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":` + strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 201) + "}", -32700, "null"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"an array id", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, -32600, "null"},
		{"a number method", `{"jsonrpc":"2.0","id":3,"method":5}`, -32600, "3"},
		{"no version", `{"id":4,"method":"ping"}`, -32600, "4"},
		{"a string", `"ping"`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"an empty object", `{}`, -32600, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, "null"},
		{"an empty batch", `[]`, -32600, "null"},
		{"a megabyte method", `{"jsonrpc":"2.0","id":6,"method":"` + big + `"}`, -32600, "6"},
		{"a megabyte id", `{"jsonrpc":"2.0","id":"` + big + `","method":"ping"}`, -32600, "null"},
		{"a line over the cap", `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"` + strings.Repeat("B", 20<<20) + `"}}`, -32600, "null"},
		{"a line over the cap, not JSON", strings.Repeat("garbage ", 3<<20), -32600, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.send(tc.line)
			r := p.recv()
			if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id {
				t.Errorf("reply %.300s, want error %d with id %s", r.raw, tc.code, tc.id)
			}
			if len(r.raw) > 1024 {
				t.Errorf("the error is %d bytes: it quotes more than a short prefix of the message", len(r.raw))
			}
			// The server reads on: the next request is answered.
			p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			if r := p.recv(); r.Error != nil || string(r.ID) != `"after"` {
				t.Errorf("after %s: %.300s", tc.name, r.raw)
			}
		})
	}
	p.t = t
	// Blank lines are skipped without a word; a line may end in \r\n.
	p.send("")
	p.send("   ")
	p.send(`{"jsonrpc":"2.0","id":"crlf","method":"tools/list"}` + "\r")
	if r := p.recv(); r.Error != nil || string(r.ID) != `"crlf"` || !strings.Contains(string(r.Result), "cortex_ask") {
		t.Errorf("tools/list: %.300s", r.raw)
	}
	// The end of input ends the server cleanly.
	p.in.Close()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("ServeStdio at the end of input: %v", err)
		}
		p.done <- nil
	case <-time.After(time.Minute):
		t.Errorf("the server did not end with its input")
	}
}

// repeatReader yields c forever without holding it.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestLineReaderSkipsLongLines reads a 64 MiB line through a reader
// capped at 64 KiB: it is refused, what follows it is read, and reading
// it allocates a bounded amount however long it is.
func TestLineReaderSkipsLongLines(t *testing.T) {
	const long = 64 << 20
	in := io.MultiReader(io.LimitReader(repeatReader('x'), long), strings.NewReader("\n{\"after\":1}\n"))
	lr := newLineReader(in, 64<<10)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lr.next()
	runtime.ReadMemStats(&after)
	var ferr *frameError
	if !errors.As(err, &ferr) || ferr.Code != -32600 || !strings.Contains(ferr.Msg, "67108865 bytes") {
		t.Fatalf("the long line: %v, want a frame error saying its length", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Errorf("skipping a %d-byte line allocated %d bytes", long, n)
	}
	if line, err := lr.next(); err != nil || string(line) != `{"after":1}` {
		t.Errorf("the line after: %q, %v", line, err)
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

// FuzzStdioFraming feeds arbitrary input to the stdio connection, with
// small limits so that long and deep lines are reached: it never panics
// or stops early, every line that is not blank becomes either a message
// or one JSON-RPC error (-32700 or -32600, a few hundred bytes at most),
// and every message it passes on encodes again.
func FuzzStdioFraming(f *testing.F) {
	for _, seed := range []string{
		"", "\n", "garbage\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":"x"}`,
		"[[[[[[[[[[[[]]]]]]]]]]]]\n", `{"jsonrpc":"2.0","id":"a","result":{}}` + "\r\n",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n", strings.Repeat("y", 300) + "\nnull\n",
		`{"jsonrpc":"2.0","id":1,"method":"p\u0000\"\\"}` + "\n", "{\"a\":\"[[[[[[[[[[\"}\n",
	} {
		f.Add([]byte(seed))
	}
	lim := frameLimits{message: 256, depth: 8}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out strings.Builder
		c := newLineConn(io.NopCloser(bytes.NewReader(input)), nopWriteCloser{&out}, lim, nil, nil)
		msgs := 0
		for {
			msg, err := c.Read(context.Background())
			if err != nil {
				if err != io.EOF {
					t.Fatalf("Read: %v", err)
				}
				break
			}
			msgs++
			if _, err := jsonrpc.EncodeMessage(msg); err != nil {
				t.Errorf("a message passed on does not encode: %v", err)
			}
		}
		replies := 0
		for line := range strings.Lines(out.String()) {
			replies++
			var r wireReply
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error == nil || r.JSONRPC != "2.0" ||
				(r.Error.Code != -32700 && r.Error.Code != -32600) {
				t.Errorf("a reply that is not a parse error or an invalid request: %q", line)
			}
			if len(line) > 1024 {
				t.Errorf("a reply of %d bytes", len(line))
			}
		}
		want := 0
		for line := range bytes.Lines(input) {
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(line) > lim.message || len(bytes.TrimSpace(line)) > 0 {
				want++
			}
		}
		if msgs+replies != want {
			t.Errorf("%d lines to read, %d messages and %d errors", want, msgs, replies)
		}
	})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// BenchmarkParseFrame is the cost of the framing's checks on a typical
// tools/call message, beside the SDK's decoding of it alone (sdk-decode),
// which the checks end with.
func BenchmarkParseFrame(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"cortex_ask","arguments":` +
		`{"question":"who calls Cart.Total and where is the cart emptied?","path":"cart/cart.go","budget":4000}}}`)
	b.Run("checked", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ferr := parseFrame(line, defaultLimits); ferr != nil {
				b.Fatal(ferr)
			}
		}
	})
	b.Run("sdk-decode", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonrpc.DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
