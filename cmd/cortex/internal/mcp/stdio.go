package mcp

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport carries MCP over newline-delimited JSON on a reader and
// a writer, as the SDK's IOTransport does, with framing of its own: a
// line that is not a JSON-RPC message, or is too long or too deep, gets
// a JSON-RPC error and the server reads on, where the SDK's transport
// ends the session at the first one.
type stdioTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
	lim frameLimits
	log func(format string, args ...any)
	// clean redacts and shortens the text of every error sent.
	clean func(string) string
}

func (t *stdioTransport) Connect(context.Context) (sdk.Connection, error) {
	return newLineConn(t.in, t.out, t.lim, t.log, t.clean), nil
}

// A lineConn is one stdio connection: a goroutine reads and checks lines
// (so that Close unblocks a Read waiting on input), Write sends one
// message per line.
type lineConn struct {
	in    io.ReadCloser
	out   io.WriteCloser
	log   func(format string, args ...any)
	clean func(string) string

	msgs    chan jsonrpc.Message // closed when reading ends
	readErr error                // why reading ended; set before msgs is closed

	writeMu   sync.Mutex
	closeOnce sync.Once
	closed    chan struct{}
}

func newLineConn(in io.ReadCloser, out io.WriteCloser, lim frameLimits, log func(string, ...any), clean func(string) string) *lineConn {
	if log == nil {
		log = func(string, ...any) {}
	}
	if clean == nil {
		clean = shorten
	}
	c := &lineConn{in: in, out: out, log: log, clean: clean, msgs: make(chan jsonrpc.Message), closed: make(chan struct{})}
	go c.readLoop(lim)
	return c
}

// readLoop reads lines until the input ends, answering the ones that are
// not messages and passing the others on.
func (c *lineConn) readLoop(lim frameLimits) {
	defer close(c.msgs)
	lr := newLineReader(c.in, lim.message)
	for {
		line, err := lr.next()
		var msg jsonrpc.Message
		var ferr *frameError
		if err != nil && !errors.As(err, &ferr) {
			c.readErr = err
			return
		}
		if ferr == nil {
			msg, ferr = parseFrame(line, lim)
		}
		if ferr != nil {
			c.log("cortex mcp: refused a message on standard input: %s", ferr.Msg)
			if err := c.writeLine(ferr.reply()); err != nil {
				c.readErr = err
				return
			}
			continue
		}
		if msg == nil {
			continue // a blank line
		}
		select {
		case c.msgs <- msg:
		case <-c.closed:
			c.readErr = io.EOF
			return
		}
	}
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg, ok := <-c.msgs:
		if !ok {
			return nil, c.readErr
		}
		return msg, nil
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		short := *r
		short.Error = shortError(r.Error, c.clean)
		msg = &short
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(b)
}

// writeLine writes b and a newline in one write, so that lines from the
// reader's errors and the SDK's messages never interleave.
func (c *lineConn) writeLine(b []byte) error {
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = errors.Join(c.in.Close(), c.out.Close())
	})
	return err
}

func (c *lineConn) SessionID() string { return "" }
