#!/usr/bin/env bash
# Side by side: cortex's built-in structural engine against ast-grep 0.51.1
# on prometheus v0.308.0 from the Go module cache. Prints, for a selective,
# a common and a never-matching pattern, both match counts and the
# wall-time (and CPU-time) ratio cortex/ast-grep from one run each, then a
# repeated query on the unchanged tree (in-process parse cache, from the
# Go benchmark) against one ast-grep run.
#
#   bash scripts/bench-structural.sh
set -euo pipefail
cd "$(dirname "$0")/.."

want="ast-grep 0.51.1"
if [ "$(ast-grep --version 2>/dev/null)" != "$want" ]; then
  echo "bench-structural: needs $want on PATH (bash .ci/install-structural.sh)" >&2
  exit 2
fi
dir=$(go mod download -json github.com/prometheus/prometheus@v0.308.0 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "bench-structural: prometheus not in the module cache" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/cortex" ./cmd/cortex

# Warm the page cache so neither tool pays for the first read.
find "$dir" -name '*.go' -exec cat {} + >/dev/null

ms() { date +%s%N; }
cpu() { # prints user+sys seconds of the command's run: cpu OUTFILE cmd...
  local out=$1; shift
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$out" 2>/dev/null || true
  tail -n 1 "$tmp/time" | awk '{printf "%.2f", $1+$2}'
}

printf '%-10s %-36s %8s %8s %9s %9s %7s %8s %8s %7s\n' kind pattern sg cortex sg_ms cortex_ms ratio sg_cpu cx_cpu ratio
declare -A sgms
while IFS='|' read -r kind pattern; do
  t0=$(ms); sgc=$(cpu "$tmp/sg.out" ast-grep run -p "$pattern" -l go --json=stream "$dir"); t1=$(ms)
  cxc=$(cpu "$tmp/cx.out" "$tmp/cortex" -C "$dir" search "$pattern" --lang go --json=stream); t2=$(ms)
  sgn=$(wc -l <"$tmp/sg.out"); cxn=$(wc -l <"$tmp/cx.out")
  a=$(( (t1 - t0) / 1000000 )); b=$(( (t2 - t1) / 1000000 ))
  sgms[$kind]=$a
  printf '%-10s %-36s %8d %8d %9d %9d %7.2f %8s %8s %7.2f\n' "$kind" "$pattern" "$sgn" "$cxn" "$a" "$b" \
    "$(echo "$b / $a" | bc -l)" "$sgc" "$cxc" "$(echo "$cxc / ($sgc + 0.0001)" | bc -l)"
done <<'PATTERNS'
selective|errors.Is($E, context.Canceled)
common|if err != nil { return $$$ }
never|zzNeverMatches($A, $B)
PATTERNS

# Repeated query on the unchanged tree: the engine keeps parsed files
# keyed by path, size and modification time.
for kind in selective common; do
  ns=$(CODECORTEX_BENCH_DIR="$dir" go test -run '^$' -bench "BenchmarkSearch/$kind/cached\$" -benchtime=5x ./structural/ \
    | awk '/ns\/op/ {print $3}')
  cms=$(echo "$ns / 1000000" | bc -l)
  printf 'repeated %-9s cortex (cached, in process) %8.1f ms  ast-grep %6d ms  speed-up %.1fx\n' \
    "$kind" "$cms" "${sgms[$kind]}" "$(echo "${sgms[$kind]} / $cms" | bc -l)"
done
