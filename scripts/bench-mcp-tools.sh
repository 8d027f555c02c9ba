#!/usr/bin/env bash
# What `cortex mcp`'s tool definitions cost an agent, on each surface: the
# tools/list result in bytes and in tokens (o200k_base through js-tiktoken,
# the @anthropic-ai/tokenizer package, and cortex's own bytes/3 estimate),
# the server's instructions likewise, and the time the official TypeScript
# SDK's client takes to list the tools (median of RUNS clients, default 5,
# each against a new server; the first call and a second one). The project
# is a one-file repository.
#
#   bash scripts/bench-mcp-tools.sh
#   RUNS=9 bash scripts/bench-mcp-tools.sh
#   CORTEX=/tmp/old/cortex MODES="read-only mutating" bash scripts/bench-mcp-tools.sh   # a build before --output-schemas
#
# It installs the tokenizers, at pinned versions, into their own prefix
# (TOKENIZER_PREFIX, default /usr/local/lib/cortex-tokenizers), and needs
# the TypeScript SDK that .ci/install-mcp.sh installs (MCP_SDK_PREFIX).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
MODES=${MODES:-read-only mutating read-only+output-schemas}
sdk=${MCP_SDK_PREFIX:-/usr/local/lib/mcp-sdk-1.32.2}
tok=${TOKENIZER_PREFIX:-/usr/local/lib/cortex-tokenizers}

if [ ! -f "$sdk/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  echo "bench-mcp-tools: the TypeScript SDK is not in $sdk; run bash .ci/install-mcp.sh" >&2
  exit 1
fi
if [ ! -f "$tok/node_modules/js-tiktoken/package.json" ] || [ ! -f "$tok/node_modules/@anthropic-ai/tokenizer/package.json" ]; then
  mkdir -p "$tok"
  [ -f "$tok/package.json" ] || echo '{"name":"cortex-bench-tokenizers","private":true}' >"$tok/package.json"
  npm install --prefix "$tok" --no-audit --no-fund --save-exact js-tiktoken@1.0.21 @anthropic-ai/tokenizer@0.0.4 >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${CORTEX:-}" ]; then
  go build -o "$tmp/cortex" ./cmd/cortex
  CORTEX=$tmp/cortex
fi
mkdir "$tmp/repo" "$tmp/config"
printf 'package main\n\nfunc main() {}\n' >"$tmp/repo/main.go"
git -C "$tmp/repo" init -q
git -C "$tmp/repo" -c user.name=b -c user.email=b@example.com add -A
git -C "$tmp/repo" -c user.name=b -c user.email=b@example.com commit -qm init

# The server's environment: a configuration directory of its own, so that
# it never makes a seal key in the user's.
env=$(printf '{"PATH":"%s","HOME":"%s","XDG_CONFIG_HOME":"%s"}' "$PATH" "$tmp" "$tmp/config")
echo "| surface | tools | bytes | tokens, o200k_base | tokens, @anthropic-ai/tokenizer | tokens, bytes/3 | instructions: bytes / o200k tokens | TS client, first listTools | second listTools |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for mode in $MODES; do
  args=(mcp -C "$tmp/repo")
  case $mode in
  read-only) ;;
  mutating) args+=(--mutating --principal bench) ;;
  read-only+output-schemas) args+=(--output-schemas) ;;
  *)
    echo "bench-mcp-tools: unknown mode $mode" >&2
    exit 2
    ;;
  esac
  cmd=$(node -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' "$CORTEX" "${args[@]}")
  NODE_PATH="$sdk/node_modules:$tok/node_modules" CORTEX_CMD=$cmd CORTEX_ENV=$env RUNS=$RUNS LABEL=$mode \
    node scripts/mcp-tools-size.cjs
done
