package precision

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// lspConn is a JSON-RPC 2.0 connection with LSP's Content-Length framing.
type lspConn struct {
	w       io.Writer
	r       *bufio.Reader
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan rpcResult
	closed  chan struct{}
	readErr error
	// readyWhen, when set before readLoop starts, is asked about every
	// notification from the server; ready is closed at the first it
	// accepts.
	readyWhen func(method string, params json.RawMessage) bool
	ready     chan struct{}
}

type rpcResult struct {
	result json.RawMessage
	err    error
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("language server error %d: %s", e.Code, e.Message)
}

func newLSPConn(w io.Writer, r io.Reader) *lspConn {
	return &lspConn{w: w, r: bufio.NewReader(r), pending: map[int]chan rpcResult{}, closed: make(chan struct{}), ready: make(chan struct{})}
}

func (c *lspConn) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = c.w.Write(b)
	return err
}

func (c *lspConn) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *lspConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.readErr != nil {
		err := c.readErr
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan rpcResult, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.write(msg); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-c.closed:
		return nil, fmt.Errorf("language server exited: %w", c.readErr)
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		_ = c.notify("$/cancelRequest", map[string]int{"id": id})
		return nil, ctx.Err()
	}
}

// maxMessage caps one message from the server.
const maxMessage = 64 << 20

func (c *lspConn) readLoop() {
	err := c.readMessages()
	c.mu.Lock()
	c.readErr = err
	c.mu.Unlock()
	close(c.closed)
}

func (c *lspConn) readMessages() error {
	for {
		length := -1
		for {
			line, err := c.r.ReadString('\n')
			if err != nil {
				return err
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || n < 0 || n > maxMessage {
					return fmt.Errorf("bad Content-Length %q", v)
				}
				length = n
			}
		}
		if length < 0 {
			return errors.New("message without Content-Length")
		}
		// Grown as bytes arrive, so a lying length allocates nothing.
		var buf bytes.Buffer
		if _, err := io.CopyN(&buf, c.r, int64(length)); err != nil {
			return err
		}
		body := buf.Bytes()
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			continue
		}
		switch {
		case msg.Method != "" && len(msg.ID) > 0:
			c.answerServer(msg.ID, msg.Method, msg.Params)
		case msg.Method == "" && len(msg.ID) > 0:
			id, err := strconv.Atoi(string(msg.ID))
			if err != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				r := rpcResult{result: msg.Result}
				if msg.Error != nil {
					r.err = msg.Error
				}
				ch <- r
			}
		}
		if msg.Method != "" && len(msg.ID) == 0 && c.readyWhen != nil && c.readyWhen(msg.Method, msg.Params) {
			close(c.ready)
			c.readyWhen = nil
		}
		// Other notifications from the server (logs, diagnostics) are ignored.
	}
}

// answerServer replies to a request from the server: configuration gets
// one null per item, everything else a null result.
func (c *lspConn) answerServer(id json.RawMessage, method string, params json.RawMessage) {
	var result any
	if method == "workspace/configuration" {
		var p struct{ Items []json.RawMessage }
		_ = json.Unmarshal(params, &p)
		result = make([]any, len(p.Items))
	}
	go func() { _ = c.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}) }()
}
