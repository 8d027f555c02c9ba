#!/usr/bin/env bash
# What a flood of MCP sessions costs `cortex mcp --http`: the server's
# resident memory (VmRSS) after N initialize requests, each of which asks
# for a session of its own and none of which is closed, at a few
# checkpoints, with how many were served (200) and refused (503). The
# project is a one-file repository, so the background index build is
# done before the first request. Medians of RUNS runs (default 3), each
# against a new server.
#
#   bash scripts/bench-mcp-sessions.sh
#   N=20000 RUNS=5 bash scripts/bench-mcp-sessions.sh
#   CORTEX=/tmp/old/cortex bash scripts/bench-mcp-sessions.sh   # another build
#   FLAGS="--max-sessions 256" bash scripts/bench-mcp-sessions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20000}
RUNS=${RUNS:-3}
FLAGS=${FLAGS:-}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
if [ -z "${CORTEX:-}" ]; then
  go build -o "$tmp/cortex" ./cmd/cortex
  CORTEX=$tmp/cortex
fi
mkdir "$tmp/repo"
printf 'package main\n\nfunc main() {}\n' >"$tmp/repo/main.go"
git -C "$tmp/repo" init -q
git -C "$tmp/repo" -c user.name=b -c user.email=b@example.com add -A
git -C "$tmp/repo" -c user.name=b -c user.email=b@example.com commit -qm init

body='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}'
rss() { awk '/^VmRSS/ {printf "%.1f", $2/1024}' "/proc/$1/status"; }

# flood URL COUNT: COUNT initialize requests through one curl (one
# connection, kept alive); prints the status of each.
flood() {
  local cfg=$tmp/curl.cfg
  : >"$cfg"
  for ((i = 0; i < $2; i++)); do printf 'url = "%s"\noutput = "/dev/null"\n' "$1" >>"$cfg"; done
  curl -s -X POST -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    --data "$body" -w '%{http_code}\n' -K "$cfg"
}

checkpoints=(0)
for c in 1000 5000; do ((c < N)) && checkpoints+=("$c"); done
checkpoints+=("$N")
declare -A rows
for ((run = 0; run < RUNS; run++)); do
  port=$((20000 + RANDOM % 20000))
  # shellcheck disable=SC2086
  "$CORTEX" mcp -C "$tmp/repo" --http "127.0.0.1:$port" $FLAGS 2>"$tmp/stderr" &
  pid=$!
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.1
  done
  sleep 2 # the background index build of one file
  sent=0 ok=0 refused=0
  for c in "${checkpoints[@]}"; do
    if ((c > sent)); then
      codes=$(flood "http://127.0.0.1:$port/mcp" $((c - sent)))
      ok=$((ok + $(grep -c '^200$' <<<"$codes" || true)))
      refused=$((refused + $(grep -c '^503$' <<<"$codes" || true)))
      sent=$c
    fi
    rows[$c]+="$(rss "$pid") $ok $refused,"
  done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=
done

median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| initialize requests | RSS, MB (median of $RUNS) | served | refused (503) |"
echo "| ---: | ---: | ---: | ---: |"
for c in "${checkpoints[@]}"; do
  IFS=, read -ra runs <<<"${rows[$c]%,}"
  m=$(for r in "${runs[@]}"; do echo "${r%% *}"; done | median)
  last=${runs[-1]}
  read -r _ ok refused <<<"$last"
  printf '| %d | %s | %d | %d |\n' "$c" "$m" "$ok" "$refused"
done
