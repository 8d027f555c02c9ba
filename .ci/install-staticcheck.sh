#!/usr/bin/env bash
# Installs the linter CI runs: staticcheck v0.8.2 (2026.2.2) from the Go
# module proxy. Idempotent: does nothing when that version is installed.
set -euo pipefail
want="0.8.2"
bin="$(go env GOPATH)/bin/staticcheck"
if [ -x "$bin" ] && "$bin" -version 2>/dev/null | grep -q "($want)"; then
  echo "install-staticcheck: staticcheck $want already installed at $bin"
  exit 0
fi
go install "honnef.co/go/tools/cmd/staticcheck@v$want"
echo "install-staticcheck: installed $("$bin" -version) at $bin"
