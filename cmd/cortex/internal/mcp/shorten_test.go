package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

// TestErrorsQuoteShortPrefix sends tools arguments a megabyte long where
// the schema refuses them (too long, an unknown field's name, a value
// outside an enum, a pattern, a huge list of the wrong type) and calls a
// tool whose name is a megabyte long: each error says what was wrong and
// quotes at most keptRun bytes of the value, and its text stays within a
// few kilobytes. Before errors were shortened, each echoed the whole
// megabyte back.
func TestErrorsQuoteShortPrefix(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	cs := connect(t, s, ReadOnly)
	q := strings.Repeat("Q", 1<<20)
	spaced := strings.Repeat("Q ", 1<<19)
	many := make([]string, 100_000)
	for i := range many {
		many[i] = "QQQQ"
	}
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"too long", "cortex_ask", map[string]any{"question": q}, "maxLength"},
		{"too long, with spaces", "cortex_ask", map[string]any{"question": spaced}, "maxLength"},
		{"an unknown field", "cortex_ask", map[string]any{"question": "x", q: 1}, "additional properties"},
		{"outside the enum", "cortex_ask", map[string]any{"question": "x", "language": q}, "enum"},
		{"a pattern", "cortex_history", map[string]any{"since": "-" + spaced[:150]}, "pattern"},
		{"a list of the wrong type", "cortex_ask", map[string]any{"question": many}, "type"},
		{"a string for a number", "cortex_search", map[string]any{"query": "x", "limit": q}, "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, tc.tool, tc.args)
			got := text(res)
			if !res.IsError || !strings.Contains(got, tc.want) {
				t.Errorf("want a tool error mentioning %q, got %.400s", tc.want, got)
			}
			if n := longestRun(got, 'Q'); n > keptRun {
				t.Errorf("the error quotes %d bytes of the argument, want at most %d", n, keptRun)
			}
			if n := strings.Count(got, "Q"); n > 2*maxErrorText {
				t.Errorf("the error quotes %d Qs of the argument", n)
			}
			if len(got) > 4*maxErrorText {
				t.Errorf("the error is %d bytes", len(got))
			}
		})
	}
	t.Run("an unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: q, Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Fatalf("err %.300v, want an unknown tool", err)
		}
		if n := longestRun(err.Error(), 'Q'); n > keptRun || len(err.Error()) > 4*maxErrorText {
			t.Errorf("the error is %d bytes, quoting %d bytes of the name", len(err.Error()), n)
		}
	})
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("x", 1000)
	quoted := `"` + strings.Repeat("a b ", 100) + `"`
	for _, tc := range []struct {
		in, want string
	}{
		{"", ""},
		{"short error", "short error"},
		{"path " + strings.Repeat("p", maxRun) + " kept", "path " + strings.Repeat("p", maxRun) + " kept"},
		{"value " + long + " refused", "value " + strings.Repeat("x", keptRun) + "… (1000 bytes) refused"},
		{"maxLength: " + quoted + " contains 400", "maxLength: " + quoted[:keptRun] + "… (402 bytes) contains 400"},
		{`escaped "\"` + long + `" end`, `escaped "\"` + long[:keptRun-3] + "… (1004 bytes) end"},
		{"unclosed \"" + strings.Repeat("z ", 200), "unclosed \"" + strings.Repeat("z ", 200)[:keptRun-1] + "… (401 bytes)"},
	} {
		if diff := cmp.Diff(tc.want, shorten(tc.in)); diff != "" {
			t.Errorf("shorten(%.40q…) (-want +got):\n%s", tc.in, diff)
		}
	}
	// Many short runs: the middle goes.
	words := strings.Repeat("word ", 2000)
	got := shorten(words)
	if len(got) > maxErrorText+64 || !strings.HasPrefix(got, words[:keptHead]) || !strings.HasSuffix(got, words[len(words)-keptTail:]) ||
		!strings.Contains(got, "bytes left out") {
		t.Errorf("shorten of 2,000 words: %d bytes: %.100q … %.100q", len(got), got, got[max(0, len(got)-100):])
	}
	// UTF-8 is never split.
	for _, s := range []string{strings.Repeat("é", 1000), strings.Repeat("日本 ", 1000), "é" + strings.Repeat("😀", 500)} {
		if got := shorten(s); !utf8.ValidString(got) {
			t.Errorf("shorten split a UTF-8 sequence: %.60q", got)
		}
	}
}

func TestShortError(t *testing.T) {
	long := strings.Repeat("x", 5000)
	we := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad " + long, Data: []byte(`"` + long + `"`)}
	got, ok := shortError(we, shorten).(*jsonrpc.Error)
	if !ok || got.Code != jsonrpc.CodeInvalidParams || len(got.Message) > maxErrorText || got.Data != nil || len(we.Message) != 5004 {
		t.Errorf("shortError(wire error) = %#v", got)
	}
	wrapped := errors.Join(errors.New("handling: "+long), we)
	short := shortError(wrapped, shorten)
	if len(short.Error()) > 2*maxErrorText || !errors.Is(short, we) {
		t.Errorf("shortError(wrapped) = %d bytes, Is %v", len(short.Error()), errors.Is(short, we))
	}
	if e := errors.New("fine"); shortError(e, shorten) != e || shortError(nil, shorten) != nil {
		t.Errorf("shortError changed a short error or nil")
	}
}
