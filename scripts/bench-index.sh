#!/usr/bin/env bash
# Side by side: the local index (cortex index, cortex search TEXT) against
# ripgrep on prometheus v0.308.0 from the Go module cache, copied to a
# temporary directory (the index lives in its .codecortex/). Prints the
# cold build's wall time and peak memory, then, for a few queries, the
# median whole-process wall time of a warm `cortex search` (freshness
# check included) and of `rg -n` over the same tree, and their ratio, from
# alternating runs.
#
#   bash scripts/bench-index.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
command -v rg >/dev/null || { echo "bench-index: needs ripgrep (apt-get install ripgrep)" >&2; exit 2; }
src=$(go mod download -json github.com/prometheus/prometheus@v0.308.0 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "bench-index: prometheus not in the module cache" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/cortex" ./cmd/cortex
cp -r "$src" "$tmp/prometheus"
chmod -R u+w "$tmp/prometheus"
p="$tmp/prometheus"
find "$p" -type f -exec cat {} + >/dev/null # page cache warm for both tools

/usr/bin/time -f '%e %M' -o "$tmp/cold" "$tmp/cortex" -C "$p" index >/dev/null 2>&1
read -r wall kb <"$tmp/cold"
files=$("$tmp/cortex" -C "$p" index --status --json | sed -n 's/^  "files": \([0-9]*\),$/\1/p')
symbols=$("$tmp/cortex" -C "$p" index --status --json | sed -n 's/^  "symbols": \([0-9]*\),$/\1/p')
printf 'cold index: %s files, %s symbols, %.2f s wall, %d MB peak\n' "$files" "$symbols" "$wall" $((kb / 1024))

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 )); }

printf '%-28s %10s %10s %7s\n' query cortex_ms rg_ms ratio
for q in querier appendable "WriteHead" "compactBlocks"; do
  : >"$tmp/cx"; : >"$tmp/rg"
  for _ in $(seq "$runs"); do
    ms "$tmp/cortex" -C "$p" search --text "$q" >>"$tmp/cx"
    ms rg -n "$q" "$p" >>"$tmp/rg"
  done
  cx=$(median <"$tmp/cx"); rgm=$(median <"$tmp/rg")
  printf '%-28s %10.1f %10.1f %7.2f\n' "$q" "$(echo "$cx/1000" | bc -l)" "$(echo "$rgm/1000" | bc -l)" "$(echo "$cx/$rgm" | bc -l)"
done
