// What `cortex mcp`'s tools/list costs an agent: its size in bytes of JSON
// and in tokens, counted by real tokenizers, and the time the official
// TypeScript SDK's client takes to list the tools. scripts/bench-mcp-tools.sh
// runs it; NODE_PATH must reach @modelcontextprotocol/sdk, js-tiktoken and
// @anthropic-ai/tokenizer.
//
// Environment:
//   CORTEX_CMD  JSON array: the command that serves cortex mcp over stdio
//   CORTEX_ENV  JSON object: that command's environment
//   RUNS        how many clients to start, each on a new server (default 5)
//   LABEL       the first cell of the row printed
//
// Prints one Markdown table row: label, tools, bytes of the tools/list
// result, tokens (o200k_base; the Claude tokenizer package, which predates
// the current models; bytes/3, cortex's own estimate), the same for the
// server's instructions, and the medians over RUNS of the first and of a
// second listTools call, in milliseconds.
'use strict';

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { getEncoding } = require('js-tiktoken');
const { countTokens } = require('@anthropic-ai/tokenizer');

const o200k = getEncoding('o200k_base');

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function counts(text) {
  return {
    bytes: Buffer.byteLength(text),
    o200k: o200k.encode(text).length,
    claude: countTokens(text),
    estimate: Math.ceil(Buffer.byteLength(text) / 3),
  };
}

async function once(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'cortex-bench', version: '1.0.0' });
  await client.connect(transport);
  // The result as it came over the wire, before the SDK's own parsing
  // (written again compactly: JSON.stringify does not escape <, > and &
  // as Go does, so a few bytes may differ).
  let raw = null;
  const onmessage = transport.onmessage;
  transport.onmessage = (m) => {
    if (raw === null && m && m.result && Array.isArray(m.result.tools)) raw = JSON.stringify(m.result);
    onmessage(m);
  };
  let t0 = performance.now();
  const { tools } = await client.listTools();
  const first = performance.now() - t0;
  t0 = performance.now();
  await client.listTools();
  const second = performance.now() - t0;
  const instructions = client.getInstructions() || '';
  await client.close();
  return { raw, tools: tools.length, first, second, instructions };
}

async function main() {
  const [command, ...args] = JSON.parse(process.env.CORTEX_CMD);
  const env = JSON.parse(process.env.CORTEX_ENV || '{}');
  const runs = Number(process.env.RUNS || 5);
  const firsts = [];
  const seconds = [];
  let last;
  for (let i = 0; i < runs; i++) {
    last = await once(command, args, env);
    firsts.push(last.first);
    seconds.push(last.second);
  }
  const l = counts(last.raw);
  const ins = counts(last.instructions);
  const n = (x) => x.toLocaleString('en-US');
  console.log(`| ${process.env.LABEL || args.join(' ')} | ${last.tools} | ${n(l.bytes)} | ${n(l.o200k)} | ${n(l.claude)} | ` +
    `${n(l.estimate)} | ${n(ins.bytes)} / ${n(ins.o200k)} | ${median(firsts).toFixed(0)} ms | ${median(seconds).toFixed(0)} ms |`);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
