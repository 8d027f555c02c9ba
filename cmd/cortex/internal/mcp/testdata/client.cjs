// An independent MCP client for cortex mcp, written against the official
// TypeScript SDK (@modelcontextprotocol/sdk, found through NODE_PATH). The
// Go test TestNodeClient runs it; it prints one line per check and exits 1
// on the first failed one.
//
// Environment:
//   CORTEX_CMD   JSON array: the command that serves cortex mcp over stdio
//   CORTEX_ENV   JSON object: that command's environment
//   MODE         "read-only" or "mutating": the surface the command serves
//   CANARY       a secret set in the server's environment, never to be seen
//   OUTPUT_SCHEMAS  "1" when the command lists output schemas
//                (--output-schemas): the SDK then checks every result
//                against its tool's; otherwise none is listed
'use strict';

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const READ_ONLY = ['cortex_ask', 'cortex_deps', 'cortex_docs', 'cortex_doctor', 'cortex_history',
  'cortex_impact', 'cortex_map', 'cortex_navigate', 'cortex_recall', 'cortex_rewrite_preview', 'cortex_rewrite_show',
  'cortex_search', 'cortex_structural_search', 'cortex_symbols'];
const MUTATING = ['cortex_remember', 'cortex_rename', 'cortex_rewrite_apply', 'cortex_validate'];

// Calls of every read-only tool that it answers on the fixture
// repository; an error expected names what it must say.
const CALLS = [
  ['cortex_ask', { question: 'where is Cart.Add defined?' }],
  ['cortex_navigate', { relation: 'definition', symbol: 'Cart.Add' }],
  ['cortex_navigate', { relation: 'references', symbol: 'Total', include_declaration: false }],
  // An error naming the index to build: still a parsed result.
  ['cortex_navigate', { relation: 'implementations', symbol: 'Store' }, /scip-go/],
  ['cortex_search', { query: 'cart items', limit: 5 }],
  ['cortex_symbols', { path: 'cart' }],
  ['cortex_structural_search', { pattern: '$S.Add($X)', language: 'go' }],
  ['cortex_deps', { direct_only: true }],
  ['cortex_docs', { library: 'left-pad', question: 'padding' }],
  ['cortex_doctor', {}],
  ['cortex_history', { path: 'cart/cart.go', start_line: 1 }],
  ['cortex_impact', { symbol: 'Cart.Add', depth: 2 }],
  ['cortex_map', { path: 'cart' }],
  ['cortex_recall', { query: 'cart' }],
  ['cortex_rewrite_preview', { pattern: '$S.Add($X)', template: '$S.Put($X)', language: 'go' }],
  ['cortex_rewrite_show', { id: 'ffffffffffffffffffffffff' }, /preview/], // no such preview
];

let failed = false;
function check(ok, what, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? ': ' + detail : ''}`);
  if (!ok) failed = true;
}

// strictProblems lists what keeps a JSON schema from being strict, at
// every level.
function strictProblems(s, at, described) {
  const out = [];
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return [`${at}: not a schema object`];
  if (typeof s.type !== 'string') out.push(`${at}: type ${JSON.stringify(s.type)} is not one type`);
  if (s.type === 'null') out.push(`${at}: type null`);
  for (const k of ['anyOf', 'oneOf', 'allOf', 'not', '$ref']) if (k in s) out.push(`${at}: ${k}`);
  if (s.type === 'object') {
    if (s.additionalProperties !== false) out.push(`${at}: additionalProperties is ${JSON.stringify(s.additionalProperties)}`);
    const props = s.properties || {};
    for (const r of s.required || []) if (!(r in props)) out.push(`${at}: requires unlisted ${r}`);
    for (const [k, p] of Object.entries(props)) {
      if (described && !(p && typeof p.description === 'string' && p.description.trim())) out.push(`${at}.${k}: no description`);
      out.push(...strictProblems(p, `${at}.${k}`, described));
    }
  }
  if (s.type === 'array') {
    if (!('items' in s)) out.push(`${at}: array without items`);
    else out.push(...strictProblems(s.items, `${at}[]`, false));
  }
  return out;
}

function textOf(res) {
  return (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

function sameJSON(a, b) {
  const norm = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) : x));
  return norm(a) === norm(b);
}

async function main() {
  const [command, ...args] = JSON.parse(process.env.CORTEX_CMD);
  const env = JSON.parse(process.env.CORTEX_ENV || '{}');
  const mode = process.env.MODE;
  const canary = process.env.CANARY || '';
  const transport = new StdioClientTransport({ command, args, env, stderr: 'inherit' });
  const client = new Client({ name: 'cortex-node-test', version: '1.0.0' });
  await client.connect(transport);
  const seen = [];

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const want = (mode === 'mutating' ? READ_ONLY.concat(MUTATING) : READ_ONLY).slice().sort();
  check(JSON.stringify(names) === JSON.stringify(want), `tools/list on the ${mode} surface`, names.join(', '));
  if (mode !== 'mutating') {
    check(MUTATING.every((m) => !names.includes(m)), 'no mutating tool without --mutating');
  }
  if (process.env.OUTPUT_SCHEMAS !== '1') {
    const size = Buffer.byteLength(JSON.stringify({ tools }));
    check(size <= 16384, `tools/list is at most 16 KiB (${size} bytes)`);
  }
  for (const t of tools) {
    const p = strictProblems(t.inputSchema, t.name, true);
    check(p.length === 0, `${t.name}: input schema strict at every level`, p.join('; '));
    if (process.env.OUTPUT_SCHEMAS === '1') {
      const q = t.outputSchema ? strictProblems(t.outputSchema, t.name + ' output', false) : ['no output schema'];
      check(q.length === 0, `${t.name}: output schema listed, strict`, q.join('; '));
    } else {
      check(!t.outputSchema, `${t.name}: no output schema listed without --output-schemas`);
    }
    check(typeof t.description === 'string' && t.description.length > 40, `${t.name}: a description an agent can act on`);
  }

  if (mode === 'mutating') {
    const res = await client.callTool({ name: 'cortex_remember', arguments: { type: 'convention', text: 'Prices are integers of cents.', paths: ['cart'] } });
    seen.push(textOf(res), JSON.stringify(res.structuredContent || {}));
    check(!res.isError && res.structuredContent && res.structuredContent.memory.author === 'node-client',
      'cortex_remember records the principal as the author', textOf(res));
  } else {
    check(READ_ONLY.every((n) => CALLS.some(([m]) => m === n)), 'every read-only tool is called');
    for (const [name, args, wantError] of CALLS) {
      let res;
      try {
        // The SDK validates structuredContent against the output schema.
        res = await client.callTool({ name, arguments: args });
      } catch (e) {
        check(false, `${name}: answers`, String(e));
        continue;
      }
      seen.push(textOf(res), JSON.stringify(res.structuredContent || {}));
      if (res.isError) {
        check(wantError !== undefined && wantError.test(textOf(res)), `${name}: a tool error with guidance`, textOf(res));
        continue;
      }
      let parsed;
      try {
        parsed = JSON.parse(textOf(res));
      } catch (e) {
        check(false, `${name}: text content parses as JSON`, String(e));
        continue;
      }
      check(sameJSON(parsed, res.structuredContent), `${name}: result parses, text and structured content agree`);
      check(parsed.omitted && typeof parsed.omitted.used_tokens === 'number' || name === 'cortex_doctor',
        `${name}: says what it omitted`);
    }
    const unknown = await client.callTool({ name: 'cortex_search', arguments: { query: 'cart', colour: 'red' } });
    check(unknown.isError === true && /colour/.test(textOf(unknown)), 'an unknown field is rejected', textOf(unknown));
    const wrong = await client.callTool({ name: 'cortex_search', arguments: { query: 42 } });
    check(wrong.isError === true && /type/.test(textOf(wrong)), 'a wrong type is rejected', textOf(wrong));
    const bounds = await client.callTool({ name: 'cortex_symbols', arguments: { budget: 1000000 } });
    check(bounds.isError === true && /maximum/.test(textOf(bounds)), 'a value out of bounds is rejected', textOf(bounds));
    const gone = await client.callTool({ name: 'cortex_remember', arguments: { type: 'gotcha', text: 'x' } }).catch((e) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));
    check(gone.isError === true, 'cortex_remember cannot be called on the read-only surface', textOf(gone));
  }
  if (canary) {
    check(!seen.join('\n').includes(canary), 'the canary key appears in no result');
  }
  await client.close();
}

main().then(
  () => process.exit(failed ? 1 : 0),
  (e) => {
    console.log('FAIL ' + (e && e.stack ? e.stack : String(e)));
    process.exit(1);
  },
);
