#!/usr/bin/env bash
# Installs the structural layer's oracle: ast-grep 0.51.1 from the npm
# registry (@ast-grep/cli ships the binary through platform packages).
# Idempotent: does nothing when the pinned version is already on the PATH.
set -euo pipefail
want="ast-grep 0.51.1"
if command -v ast-grep >/dev/null 2>&1 && [ "$(ast-grep --version 2>/dev/null)" = "$want" ]; then
  echo "install-structural: $want already installed at $(command -v ast-grep)"
  exit 0
fi
# A private prefix: a global install would also claim the name sg, which
# Debian's /usr/bin/sg (shadow-utils) already holds.
prefix=/usr/local/lib/ast-grep-0.51.1
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-audit --no-fund --no-save @ast-grep/cli@0.51.1 >/dev/null
# The platform package holds the real binary; the cli package's copy of
# it comes from a postinstall script that newer npm may hold back.
bin="$prefix/node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep"
case "$(uname -m)" in aarch64|arm64) bin="$prefix/node_modules/@ast-grep/cli-linux-arm64-gnu/ast-grep" ;; esac
[ -x "$bin" ] || bin="$prefix/node_modules/.bin/ast-grep"
ln -sf "$bin" /usr/local/bin/ast-grep
got="$(ast-grep --version)"
if [ "$got" != "$want" ]; then
  echo "install-structural: expected '$want', got '$got'" >&2
  exit 1
fi
echo "install-structural: installed $got at $(command -v ast-grep)"
