#!/usr/bin/env bash
# The scale curve of issue 37: for cobra, prometheus and the Go standard
# library's source, the cold index (`cortex index` with no .codecortex/)
# and each question kind asked after it (definition, callers, usages,
# implementations, tests, impact), whole process: median wall time, median
# CPU (user + system) and median peak resident set over RUNS runs
# (/usr/bin/time). Prints a markdown table.
#
#   bash scripts/scale-curve.sh
#   RUNS=9 CORTEX=/tmp/cortex CORPORA="prometheus gosrc" bash scripts/scale-curve.sh
#
# CORTEX: the binary to measure (default: built from this tree).
# CORPORA: which of cobra, prometheus, gosrc (default: all three, in
#   that order). cobra v1.8.0 and prometheus v0.54.1 come from the Go module
#   cache (`go mod download`), gosrc is a copy of $(go env GOROOT)/src;
#   each is copied to WORK (default: a temporary directory, removed at the
#   end), made a git repository, and its files dated two hours back, as a
#   checkout is (a file dated now is read again by the index's freshness
#   check).
# COLD=0 keeps an index already in WORK instead of timing a cold one.
# XDG_CONFIG_HOME: the seal key's home (default: one under WORK).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
CORPORA=${CORPORA:-cobra prometheus gosrc}
COLD=${COLD:-1}
keep=1
if [ -z "${WORK:-}" ]; then
	WORK=$(mktemp -d)
	keep=0
fi
cleanup() { [ "$keep" = 1 ] || { chmod -R u+w "$WORK"; rm -rf "$WORK"; }; }
trap cleanup EXIT
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$WORK/xdg}
if [ -z "${CORTEX:-}" ]; then
	CORTEX=$WORK/cortex
	go build -o "$CORTEX" ./cmd/cortex
fi
[ -x /usr/bin/time ] || { echo "scale-curve: needs /usr/bin/time (GNU time)" >&2; exit 2; }

. scripts/corpora.sh

# measure DIR RUNS CMD...: prints "wall cpu peak" medians (s, s, MB).
measure() {
	local dir=$1 runs=$2
	shift 2
	for _ in $(seq "$runs"); do
		(cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$WORK/time.out" "$@" >/dev/null 2>&1) || true
		tail -1 "$WORK/time.out"
	done | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
w = statistics.median(r[0] for r in rows)
c = statistics.median(r[1] + r[2] for r in rows)
m = statistics.median(r[3] for r in rows) / 1024
print(f"{w*1000:.0f} ms | {c*1000:.0f} ms | {m:.0f} MB")'
}

echo "| corpus | files | what | wall p50 | CPU p50 | peak p50 |"
echo "| --- | --- | --- | --- | --- | --- |"
for name in $CORPORA; do
	prepare "$name"
	dir=$WORK/$name
	files=$(cd "$dir" && git ls-files | wc -l)
	if [ "$COLD" = 1 ]; then
		rm -rf "$dir/.codecortex"
		echo "| $name | $files | cold index (1 run) | $(measure "$dir" 1 "$CORTEX" index) |"
	else
		(cd "$dir" && "$CORTEX" index >/dev/null 2>&1)
	fi
	while IFS='|' read -r kind q; do
		echo "| $name | $files | $kind: $q | $(measure "$dir" "$RUNS" "$CORTEX" ask "$q") |"
	done < <(questions "$name")
done
