#!/usr/bin/env bash
# A stand-in for a cortex that linked none of the MCP SDK, SQLite and
# SCIP's bindings: examples/structural-search's main (the same search, the
# same flags), also importing each of cortex's own packages that neither
# is nor imports one of the three (found with go list over ./cmd/cortex);
# what else those need comes with them. It starts as such a cortex would,
# every package it links initialised, and searches as the example does.
#
#   bash scripts/build-without-three.sh OUT
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: build-without-three.sh OUT}
src=$(mktemp -d ./cmd/without-three.XXXXXX) # inside the module, removed on exit
trap 'rm -rf "$src"' EXIT
cp examples/structural-search/*.go "$src/"
go list -deps -f '{{.ImportPath}} {{.Name}} {{join .Deps " "}}' ./cmd/cortex | python3 -c '
import json, sys
three = ("modernc.org/", "github.com/modelcontextprotocol/", "github.com/scip-code/")
print("package main\n\nimport (")
for line in sys.stdin:
    path, name, *deps = line.split()
    if path.startswith("github.com/codecortex/") and name != "main" and not any(d.startswith(three) for d in deps):
        print("\t_ " + json.dumps(path))
print(")")' >"$src/imports.go"
go build -o "$out" "$src"
