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
ln -sf "$prefix/node_modules/.bin/ast-grep" /usr/local/bin/ast-grep
got="$(ast-grep --version)"
if [ "$got" != "$want" ]; then
  echo "install-structural: expected '$want', got '$got'" >&2
  exit 1
fi
echo "install-structural: installed $got at $(command -v ast-grep)"
