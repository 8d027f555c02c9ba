// The official TypeScript SDK's streamable HTTP client against cortex mcp
// --http's limits. The Go test TestNodeHTTPClient runs it; it prints one
// line per check and exits 1 if any failed.
//
// Environment:
//   URL   the read-only surface's endpoint, served with a cap of two sessions
'use strict';

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

let failed = false;
function check(ok, what, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? ': ' + detail : ''}`);
  if (!ok) failed = true;
}

async function open() {
  const c = new Client({ name: 'node-http', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(process.env.URL)));
  return c;
}

async function main() {
  // Two sessions under the cap: the client's requests (no Origin, a
  // loopback Host) pass the guard and the checks of their bodies.
  const sessions = [];
  for (let i = 0; i < 2; i++) {
    try {
      const c = await open();
      const tools = await c.listTools();
      check(tools.tools.some((t) => t.name === 'cortex_ask'), `session ${i} lists the tools`);
      const r = await c.callTool({ name: 'cortex_symbols', arguments: { path: 'cart' } });
      check(!r.isError, `session ${i} calls a tool`, JSON.stringify(r).slice(0, 300));
      sessions.push(c);
    } catch (e) {
      check(false, `session ${i} under the cap`, String(e && e.message));
    }
  }
  // The third is refused, with the server's message.
  try {
    await open();
    check(false, 'a third session past the cap is refused');
  } catch (e) {
    const msg = String(e && e.message);
    check(msg.includes('--max-sessions 2'), 'a third session past the cap is refused with the server\'s message', msg.slice(0, 300));
  }
  // Closing one makes room.
  await sessions[0].transport.terminateSession();
  await sessions[0].close();
  try {
    const c = await open();
    check(true, 'a session opens once another is closed');
    await c.close();
  } catch (e) {
    check(false, 'a session opens once another is closed', String(e && e.message));
  }
  await sessions[1].close();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
