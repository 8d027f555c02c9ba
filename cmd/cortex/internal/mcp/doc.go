// Package mcp serves CodeCortex over the Model Context Protocol: a
// [Server] holds one long-lived engine over a project (and the local
// index, memory store, structural engine and git history beside it) and
// offers its layers as MCP tools, over standard input and output or
// streamable HTTP. It is the only package that imports the MCP SDK.
//
// # Surfaces
//
// The read-only surface ([ReadOnly], the default) offers the tools that
// change nothing: cortex_ask, cortex_navigate (definition, references
// and implementations), cortex_search, cortex_symbols, cortex_impact,
// cortex_structural_search, cortex_deps, cortex_docs, cortex_doctor,
// cortex_history, cortex_recall, cortex_rewrite_preview and
// cortex_rewrite_show. The mutating surface ([Mutating]) adds the tools
// that change state (cortex_remember, cortex_rename, which stores a
// preview, cortex_rewrite_apply, cortex_validate); a
// tool is put there by one row of the tool table and can be offered
// nowhere else. It needs a principal, the operator's name for whoever
// drives it, recorded as the author of what it remembers; over HTTP it is
// served on its own path and only to requests carrying the bearer token.
//
// # Schemas
//
// Every tool's input schema is derived from a Go parameter struct and
// made strict: additionalProperties false on every object, required
// fields listed, enums and bounds from struct tags, and no ["null", T]
// unions. Arguments are validated against it before the tool runs, so an
// unknown field, a wrong type or a value out of bounds is a tool error
// naming the problem. Results are structured (checked against an output
// schema before sending) and sent as JSON text too; their lists are never
// null.
//
// # What the listing costs
//
// Every tool definition sits in the agent's context window on every turn,
// so tools/list stays under 16 KiB on either surface: one tool per kind
// of question (cortex_navigate takes a relation rather than three tools
// taking a position), one sentence of when to use each, and what the
// tools share (trust tiers, positions, budgets, errors) said once, in the
// server's instructions. The output schemas are listed only with
// [Options.OutputSchemas] (cortex mcp --output-schemas), for clients that
// validate results or generate types: they would make the listing four
// times larger.
//
// # Bounds, errors and secrets
//
// Every tool takes a token budget (default 4000, at most 10000) and says
// in its result what it left out. A failure reaches the agent as a tool
// error with the reason and what to do (a missing index names the command
// that builds it); a panic in a tool is such an error, never a crashed
// server. Every string of every result and error is redacted: the
// documentation key's value, the bearer token and anything shaped like a
// credential never leave the server. An error quotes at most a short part
// of what it refuses, the SDK's own errors included.
//
// # What a client sends
//
// Nothing a client sends ends the server or holds unbounded memory. On
// standard input the server frames lines itself: a line that is not one
// JSON-RPC message of at most [MaxMessage] bytes nested at most
// [MaxDepth] deep gets a JSON-RPC error (-32700 or -32600) and the server
// reads on. Over HTTP ([Server.HTTPHandler]) a POST's body is checked the
// same way; each surface keeps at most [HTTPOptions.MaxSessions] live
// sessions, refusing more with 503, and closes sessions idle for
// [HTTPOptions.SessionIdle]; a request from a foreign Origin, or on a
// loopback address with a Host that is not a loopback name, is refused
// with 403.
package mcp
