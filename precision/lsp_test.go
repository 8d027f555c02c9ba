package precision

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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
