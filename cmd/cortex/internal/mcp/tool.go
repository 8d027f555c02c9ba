package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codecortex/codecortex/evidence"
)

// A toolDef describes one tool: its name, what an agent reads about it,
// whether it changes state, and how it answers. mutates puts it on the
// mutating surface only: there is no other way onto that surface, so a
// tool that changes state cannot be offered on the read-only one.
type toolDef struct {
	name    string
	title   string
	desc    string
	mutates bool
	// openWorld marks a tool that may reach outside the machine (the
	// documentation provider, when the user configured and trusted it).
	openWorld bool
	build     func(s *Server, d toolDef) (builtTool, error)
}

// A builtTool is a tool ready to add to an SDK server.
type builtTool struct {
	tool    *sdk.Tool
	handler sdk.ToolHandler
	mutates bool
	// in and out are the resolved schemas, kept for tests.
	in, out *jsonschema.Resolved
}

// builtTools builds every tool of the table once.
func (s *Server) builtTools() ([]builtTool, error) {
	s.toolsOnce.Do(func() {
		for _, d := range toolTable() {
			bt, err := d.build(s, d)
			if err != nil {
				s.toolsErr = fmt.Errorf("mcp: tool %s: %w", d.name, err)
				return
			}
			bt.mutates = d.mutates
			s.tools = append(s.tools, bt)
		}
	})
	return s.tools, s.toolsErr
}

// handlerFunc is how a tool answers: typed parameters in, a typed result
// out, or an error the agent reads.
type handlerFunc[In, Out any] func(ctx context.Context, s *Server, in In) (Out, error)

// tool returns the build function of a tool whose parameters are In and
// result Out, answered by h. The built handler:
//
//   - validates the arguments against the strict input schema (unknown
//     fields, wrong types, values out of bounds are refused before h
//     runs) and fills in the defaults;
//   - runs h under the tool's timeout, turning a panic into a tool error;
//   - redacts every string of the result and of any error;
//   - checks the result against the output schema and sends it as
//     structured content and as JSON text.
//
// The tool lists its output schema only with Options.OutputSchemas; the
// result is checked against it either way.
func tool[In, Out any](h handlerFunc[In, Out]) func(s *Server, d toolDef) (builtTool, error) {
	return func(s *Server, d toolDef) (builtTool, error) {
		inSchema, err := schemaFor(reflect.TypeFor[In](), s.enums)
		if err != nil {
			return builtTool{}, fmt.Errorf("input schema: %w", err)
		}
		outSchema, err := schemaFor(reflect.TypeFor[Out](), s.enums)
		if err != nil {
			return builtTool{}, fmt.Errorf("output schema: %w", err)
		}
		inRes, err := inSchema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			return builtTool{}, fmt.Errorf("input schema: %w", err)
		}
		outRes, err := outSchema.Resolve(nil)
		if err != nil {
			return builtTool{}, fmt.Errorf("output schema: %w", err)
		}
		readOnly := !d.mutates
		destructive := false
		openWorld := d.openWorld
		t := &sdk.Tool{
			Name: d.name, Title: d.title, Description: d.desc, InputSchema: inSchema,
			// The title is the tool's own (spec 2025-06-18), not repeated in
			// the annotations.
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: readOnly,
				DestructiveHint: &destructive, IdempotentHint: readOnly, OpenWorldHint: &openWorld},
		}
		if s.opts.OutputSchemas {
			t.OutputSchema = outSchema
		}
		handler := func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var raw json.RawMessage
			if req != nil && req.Params != nil {
				raw = req.Params.Arguments
			}
			in, err := decodeArgs[In](raw, inRes)
			if err != nil {
				return s.errorResult(d.name, err), nil
			}
			ctx, cancel := context.WithTimeout(ctx, s.callTimeout(d.name))
			defer cancel()
			out, err := runSafely(ctx, s, in, h)
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
					err = &toolError{Reason: fmt.Sprintf("the call did not finish within %s", s.callTimeout(d.name)),
						Guidance: "narrow it: a path, a language, a smaller limit", Err: err}
				}
				return s.errorResult(d.name, err), nil
			}
			return s.result(d.name, out, outRes), nil
		}
		return builtTool{tool: t, handler: handler, in: inRes, out: outRes}, nil
	}
}

// decodeArgs validates raw, the call's arguments, against the input
// schema, applies its defaults and decodes the result into an In.
func decodeArgs[In any](raw json.RawMessage, res *jsonschema.Resolved) (In, error) {
	var in In
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return in, &toolError{Reason: "the arguments are not valid JSON: " + err.Error(), Guidance: argsGuidance}
		}
		m, ok := v.(map[string]any)
		if !ok {
			return in, &toolError{Reason: "the arguments are not a JSON object", Guidance: argsGuidance}
		}
		args = m
	}
	var inst any = args
	if err := res.ApplyDefaults(&inst); err != nil {
		return in, &toolError{Reason: "invalid arguments: " + err.Error(), Guidance: argsGuidance}
	}
	if err := res.Validate(&inst); err != nil {
		return in, &toolError{Reason: "invalid arguments: " + err.Error(), Guidance: argsGuidance}
	}
	b, err := json.Marshal(inst)
	if err != nil {
		return in, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, &toolError{Reason: "invalid arguments: " + err.Error(), Guidance: argsGuidance}
	}
	return in, nil
}

const argsGuidance = "call again with arguments that match the tool's input schema (tools/list): only the fields it lists, of the types and within the bounds it gives"

// runSafely runs h, turning a panic into an error: one tool's bug must
// not take the server down.
func runSafely[In, Out any](ctx context.Context, s *Server, in In, h handlerFunc[In, Out]) (out Out, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("cortex mcp: panic in a tool: %v\n%s", r, debug.Stack())
			err = &toolError{Reason: fmt.Sprintf("internal error: %v", r),
				Guidance: "this is a bug in cortex, not in the arguments; the server keeps serving, and other tools still answer"}
		}
	}()
	return h(ctx, s, in)
}

// logf writes a line for the operator (standard error for the CLI).
func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		s.opts.Log(s.red.String(fmt.Sprintf(format, args...)))
	}
}

// result sends out as the call's result: redacted, checked against the
// output schema, as structured content and the same JSON as text.
func (s *Server) result(name string, out any, res *jsonschema.Resolved) *sdk.CallToolResult {
	b, err := json.Marshal(out)
	if err != nil {
		return s.errorResult(name, err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return s.errorResult(name, err)
	}
	v = s.redactValue(v)
	setUsedTokens(v)
	if err := res.Validate(&v); err != nil {
		s.logf("cortex mcp: %s: result does not match the output schema: %v", name, err)
		return s.errorResult(name, &toolError{Reason: "internal error: the result did not match the tool's output schema",
			Guidance: "this is a bug in cortex; other tools still answer"})
	}
	b, err = json.Marshal(v)
	if err != nil {
		return s.errorResult(name, err)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
}

// setUsedTokens sets a result's omitted.used_tokens to the estimate of
// the result's JSON as sent, that number included.
func setUsedTokens(v any) {
	m, _ := v.(map[string]any)
	o, ok := m["omitted"].(map[string]any)
	if !ok {
		return
	}
	for range 3 { // the number's own digits may move it
		b, _ := json.Marshal(v)
		n := float64(evidence.EstimateTokens(len(b)))
		if o["used_tokens"] == n {
			return
		}
		o["used_tokens"] = n
	}
}

// redactValue returns v, decoded JSON, with every string redacted.
func (s *Server) redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return s.red.String(x)
	case []any:
		for i := range x {
			x[i] = s.redactValue(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = s.redactValue(e)
		}
	}
	return v
}

// A toolError is a failure as the agent reads it: why, and what to do.
type toolError struct {
	Reason   string
	Guidance string
	Err      error
}

func (e *toolError) Error() string {
	if e.Guidance == "" {
		return e.Reason
	}
	return e.Reason + " (" + e.Guidance + ")"
}

func (e *toolError) Unwrap() error { return e.Err }

// errorResult is err as a tool error: the reason and what to do, as text,
// redacted, then shortened (it quotes at most a short part of what it
// refuses; redacted first, so that no cut leaves part of a secret).
func (s *Server) errorResult(name string, err error) *sdk.CallToolResult {
	te := explain(err)
	msg := name + " failed: " + shorten(s.red.String(te.Reason))
	if te.Guidance != "" {
		msg += "\nWhat to do: " + shorten(s.red.String(te.Guidance))
	}
	r := &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: s.red.String(msg)}}}
	return r
}

// explain turns any error into a reason and, where one is known, what to
// do about it.
func explain(err error) *toolError {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	var ue *evidence.UnavailableError
	if errors.As(err, &ue) {
		return &toolError{Reason: ue.Error(), Guidance: ue.Guidance, Err: err}
	}
	for _, k := range knownErrors {
		if errors.Is(err, k.err) {
			return &toolError{Reason: err.Error(), Guidance: k.guidance, Err: err}
		}
	}
	return &toolError{Reason: strings.TrimPrefix(err.Error(), "codecortex: "), Err: err}
}
