#!/usr/bin/env bash
# Installs the independent MCP client the MCP server's tests drive cortex
# with: the official TypeScript SDK, @modelcontextprotocol/sdk, at a pinned
# exact version, from the npm registry, into its own prefix (default
# /usr/local/lib/mcp-sdk-<version>; MCP_SDK_PREFIX overrides it, and the
# tests read the same variable). Idempotent: does nothing when that version
# is already there. Needs Node 20 or later and npm.
set -euo pipefail
version=1.32.2
prefix=${MCP_SDK_PREFIX:-/usr/local/lib/mcp-sdk-$version}
pkg="$prefix/node_modules/@modelcontextprotocol/sdk/package.json"

have() {
  [ -f "$pkg" ] && node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' "$pkg" "$version"
}

if ! command -v node >/dev/null 2>&1; then
  echo "install-mcp: node is not installed (Node 20 or later is needed)" >&2
  exit 1
fi
if have; then
  echo "install-mcp: @modelcontextprotocol/sdk $version already installed in $prefix"
  exit 0
fi
mkdir -p "$prefix"
# A package.json of its own keeps npm from walking up to another project.
[ -f "$prefix/package.json" ] || echo '{"name":"cortex-mcp-test-client","private":true}' >"$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --save-exact "@modelcontextprotocol/sdk@$version" >/dev/null
if ! have; then
  echo "install-mcp: @modelcontextprotocol/sdk $version did not install in $prefix" >&2
  exit 1
fi
echo "install-mcp: installed @modelcontextprotocol/sdk $version in $prefix"
