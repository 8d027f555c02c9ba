package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// What a client sends is checked before the SDK decodes it, one message
// at a time (a line on standard input, the body of an HTTP POST), so that
// nothing a client sends ends the server, holds more than a bounded
// amount of memory or recurses without bound:
//
//   - a message is at most MaxMessage bytes; a longer line is skipped as
//     it is read, never held whole;
//   - arrays and objects nest at most MaxDepth deep, measured by a scan
//     that keeps a counter, not a stack;
//   - it is one JSON-RPC 2.0 request, notification or response: a method
//     name of at most maxMethodBytes and an id that is a number or a
//     string of at most maxIDBytes. Batches, which MCP removed in its
//     2025-06-18 revision, are refused.
//
// A message that fails gets a JSON-RPC error: -32700 (parse error) if it
// is not JSON or nests too deep, -32600 (invalid request) otherwise, with
// the message's id when one can be read and null when not. The error
// quotes at most a short prefix of what it refuses.

// Limits of one message.
const (
	// MaxMessage is the longest message, in bytes, the server reads: a
	// line on standard input, the body of an HTTP request.
	MaxMessage = 4 << 20
	// MaxDepth is the deepest arrays and objects may nest in a message.
	MaxDepth = 64
	// maxMethodBytes is the longest method name a message may carry; the
	// longest MCP method name has 36 bytes.
	maxMethodBytes = 256
	// maxIDBytes is the longest request id, as JSON, a message may carry.
	maxIDBytes = 256
	// prefixBytes is how much of a refused message an error quotes.
	prefixBytes = 32
)

// frameLimits bound one message; the tests and the fuzz target use small
// ones.
type frameLimits struct {
	message int // bytes
	depth   int
}

var defaultLimits = frameLimits{message: MaxMessage, depth: MaxDepth}

// A frameError is a message refused before the SDK saw it: the JSON-RPC
// error the client gets.
type frameError struct {
	Code int64
	// ID is the refused message's id as JSON, or null when none can be
	// read.
	ID  json.RawMessage
	Msg string
}

func (e *frameError) Error() string { return e.Msg }

// reply returns the JSON-RPC response that carries e, without a newline.
func (e *frameError) reply() []byte {
	id := e.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: e.Code, Message: e.Msg}})
	return b
}

// parseFrame checks one message and decodes it. A blank message is
// neither a message nor an error: (nil, nil).
func parseFrame(data []byte, lim frameLimits) (jsonrpc.Message, *frameError) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil
	}
	if len(data) > lim.message {
		return nil, tooLong(int64(len(data)), lim)
	}
	if d := depth(data, lim.depth); d > lim.depth {
		return nil, &frameError{Code: jsonrpc.CodeParseError,
			Msg: fmt.Sprintf("parse error: the message nests arrays and objects deeper than %d levels, which this server does not read; it begins %s", lim.depth, prefix(data))}
	}
	if !json.Valid(data) {
		var v json.RawMessage
		err := json.Unmarshal(data, &v)
		return nil, &frameError{Code: jsonrpc.CodeParseError,
			Msg: fmt.Sprintf("parse error: the message is not one JSON value (%v); it begins %s. Send one JSON-RPC message per line", err, prefix(data))}
	}
	invalid := func(id json.RawMessage, format string, args ...any) *frameError {
		return &frameError{Code: jsonrpc.CodeInvalidRequest, ID: id, Msg: "invalid request: " + fmt.Sprintf(format, args...)}
	}
	switch data[0] {
	case '{':
	case '[':
		return nil, invalid(nil, "a batch (a JSON array of messages); send one message at a time, as MCP has since its 2025-06-18 revision")
	default:
		return nil, invalid(nil, "the message is not a JSON object; it begins %s", prefix(data))
	}
	id, method := envelope(data)
	readable := id
	switch {
	case len(id) == 0:
	case len(id) > maxIDBytes:
		return nil, invalid(nil, "the id is %d bytes of JSON, longer than the %d this server reads", len(id), maxIDBytes)
	case id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9'):
		readable = nil // an object, an array, true, false or null
	}
	if len(method) > maxMethodBytes {
		return nil, invalid(readable, "the method name is %d bytes of JSON, longer than any MCP method (this server reads %d); it begins %s",
			len(method), maxMethodBytes, prefix(method))
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, invalid(readable, "%s (a JSON-RPC 2.0 message is an object with \"jsonrpc\": \"2.0\", a string \"method\" and a number or string \"id\", or a response with \"result\" or \"error\"); it begins %s",
			shorten(err.Error()), prefix(data))
	}
	return msg, nil
}

// tooLong is the error for a message of n bytes, over lim.
func tooLong(n int64, lim frameLimits) *frameError {
	return &frameError{Code: jsonrpc.CodeInvalidRequest,
		Msg: fmt.Sprintf("invalid request: the message has %d bytes, over the %d this server reads in one message; it was skipped", n, lim.message)}
}

// depth returns how deep arrays and objects nest in data, which need not
// be valid JSON, or a number over max as soon as it exceeds max: a scan
// with a counter, so no input makes it recurse or allocate.
func depth(data []byte, max int) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			if d > deepest {
				deepest = d
				if deepest > max {
					return deepest
				}
			}
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// envelope returns the raw JSON of the "id" and "method" members of the
// object data, valid JSON, matching names exactly as the SDK does; either
// is nil when absent.
func envelope(data []byte) (id, method json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return id, method
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return id, method
		}
		switch tok {
		case "id":
			id = v
		case "method":
			method = v
		}
	}
	return id, method
}

// prefix quotes the first prefixBytes of b, marking a cut.
func prefix(b []byte) string {
	if len(b) <= prefixBytes {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q…", cutRunes(string(b), prefixBytes))
}

// A lineReader reads lines of at most max bytes (the line ending not
// counted); the rest of a longer line is read and dropped as it comes, so
// it never holds more than max bytes and its buffer.
type lineReader struct {
	r   *bufio.Reader
	max int
	err error // the read error that ended the last line, returned next
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its ending (\n or \r\n), or a
// *frameError for a line over the maximum, or the error that ended the
// input (io.EOF at its end). A last line without a newline is a line.
func (lr *lineReader) next() ([]byte, error) {
	if lr.err != nil {
		return nil, lr.err
	}
	var line []byte
	var n int64
	over := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		n += int64(len(chunk))
		if !over {
			if n > int64(lr.max)+2 { // room for \r\n
				over, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if n == 0 {
				return nil, err
			}
			lr.err = err
		}
		break
	}
	if over {
		return nil, tooLong(n, frameLimits{message: lr.max})
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > lr.max {
		return nil, tooLong(int64(len(line)), frameLimits{message: lr.max})
	}
	return line, nil
}
