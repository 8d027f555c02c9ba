#!/usr/bin/env bash
# Each question kind of the scale curve (scripts/scale-curve.sh) asked of
# two cortex binaries, alternating run by run so that both see the same
# load: BEFORE on one copy of the corpus, AFTER on another (each with its
# own index and graph snapshot, which a binary writes for its own build),
# each question asked once first, then RUNS runs of each. Prints a
# markdown table of median wall time, CPU (user + system) and peak
# resident set.
#
#   BEFORE=/tmp/cortex-main AFTER=/tmp/cortex-branch bash scripts/ask-ab.sh gosrc
#   RUNS=5 WORK=/tmp/ab BEFORE=… AFTER=… bash scripts/ask-ab.sh prometheus
#
# The corpus is cobra, prometheus or gosrc, prepared as scripts/corpora.sh
# prepares it (a git copy, files dated two hours back) in WORK (default:
# a temporary directory, removed at the end; a copy already there is
# used); the copy for BEFORE shares its files through hard links (cortex
# writes only under .codecortex/, which each copy has of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: BEFORE=… AFTER=… bash scripts/ask-ab.sh cobra|prometheus|gosrc}
: "${BEFORE:?BEFORE: the binary measured first}" "${AFTER:?AFTER: the binary measured second}"
RUNS=${RUNS:-3}
keep=1
if [ -z "${WORK:-}" ]; then
	WORK=$(mktemp -d)
	keep=0
fi
cleanup() { [ "$keep" = 1 ] || { chmod -R u+w "$WORK"; rm -rf "$WORK"; }; }
trap cleanup EXIT
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$WORK/xdg}
[ -x /usr/bin/time ] || { echo "ask-ab: needs /usr/bin/time (GNU time)" >&2; exit 2; }

. scripts/corpora.sh
prepare "$name"
dir=$WORK/$name
copy=$WORK/$name-before
if [ ! -d "$copy" ]; then
	cp -al "$dir" "$copy"
	rm -rf "$copy/.codecortex" # the names only: the files stay the original's
fi
(cd "$copy" && "$BEFORE" index >/dev/null 2>&1)
(cd "$dir" && "$AFTER" index >/dev/null 2>&1)

echo "| question | before: wall / CPU / peak | after: wall / CPU / peak |"
echo "| --- | --- | --- |"
while IFS='|' read -r _ q; do
	(cd "$copy" && "$BEFORE" ask "$q" >/dev/null 2>&1) || true
	(cd "$dir" && "$AFTER" ask "$q" >/dev/null 2>&1) || true
	for _ in $(seq "$RUNS"); do
		(cd "$copy" && /usr/bin/time -f 'before %e %U %S %M' -o "$WORK/time.out" "$BEFORE" ask "$q" >/dev/null 2>&1) || true
		tail -1 "$WORK/time.out"
		(cd "$dir" && /usr/bin/time -f 'after %e %U %S %M' -o "$WORK/time.out" "$AFTER" ask "$q" >/dev/null 2>&1) || true
		tail -1 "$WORK/time.out"
	done | python3 -c '
import statistics, sys
rows = {}
for l in sys.stdin:
    k, *v = l.split()
    rows.setdefault(k, []).append(list(map(float, v)))
cells = []
for k in ("before", "after"):
    r = rows[k]
    w = statistics.median(x[0] for x in r)
    c = statistics.median(x[1] + x[2] for x in r)
    m = statistics.median(x[3] for x in r) / 1024
    cells.append(f"{w*1000:.0f} ms / {c*1000:.0f} ms / {m:.0f} MB")
print(f"| {sys.argv[1]} | {cells[0]} | {cells[1]} |")' "$q"
done < <(questions "$name")
echo "load average: $(cut -d" " -f1-3 /proc/loadavg)"
