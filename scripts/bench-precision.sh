#!/usr/bin/env bash
# Side by side: `cortex def` (a fresh process that loads the SCIP index,
# checks staleness over every document and answers) against a cold
# `gopls definition` (a fresh process) on the same position, one run each
# after one untimed warm-up of each (page cache, go build cache), and the
# ratio.
#
# usage: scripts/bench-precision.sh [PROJECT_DIR [FILE:LINE:COL [INDEX]]]
#
# Defaults: github.com/prometheus/prometheus v0.308.0 copied from the module
# cache to /work/bench/prometheus and indexed there with scip-go v0.1.26:
#
#   go mod download -json github.com/prometheus/prometheus@v0.308.0
#   cp -r "$(go env GOMODCACHE)/github.com/prometheus/prometheus@v0.308.0" /work/bench/prometheus
#   chmod -R u+w /work/bench/prometheus
#   (cd /work/bench/prometheus && go mod download && scip-go --output /work/bench/prometheus.scip)
#
# The position must be on an ASCII line (gopls counts bytes, cortex code
# points). The index is copied into the project as index.scip, where
# cortex discovers it.
set -euo pipefail

proj=${1:-/work/bench/prometheus}
pos=${2:-cmd/prometheus/main.go:878:26}
index=${3:-/work/bench/prometheus.scip}
here=$(cd "$(dirname "$0")/.." && pwd)

for tool in gopls go; do
	command -v "$tool" >/dev/null || { echo "bench-precision: $tool not installed (bash .ci/install-precision.sh)" >&2; exit 1; }
done
[ -f "$index" ] || { echo "bench-precision: no index at $index; see the comment at the top of $0" >&2; exit 1; }

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$here" && go build -o "$bin/cortex" ./cmd/cortex)
if ! cmp -s "$index" "$proj/index.scip"; then
	cp "$index" "$proj/index.scip"
fi

now() { date +%s%N; }

# Warm-up, untimed.
"$bin/cortex" -C "$proj" def "$pos" >/dev/null
(cd "$proj" && gopls definition "$pos" >/dev/null)

t0=$(now)
cortex_out=$("$bin/cortex" -C "$proj" def "$pos")
t1=$(now)
gopls_out=$(cd "$proj" && gopls definition "$pos")
t2=$(now)

cortex_ms=$(( (t1 - t0) / 1000000 ))
gopls_ms=$(( (t2 - t1) / 1000000 ))
echo "position:  $pos in $proj"
echo "cortex:    ${cortex_ms} ms  -> $(printf '%s' "$cortex_out" | head -1 | cut -f1,2)"
echo "gopls:     ${gopls_ms} ms  -> $(printf '%s' "$gopls_out" | head -1 | cut -d' ' -f1)"
awk -v c="$cortex_ms" -v g="$gopls_ms" 'BEGIN { if (c < 1) c = 1; printf "ratio:     gopls/cortex = %.1fx\n", g / c }'
