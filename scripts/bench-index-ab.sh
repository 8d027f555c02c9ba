#!/usr/bin/env bash
# Whole-process cost of the local index, before and after a change: the
# cortex of revision BASE (default HEAD~1) against the work tree's, on two
# git copies of prometheus v0.308.0 from the Go module cache (one each, so
# that neither sees the other's databases). Alternating runs, medians of
# wall and CPU time (user + system) of
#
#   cortex index                      from nothing (COLD runs, default 5)
#   cortex index                      nothing changed: quick_check + walk
#   cortex search --text querier      a warm query, freshness check included
#   cortex index --status
#
# (RUNS runs each, default 21). Both binaries get one seal key, in a
# temporary XDG_CONFIG_HOME.
#
#   bash scripts/bench-index-ab.sh [BASE]
#   RUNS=41 COLD=3 bash scripts/bench-index-ab.sh 91c6e53
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
RUNS=${RUNS:-21}
COLD=${COLD:-5}
src=$(go mod download -json github.com/prometheus/prometheus@v0.308.0 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "bench-index-ab: prometheus not in the module cache" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
mkdir "$tmp/base-src"
git archive "$base" | tar -x -C "$tmp/base-src"
(cd "$tmp/base-src" && go build -o "$tmp/cortex-base" ./cmd/cortex)
go build -o "$tmp/cortex-new" ./cmd/cortex
for side in base new; do
  cp -r "$src" "$tmp/$side"
  chmod -R u+w "$tmp/$side"
  git -C "$tmp/$side" init -q -b main
  git -C "$tmp/$side" add -A
  git -C "$tmp/$side" -c user.name=bench -c user.email=bench@example.com commit -qm prometheus
done
export XDG_CONFIG_HOME="$tmp/xdg"
python3 - "$tmp" "$RUNS" "$COLD" "$base" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time
tmp, runs, cold, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def run(side, args):
    t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([f"{tmp}/cortex-{side}", "-C", f"{tmp}/{side}"] + args,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    return t1 - t0, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
rows = {}
def record(name, side, args, n):
    for _ in range(n):
        rows.setdefault((name, side), []).append(run(side, args))
for _ in range(cold):
    for side in ("base", "new"):
        shutil.rmtree(f"{tmp}/{side}/.codecortex", ignore_errors=True)
        record("cortex index, cold", side, ["index"], 1)
for _ in range(runs):
    for name, args in (("cortex index, nothing changed", ["index"]),
                       ("cortex search --text querier", ["search", "--text", "querier"]),
                       ("cortex index --status", ["index", "--status"])):
        for side in ("base", "new"):
            record(name, side, args, 1)
print(f"base {base}; medians; load average {os.getloadavg()[0]:.1f} at the end")
print(f"{'command':32} {'base wall':>10} {'new wall':>10} {'base cpu':>10} {'new cpu':>10}")
for name in dict.fromkeys(k[0] for k in rows):
    b, n = rows[(name, "base")], rows[(name, "new")]
    ms = lambda xs, i: statistics.median(x[i] for x in xs) * 1000
    print(f"{name:32} {ms(b,0):8.1f}ms {ms(n,0):8.1f}ms {ms(b,1):8.1f}ms {ms(n,1):8.1f}ms")
PY
