package mcp

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// An error quotes at most a short part of what it refuses: libraries
// (the schema validator, the SDK) put the refused value in their
// messages whole, and a megabyte argument must not come back as a
// megabyte error. Every error text the server sends goes through
// shorten.

// Bounds of an error's text.
const (
	// maxRun is the longest unbroken run (no white space outside double
	// quotes) an error keeps whole; a longer one keeps its first
	// keptRun bytes.
	maxRun  = 192
	keptRun = 160
	// maxErrorText is the longest error text; a longer one keeps its
	// first keptHead and last keptTail bytes.
	maxErrorText = 1024
	keptHead     = 768
	keptTail     = 192
	// maxErrorData is the most JSON an error's data may carry.
	maxErrorData = 4096
)

// shorten returns s with every unbroken run of more than maxRun bytes
// (a double-quoted string counts as one run, spaces and all) cut to its
// first keptRun bytes and its length, then, if s is still longer than
// maxErrorText, its middle left out.
func shorten(s string) string {
	if len(s) <= maxRun && len(s) <= maxErrorText {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := runEnd(s, i)
		if run := s[i:j]; len(run) > maxRun {
			fmt.Fprintf(&b, "%s… (%d bytes)", cutRunes(run, keptRun), len(run))
		} else {
			b.WriteString(run)
		}
		i = j
	}
	out := b.String()
	if len(out) > maxErrorText {
		head := cutRunes(out, keptHead)
		tail := tailRunes(out, keptTail)
		out = fmt.Sprintf("%s … (%d bytes left out) … %s", head, len(out)-len(head)-len(tail), tail)
	}
	return out
}

// runEnd returns where the run starting at i ends: at the first white
// space outside double quotes, or the end of s. A backslash escapes the
// byte after it inside quotes.
func runEnd(s string, i int) int {
	quoted := false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && isSpace(c):
			return i
		}
	}
	return len(s)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// cutRunes returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailRunes returns the longest suffix of s of at most n bytes that does
// not split a UTF-8 sequence.
func tailRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// shortError returns err with its message passed through clean (which
// redacts and shortens), keeping its JSON-RPC code: a *jsonrpc.Error is
// copied (its data dropped if large), anything else wrapped so that
// errors.Is and errors.As still see it.
func shortError(err error, clean func(string) string) error {
	if err == nil {
		return nil
	}
	if we, ok := err.(*jsonrpc.Error); ok {
		c := *we
		c.Message = clean(c.Message)
		if len(c.Data) > maxErrorData {
			c.Data = nil
		}
		return &c
	}
	msg := err.Error()
	if short := clean(msg); short != msg {
		return &shortenedError{msg: short, err: err}
	}
	return err
}

// A shortenedError is an error whose message was too long, or too
// secret, to send.
type shortenedError struct {
	msg string
	err error
}

func (e *shortenedError) Error() string { return e.msg }
func (e *shortenedError) Unwrap() error { return e.err }

// cleanError redacts and shortens an error's text.
func (s *Server) cleanError(msg string) string { return shorten(s.red.String(msg)) }

// shortErrors is middleware that redacts and shortens the error of every
// method the server answers (an unknown tool's name, a malformed
// parameter).
func (s *Server) shortErrors(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		return res, shortError(err, s.cleanError)
	}
}
