#!/usr/bin/env bash
# Installs the outside tools the precision layer's tests run, at pinned exact
# versions, idempotently: scip-go, scip-typescript, scip-python, gopls, and
# the language servers pyright and typescript-language-server (with the
# typescript it serves).
# Sources: the Go module proxy and the npm registry only; nothing else is
# downloaded. Binaries go to $PREFIX (default /usr/local/bin).
set -euo pipefail

PREFIX=${PREFIX:-/usr/local/bin}
SCIP_GO_VERSION=v0.1.26
GOPLS_VERSION=v0.23.0
SCIP_TS_VERSION=0.4.0
SCIP_PY_VERSION=0.6.6
PYRIGHT_VERSION=1.1.414
TS_LS_VERSION=6.0.2
TYPESCRIPT_VERSION=5.9.3
NPM_PREFIX=${NPM_PREFIX:-/usr/local}

mkdir -p "$PREFIX"
start=$(date +%s)

# build_go_module MODULE VERSION PKGDIR BINARY: the proxy refuses the version
# list for these modules, so `go install m@v` fails; download the exact
# version and build from a writable copy of the module directory.
build_go_module() {
	local mod=$1 ver=$2 pkg=$3 bin=$4
	local dir tmp
	dir=$(go mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$dir" ]; then
		echo "install-precision: go mod download $mod@$ver gave no directory" >&2
		return 1
	fi
	tmp=$(mktemp -d)
	cp -r "$dir/." "$tmp/"
	chmod -R u+w "$tmp"
	(cd "$tmp" && go build -trimpath -o "$PREFIX/$bin" "$pkg")
	rm -rf "$tmp"
}

# scip-go
if [ -x "$PREFIX/scip-go" ] && "$PREFIX/scip-go" --version 2>&1 | grep -q "${SCIP_GO_VERSION#v}"; then
	echo "install-precision: scip-go $SCIP_GO_VERSION already installed"
else
	echo "install-precision: building scip-go $SCIP_GO_VERSION"
	build_go_module github.com/sourcegraph/scip-go "$SCIP_GO_VERSION" ./cmd/scip-go scip-go
fi

# gopls lives in the golang.org/x/tools/gopls module.
if [ -x "$PREFIX/gopls" ] && "$PREFIX/gopls" version 2>/dev/null | grep -q "$GOPLS_VERSION"; then
	echo "install-precision: gopls $GOPLS_VERSION already installed"
else
	echo "install-precision: building gopls $GOPLS_VERSION"
	if ! GOBIN="$PREFIX" go install "golang.org/x/tools/gopls@$GOPLS_VERSION"; then
		build_go_module golang.org/x/tools/gopls "$GOPLS_VERSION" . gopls
	fi
fi

# npm_tool PACKAGE VERSION BINARY: the installed version is read from the
# package's own package.json (npm ls's text matches typescript inside
# scip-typescript).
npm_tool() {
	local pkg=$1 ver=$2 bin=$3
	local have="" manifest="$NPM_PREFIX/lib/node_modules/$pkg/package.json"
	if [ -f "$manifest" ]; then
		have=$(node -e 'process.stdout.write(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true)
	fi
	if [ "$have" = "$ver" ] && command -v "$bin" >/dev/null; then
		echo "install-precision: $pkg $ver already installed"
		return 0
	fi
	echo "install-precision: installing $pkg@$ver"
	npm install -g --prefix "$NPM_PREFIX" --no-audit --no-fund "$pkg@$ver"
}
npm_tool @sourcegraph/scip-typescript "$SCIP_TS_VERSION" scip-typescript
npm_tool @sourcegraph/scip-python "$SCIP_PY_VERSION" scip-python
npm_tool pyright "$PYRIGHT_VERSION" pyright-langserver
# typescript-language-server finds the typescript installed beside it; its
# package declares node >= 22, and it runs on the node 20 CI has (the tests
# compare its answers with scip-typescript's).
npm_tool typescript "$TYPESCRIPT_VERSION" tsc
npm_tool typescript-language-server "$TS_LS_VERSION" typescript-language-server

echo "install-precision: tools in $PREFIX and $NPM_PREFIX/bin ($(( $(date +%s) - start ))s)"
